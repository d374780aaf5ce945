"""Every command's bad inputs through Discord: a clear private message, nothing posted, and the stored game unchanged
(the SQL dump of the database file is the same before and after). Permissions: only seated players act, only the
prompted player answers, only the host or an admin starts, abandons or kicks; no privileged intents.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app import action_view, with_tail
from bot.store import Store
from bot.table import Command, Table, Where, Who
from tests.discord import PRIVILEGED_INTENTS, SEED, Env, dump, sql
from tests.discord_fake import FakeMessage

NO_GAME = "There is no game in this channel."
NOT_A_PLAYER = "You are not a player in this game."
HOST_ONLY = "Only the host or a server admin can"


def posted(env: Env) -> int:
    """How many messages the bot has posted anywhere that others (or the DM's owner) can see."""
    return sum(1 for m in env.fake.all_messages() if not m.ephemeral)


async def refused(env: Env, name: str, command: str, options: dict[str, Any] | None = None, *fragments: str,
                  channel: dict[str, Any] | None = None, dm: bool = False) -> FakeMessage:
    """Send a command that must be refused: one private reply saying why; nothing posted, nothing stored."""
    before, count = dump(env.path), posted(env)
    record = await env.slash(name, command, options, channel=channel, dm=dm)
    (reply,) = await env.replies(record)
    assert reply.ephemeral, reply.content
    for fragment in fragments:
        assert fragment in reply.content, reply.content
    assert dump(env.path) == before, f"/{command} by {name} changed the database: {reply.content}"
    assert posted(env) == count and env.fake.followups(record.id) == [reply]
    return reply


async def refused_click(env: Env, name: str, custom_id: str, message: FakeMessage, fragment: str, *,
                        dm: bool = False) -> None:
    """Click a button that must be refused: a private reply, nothing posted, nothing stored."""
    before, count = dump(env.path), posted(env)
    reply = await env.click_reply(name, custom_id, message, dm=dm)
    assert reply.ephemeral and fragment in reply.content, reply.content
    assert dump(env.path) == before and posted(env) == count


async def test_every_command_refuses_where_there_is_no_game(env: Env) -> None:
    for command, options in (("play", {"action": "keyper 1"}), ("check", {"action": "keyper 1"}), ("board", None),
                             ("hand", None), ("undo", None), ("start", None), ("join", None), ("leave", None),
                             ("abandon", None), ("kick", {"player": env.world.members["ben"]})):
        await refused(env, "ana", command, options, NO_GAME, channel=env.general)
    for command in ("log", "score"):
        await refused(env, "zed", command, None, NO_GAME, channel=env.general)
    await refused(env, "ana", "rules", {"topic": "flying carpets"},
                  "No Keyper rule section matches 'flying carpets'. Try a topic like")
    assert await env.suggest("ana", "play", "action", "") == []


async def test_a_dm_is_no_table(env: Env) -> None:
    await env.start_game()
    for command, options in (("play", {"action": "keyper 1"}), ("hand", None), ("board", None)):
        await refused(env, "ana", command, options, NO_GAME, dm=True)
    # nor can one be opened there (Discord offers /new in servers only; a DM that sends it anyway is refused)
    new = env.fake.command("new", env.guild_id)
    assert new is not None and new["contexts"] == [0]
    before, count = dump(env.path), posted(env)
    record = await env.slash("ben", "new", dm=True)
    await env.fake.wait_for(lambda: record.acknowledged)
    reply = env.fake.original_response(record.id)
    assert reply is not None and reply.ephemeral
    assert reply.content == "Open a table in a server channel or thread: a DM holds no game."
    assert dump(env.path) == before and posted(env) == count


async def test_new_takes_no_seed_on_discord(env: Env) -> None:
    """Issue 39: a game's seed is secret, so Discord's /new offers no seed option; a /new that sends one anyway (an
    old registration of the command, or a forged interaction) is refused, saying why, with nothing stored or posted.
    Without it, the table opens with the seed its table drew."""
    new = env.fake.command("new", env.guild_id)
    assert new is not None and "seed" not in {o["name"] for o in new["options"]}
    assert "min_players" in {o["name"] for o in new["options"]}
    before, count = dump(env.path), posted(env)
    record = await env.slash("ana", "new", {"seed": 1234, "min_players": 3})
    await env.fake.wait_for(lambda: record.acknowledged)
    reply = env.fake.original_response(record.id)
    assert reply is not None and reply.ephemeral
    assert reply.content.startswith("/new has no option seed; no table was opened."), reply.content
    assert "in secret" in reply.content
    assert dump(env.path) == before and posted(env) == count
    env.seed = -8_765_432_109_876_543_210
    assert (await env.run("ana", "new")).content == "Table opened."
    assert sql(env.path, "SELECT seed FROM games") == [(env.seed,)]


async def test_lobby_refusals(env: Env) -> None:
    await env.seat_players()
    await refused(env, "ben", "start", None, f"{HOST_ONLY} start the game.")
    await refused(env, "ana", "new", None, "A game is already open in this channel")
    await refused(env, "ben", "join", None, "You are already seated at this table.")
    await refused(env, "zed", "leave", None, "You are not seated at this table.")
    await refused(env, "ben", "kick", {"player": env.world.members["cleo"]}, f"{HOST_ONLY} kick a player.")
    await refused(env, "ana", "kick", {"player": env.world.members["zed"]}, "That person is not seated")
    for command in ("play", "check"):
        await refused(env, "ana", command, {"action": "keyper 1"}, "The game has not started yet")
    await refused(env, "ana", "hand", None, "The game has not started yet")
    await refused(env, "ben", "abandon", None, f"{HOST_ONLY} abandon the game.")
    # Discord enforces an option's min/max in its client; the table checks them again
    await refused(env, "ana", "new", {"decision_minutes": 0}, "decision_minutes must be at least 1.",
                  channel=env.general)
    await refused(env, "ana", "new", {"max_players": 7}, "max_players must be at most 4.", channel=env.general)
    await refused(env, "ben", "keywood-settings", {"decision_minutes": 5}, "Only a server admin")


async def test_new_in_a_thread_makes_no_thread_until_the_table_is_accepted(env: Env) -> None:
    def threads() -> list[dict[str, Any]]:
        return [c for c in env.fake.channels.values() if c.get("type") == 11]

    def thread_requests() -> int:
        return len(env.fake.requests_to("POST", r"/channels/\d+/threads") + env.fake.requests_to("DELETE", r".*"))

    # options the table would refuse are refused before any thread is made (so none is deleted: no Manage Threads)
    await refused(env, "ana", "new", {"thread": True, "max_players": 9}, "max_players must be at most 4.")
    await refused(env, "ana", "new", {"thread": True, "game": "tokens", "unlimited_supply": True},
                  "Tokens has no option unlimited_supply.")
    await refused(env, "ana", "new", {"thread": True, "min_players": 4, "max_players": 3},
                  "min_players (4) is more than max_players (3).")
    assert threads() == [] and thread_requests() == 0

    # a channel where Keywood may not create threads: told what is missing, nothing stored or posted
    env.fake.deny_threads(env.games["id"])
    await refused(env, "ana", "new", {"thread": True}, "Create Public Threads",
                  "Send Messages in Threads")
    assert threads() == [] and [r.status for r in env.fake.requests_to("POST", r"/channels/\d+/threads")] == [403]
    env.fake.denied_threads.clear()

    opened = await env.run("ana", "new", {"thread": True})
    assert opened.content == "Table opened."
    await env.fake.wait_for(lambda: env.dms_noted("ana"))  # the DM check (and its record) follows the reply
    (thread,) = threads()
    assert thread["parent_id"] == env.games["id"] and thread["name"] == "Keyper table"
    assert [m.content for m in env.public(thread)] == [
        "Ana opened a Keyper table (2-4 players). Join with `/join`; the host starts with `/start`."]
    assert env.fake.requests_to("DELETE", r".*") == []
    await refused(env, "ben", "start", None, NO_GAME)  # the game lives in the thread, not in #games


async def test_play_refusals_in_a_running_game(env: Env) -> None:
    await env.start_game()
    await refused(env, "zed", "play", {"action": "keyper 1"}, NOT_A_PLAYER)
    await refused(env, "ben", "play", {"action": "keyper 1"}, "It is not your decision now: waiting for Ana")
    await refused(env, "ana", "play", {"action": "keyper 9"}, "Not allowed: There is no board 9")
    await refused(env, "ana", "play", {"action": "play green 1.river boat-2"},
                  "boat-2 is not one of this season's free boats")
    await refused(env, "ana", "play", {"action": "dance wildly"}, "'dance wildly' is not a Keyper action. Try")
    await refused(env, "ana", "play", {"action": ""}, "'' is not a Keyper action.")
    for command in ("hand", "undo"):
        await refused(env, "zed", command, None, NOT_A_PLAYER)
    await refused(env, "zed", "check", {"action": "keyper 1"}, NOT_A_PLAYER)
    await refused(env, "ana", "undo", None, "You can only take back your own last action")
    await refused(env, "zed", "join", None, "This game has already started")
    await refused(env, "ben", "leave", None, "players cannot leave it")
    await refused(env, "ana", "start", None, "This game is already running.")
    await refused(env, "ben", "abandon", None, f"{HOST_ONLY} abandon the game.")
    await refused(env, "cleo", "kick", {"player": env.world.members["ben"], "replacement": env.world.members["zed"]},
                  f"{HOST_ONLY} kick a player.")
    await refused(env, "ana", "kick", {"player": env.world.members["ben"]}, "name a replacement")
    await refused(env, "ana", "kick", {"player": env.world.members["ben"], "replacement": env.world.members["cleo"]},
                  "already playing")

    # /check of an illegal action says no, and moves nothing either
    before = dump(env.path)
    verdict = await env.run("ana", "check", {"action": "keyper 9"})
    assert verdict.ephemeral and verdict.content.startswith("No: There is no board 9")
    assert dump(env.path) == before


async def test_only_the_prompted_player_answers(env: Env) -> None:
    await env.start_game()
    turn = await env.invite()
    join_green = next(c for c in turn.custom_ids if c.endswith(":join green"))
    await refused_click(env, "cleo", join_green, turn, "That choice was offered to another player.")
    await refused_click(env, "zed", join_green, turn, NOT_A_PLAYER)
    await refused_click(env, "ana", join_green, turn, "That choice was offered to another player.")
    await refused(env, "ana", "play", {"action": "join green"}, "It is not your decision now")
    await refused(env, "ana", "undo", None, "Play has passed to another player")
    await env.fake.wait_for(lambda: any(c.startswith("kwi:") for m in env.dms("ben") for c in m.custom_ids))
    invitation = next(m for m in env.dms("ben") if m.custom_ids and m.custom_ids[0].startswith("kwi:"))
    await refused_click(env, "zed", invitation.custom_ids[0], invitation, "This decision is for another player.")
    # Cleo may answer early, but only with an answer she could give: 'join blue' is none
    await refused(env, "cleo", "play", {"action": "join blue"}, "Not allowed: It is not your decision now")


async def test_the_host_or_an_admin_abandons_and_kicks(env: Env) -> None:
    await env.seat_players()
    kicked = await env.run("ana", "kick", {"player": env.world.members["cleo"]})
    assert kicked.content == "Removed."
    assert env.public()[-1].content == f"Cleo was removed from the table.\n<@{env.uid('cleo')}>"
    assert (await env.run("cleo", "join")).content == "You are seated."
    assert (await env.run("mod", "start")).content == "Game started."  # an admin may start for the host
    handed = await env.run("mod", "kick", {"player": env.world.members["cleo"],
                                           "replacement": env.world.members["zed"]})
    assert handed.content == "Seat handed over." and "Zed takes over" in env.public()[-1].content
    assert sql(env.path, "SELECT user_id FROM seats WHERE seat = 2") == [(env.uid("zed"),)]
    assert (await env.run("mod", "abandon")).content == "Game abandoned."
    mentions = " ".join(f"<@{env.uid(n)}>" for n in ("ana", "ben", "zed"))  # the players, told once
    assert env.public()[-1].content == f"Mod abandoned the game.\n{mentions}"
    assert sql(env.path, "SELECT status FROM games") == [("abandoned",)]
    settings = await env.run("mod", "keywood-settings", {"decision_minutes": 30})
    assert settings.content.startswith("Decisions outside one's turn: 30 minutes to answer")


async def test_no_privileged_intents_and_commands_synced_to_the_dev_guild(env: Env) -> None:
    (identify,) = [f for c in env.fake.gateway_connections for f in c.received if f.get("op") == 2]
    assert int(identify["d"]["intents"]) & PRIVILEGED_INTENTS == 0
    names = {c["name"] for c in env.fake.commands(env.guild_id)}
    assert names >= {"new", "join", "leave", "start", "play", "check", "board", "hand", "log", "score", "rules",
                     "undo", "abandon", "kick", "keywood-settings"}
    play = next(c for c in env.fake.commands(env.guild_id) if c["name"] == "play")
    assert play["options"][0]["autocomplete"] is True


class TableGame:
    """A seed-7 game on a bare Table (no Discord): Ana, Ben and Cleo seated in #games of server 1."""

    games = Where("1", "2")
    ana, ben, cleo, zed = Who("11", "Ana"), Who("12", "Ben"), Who("13", "Cleo"), Who("14", "Zed")

    def __init__(self, path: Path) -> None:
        self.store = Store(f"sqlite:///{path}")
        self.table = Table(self.store, images=False)
        for command in (Command(self.games, self.ana, "new", "keyper", {"seed": SEED}),
                        Command(self.games, self.ben, "join"), Command(self.games, self.cleo, "join"),
                        Command(self.games, self.ana, "start")):
            assert self.table.handle(command).ok


@pytest.fixture
def table_game(tmp_path: Path) -> Iterator[TableGame]:
    game = TableGame(tmp_path / "table.db")
    yield game
    game.store.close()


def test_an_answer_given_in_a_dm_reports_the_games_channel(table_game: TableGame) -> None:
    g = table_game
    invited = g.table.handle(Command(g.games, g.ana, "play", "play green 1.pig"))
    ben_prompt = next(n.prompt_id for n in invited.opened if n.user_id == g.ben.user_id)
    answered = g.table.handle(Command(Where("dm", "3"), g.ben, "answer", "decline", prompt_id=ben_prompt))
    assert answered.ok and answered.public
    assert answered.where == g.games


def test_handing_a_seat_over_names_the_player_who_leaves(table_game: TableGame) -> None:
    g = table_game
    options = {"user_id": g.cleo.user_id, "replacement_id": g.zed.user_id, "replacement_name": g.zed.name}
    handed = g.table.handle(Command(g.games, g.ana, "kick", options=options))
    assert handed.ok and handed.public == ["Zed takes over Cleo's seat."]


async def test_long_actions_get_no_button_and_mentions_survive_clipping() -> None:
    view = action_view(1, 2, 3, ["play " + "x" * 120, "decline"])
    assert view is not None and [getattr(item, "custom_id", None) for item in view.children] == ["kw:1:2:3:decline"]
    assert action_view(1, 2, 3, ["y" * 120]) is None  # never a truncated custom_id: it carries the action
    text = with_tail("a log line\n" * 500, "<@42>")
    assert len(text) <= 2000 and text.endswith("…\n<@42>")
