"""Keyper against the extended engine contract (engine/core.py): decisions, the listed view, the viewer's score
and resample_hidden, checked over seeded random play-outs and a few arranged positions."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, fields

import pytest

from engine.core import REACTION, SIMULTANEOUS, TURN, Decision, Rng, clone
from engine.keyper import GAME
from engine.keyper.components import default
from engine.keyper.fairs import holdable
from engine.keyper.state import Player, State
from engine.keyper.vocab import RESOURCES
from tests.keyper.scenario import end_season, goods, table

# (players, seed, rich): rich games start everyone with two of every resource so fairs and housing get decided.
PLAYOUTS = [(2, 1, False), (3, 2, False), (4, 3, False), (2, 4, True), (3, 5, True), (4, 6, True), (2, 7, True),
            (3, 8, True), (4, 9, True)]
SAMPLE_EVERY = 9
SECRET_PHASES = ("fairs", "choose_display")


def opening(players: int, seed: int, rich: bool) -> State:
    """A new game; a rich one has unlimited supply and everyone holds two of every resource."""
    state = GAME.setup([f"P{i}" for i in range(players)], seed, {"unlimited_supply": True} if rich else None)
    if rich:
        for player in state.players:
            for resource in RESOURCES:
                player.goods[resource] = player.goods.get(resource, 0) + 2
    return state


def play_on(state: State, seed: int) -> Iterator[tuple[State, int]]:
    """Play random legal moves in place to the end, yielding (state, seat about to act) before each move."""
    chooser = Rng.from_seed(seed)
    for _ in range(20_000):
        if GAME.is_over(state):
            return
        seats = GAME.to_act(state)
        seat = seats[chooser.below(len(seats))]
        options = GAME.legal_actions(state, seat)
        yield state, seat
        GAME.apply_choice(state, seat, options, chooser.below(len(options)))
    raise AssertionError("the game did not end")


def every_step(players: int, seed: int, rich: bool) -> Iterator[tuple[State, int]]:
    """Every state of one random game, the last (game over) included, with the seat about to act (-1 at the end)."""
    state = opening(players, seed, rich)
    yield from play_on(state, seed)
    yield state, -1


def samples() -> Iterator[State]:
    """Copies of states along every play-out: every SAMPLE_EVERY-th, the last, and all with secret choices open."""
    for players, seed, rich in PLAYOUTS:
        for k, (state, seat) in enumerate(every_step(players, seed, rich)):
            if k % SAMPLE_EVERY == 0 or state.phase in SECRET_PHASES or seat < 0:
                yield clone(state)


@pytest.fixture(scope="module")
def sampled() -> list[State]:
    """The sampled states, shared by the tests of this module (none of them changes a sample)."""
    found = list(samples())
    assert {s.phase for s in found} == {*EXPECTED_KINDS, "game_over"}, "a phase was never sampled"
    return found


def texts(state: State, seat: int, pending: bool = False) -> list[str]:
    """The notations of a seat's legal actions (or, with pending, its answers ahead of its turn)."""
    options = GAME.pending_answers(state, seat) if pending else GAME.legal_actions(state, seat)
    return [GAME.format(a) for a in options]


# --- decisions --------------------------------------------------------------------------------------------

EXPECTED_KINDS = {  # phase: (kind, default, public_choices), as the contract brief fixes them
    "turn": (TURN, None, True), "yields": (TURN, None, True), "pay": (TURN, None, True),
    "joiner": (REACTION, "decline", True),
    "fairs": (SIMULTANEOUS, None, False), "choose_display": (SIMULTANEOUS, None, False),
    "housing": (SIMULTANEOUS, None, True), "rest": (SIMULTANEOUS, None, True),
}


