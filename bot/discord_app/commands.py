"""The slash commands: each turns an interaction into a table verb and its arguments, handled by the client.

/new and /keywood-settings take their options from the game registry; the table's commands are offered in
servers only (a DM holds no game), /rules and /games anywhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import games
from bot.clocks import CONSEQUENCES
from bot.discord_app.texts import NO_TABLE_IN_DMS, NO_THREAD, clip, not_offered
from bot.games import Option
from bot.table import Where, Who

if TYPE_CHECKING:
    from bot.discord_app.client import Keywood

log = logging.getLogger("keywood")
MAX_CHOICES = 25
ANYWHERE = ("rules", "games")  # the commands that need no table, usable in a DM with the bot too


def where_of(interaction: discord.Interaction[Any]) -> Where:
    """The table an interaction happens at (a DM is its own table, so commands there find no game)."""
    guild = str(interaction.guild_id) if interaction.guild_id else "dm"
    return Where(guild, str(interaction.channel_id))


def who_of(interaction: discord.Interaction[Any]) -> Who:
    """The person behind an interaction; admins are those who may manage the server."""
    perms = interaction.permissions
    admin = bool(interaction.guild_id) and (perms.administrator or perms.manage_guild)
    return Who(str(interaction.user.id), interaction.user.display_name, admin)


def register_commands(bot: Keywood) -> None:
    """Define the slash commands on the bot's tree: the table's are for servers only (a DM holds no game); /rules
    and /games work anywhere."""
    tree = bot.tree

    tree.add_command(new_command(bot))

    @tree.command(name="join", description="Take a seat at this channel's table")
    async def join(interaction: discord.Interaction[Any]) -> None:
        await bot.handle(interaction, "join", dm_check=True)

    for verb, text in (("leave", "Leave the table before the game starts"), ("start", "Start the game (host)"),
                       ("board", "Show the table"), ("hand", "Your private view: fairs, tiles, choices"),
                       ("score", "The score so far, or the final score"),
                       ("undo", "Take back your own last action"), ("abandon", "End the game (host or admin)"),
                       ("export", "The finished game as one HTML replay, step by step (after its end)")):
        _simple(tree, bot, verb, text)

    @tree.command(name="log", description="The recent actions; since:me, what happened since your last move")
    @app_commands.describe(since="me: only what happened since your own last move")
    @app_commands.choices(since=[app_commands.Choice(name="me", value="me")])
    async def log_command(interaction: discord.Interaction[Any], since: app_commands.Choice[str] | None = None
                          ) -> None:
        await bot.handle(interaction, "log", f"since:{since.value}" if since else "")

    action_commands(bot)

    @tree.command(name="rules", description="Look up a rule of this channel's game")
    @app_commands.describe(topic="A rule section or a component's name; suggestions list them")
    async def rules_command(interaction: discord.Interaction[Any], topic: str) -> None:
        await bot.handle(interaction, "rules", topic)

    @rules_command.autocomplete("topic")
    async def rule_topics(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        known = await asyncio.to_thread(bot.table.topics, where_of(interaction))
        titles = [t for t in known if current.lower() in t.lower()]
        return [app_commands.Choice(name=t[:100], value=t[:100]) for t in titles[:MAX_CHOICES]]

    @tree.command(name="games", description="The games Keywood can referee, with their options")
    async def games_command(interaction: discord.Interaction[Any]) -> None:
        await bot.handle(interaction, "games")

    @tree.command(name="kick", description="Remove a player from the lobby, or hand their seat to someone (host)")
    @app_commands.describe(player="The seated player to remove",
                           replacement="Who takes over the seat (needed once the game has started)")
    async def kick(interaction: discord.Interaction[Any], player: discord.User,
                   replacement: discord.User | None = None) -> None:
        options: dict[str, Any] = {"user_id": str(player.id)}
        if replacement:
            options |= {"replacement_id": str(replacement.id), "replacement_name": replacement.display_name,
                        "replacement_is_bot": replacement.bot}
        await bot.handle(interaction, "kick", options=options)

    tree.add_command(settings_command(bot))
    clock_commands(bot)
    for command in tree.get_commands():
        if command.name not in ANYWHERE:
            server_only(command)


def action_commands(bot: Keywood) -> None:
    """/play and /check, whose suggestions list the caller's legal actions."""
    tree = bot.tree

    @tree.command(name="play", description="Take an action (suggestions list what you may do)")
    @app_commands.describe(action="The action in notation; suggestions list your legal actions")
    async def play(interaction: discord.Interaction[Any], action: str) -> None:
        await bot.handle(interaction, "play", action)

    @tree.command(name="check", description="Would this action be allowed, and what would it do?")
    @app_commands.describe(action="The action to check, in notation; suggestions list your legal actions")
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


