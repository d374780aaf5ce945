"""The Discord transport: interactions become table Commands, outbox rows become Discord calls.

Thin on purpose: no rules and no SQL here. Its rooms:

- client.py: the Keywood client (startup, shard leases, the ticker and courier loops, handling one interaction)
  and `serve`, which `keywood run` calls;
- commands.py: the slash commands, each a table verb; /new's options come from the game registry;
- views.py: the persistent buttons (an action in the channel, an answer to a decision, the opener of a decision
  for closed DMs);
- sender.py: the outbox's pending rows as Discord calls, in order per destination;
- sync.py: the slash commands sent to Discord only when they changed;
- texts.py: the transport's own words, and texts cut to Discord's limits;
- config.py: the bot's settings from config.toml.
"""

from bot.discord_app.client import Keywood, close_on_sigterm, serve
from bot.discord_app.config import BotConfig, TokenRefused
from bot.discord_app.texts import HOW_TO_OPEN_DMS, MAX_CONTENT, clip, pieces, with_tail
from bot.discord_app.views import action_view, prompt_view

__all__ = ["HOW_TO_OPEN_DMS", "MAX_CONTENT", "BotConfig", "Keywood", "TokenRefused", "action_view", "clip",
           "close_on_sigterm", "pieces", "prompt_view", "serve", "with_tail"]
