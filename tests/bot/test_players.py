"""What players get from the table beyond the rules: repeated units in one command, what each answer to an
invitation would do, and the game's end pinging everyone (issue "Keyper as players live it")."""

from __future__ import annotations

from bot.table import Outcome, Table
from engine.core import Playout, replay
from engine.keyper import GAME
from engine.playout import chosen_moves, random_playout
from tests.bot.helpers import ANA, BEN, CLEO, PLAYERS, Started, cmd, dump, log_rows, read_state, start_game


def test_an_invitation_says_what_each_answer_would_do(started: Started) -> None:
    """The invitation names the play, the field, the keyples one may join with and what one would earn; a later
    invitee hears what their answers do once those before them decline."""
    outcome = started.play(ANA, "play green 1.pig")
    ben, cleo = sorted(outcome.opened, key=lambda note: note.seat)
    assert "Ana plays a green keyple onto the pig field on board 1." in ben.text
    assert "• join green: Ben joins with a green keyple." in ben.text
    assert "Ben earns 3 pigs from the pig field on board 1." in ben.text
    assert "• decline: Ben declines to join." in ben.text
    assert "• join white: Cleo joins with a white keyple." in cleo.text and "Cleo earns 3 pigs" in cleo.text


def test_repeated_units_in_one_command(started: Started) -> None:
    """`take pig x3` takes three pig units, each logged as its own small action; a count past what is possible
    changes nothing and says how far it would have got."""
    started.play(ANA, "play green 1.pig")
    started.play(BEN, "decline")
    started.play(CLEO, "decline")
    state = started.state()
    assert GAME.to_act(state) == [0]
    units = sum(1 for step in state.steps if step.seat == 0)
    before = dump(started.path)
    too_many = started.table.handle(cmd(ANA, "play", f"take pig x{units + 1}"))
    assert not too_many.ok and f"could be done only {units} of {units + 1} times" in too_many.reply
    assert dump(started.path) == before
    rows = len(log_rows(started.table, started.game_id))
    done = started.play(ANA, f"take pig x{units}")
    assert done.reply == f"Done: take pig ×{units}."
    assert [r[3] for r in log_rows(started.table, started.game_id)[rows:]] == ["take pig"] * units
    assert started.table.verify(started.game_id)[0] == "same"


def test_a_repeat_that_passes_the_turn_on_is_refused_whole(started: Started) -> None:
    """`join green x2`: the first join ends Ben's decision, so the second cannot follow; nothing is applied.
    (A game's own notation that ends in a count, like Keyper's `laydown 1.clay x2`, is read as an action first:
    tests/bot/test_concurrency.py plays such lay-downs.)"""
    started.play(ANA, "play green 1.pig")
    before = dump(started.path)
    refused = started.table.handle(cmd(BEN, "play", "join green x2"))
    assert not refused.ok and "only 1 of 2 times" in refused.reply
    assert dump(started.path) == before


def test_a_lone_decision_with_one_possible_answer_is_played_by_the_table(table: Table) -> None:
    """In the seed-766 game Cleo's `skip` leaves her a turn whose only legal action is `keyper 1`: the table
    plays it, says so, logs it as Keywood's, and her undo takes back both (issue: fewer clicks)."""
    _, record = random_playout(GAME, ["Ana", "Ben", "Cleo"], 766)
    prefix = Playout(["Ana", "Ben", "Cleo"], 766, {}, record.actions[:123])
    assert record.actions[122] == (2, "skip") and record.actions[123] == (2, "keyper 1")
    game_id = start_game(table, seed=766).game_id or 0
    outcome = Outcome(False)
    for seat, text in chosen_moves(GAME, prefix):
        outcome = table.handle(cmd(PLAYERS[seat], "play", text))
        assert outcome.ok, outcome.reply
    assert "Cleo has only one possible choice, so Keywood plays it: keyper 1." in outcome.public
    assert log_rows(table, game_id)[-2:][0][2:4] == (CLEO.user_id, "skip")
    assert log_rows(table, game_id)[-1][2:4] == ("auto", "keyper 1")
    undone = table.handle(cmd(CLEO, "undo"))
    assert undone.ok and "Cleo takes back 'skip'." in undone.public
    assert [r[3] for r in log_rows(table, game_id, include_undone=True)[-2:]] == ["skip", "keyper 1"]
    assert all(r[4] for r in log_rows(table, game_id, include_undone=True)[-2:]), "both are undone"
    assert GAME.to_json(read_state(table, game_id)[0]) == GAME.to_json(
        replay(GAME, Playout(["Ana", "Ben", "Cleo"], 766, {}, record.actions[:122])))


def test_units_taken_in_a_row_come_as_one_button_too(started: Started) -> None:
    """When Ana alone takes both pig units, the channel offers `take pig x2` beside `take pig` and `skip`."""
    started.play(ANA, "play green 1.pig")
    started.play(BEN, "decline")
    outcome = started.play(CLEO, "decline")
    assert outcome.choices == {ANA.user_id: ["take pig", "take pig x2", "skip"]}
    assert started.play(ANA, "take pig x2").reply == "Done: take pig ×2."


def test_autocomplete_groups_many_actions_by_their_first_words(started: Started) -> None:
    """948 actions do not fit Discord's 25 suggestions: the first words come in groups, narrowing as one types."""
    from tests.bot.helpers import WHERE

    first = started.table.suggest(WHERE, ANA.user_id, "")
    assert "play green" in first and "keyper 1" in first and len(first) <= 25
    narrower = started.table.suggest(WHERE, ANA.user_id, "play green")
    assert len(narrower) == 25 and "play green 1.pig" in narrower
    assert started.table.suggest(WHERE, ANA.user_id, "green 1.pig") == ["play green 1.pig"]


def test_rules_names_a_tile_and_rules_alone_lists_the_topics(started: Started) -> None:
    """`rules alchemist` describes the tile with its costs and marks what is reconstructed (it found nothing
    before); `rules` with no topic lists the topics instead of refusing ''."""
    alchemist = started.table.handle(cmd(ANA, "rules", "alchemist"))
    assert alchemist.ok and "**Alchemist**" in alchemist.reply and "Build cost" in alchemist.reply
    assert "Reconstructed" in alchemist.reply
    topics = started.table.handle(cmd(ANA, "rules"))
    assert topics.ok and topics.reply.startswith("Keyper rules topics: ") and "Joiners" in topics.reply