def check_decisions(state: State) -> list[Decision]:
    """Assert the per-state decision contract and return the decisions."""
    found = GAME.decisions(state)
    assert [d.seat for d in found if d.must] == GAME.to_act(state)
    assert len({d.seat for d in found}) == len(found), "a seat has two decisions"
    assert bool(found) != GAME.is_over(state)
    for d in found:
        assert (d.kind, d.default, d.public_choices) == EXPECTED_KINDS[state.phase]
        if d.must:
            answers = GAME.legal_actions(state, d.seat)
        else:
            answers = GAME.pending_answers(state, d.seat)
            assert d.kind == REACTION and answers, "an optional decision needs answers to give ahead"
        if d.default is not None:
            assert GAME.parse(state, d.seat, d.default) in answers
    return found


@pytest.mark.parametrize(("players", "seed", "rich"), PLAYOUTS)
def test_decisions_agree_with_to_act_pending_answers_and_phase(players: int, seed: int, rich: bool) -> None:
    """Contract (engine/core.py Game.decisions, Decision): the must decisions are to_act's seats in order, each
    seat decides at most once, optional ones are invitees with answers to give ahead, the kind, default and
    public_choices follow the phase, and a default is a legal (or pending) answer - at every step of a game."""
    optional = 0
    for state, _ in every_step(players, seed, rich):
        optional += sum(not d.must for d in check_decisions(state))
    if players > 2:
        assert optional, "no invitee ever could answer ahead: the optional branch went untested"


@pytest.mark.parametrize(("players", "seed", "rich"), PLAYOUTS)
def test_decision_keys_are_never_reused_and_hold_while_others_act(players: int, seed: int, rich: bool) -> None:
    """Contract (Decision.key): a (seat, key) once closed never opens again in the game; a turn-kind decision
    closes with its seat's action; a decision open across another seat's action keeps its key."""
    closed: set[tuple[int, str]] = set()
    before: dict[int, Decision] = {}
    actor, phase = -1, ""
    for state, seat in every_step(players, seed, rich):
        now = {d.seat: d for d in GAME.decisions(state)}
        assert not {(d.seat, d.key) for d in now.values()} & closed, "a closed key opened again"
        closed |= {(d.seat, d.key) for d in before.values()} - {(d.seat, d.key) for d in now.values()}
        if actor in before and before[actor].kind == TURN:
            assert (actor, before[actor].key) in closed
        if state.phase == phase:
            for other in set(before) & set(now) - {actor}:
                assert now[other].key == before[other].key, "an open decision changed its key"
        before, actor, phase = now, seat, state.phase


def test_waiting_for_is_built_from_the_decision_phrases(sampled: list[State]) -> None:
    """Contract (Decision.phrase): the phrase says what to do without the name; waiting_for names the seats
    that must decide and adds the same phrase ('waiting for P0 and P2 to hold fairs')."""
    for state in sampled:
        due = [d for d in GAME.decisions(state) if d.must]
        if not due:
            assert GAME.waiting_for(state) == "waiting for nobody: the game is over"
            continue
        assert len({d.phrase for d in due}) == 1
        names = [state.players[d.seat].name for d in due]
        assert all(name not in due[0].phrase for name in names)
        who = " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]
        assert GAME.waiting_for(state) == f"waiting for {who} to {due[0].phrase}"


# --- the view ---------------------------------------------------------------------------------------------

TOP_KEYS = {
    "players", "options", "season", "phase", "active", "start_player", "boards", "display", "bag", "discard",
    "stacks", "boats", "supply", "offer", "payment", "steps", "next_grant", "final_queue", "waiting",
    "last_from_keyp", "boat_took", "boat_sold", "turn", "last_action", "last_space",
    "season_name", "to_act", "waiting_for", "viewer", "legal",
}
PLAYER_KEYS = {
    "name", "keyp", "goods", "tiles", "hidden_fairs", "keyper_home", "keyp_tile", "winter_fairs", "fairground",
    "plots", "plot_keyples", "shipping", "board", "chosen_display",
}
BOARD_KEYS = {"number", "display", "keyper", "boat", "spaces"}


