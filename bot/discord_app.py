"""The Discord transport: interactions become table Commands, Outcomes become Discord messages.

Thin on purpose: no rules and no SQL here. Every interaction is deferred at once and the table runs in a
worker thread, so the event loop never blocks and Discord's 3-second deadline is always met.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.ext import tasks

from bot import rules
from bot.table import Command, Outcome, PromptNote, Table, Where, Who

log = logging.getLogger("keywood")
MAX_CONTENT = 2000
BUTTONS_PER_ROW = 5
MAX_BUTTONS = 20


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


ACTION_ID = r"kw:(?P<game>\d+):(?P<seat>\d+):(?P<version>\d+):(?P<action>.+)"
INVITE_ID = r"kwi:(?P<prompt>\d+):(?P<action>.+)"
OPEN_ID = r"kwo:(?P<prompt>\d+):(?P<user>\d+)"


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_ID):
    """A button for one legal action, tied to the game, the seat it was offered to, and the state version."""

    def __init__(self, game: int, seat: int, version: int, action: str) -> None:
        super().__init__(discord.ui.Button(label=action[:80], style=discord.ButtonStyle.primary,
                                           custom_id=f"kw:{game}:{seat}:{version}:{action}"[:100]))
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


class InviteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=INVITE_ID):
    """A button answering a joiner invitation (sent by DM, or shown privately in the channel)."""

    def __init__(self, prompt: int, action: str) -> None:
        style = discord.ButtonStyle.secondary if action == "decline" else discord.ButtonStyle.success
        super().__init__(discord.ui.Button(label=action[:80], style=style, custom_id=f"kwi:{prompt}:{action}"[:100]))
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
        """Show the invitation's buttons to the invited player only."""
        if interaction.user.id != self.user:
            await interaction.response.send_message("This invitation is for another player.", ephemeral=True)
            return
        client = interaction.client
        assert isinstance(client, Keywood)
        note = client.invitations.get(self.prompt)
        if note is None:
            await interaction.response.send_message("This invitation has closed.", ephemeral=True)
            return
        await interaction.response.send_message(invitation_text(note), view=invitation_view(note), ephemeral=True)


def invitation_text(note: PromptNote) -> str:
    """The words of a joiner invitation, with its deadline as a Discord timestamp."""
    return f"{note.text}\nAnswer by {discord.utils.format_dt(note.deadline, 'R')}; no answer counts as a decline."


def invitation_view(note: PromptNote) -> discord.ui.View:
    """Buttons for each answer to an invitation."""
    view = discord.ui.View(timeout=None)
    for choice in note.choices[:MAX_BUTTONS]:
        view.add_item(InviteButton(note.prompt_id, choice))
    return view


def action_view(game_id: int, seat: int, version: int, choices: list[str]) -> discord.ui.View:
    """Buttons for a short list of legal actions."""
    view = discord.ui.View(timeout=None)
    for choice in choices[:MAX_BUTTONS]:
        view.add_item(ActionButton(game_id, seat, version, choice))
    return view


