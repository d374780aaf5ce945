"""Tokens' own rules, notation, views, renderer, texts and rules document, and Tokens at a real table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import games, rules
from bot.store import Store
from bot.table import Command, Outcome, Table, Where, Who
from engine.core import REACTION, SIMULTANEOUS, TURN, IllegalAction, InvalidAction
from tests.toygame import ENTRY, GAME, TokensState, render, texts
from tests.toygame.game import COPIES, Allow, Object, Pass, Pick, Take

NAMES = ["Ana", "Ben", "Cleo"]


def arranged(hands: list[list[int]], deck: list[int] | None = None, rounds: int = 3) -> TokensState:
    """A round-1 pick state with these hands and deck (the rest as setup leaves it)."""
    n = len(hands)
    deck = [5, 6, 7] if deck is None else deck
    return TokensState(names=NAMES[:n], rng=1, rounds=rounds, round=1, phase="pick", deck=deck,
                       hands=[list(h) for h in hands], picks=[None] * n, revealed=[], won=[[] for _ in range(n)],
                       objections=[0] * n)


def play(state: TokensState, *moves: tuple[int, str]) -> list[str]:
    """Apply (seat, notation) moves in place; returns every event text."""
    found = []
    for seat, text in moves:
        found += [e.text for e in GAME.apply_in_place(state, seat, GAME.parse(state, seat, text))]
    return found


def test_setup_deals_three_hidden_cards_from_a_shuffled_deck() -> None:
    """Tokens rules §1: two copies of 1-9 in all, three cards a seat, the deal depending on the seed."""
    state = GAME.setup(NAMES, 4)
    assert [len(h) for h in state.hands] == [3, 3, 3] and len(state.deck) == 9
    everything = Counter(state.deck + [c for h in state.hands for c in h])
    assert everything == Counter({card: COPIES for card in range(1, 10)})
    assert GAME.setup(NAMES, 5).hands != state.hands
    assert GAME.to_json(GAME.setup(NAMES, 4)) == GAME.to_json(state)


def test_setup_refuses_bad_player_counts_and_options() -> None:
    """Tokens rules §1: 2-3 players; the only option is fast (two rounds)."""
    with pytest.raises(ValueError):
        GAME.setup(["Ana"], 1)
    with pytest.raises(ValueError):
        GAME.setup(NAMES + ["Dev"], 1)
    with pytest.raises(ValueError, match="Unknown Tokens option"):
        GAME.setup(NAMES, 1, {"slow": True})
    assert GAME.setup(NAMES, 1, {"fast": True}).rounds == 2


def test_picks_stay_secret_until_everyone_has_picked() -> None:
    """Tokens rules §2: a pick is a simultaneous secret decision; the public sees who picked, never what."""
    state = arranged([[9, 2, 3], [4, 5, 6], [7, 8, 1]])
    decisions = GAME.decisions(state)
    assert [(d.seat, d.kind, d.must, d.public_choices, d.default) for d in decisions] == [
        (s, SIMULTANEOUS, True, False, None) for s in range(3)]
    _, events = GAME.apply(state, 1, Pick(5))
    assert [(e.text, e.to) for e in events] == [("You pick 5.", (1,)), ("Ben has picked a card.", None)]
    play(state, (1, "pick 5"))
    public = GAME.view(state, None)
    assert public["picked"] == [False, True, False] and "5" not in str(public["revealed"])
    assert "hand" not in public and "pick" not in public
    assert GAME.view(state, 1)["pick"] == 5 and GAME.view(state, 1)["hand"] == [4, 6]
    assert GAME.view(state, 0)["pick"] is None
    assert GAME.to_act(state) == [0, 2]
    assert GAME.public_notation(Pick(5)) == "pick (secret)"


def test_reveal_scores_the_highest_pick_and_ties_go_to_the_lowest_seat() -> None:
    """Tokens rules §2: the picks are shown together; the highest wins its value; a tie goes to the earliest seat."""
    state = arranged([[2, 7, 1], [7, 3, 3], [4, 4, 5]])
    events = play(state, (2, "pick 5"), (1, "pick 7"), (0, "pick 7"))
    assert events[-1] == "Round 1 picks: Ana 7, Ben 7, Cleo 5. Ana wins the round and scores 7."
    assert GAME.view(state, None)["points"] == [7, 0, 0] and state.winner == 0
    decisions = GAME.decisions(state)
    assert [(d.seat, d.kind, d.key, d.public_choices) for d in decisions] == [(0, TURN, "draw:1", True)]
    assert GAME.is_undo_barrier(arranged([[2, 7, 1], [7, 3, 3], [4, 4, 5]]), state)


def test_an_objection_costs_the_winner_a_point_and_ends_the_window() -> None:
    """Tokens rules §3: after a take, the others answer clockwise from the winner; an objection costs 1 point."""
    state = arranged([[1, 2, 3], [9, 4, 4], [5, 6, 6]], deck=[8, 1])
    play(state, (0, "pick 1"), (1, "pick 9"), (2, "pick 5"))
    _, events = GAME.apply(state, 1, Take())
    assert [(e.text, e.to) for e in events] == [("You draw a 8.", (1,)), ("Ben draws a card.", None)]
    play(state, (1, "take"))
    assert [(d.seat, d.kind, d.must, d.default) for d in GAME.decisions(state)] == [
        (2, REACTION, True, "allow"), (0, REACTION, False, "allow")]
    assert GAME.pending_answers(state, 0) == [Object(), Allow()] and GAME.legal_actions(state, 0) == []
    assert GAME.parse(state, 0, "object") == Object()  # an answer ahead reads, though apply waits for seat 2
    with pytest.raises(IllegalAction, match="not your decision"):
        GAME.apply(state, 0, Object())
    assert play(state, (2, "object"))[0] == "Cleo objects: Ben loses a point."
    assert GAME.view(state, None)["points"] == [0, 8, 0] and state.round == 2 and state.phase == "pick"


def test_when_everyone_allows_the_draw_stands() -> None:
    """Tokens rules §3: if every other seat allows, nothing happens to the winner."""
    state = arranged([[1, 2, 3], [9, 4, 4], [5, 6, 6]], deck=[8, 1])
    events = play(state, (0, "pick 1"), (1, "pick 9"), (2, "pick 5"), (1, "take"), (2, "allow"), (0, "allow"))
    assert events[-3:] == ["Ana allows.", "Nobody objects.", "Round 2: everyone picks a card in secret."]
    assert GAME.view(state, None)["points"] == [0, 9, 0] and sorted(state.hands[1]) == [4, 4, 8]


def test_an_empty_deck_leaves_only_pass() -> None:
    """Tokens rules §3: the winner may take only while the deck has a card."""
    state = arranged([[1, 2], [9, 4]], deck=[])
    play(state, (0, "pick 1"), (1, "pick 9"))
    assert GAME.legal_actions(state, 1) == [Pass()]
    with pytest.raises(IllegalAction, match="deck is empty") as refused:
        GAME.parse(state, 1, "take")
    assert refused.value.rule == "Tokens rules §3" and refused.value.alternatives == ["pass"]


def test_the_game_ends_after_the_last_round_with_a_final_scoreboard() -> None:
    """Tokens rules §4: fast plays two rounds; the final scoreboard ranks by points, ties by seat, explained."""
    state = arranged([[5, 1, 1], [5, 2, 2]], deck=[3, 3], rounds=2)
    play(state, (0, "pick 1"), (1, "pick 2"), (1, "pass"), (0, "pick 5"), (1, "pick 5"))
    assert not GAME.is_over(state)
    board = GAME.score(state, None)
    assert not board.final
    play(state, (0, "pass"))
    assert GAME.is_over(state) and GAME.decisions(state) == [] and GAME.waiting_for(state).endswith("game is over")
    board = GAME.score(state, None)
    assert board.final and [p.name for p in board.players] == ["Ana", "Ben"]
    assert [p.total for p in board.players] == [5, 2]
    tied = arranged([[2, 1], [1, 2]], deck=[3], rounds=2)
    play(tied, (0, "pick 2"), (1, "pick 1"), (0, "pass"), (0, "pick 1"), (1, "pick 2"), (1, "pass"))
    board = GAME.score(tied, None)
    assert board.final and [(p.name, p.total) for p in board.players] == [("Ana", 2), ("Ben", 2)]
    assert board.tie_break == "Ana and Ben tie on 2; the earlier seat ranks first (Tokens rules §4)."


def test_notation_reads_and_refuses() -> None:
    """Tokens notation: unreadable text is InvalidAction, readable but illegal text is IllegalAction with a rule."""
    state = arranged([[9, 2, 3], [4, 5, 6]])
    assert GAME.parse(state, 0, "  PICK 9 ") == Pick(9)
    for text in ("fly", "pick", "pick nine", ""):
        with pytest.raises(InvalidAction):
            GAME.parse(state, 0, text)
    with pytest.raises(IllegalAction, match="You hold no 7") as refused:
        GAME.parse(state, 0, "pick 7")
    assert refused.value.rule == "Tokens rules §2" and refused.value.alternatives == ["pick 2", "pick 3", "pick 9"]
    with pytest.raises(IllegalAction, match="Now is the time to pick a card"):
        GAME.parse(state, 0, "take")
    assert [GAME.format(a) for a in (Pick(3), Take(), Pass(), Object(), Allow())] == [
        "pick 3", "take", "pass", "object", "allow"]
    verdict = GAME.check(state, 0, Pick(12))
    assert not verdict.legal and verdict.rule == "Tokens rules §2"


def test_check_describes_a_reveal_without_showing_it() -> None:
    """Tokens /check: the last pick's verdict says the picks are revealed, not what the others picked."""
    state = arranged([[9, 2, 3], [4, 5, 6]])
    play(state, (1, "pick 6"))
    verdict = GAME.check(state, 0, Pick(2))
    assert verdict.legal and verdict.outcome == ("Then the picks are revealed.",)
    assert "6" not in " ".join(verdict.outcome)