def test_view_keys_are_an_explicit_allow_list(sampled: list[State]) -> None:
    """Contract (Game.view): a view holds exactly these keys, top level, per player and per board; rng is never
    among them, and the bag and stacks are counts."""
    for state in sampled:
        for seat in [None, *range(len(state.players))]:
            view = GAME.view(state, seat)
            assert set(view) == TOP_KEYS
            assert all(set(p) == PLAYER_KEYS for p in view["players"])
            assert all(set(b) == BOARD_KEYS for b in view["boards"])
            assert isinstance(view["bag"], int) and isinstance(view["stacks"], int)


@dataclass
class SecretPlayer(Player):
    """A player record grown by a field nobody has listed in the view."""

    secret_x: int = 1


def test_a_field_nobody_listed_never_reaches_a_view() -> None:
    """Contract (Game.view, 'built by listing what is shown'): a new attribute or even a new dataclass field of
    State or Player appears in no view, public or private, until someone lists it."""
    state = table(3)
    setattr(state, "secret_x", 1)  # noqa: B010 - an attribute the State class does not declare
    setattr(state.players[1], "secret_x", 1)  # noqa: B010
    old = state.players[0]
    state.players[0] = SecretPlayer(**{f.name: getattr(old, f.name) for f in fields(Player)})
    for seat in [None, 0, 1, 2]:
        assert "secret_x" not in json.dumps(GAME.view(state, seat))
    assert "secret_x" in json.dumps(GAME.to_json(state)), "the made-up field should be in the full state"


# --- score ------------------------------------------------------------------------------------------------


def test_score_is_the_same_for_every_viewer_and_every_hidden_deal(sampled: list[State]) -> None:
    """Contract (Game.score: 'a projection never reveals what the viewer may not see'): Keyper's scoring reads
    nothing hidden, so every viewer's projection equals the public one, and stays the same when every hidden
    thing is drawn again."""
    redrawn = 0
    for k, state in enumerate(sampled[::3]):
        other = GAME.resample_hidden(state, None, k)
        redrawn += [p.hidden_fairs for p in other.players] != [p.hidden_fairs for p in state.players]
        public = GAME.score(state, None)
        for viewer in [None, *range(len(state.players))]:
            assert GAME.score(state, viewer) == public
            assert GAME.score(other, viewer) == public
    assert redrawn > 10, "too few states with hidden fairs actually redrawn: the test proves little"


# --- resample_hidden ----------------------------------------------------------------------------------------


def test_a_resampled_state_looks_the_same_to_its_viewer(sampled: list[State]) -> None:
    """Contract (Game.resample_hidden): the input is left unchanged, the viewer's view (None: the public one) is
    identical, the decisions are the same, and the new state round-trips through JSON."""
    for k, state in enumerate(sampled):
        before = json.dumps(GAME.to_json(state))
        for viewer in [None, *range(len(state.players))]:
            other = GAME.resample_hidden(state, viewer, 1000 + k)
            assert GAME.view(other, viewer) == GAME.view(state, viewer), (state.phase, viewer)
            assert GAME.decisions(other) == GAME.decisions(state)
            assert GAME.from_json(json.loads(json.dumps(GAME.to_json(other)))) == other
        assert json.dumps(GAME.to_json(state)) == before, "resample_hidden changed its input"


def hidden_of(state: State, seats: list[int]) -> list[object]:
    """The hidden parts of these seats: face-down fairs and chosen displays."""
    return [(state.players[s].hidden_fairs, state.players[s].chosen_display) for s in seats]


def test_resampling_redraws_what_the_viewer_cannot_see(sampled: list[State]) -> None:
    """Contract (Game.resample_hidden): others' face-down fairs, others' unrevealed displays, the order of the
    bag and the generator are redrawn (at least sometimes), never the viewer's own secrets."""
    changed: Counter[str] = Counter()
    for k, state in enumerate(sampled):
        for viewer in [None, *range(len(state.players))]:
            other = GAME.resample_hidden(state, viewer, k)
            others = [s for s in range(len(state.players)) if s != viewer]
            changed["hidden", viewer is None] += hidden_of(other, others) != hidden_of(state, others)
            if viewer is not None:
                assert hidden_of(other, [viewer]) == hidden_of(state, [viewer])
            if state.phase == "choose_display":
                displays = [other.players[s].chosen_display for s in others]
                changed["display"] += displays != [state.players[s].chosen_display for s in others]
            changed["bag"] += other.bag != state.bag
            assert sorted(other.bag) == sorted(state.bag) and sorted(other.stacks) == sorted(state.stacks)
            assert other.rng != state.rng
    assert all(changed[key] > 5 for key in [("hidden", True), ("hidden", False), "display", "bag"]), changed