class Keywood(discord.Client):
    """The Keywood bot: slash commands, buttons, DMs and the deadline ticker around one Table."""

    def __init__(self, table: Table, config: BotConfig) -> None:
        super().__init__(intents=discord.Intents.default())
        self.table = table
        self.config = config
        self.tree = app_commands.CommandTree(self)
        self.invitations: dict[int, PromptNote] = {}
        register_commands(self)

    async def setup_hook(self) -> None:
        """Register the dynamic buttons, sync the slash commands and start the deadline ticker."""
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
        except Exception:  # pragma: no cover - keep ticking whatever one game does
            log.exception("deadline processing failed")
            return
        for outcome in outcomes:
            await self.deliver(outcome)

    async def handle(self, interaction: discord.Interaction[Any], verb: str, arg: str = "", *,
                  options: dict[str, Any] | None = None, where: Where | None = None, **command: Any) -> Outcome:
        """Defer, hand the command to the table in a worker thread, reply privately, then post the outcome."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        cmd = Command(where or where_of(interaction), who_of(interaction), verb, arg, options or {}, **command)
        outcome = await asyncio.to_thread(self.table.handle, cmd)
        reply = outcome.reply or ("Done." if outcome.ok else "That did not work.")
        await interaction.followup.send(clip(reply), ephemeral=True, file=self._image(outcome, private=True))
        if outcome.ok:
            await self.deliver(outcome)
        return outcome

    def _image(self, outcome: Outcome, private: bool = False) -> Any:
        """The outcome's board image as an attachment (for board replies only when private)."""
        if outcome.image is None or (private and outcome.public):
            return discord.utils.MISSING
        return discord.File(io.BytesIO(outcome.image), filename="table.png")

    async def deliver(self, outcome: Outcome) -> None:
        """Post an outcome: the public message with image and mention, private DMs, invitations, buttons."""
        channel = await self._channel(outcome)
        if channel is not None and outcome.public:
            await self._post_public(channel, outcome)
        for user_id, lines in outcome.private.items():
            await self._dm_or_hint(channel, int(user_id), "\n".join(lines), outcome)
        for note in outcome.opened:
            self.invitations[note.prompt_id] = note
            await self._invite(channel, note)
        for prompt_id in outcome.closed:
            self.invitations.pop(prompt_id, None)

    async def _channel(self, outcome: Outcome) -> discord.abc.Messageable | None:
        """The game's channel or thread."""
        if outcome.where is None or not outcome.where.channel_id.isdigit():
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
        """One channel message: the log lines, the board image, a mention of who acts next, and buttons."""
        mentions = " ".join(f"<@{u}>" for u in outcome.mention)
        content = clip(("\n".join(outcome.public) + (f"\n{mentions}" if mentions else "")).strip())
        users = [discord.Object(id=int(u)) for u in outcome.mention if u.isdigit()]
        view = discord.utils.MISSING
        if len(outcome.choices) == 1 and outcome.game_id is not None and outcome.version is not None:
            user_id, choices = next(iter(outcome.choices.items()))
            seat = outcome.seats.get(user_id, 0)
            view = action_view(outcome.game_id, seat, outcome.version, choices)
        await channel.send(content, file=self._image(outcome), view=view,
                           allowed_mentions=discord.AllowedMentions(users=users, roles=False, everyone=False),
                           silent=not outcome.mention)

    async def _dm_or_hint(self, channel: discord.abc.Messageable | None, user_id: int, text: str,
                          outcome: Outcome) -> None:
        """Send private text by DM; if DMs are closed, tell the player in the channel to use /hand."""
        user = self.get_user(user_id) or await self.fetch_user(user_id)
        choices = outcome.choices.get(str(user_id))
        view = discord.utils.MISSING
        if choices and outcome.game_id is not None and outcome.version is not None:
            view = action_view(outcome.game_id, outcome.seats.get(str(user_id), 0), outcome.version, choices)
        try:
            await user.send(clip(text), view=view)
        except discord.Forbidden:
            if channel is not None:
                await channel.send(f"<@{user_id}> I cannot DM you: use /hand to see your private view.",
                                   allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=user_id)]))

    async def _invite(self, channel: discord.abc.Messageable | None, note: PromptNote) -> None:
        """DM a joiner invitation with buttons; with DMs closed, a mention and a private opener in the channel."""
        user = self.get_user(int(note.user_id)) or await self.fetch_user(int(note.user_id))
        try:
            await user.send(invitation_text(note), view=invitation_view(note))
        except discord.Forbidden:
            if channel is None:
                return
            view = discord.ui.View(timeout=None)
            view.add_item(OpenInviteButton(note.prompt_id, int(note.user_id)))
            await channel.send(f"<@{note.user_id}> you are invited to join (your DMs are closed).", view=view,
                               allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=int(note.user_id))]))

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
        if thread and isinstance(interaction.channel, discord.TextChannel):
            await interaction.response.defer(ephemeral=True, thinking=True)
            created = await interaction.channel.create_thread(name=f"{game.title()} table",
                                                              type=discord.ChannelType.public_thread)
            where = Where(where.guild_id, str(created.id))
        await bot.handle(interaction, "new", game, options=options, where=where)

    @tree.command(name="join", description="Take a seat at this channel's table")
    async def join(interaction: discord.Interaction[Any]) -> None:
        outcome = await bot.handle(interaction, "join")
        seated = "You are seated; invitations to join will come here."
        if outcome.ok and not await bot.check_dms(interaction.user, seated):
            await interaction.followup.send("Your DMs are closed: invitations will appear in the channel instead.",
                                            ephemeral=True)

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
        found = await asyncio.to_thread(bot.table.suggest, where_of(interaction), str(interaction.user.id), current)
        return [app_commands.Choice(name=s[:100], value=s[:100]) for s in found[:25]]

    play.autocomplete("action")(suggest)
    check.autocomplete("action")(suggest)

    @tree.command(name="rules", description="Look up a Keyper rule")
    async def rules_command(interaction: discord.Interaction[Any], topic: str) -> None:
        await bot.handle(interaction, "rules", topic)

    @rules_command.autocomplete("topic")
    async def rule_topics(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        titles = [t for t in rules.topics("keyper") if current.lower() in t.lower()]
        return [app_commands.Choice(name=t[:100], value=t[:100]) for t in titles[:25]]

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


def _simple(tree: app_commands.CommandTree[Any], bot: Keywood, verb: str, description: str) -> None:
    """A slash command with no arguments that maps straight to a table verb."""

    async def callback(interaction: discord.Interaction[Any]) -> None:
        await bot.handle(interaction, verb)

    tree.command(name=verb, description=description)(callback)


async def serve(table: Table, config: BotConfig) -> None:
    """Run the bot until it is stopped."""
    async with Keywood(table, config) as bot:
        await bot.start(config.token)