def test_from_json_refuses_other_data() -> None:
    """Tokens state data: from_json refuses what to_json did not write."""
    bad: list[dict[str, object]] = [{"names": []}, {"nonsense": 1}]
    for data in bad:
        with pytest.raises(ValueError):
            GAME.from_json(data)


def test_renderers_draw_pngs_from_the_public_view_only() -> None:
    """Tokens renderer: PNG bytes of the public view and of a scoreboard; a seat's view is refused."""
    state = GAME.setup(NAMES, 2)
    assert render.render(GAME.view(state, None)).startswith(b"\x89PNG")
    assert render.render_scoreboard(GAME.score(state, None)).startswith(b"\x89PNG")
    with pytest.raises(ValueError, match="public view"):
        render.render(GAME.view(state, 1))


def test_texts_show_the_table_and_a_hand() -> None:
    """Tokens texts: the board names everyone's points and hand sizes; a hand names the seat's cards."""
    state = arranged([[9, 2, 3], [4, 5, 6]])
    play(state, (1, "pick 6"))
    board = texts.board(GAME.view(state, None))
    assert "Ana: 0 points, 3 cards" in board and "Ben: 0 points, 2 cards, picked" in board and "6" not in board
    hand = texts.hand(GAME.view(state, 1), 1)
    assert hand.startswith("Ben, your hand: 4, 5.") and "Your secret pick: 6." in hand