def fair_places(state: State) -> Counter[str]:
    """How many places each fair is in: face down with a player or held face up."""
    places: Counter[str] = Counter(f for p in state.players for f in p.hidden_fairs)
    places.update(h.fair for p in state.players for held in p.fairground.values() for h in held)
    return places


def seasons_held(state: State) -> list[Counter[str]]:
    """Per seat, how many face-down fairs of each season it holds."""
    return [Counter(default().fairs[f].kind for f in p.hidden_fairs) for p in state.players]


def test_redealt_fairs_stay_consistent_with_what_everyone_knows(sampled: list[State]) -> None:
    """rulebook p.3 note 13 and p.8 note 3, as resample_hidden must respect them: each seat keeps its number of
    face-down fairs of each season, no fair is in two places, and a seat still deciding on fairs can hold one."""
    for k, state in enumerate(sampled):
        for viewer in [None, *range(len(state.players))]:
            other = GAME.resample_hidden(state, viewer, 7 * k)
            assert seasons_held(other) == seasons_held(state)
            assert max(fair_places(other).values(), default=1) == 1
            if other.phase == "fairs":
                assert all(holdable(other, s) for s in other.waiting)


def test_a_seat_known_to_be_able_to_hold_keeps_a_holdable_fair() -> None:
    """rulebook p.8 note 3: P1 still deciding on fairs with only a pig and clay can only hold spring-2, so every
    redraw leaves it spring-2, while its summer fair (unconstrained) is redrawn."""
    state = table(3, active=0)
    state.players[1].hidden_fairs = ["spring-2", "summer-1", "autumn-1"]
    goods(state, 1, **{r: 0 for r in RESOURCES})
    goods(state, 1, pig=1, clay=1)
    state, _ = end_season(state, 2)
    assert state.phase == "fairs" and 1 in state.waiting
    redrawn = [GAME.resample_hidden(state, None, seed).players[1].hidden_fairs for seed in range(40)]
    assert all(fairs[0] == "spring-2" for fairs in redrawn)
    assert {fairs[1] for fairs in redrawn} != {"summer-1"}


def test_public_choices_do_not_depend_on_hidden_information(sampled: list[State]) -> None:
    """Contract (Decision.public_choices): the choices of a decision marked public read the same whatever the
    hidden information (else channel buttons would leak face-down fairs); the fair choices marked private do
    differ between hidden deals, which is why they are private."""
    private_differs = 0
    for k, state in enumerate(sampled):
        for viewer in [None, *range(len(state.players))]:
            other = GAME.resample_hidden(state, viewer, 31 * k)
            for d in GAME.decisions(state):
                same = texts(other, d.seat, not d.must) == texts(state, d.seat, not d.must)
                if d.public_choices:
                    assert same, (state.phase, d.seat, viewer)
                elif d.seat != viewer:
                    private_differs += not same
    assert private_differs > 0, "secret choices never differed: the public check cannot tell leaks apart"


def test_play_goes_on_from_a_resampled_state_to_the_end(sampled: list[State]) -> None:
    """Contract (Game.resample_hidden): a redrawn state is a real game position: random legal play from it
    reaches the end of the game."""
    for k, state in enumerate(sampled[::6]):
        viewer = k % (len(state.players) + 1) - 1
        other = GAME.resample_hidden(state, None if viewer < 0 else viewer, k)
        for _ in play_on(other, k):
            pass
        assert GAME.is_over(other)
