"""The Discord transport: interactions become table Commands, Outcomes become Discord messages.

Thin on purpose: no rules and no SQL here. Every interaction is deferred at once and the table runs in a
worker thread, so the event loop never blocks and Discord's 3-second deadline is always met.
"""

from __future__ import annotations

import asyncio
import importlib
import io
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.ext import tasks

from bot import rules
from bot.table import RENDERERS, Command, Outcome, PromptNote, Table, Where, Who

log = logging.getLogger("keywood")
MAX_CONTENT = 2000
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_CHOICES = 25
MAX_BUTTONS = 20
BOARD_RENDERERS = {"keyper": "render.keyper"}


@dataclass
class BotConfig:
    """What `keywood run` reads from config.toml (see config.example.toml)."""

    token: str
    dev_guild_ids: list[int] = field(default_factory=list)
    tick_seconds: float = 30.0


def where_of(interaction: discord.Interaction[Any]) -> Where:
    """The table an interaction happens at (a DM is its own table, so commands there find no game)."""
    guild = str(interaction.guild_id) if interaction.guild_id else "dm"
    return Where(guild, str(interaction.channel_id))


def who_of(interaction: discord.Interaction[Any]) -> Who:
    """The person behind an interaction; admins are those who may manage the server."""
    perms = interaction.permissions
    admin = bool(interaction.guild_id) and (perms.administrator or perms.manage_guild)
    return Who(str(interaction.user.id), interaction.user.display_name, admin)


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """Cut a message to Discord's length limit."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def with_tail(text: str, tail: str) -> str:
    """The text cut so that the tail (a line of mentions) always fits after it."""
    if not tail:
        return clip(text)
    return f"{clip(text, MAX_CONTENT - len(tail) - 1)}\n{tail}".strip()


def register_renderers() -> None:
    """Give the table the board renderers that are installed (render/ is optional for the bot)."""
    for game, module_name in BOARD_RENDERERS.items():
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            log.info("no board renderer for %s: turn messages go without an image", game)
            continue
        RENDERERS.setdefault(game, module.render)


ACTION_ID = r"kw:(?P<game>\d+):(?P<seat>\d+):(?P<version>\d+):(?P<action>.+)"
INVITE_ID = r"kwi:(?P<prompt>\d+):(?P<action>.+)"
OPEN_ID = r"kwo:(?P<prompt>\d+):(?P<user>\d+)"


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
        client = interaction.client
        assert isinstance(client, Keywood)
        await client.handle(interaction, "play", self.action, game_id=self.game, seat=self.seat, version=self.version)


def action_id(game: int, seat: int, version: int, action: str) -> str:
    """The custom_id of an action button (it must fit Discord's 100 characters whole: it carries the action)."""
    return f"kw:{game}:{seat}:{version}:{action}"


class InviteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=INVITE_ID):
    """A button answering a joiner invitation (sent by DM, or shown privately in the channel)."""

    def __init__(self, prompt: int, action: str) -> None:
        style = discord.ButtonStyle.secondary if action == "decline" else discord.ButtonStyle.success
        super().__init__(discord.ui.Button(label=action[:MAX_LABEL], style=style, custom_id=f"kwi:{prompt}:{action}"))
        self.prompt, self.action = prompt, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> InviteButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["prompt"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Answer the invitation."""
        client = interaction.client
        assert isinstance(client, Keywood)
        await client.handle(interaction, "answer", self.action, prompt_id=self.prompt)


class OpenInviteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=OPEN_ID):
    """For a player whose DMs are closed: opens their invitation privately in the channel."""

    def __init__(self, prompt: int, user: int) -> None:
        super().__init__(discord.ui.Button(label="Open my invitation", style=discord.ButtonStyle.primary,
                                           custom_id=f"kwo:{prompt}:{user}"))
        self.prompt, self.user = prompt, user

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> OpenInviteButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["prompt"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the invitation's buttons to the invited player only.

        The invitation comes from memory, or after a restart from the table: the answers the player may give
        now in this channel's game (the table refuses them if the invitation has closed meanwhile).
        """
        if interaction.user.id != self.user:
            await interaction.response.send_message("This invitation is for another player.", ephemeral=True)
            return
        client = interaction.client
        assert isinstance(client, Keywood)
        note = client.invitations.get(self.prompt)
        if note is not None:
            await interaction.response.send_message(invitation_text(note), view=invitation_view(note), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        answers = await asyncio.to_thread(client.table.suggest, where_of(interaction), str(self.user), "")
        if not answers:
            await interaction.followup.send("This invitation has closed.", ephemeral=True)
            return
        view = discord.ui.View(timeout=None)
        for answer in answers[:MAX_BUTTONS]:
            view.add_item(InviteButton(self.prompt, answer))
        await interaction.followup.send("Your invitation to join: answer before its deadline.", view=view,
                                        ephemeral=True)


def invitation_text(note: PromptNote) -> str:
    """The words of a joiner invitation, with its deadline as a Discord timestamp."""
    return f"{note.text}\nAnswer by {discord.utils.format_dt(note.deadline, 'R')}; no answer counts as a decline."


def invitation_view(note: PromptNote) -> discord.ui.View:
    """Buttons for each answer to an invitation."""
    view = discord.ui.View(timeout=None)
    for choice in [c for c in note.choices if len(f"kwi:{note.prompt_id}:{c}") <= MAX_CUSTOM_ID][:MAX_BUTTONS]:
        view.add_item(InviteButton(note.prompt_id, choice))
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


class Keywood(discord.Client):
    """The Keywood bot: slash commands, buttons, DMs and the deadline ticker around one Table."""

    def __init__(self, table: Table, config: BotConfig, **options: Any) -> None:
        """options go to discord.Client (e.g. guild_ready_timeout); the intents are always the unprivileged
        defaults: Keywood needs no members, presences or message content."""
        super().__init__(intents=discord.Intents.default(), **options)
        self.table = table
        self.config = config
        self.tree = app_commands.CommandTree(self)
        self.invitations: dict[int, PromptNote] = {}
        register_commands(self)

    async def setup_hook(self) -> None:
        """Register the board renderers and dynamic buttons, sync the slash commands, start the ticker."""
        register_renderers()
        self.add_dynamic_items(ActionButton, InviteButton, OpenInviteButton)
        for guild_id in self.config.dev_guild_ids:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        if not self.config.dev_guild_ids:
            await self.tree.sync()
        self.ticker.change_interval(seconds=self.config.tick_seconds)
        self.ticker.start()

    async def close(self) -> None:
        """Stop the ticker, then disconnect."""
        self.ticker.cancel()
        await super().close()

    @tasks.loop(seconds=30)
    async def ticker(self) -> None:
        """Process prompts whose deadline passed (and catch up after a restart)."""
        try:
            outcomes = await asyncio.to_thread(self.table.due)
        except Exception:  # keep ticking whatever one game does
            log.exception("deadline processing failed")
            return
        for outcome in outcomes:
            if outcome.ok:
                await self.deliver_safely(outcome)

    @ticker.before_loop
    async def _before_ticker(self) -> None:
        """Deliver nothing before the gateway is ready (channels are cached by then)."""
        await self.wait_until_ready()

    async def handle(self, interaction: discord.Interaction[Any], verb: str, arg: str = "", *,
                     options: dict[str, Any] | None = None, where: Where | None = None, **command: Any) -> Outcome:
        """Defer, hand the command to the table in a worker thread, post the outcome, then reply privately.

        The private reply comes last, so the caller's "thinking..." ends once everything is posted.
        """
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        cmd = Command(where or where_of(interaction), who_of(interaction), verb, arg, options or {}, **command)
        try:
            outcome = await asyncio.to_thread(self.table.handle, cmd)
        except Exception:
            log.exception("command %s %r failed", verb, arg)
            outcome = Outcome(False, "Something went wrong on Keywood's side; nothing was changed.")
        delivered = True
        if outcome.ok:
            delivered = await self.deliver_safely(outcome)
        reply = outcome.reply or ("Done." if outcome.ok else "That did not work.")
        if not delivered:
            reply += "\n(Keywood could not post to the game's channel; check its permissions there.)"
        await interaction.followup.send(clip(reply), ephemeral=True, file=self._image(outcome, private=True))
        return outcome

    def _image(self, outcome: Outcome, private: bool = False) -> Any:
        """The outcome's board image as an attachment (for board replies only when private)."""
        if outcome.image is None or (private and outcome.public):
            return discord.utils.MISSING
        return discord.File(io.BytesIO(outcome.image), filename="table.png")

    async def deliver_safely(self, outcome: Outcome) -> bool:
        """deliver, logging instead of raising a Discord error; False when something could not be posted."""
        try:
            await self.deliver(outcome)
        except discord.HTTPException:
            log.exception("could not deliver the outcome of game %s", outcome.game_id)
            return False
        return True

    async def deliver(self, outcome: Outcome) -> None:
        """Post an outcome: the public message with image and mention, private DMs, invitations, buttons."""
        channel = await self._channel(outcome)
        if channel is not None and outcome.public:
            await self._post_public(channel, outcome)
        origin = self._origin(outcome)
        for user_id, lines in outcome.private.items():
            await self._dm_or_hint(channel, user_id, origin + "\n".join(lines), outcome)
        for note in outcome.opened:
            self.invitations[note.prompt_id] = note
            await self._invite(channel, note, origin)
        for prompt_id in outcome.closed:
            self.invitations.pop(prompt_id, None)

    @staticmethod
    def _origin(outcome: Outcome) -> str:
        """The first line of a DM: which game's channel it comes from."""
        if outcome.where is None or outcome.where.guild_id == "dm" or not outcome.where.channel_id.isdigit():
            return ""
        return f"From the game in <#{outcome.where.channel_id}>:\n"

    async def _channel(self, outcome: Outcome) -> discord.abc.Messageable | None:
        """The game's channel or thread (never a DM: public lines do not go to one player)."""
        if outcome.where is None or outcome.where.guild_id == "dm" or not outcome.where.channel_id.isdigit():
            return None
        channel_id = int(outcome.where.channel_id)
        channel = self.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _post_public(self, channel: discord.abc.Messageable, outcome: Outcome) -> None:
        """One channel message: the log lines, the board image, a mention of who acts next, and buttons.

        Only the players named are pinged; a message that names nobody is sent silently.
        """
        users = [u for u in outcome.mention if u.isdigit()]
        content = with_tail("\n".join(outcome.public), " ".join(f"<@{u}>" for u in users))
        view: Any = discord.utils.MISSING
        if len(outcome.choices) == 1 and outcome.game_id is not None and outcome.version is not None:
            user_id, choices = next(iter(outcome.choices.items()))
            seat = outcome.seats.get(user_id, 0)
            view = action_view(outcome.game_id, seat, outcome.version, choices) or discord.utils.MISSING
        mentions = discord.AllowedMentions(users=[discord.Object(id=int(u)) for u in users], roles=False,
                                           everyone=False, replied_user=False)
        await channel.send(content, file=self._image(outcome), view=view, allowed_mentions=mentions,
                           silent=not users)

    async def _user(self, user_id: str) -> discord.User | None:
        """A user by id, from the cache or Discord; None for an id that is not a Discord user."""
        if not user_id.isdigit():
            return None
        user = self.get_user(int(user_id))
        if user is not None:
            return user
        try:
            return await self.fetch_user(int(user_id))
        except discord.HTTPException:
            return None

    async def _dm_or_hint(self, channel: discord.abc.Messageable | None, user_id: str, text: str,
                          outcome: Outcome) -> None:
        """Send private text by DM; if DMs are closed, tell the player in the channel to use /hand."""
        user = await self._user(user_id)
        if user is None:
            return
        choices = outcome.choices.get(user_id)
        view: Any = discord.utils.MISSING
        if choices and outcome.game_id is not None and outcome.version is not None:
            view = action_view(outcome.game_id, outcome.seats.get(user_id, 0), outcome.version, choices) or view
        try:
            await user.send(clip(text), view=view)
        except discord.Forbidden:
            if channel is not None:
                await channel.send(f"<@{user_id}> I cannot DM you: use /hand to see your private view.",
                                   allowed_mentions=discord.AllowedMentions(users=[user], roles=False,
                                                                            everyone=False))

    async def _invite(self, channel: discord.abc.Messageable | None, note: PromptNote, origin: str = "") -> None:
        """DM a joiner invitation with buttons; with DMs closed, a mention and a private opener in the channel."""
        user = await self._user(note.user_id)
        if user is None:
            return
        try:
            await user.send(clip(origin + invitation_text(note)), view=invitation_view(note))
        except discord.Forbidden:
            if channel is None:
                return
            view = discord.ui.View(timeout=None)
            view.add_item(OpenInviteButton(note.prompt_id, user.id))
            await channel.send(f"<@{user.id}> you are invited to join (your DMs are closed).", view=view,
                               allowed_mentions=discord.AllowedMentions(users=[user], roles=False, everyone=False))

    async def check_dms(self, user: discord.User | discord.Member, text: str) -> bool:
        """Send a DM to see whether a player can receive invitations; False when their DMs are closed."""
        try:
            await user.send(text)
        except discord.Forbidden:
            return False
        return True


def register_commands(bot: Keywood) -> None:
    """Define the slash commands on the bot's tree."""
    tree = bot.tree

    @tree.command(name="new", description="Open a game table in this channel (or a new thread)")
    @app_commands.describe(game="Which game", thread="Open a thread for the game", seed="Fix the random seed",
                           joiner_minutes="Minutes to answer a joiner invitation",
                           reminder_hours="Hours before a turn reminder", max_players="Most players (2-4)",
                           unlimited_supply="Lift the resource limits (the designer's own ruling)")
    @app_commands.choices(game=[app_commands.Choice(name="Keyper", value="keyper")])
    async def new(interaction: discord.Interaction[Any], game: str = "keyper", thread: bool = False,
                  seed: int | None = None, joiner_minutes: int | None = None, reminder_hours: int | None = None,
                  max_players: int | None = None, unlimited_supply: bool | None = None) -> None:
        options: dict[str, Any] = {k: v for k, v in {
            "seed": seed, "joiner_deadline_minutes": joiner_minutes, "reminder_hours": reminder_hours,
            "max_players": max_players, "unlimited_supply": unlimited_supply}.items() if v is not None}
        where = where_of(interaction)
        created: discord.Thread | None = None
        if thread and isinstance(interaction.channel, discord.TextChannel):
            await interaction.response.defer(ephemeral=True, thinking=True)
            created = await interaction.channel.create_thread(name=f"{game.title()} table",
                                                              type=discord.ChannelType.public_thread)
            where = Where(where.guild_id, str(created.id))
        outcome = await bot.handle(interaction, "new", game, options=options, where=where)
        if created is not None and not outcome.ok:
            await created.delete()  # the table refused: leave no empty thread behind
        await _check_dms(bot, interaction, outcome)

    @tree.command(name="join", description="Take a seat at this channel's table")
    async def join(interaction: discord.Interaction[Any]) -> None:
        await _check_dms(bot, interaction, await bot.handle(interaction, "join"))

    for verb, text in (("leave", "Leave the table before the game starts"), ("start", "Start the game (host)"),
                       ("board", "Show the table"), ("hand", "Your private view: fairs, tiles, choices"),
                       ("log", "The recent actions"), ("score", "The score so far, or the final score"),
                       ("undo", "Take back your own last action"), ("abandon", "End the game (host or admin)")):
        _simple(tree, bot, verb, text)

    @tree.command(name="play", description="Take an action, e.g. 'green 1.pig' or 'join white'")
    @app_commands.describe(action="The action in notation; suggestions list your legal actions")
    async def play(interaction: discord.Interaction[Any], action: str) -> None:
        await bot.handle(interaction, "play", action)

    @tree.command(name="check", description="Would this action be allowed, and what would it do?")
    async def check(interaction: discord.Interaction[Any], action: str) -> None:
        await bot.handle(interaction, "check", action)

    async def suggest(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        try:
            found = await asyncio.to_thread(bot.table.suggest, where_of(interaction), str(interaction.user.id),
                                            current)
        except Exception:  # an empty list still answers Discord
            log.exception("autocomplete failed")
            found = []
        return [app_commands.Choice(name=s, value=s) for s in found if len(s) <= 100][:MAX_CHOICES]

    play.autocomplete("action")(suggest)
    check.autocomplete("action")(suggest)

    @tree.command(name="rules", description="Look up a Keyper rule")
    async def rules_command(interaction: discord.Interaction[Any], topic: str) -> None:
        await bot.handle(interaction, "rules", topic)

    @rules_command.autocomplete("topic")
    async def rule_topics(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        titles = [t for t in rules.topics("keyper") if current.lower() in t.lower()]
        return [app_commands.Choice(name=t[:100], value=t[:100]) for t in titles[:MAX_CHOICES]]

    @tree.command(name="kick", description="Remove a player from the lobby, or hand their seat to someone (host)")
    async def kick(interaction: discord.Interaction[Any], player: discord.User,
                   replacement: discord.User | None = None) -> None:
        options: dict[str, Any] = {"user_id": str(player.id)}
        if replacement:
            options |= {"replacement_id": str(replacement.id), "replacement_name": replacement.display_name}
        await bot.handle(interaction, "kick", options=options)

    @tree.command(name="keywood-settings", description="Server defaults for new games (admins)")
    @app_commands.default_permissions(manage_guild=True)
    async def settings(interaction: discord.Interaction[Any], joiner_minutes: int | None = None,
                       reminder_hours: int | None = None) -> None:
        options = {k: v for k, v in {"joiner_deadline_minutes": joiner_minutes,
                                     "reminder_hours": reminder_hours}.items() if v is not None}
        await bot.handle(interaction, "settings", options=options)


async def _check_dms(bot: Keywood, interaction: discord.Interaction[Any], outcome: Outcome) -> None:
    """After taking a seat: see whether Keywood can DM the player, and tell them privately if not."""
    if not outcome.ok:
        return
    seated = "You are seated; invitations to join will come here."
    if not await bot.check_dms(interaction.user, seated):
        await interaction.followup.send("Your DMs are closed: invitations will appear in the channel instead.",
                                        ephemeral=True)


def _simple(tree: app_commands.CommandTree[Any], bot: Keywood, verb: str, description: str) -> None:
    """A slash command with no arguments that maps straight to a table verb."""

    async def callback(interaction: discord.Interaction[Any]) -> None:
        await bot.handle(interaction, verb)

    tree.command(name=verb, description=description)(callback)


async def serve(table: Table, config: BotConfig) -> None:
    """Run the bot until it is stopped."""
    async with Keywood(table, config) as bot:
        await bot.start(config.token)