def clock_commands(bot: Keywood) -> None:
    """The turn clock's commands: /clock, /away, /sub and /standin (bot/clocks.py says what a clock is)."""
    tree = bot.tree

    @tree.command(name="clock", description="The table's clock; the host sets a pace (12h, 2d, off) and what "
                                            "happens when it runs out")
    @app_commands.describe(pace="Time for each decision: 12h, 2d, or off", on_timeout="When a clock runs out")
    @app_commands.choices(on_timeout=[app_commands.Choice(name=c, value=c) for c in CONSEQUENCES])
    async def clock(interaction: discord.Interaction[Any], pace: str | None = None,
                    on_timeout: app_commands.Choice[str] | None = None) -> None:
        await bot.handle(interaction, "clock", " ".join(x for x in (pace, on_timeout and on_timeout.value) if x))

    @tree.command(name="away", description="Pause your own clock for a while (12h, 2d), or off when you are back")
    @app_commands.describe(duration="How long you will be away: 12h, 2d, 1d6h; off ends it early")
    async def away(interaction: discord.Interaction[Any], duration: str) -> None:
        await bot.handle(interaction, "away", duration)

    @tree.command(name="sub", description="Offer to take over a seat whose clock ran out; the host confirms")
    @app_commands.describe(name="Volunteers: the player whose seat you would take. Host: the volunteer to confirm")
    async def sub(interaction: discord.Interaction[Any], name: str | None = None) -> None:
        await bot.handle(interaction, "sub", name or "")

    @tree.command(name="standin", description="Keywood's stand-in plays a decision now: yours, or (host) a player's")
    @app_commands.describe(player="Whose decision (the host may name any player); yours when left out")
    async def standin_command(interaction: discord.Interaction[Any], player: discord.User | None = None) -> None:
        await bot.handle(interaction, "standin", options={"user_id": str(player.id)} if player else {})


def server_only(command: app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu) -> None:
    """Offer a command in servers only: Discord does not show it in DMs (a DM holds no table)."""
    app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)(command)
    app_commands.guild_only(command)


def _simple(tree: app_commands.CommandTree[Any], bot: Keywood, verb: str, description: str) -> None:
    """A slash command with no arguments that maps straight to a table verb."""

    async def callback(interaction: discord.Interaction[Any]) -> None:
        await bot.handle(interaction, verb)

    tree.command(name=verb, description=description)(callback)


