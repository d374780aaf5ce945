"""engine.core.clone (engine.records): every game's states along play-outs, and odd shapes of data, are copied whole
and independently: the copy equals the original, shares no list, dict, set or record with it, and changing the copy
leaves the original as it was."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.games import GameEntry
from engine.core import clone
from engine.playout import random_playout
from tests.contract.kit import each_game, setups

MUTABLE = (list, dict, set)


def mutable_parts(value: Any) -> list[Any]:
    """Every list, dict, set and record (frozen ones are not changed, so not counted) inside a value, the value
    included, depth first."""
    found: list[Any] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, MUTABLE) or (hasattr(item, "__dataclass_fields__")
                                         and not item.__dataclass_params__.frozen):
            found.append(item)
        if isinstance(item, dict):
            stack += item.values()
        elif isinstance(item, list | tuple | set):
            stack += item
        elif hasattr(item, "__dataclass_fields__"):
            stack += vars(item).values()
    return found


def assert_independent_copy(original: Any, copied: Any) -> None:
    """The copy equals the original, keeps each part's type, and shares none of its mutable parts."""
    assert copied == original
    mine, theirs = mutable_parts(original), mutable_parts(copied)
    assert [type(p) for p in mine] == [type(p) for p in theirs]
    assert not {id(p) for p in mine} & {id(p) for p in theirs}


@each_game()
def test_states_along_playouts_are_copied_whole_and_apart(entry: GameEntry) -> None:
    """A copy of every state met in two play-outs equals it (also as JSON) and shares nothing mutable with it."""
    game = entry.engine
    for setup in setups(entry, 2, first_seed=71):
        seen: list[Any] = []
        random_playout(game, list(setup.players), setup.seed, options=setup.options,
                       on_step=lambda state, seat, action, keep=seen.append: keep(clone(state)))
        for state in seen[::3]:
            copied = clone(state)
            assert_independent_copy(state, copied)
            assert json.dumps(game.to_json(copied), sort_keys=True) == json.dumps(game.to_json(state), sort_keys=True)


@each_game()
def test_playing_on_a_copy_leaves_the_original_as_it_was(entry: GameEntry) -> None:
    """The table applies a move to a copy in place: the state it was copied from does not change."""
    game = entry.engine
    setup = setups(entry, 1, first_seed=83)[0]
    state = game.setup(setup.players, setup.seed, setup.options)
    for _ in range(40):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        before = json.dumps(game.to_json(state), sort_keys=True)
        after = clone(state)
        game.apply_choice(after, seat, legal, len(legal) - 1)
        assert json.dumps(game.to_json(state), sort_keys=True) == before
        state = after


plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda inner: (st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4)
                   | st.tuples(inner, inner) | st.frozensets(st.integers(), max_size=3)
                   | st.sets(st.integers(), max_size=3)),
    max_leaves=30)


@given(plain)
def test_plain_data_of_any_shape_is_copied_apart(value: Any) -> None:
    """Lists, dicts, tuples and sets nested in any way: an equal copy sharing nothing mutable."""
    assert_independent_copy(value, clone(value))


@dataclass
class Leaf:
    """A record with scalar fields only."""

    name: str
    count: int = 0


@dataclass
class Tree:
    """A record whose declared field types do not always match what they hold."""

    leaves: list[Leaf]
    tally: dict[str, int]
    spare: Leaf | None = None
    loose: Any = None
    tags: list[str] = field(default_factory=list)


def test_records_are_copied_by_what_they_hold_not_only_by_their_declared_types() -> None:
    """A Counter where a dict is declared stays a Counter; a set in an Any field is copied; a None is kept."""
    tree = Tree([Leaf("a"), Leaf("b", 2)], Counter(x=1), None, {"nested": [Leaf("c"), {1, 2}]}, ["t"])
    copied = clone(tree)
    assert_independent_copy(tree, copied)
    assert type(copied.tally) is Counter
    copied.leaves[0].count = 5
    copied.loose["nested"][1].add(3)
    copied.tags.append("u")
    assert tree == Tree([Leaf("a"), Leaf("b", 2)], Counter(x=1), None, {"nested": [Leaf("c"), {1, 2}]}, ["t"])


@dataclass(frozen=True)
class Stone:
    """A frozen record of scalars: nothing in it can change."""

    colour: str
    lying: bool = False


@dataclass(frozen=True)
class Cairn:
    """A frozen record holding a list: the list can change, so the record is copied."""

    stones: list[Stone]


@dataclass
class Field:
    """A record holding frozen records, declared and not."""

    stones: list[Stone]
    cairn: Cairn
    loose: Any = None


def test_frozen_records_of_shared_values_are_shared_and_the_rest_copied() -> None:
    """A frozen record holding only scalars is the same object in the copy (Keyper's keyples: laying one down puts a
    new keyple in its place); one holding a list is copied with its list; a mutable record in a frozen one's place
    is still copied."""
    stone = Stone("red")
    original = Field([stone, Stone("blue", True)], Cairn([stone]), loose=[Stone("white")])
    copied = clone(original)
    assert_independent_copy(original, copied)
    assert copied.stones[0] is stone and copied.loose[0] is original.loose[0]
    assert copied.cairn is not original.cairn and copied.cairn.stones[0] is stone
    copied.stones[0] = Stone("red", True)
    assert original.stones[0] == Stone("red")
    odd = Field([Leaf("x")], Cairn([]))  # type: ignore[list-item]  # a mutable record where a frozen one is declared
    assert clone(odd).stones[0] is not odd.stones[0]


@dataclass
class Nest:
    """A record whose fields hold nested plain data (lists of lists, a field typed Any)."""

    grid: list[list[int]]
    loose: Any = None
    table: dict[str, dict[str, Any]] = field(default_factory=dict)
    flat: list[str] = field(default_factory=list)


@given(plain, plain)
def test_nested_plain_fields_are_copied_whole_and_apart(loose: Any, inner: Any) -> None:
    """Fields of nested plain data (tuples, sets and frozensets in them included) are copied equal, each part of the
    type it had, sharing nothing with the original."""
    nest = Nest([[1, 2], []], loose, {"a": {"b": inner}}, ["x"])
    copied = clone(nest)
    assert_independent_copy(nest, copied)
    copied.grid[0].append(3)
    copied.table["a"]["c"] = 1
    assert nest.grid == [[1, 2], []] and nest.table == {"a": {"b": inner}}


def test_records_and_counters_inside_nested_plain_fields_are_copied_as_what_they_are() -> None:
    """A record or a Counter inside a field of nested plain data is copied as what it is, the other fields too."""
    nest = Nest([[1]], [Leaf("a")], {"a": Counter(x=2)})
    copied = clone(nest)
    assert_independent_copy(nest, copied)
    assert type(copied.table["a"]) is Counter and type(copied.loose[0]) is Leaf