def test_rules_document_parses_and_answers_topics() -> None:
    """Tokens rules document: bot/rules.py reads its four sections and finds one by topic."""
    assert rules.topics("tokens") == ["Setup", "Picking", "Drawing and objections", "End of the game"]
    found = rules.lookup("tokens", "objection")
    assert found and found[0].source == "Tokens rules §3"


def test_registry_keeps_keyper_as_the_default() -> None:
    """Registration (tests/conftest.py): Tokens is registered after Keyper, which stays the default game."""
    assert games.get("tokens") is ENTRY
    ids = [e.id for e in games.all_games()]
    assert ids[0] == "keyper" == games.default().id and ids.count("tokens") == 1


# --- at a real table ---------------------------------------------------------------------------------------

WHERE = Where("guild-tokens", "channel-tokens")
ANA, BEN, CLEO = (Who(f"u-{n.lower()}", n) for n in NAMES)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """A Table on a fresh SQLite file, with images on (Tokens images are cheap)."""
    store = Store(f"sqlite:///{tmp_path / 'tokens.db'}")
    yield Table(store)
    store.close()


def send(table: Table, who: Who, verb: str, arg: str = "", **options: object) -> Outcome:
    """A command at the Tokens table."""
    return table.handle(Command(WHERE, who, verb, arg, options=dict(options)))


def stored(table: Table) -> TokensState:
    """The channel's stored Tokens state."""
    with table.store.transaction() as tx:
        row = tx.live_game(WHERE.guild_id, WHERE.channel_id)
        assert row is not None and row.id is not None and row.game == "tokens"
        data = tx.snapshot(row.id)
        assert data is not None
        return GAME.from_json(data)


def test_a_tokens_table_keeps_an_answer_given_ahead(table: Table) -> None:
    """Tokens at a table: `new tokens`, secret picks (private replies), a take, and a later seat's early `object`
    kept until its turn, then applied after the first seat allows."""
    assert send(table, ANA, "new", "tokens", seed=3, fast="yes").ok
    assert send(table, BEN, "join").ok and send(table, CLEO, "join").ok
    start = send(table, ANA, "start")
    assert start.ok and start.image is not None
    players = {ANA.user_id, BEN.user_id, CLEO.user_id}
    assert start.private == {}, "each hand comes once, inside the player's secret-pick decision"
    assert {n.user_id for n in start.opened} == players and all("your hand" in n.text.lower() for n in start.opened)
    assert stored(table).rounds == 2
    state = stored(table)
    for seat, who in enumerate((ANA, BEN, CLEO)):
        pick = max(state.hands[seat])
        outcome = send(table, who, "play", f"pick {pick}")
        assert outcome.ok, outcome.reply
        assert not any(f"pick {pick}" in line for line in outcome.public)
    state = stored(table)
    winner = state.winner
    assert winner is not None and state.phase == "draw"
    people = (ANA, BEN, CLEO)
    assert send(table, people[winner], "play", "take").ok
    first, later = (people[(winner + k) % 3] for k in (1, 2))
    kept = send(table, later, "play", "object")
    assert kept.ok and kept.reply.startswith("Answer kept: 'object'")
    assert stored(table).phase == "react"
    applied = send(table, first, "play", "allow")
    assert applied.ok
    text = "\n".join(applied.public)
    assert f"{first.name} allows." in text and f"{later.name} objects" in text
    after = stored(table)
    assert after.objections[winner] == 1 and after.round == 2 and after.phase == "pick"
    score = send(table, first, "score").reply
    assert score.startswith("Projected score") and "Objections -1" in score
    assert "Tokens rules §3" in send(table, ANA, "rules", "objection").reply