def new_command(bot: Keywood) -> app_commands.Command[Any, Any, None]:
    """/new, with the game as a choice and every registered option (from the registry's schema, less those only the
    terminal sets) as a parameter; an option it does not offer is refused, saying so."""
    schema = _option_union()
    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction),
                  inspect.Parameter("game", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=None),
                  inspect.Parameter("thread", inspect.Parameter.KEYWORD_ONLY, annotation=bool, default=False)]
    parameters += _parameters(schema)
    offered = {p.name for p in parameters[1:]}

    async def new(interaction: discord.Interaction[Any], game: str | None = None, thread: bool = False,
                  **values: Any) -> None:
        if interaction.guild_id is None:  # a DM holds no table (nobody else could join it)
            await interaction.response.send_message(NO_TABLE_IN_DMS, ephemeral=True)
            return
        unknown = sorted(set(vars(interaction.namespace)) - offered)  # discord.py would drop them unsaid
        if unknown:  # an old registration of /new (it once took a seed), or a forged interaction
            await interaction.response.send_message(not_offered(unknown), ephemeral=True)
            return
        options = {k: v for k, v in values.items() if v is not None}
        where = where_of(interaction)
        created: discord.Thread | None = None
        if thread and isinstance(interaction.channel, discord.TextChannel):
            await interaction.response.defer(ephemeral=True, thinking=True)
            refusal = await asyncio.to_thread(bot.table.check_new, where.guild_id, game or "", options)
            created = await _open_thread(interaction.channel, game) if refusal is None else None
            if created is None:
                await interaction.followup.send(clip(refusal or NO_THREAD), ephemeral=True)
                return
            where = Where(where.guild_id, str(created.id))
        outcome = await bot.handle(interaction, "new", game or "", options=options, where=where, dm_check=True)
        if created is not None and not outcome.ok:  # checked first, so only an error on Keywood's side gets here
            with contextlib.suppress(discord.HTTPException):  # removing a thread needs Manage Threads
                await created.delete()

    new.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    described = app_commands.describe(game="Which game (default: the first listed)",
                                      thread="Open a new thread for the game (Keywood needs Create Public Threads)",
                                      **{o.name: _described(o) for o in schema})(new)
    choices = [app_commands.Choice(name=e.title, value=e.id) for e in games.all_games()]
    command: app_commands.Command[Any, Any, None] = app_commands.Command(
        name="new", description="Open a game table in this channel (or a new thread)",
        callback=app_commands.choices(game=choices)(described))  # type: ignore[arg-type]
    return command


async def _open_thread(channel: discord.TextChannel, game: str | None) -> discord.Thread | None:
    """A new public thread for a table in the channel; None when Keywood may not create one there."""
    title = games.get(game).title if game else games.default().title
    try:
        return await channel.create_thread(name=f"{title} table", type=discord.ChannelType.public_thread)
    except discord.Forbidden:
        log.warning("no permission to create a thread in channel %s", channel.id)
        return None


def settings_command(bot: Keywood) -> app_commands.Command[Any, Any, None]:
    """/keywood-settings: a server's defaults for new tables, with the ranges the registry allows."""
    schema = [o for o in games.default().table_options if o.name in ("decision_minutes", "reminder_hours")]
    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction), *_parameters(schema)]

    async def settings(interaction: discord.Interaction[Any], **values: Any) -> None:
        options = {k: v for k, v in values.items() if v is not None}
        await bot.handle(interaction, "settings", options=options)

    settings.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    described = app_commands.describe(**{o.name: _described(o) for o in schema})(settings)
    command: app_commands.Command[Any, Any, None] = app_commands.Command(
        name="keywood-settings", description="Server defaults for new games (admins)",
        callback=described)  # type: ignore[arg-type]
    return app_commands.default_permissions(manage_guild=True)(command)


def _parameters(schema: list[Option]) -> list[inspect.Parameter]:
    """The callback parameters of a command taking options from a schema: each optional, typed and ranged."""
    return [inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(o) | None, default=None)
            for o in schema]


def _option_union() -> list[Option]:
    """Every option of every registered game once, integer ranges widened to cover all games; none that only a
    local table chooses (the terminal's seed)."""
    found: dict[str, Option] = {}
    for entry in games.all_games():
        for option in (o for o in entry.all_options() if not o.local):
            seen = found.get(option.name)
            if seen is not None and option.type is int and seen.min is not None and option.min is not None:
                option = Option(option.name, int, None, option.description, min(seen.min, option.min),
                                max(seen.max or 0, option.max or 0))
            found[option.name] = seen if seen is not None and option.type is not int else option
    return list(found.values())


def _annotation(option: Option) -> Any:
    """The slash-command type of an option: a ranged integer, a yes/no, a choice of words, or text."""
    if option.type is int and option.min is not None and option.max is not None:
        return app_commands.Range[int, option.min, option.max]
    return option.type


def _described(option: Option) -> str:
    """An option's description for Discord (at most 100 characters), naming the games it belongs to."""
    owners = [e.title for e in games.all_games() if option.name in {o.name for o in e.options}]
    text = f"{option.description} ({', '.join(owners)})" if owners else option.description
    return text[:100]
