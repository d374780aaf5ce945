"""What players get from the table beyond the rules: repeated units in one command, what each answer to an
invitation would do, and the game's end pinging everyone (issue "Keyper as players live it")."""

from __future__ import annotations

from engine.keyper import GAME
from tests.bot.helpers import ANA, BEN, CLEO, Started, cmd, dump, log_rows


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
