"""Buttons: persistent components whose custom_id says what they answer, so they keep working after a restart.

A click goes to the table through the client (bot/discord_app/client.py), which these buttons reach as
interaction.client; they hold no rules and no state of their own.
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.discord_app.texts import clip, decision_text

if TYPE_CHECKING:
    from bot.discord_app.client import Keywood

MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_BUTTONS = 20
ACTION_ID = r"kw:(?P<game>\d+):(?P<seat>\d+):(?P<version>\d+):(?P<action>.+)"
INVITE_ID = r"kwi:(?P<prompt>\d+):(?P<action>.+)"
OPEN_ID = r"kwo:(?P<prompt>\d+):(?P<user>\d+)"


def keywood(interaction: discord.Interaction[Any]) -> Keywood:
    """The bot that received a click (Keywood's buttons are registered on Keywood's client only)."""
    return cast("Keywood", interaction.client)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_ID):
    """A button for one legal action, tied to the game, the seat it was offered to, and the state version."""

    def __init__(self, game: int, seat: int, version: int, action: str) -> None:
        super().__init__(discord.ui.Button(label=action[:MAX_LABEL], style=discord.ButtonStyle.primary,
                                           custom_id=action_id(game, seat, version, action)))
        self.game, self.seat, self.version, self.action = game, seat, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionButton:
        """Rebuild the button from its custom_id (works after a restart)."""
        return cls(int(match["game"]), int(match["seat"]), int(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Send the action to the table as a play by the clicking user."""
        await keywood(interaction).handle(interaction, "play", self.action, game_id=self.game, seat=self.seat,
                                          version=self.version)


def action_id(game: int, seat: int, version: int, action: str) -> str:
    """The custom_id of an action button (it must fit Discord's 100 characters whole: it carries the action)."""
    return f"kw:{game}:{seat}:{version}:{action}"


class InviteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=INVITE_ID):
    """A button answering one open decision (sent by DM, or shown privately in the channel).

    It is tied to the decision, not to the table's version: it works until that decision is made.
    """

    def __init__(self, prompt: int, action: str) -> None:
        style = discord.ButtonStyle.secondary if action in ("decline", "done", "skip") else discord.ButtonStyle.success
        super().__init__(discord.ui.Button(label=action[:MAX_LABEL], style=style, custom_id=f"kwi:{prompt}:{action}"))
        self.prompt, self.action = prompt, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> InviteButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["prompt"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Answer the decision."""
        await keywood(interaction).handle(interaction, "answer", self.action, prompt_id=self.prompt)


class OpenInviteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=OPEN_ID):
    """For a player whose DMs are closed: opens their decision privately in the channel."""

    def __init__(self, prompt: int, user: int) -> None:
        super().__init__(discord.ui.Button(label="Open my decision", style=discord.ButtonStyle.primary,
                                           custom_id=f"kwo:{prompt}:{user}"))
        self.prompt, self.user = prompt, user

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> OpenInviteButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["prompt"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the decision and its buttons to the seat's current holder only (read from the table)."""
        table = keywood(interaction).table
        await interaction.response.defer(ephemeral=True, thinking=True)
        note = await asyncio.to_thread(table.prompt_choices, self.prompt, str(interaction.user.id))
        if note is None:
            text = ("This decision is for another player." if interaction.user.id != self.user
                    else "This decision has already been made or has closed.")
            await interaction.followup.send(text, ephemeral=True)
            return
        deadline = note.deadline if note.default is not None else None
        await interaction.followup.send(clip(decision_text(note.text, deadline)), ephemeral=True,
                                        view=prompt_view(note.prompt_id, list(note.choices)))


def prompt_view(prompt_id: int, choices: list[str]) -> Any:
    """Buttons for each answer to a decision (MISSING when there are none that fit)."""
    fitting = [c for c in choices if len(f"kwi:{prompt_id}:{c}") <= MAX_CUSTOM_ID][:MAX_BUTTONS]
    if not fitting:
        return discord.utils.MISSING
    view = discord.ui.View(timeout=None)
    for choice in fitting:
        view.add_item(InviteButton(prompt_id, choice))
    return view


def action_view(game_id: int, seat: int, version: int, choices: list[str]) -> discord.ui.View | None:
    """Buttons for a short list of legal actions (an action too long for a custom_id is left to /play)."""
    fitting = [c for c in choices if len(action_id(game_id, seat, version, c)) <= MAX_CUSTOM_ID]
    if not fitting:
        return None
    view = discord.ui.View(timeout=None)
    for choice in fitting[:MAX_BUTTONS]:
        view.add_item(ActionButton(game_id, seat, version, choice))
    return view


def opener_view(prompt_id: int, user_id: int) -> discord.ui.View:
    """The "Open my decision" button for a player whose DMs are closed."""
    view = discord.ui.View(timeout=None)
    view.add_item(OpenInviteButton(prompt_id, user_id))
    return view
