"""Building with a keyple played onto the tile being built (rulebook p.13 note 4 (v); p.15 and p.16 on building
over a tile; p.4 2a on two keyples a plot; ruling K-27).

Positions are arranged with the scenario helpers; every move then goes through GAME.parse and GAME.apply, and what
is allowed is read from the seat's legal actions, the single source of truth.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from engine.keyper import GAME
from engine.keyper.state import State
from tests.keyper.scenario import build, claim_all, give, goods, have, legal, play, run, table, texts
from tests.keyper.test_economy_fields import builder_table, not_legal
from tests.keyper.test_scoring_tiles import seat_score


def keyples_on(state: State, plot: str) -> list[tuple[str, bool]]:
    """(colour, lying) of the keyples on one of seat 0's plots."""
    return [(k.colour, k.lying) for k in state.players[0].plot_keyples.get(plot, [])]


def test_a_keyple_played_onto_an_empty_plot_builds_a_tile_there() -> None:
    """rulebook p.13 note 4 (v) (ruling K-27): a keyple may go onto an empty plot of the player's own board and
    build a tile there at its printed cost; the keyple then stands on the new tile and nobody may join."""
    state = builder_table(wood=1, clay=1)
    assert "play grey v1 build brickmaker" in legal(state, 0)
    not_legal(state, 0, "play grey f1 build brickmaker", "play grey v1 build windmill")
    state, events = play(state, 0, "play grey v1 build brickmaker")
    assert state.players[0].plots["v1"].tile == "brickmaker"
    assert keyples_on(state, "v1") == [("grey", False)]
    assert (have(state, 0, "wood"), have(state, 0, "clay")) == (0, 0)
    assert not any(t.startswith("Joiners") for t in texts(events)) and GAME.to_act(state) == [1]


def test_k27_a_keyple_builds_directly_wherever_a_build_action_could_but_as_no_third_keyple() -> None:
    """Ruling K-27 (p.13 note 4 (v), p.15, p.4 2a): the plots a keyple may build the brickmaker on directly are
    exactly those a build action could put it on (empty plots and tiles not yet built over), less a plot whose
    tile already holds two keyples."""
    state = builder_table(wood=1, clay=1)
    build(state, 0, "v1", "carpenter")
    build(state, 0, "v2", "drainage")
    state.players[0].plots["v2"] = replace(state.players[0].plots["v2"], under="stonemason")
    build(state, 0, "v3", "scrapyard", "green", "grey/lying")
    build(state, 0, "v4", "pavements", "green")
    direct = {a.split()[2] for a in legal(state, 0) if a.endswith(" build brickmaker")}
    by_action, _ = play(copy.deepcopy(state), 0, "play grey 1.build")
    built = {a.split()[2] for a in legal(by_action, 0) if a.startswith("build brickmaker ")}
    assert {"v1", "v3", "v4"} <= built and "v2" not in built
    assert direct == built - {"v3"}


def test_k27_a_keyple_builds_directly_over_a_tile_with_no_keyple_on_it() -> None:
    """Ruling K-27, rulebook p.15 Overbuilding: "Players are allowed to build over existing building tiles"; the
    new tile goes on top and "Do not discard the building tile underneath". The keyple stands on the new tile, its
    action was the build, and nobody is asked to join."""
    state = builder_table(wood=1, clay=1)
    build(state, 0, "v1", "carpenter")
    assert "play grey v1 build brickmaker" in legal(state, 0)
    state, events = play(state, 0, "play grey v1 build brickmaker")
    plot = state.players[0].plots["v1"]
    assert (plot.tile, plot.under) == ("brickmaker", "carpenter")
    assert keyples_on(state, "v1") == [("grey", False)]
    assert "P0 builds the Brickmaker on plot v1, over the Carpenter." in texts(events)
    assert not any(t.startswith("Joiners") for t in texts(events)) and GAME.to_act(state) == [1]


def test_k27_a_direct_overbuild_costs_the_new_tiles_printed_cost() -> None:
    """Ruling K-27, rulebook p.15: "the build cost will remain the same": building the brickmaker (wood and clay)
    over the carpenter (stone and log) costs the brickmaker's printed cost, whatever the tile underneath cost."""
    state = builder_table(stone=1, log=1)
    build(state, 0, "v1", "carpenter")
    not_legal(state, 0, "play grey v1 build brickmaker")
    refusal = GAME.check(state, 0, GAME.parse(state, 0, "play grey v1 build brickmaker"))
    assert "costs 1 wood and 1 clay" in refusal.reason
    goods(state, 0, wood=1, clay=1)
    verdict = GAME.check(state, 0, GAME.parse(state, 0, "play grey v1 build brickmaker"))
    assert verdict.legal and "P0 pays 1 wood." in verdict.outcome and "P0 pays 1 clay." in verdict.outcome
    state, _ = play(state, 0, "play grey v1 build brickmaker")
    held = {r: have(state, 0, r) for r in ("wood", "clay", "stone", "log")}
    assert held == {"wood": 0, "clay": 0, "stone": 1, "log": 1}


def test_k27_a_keyple_on_the_tile_built_over_moves_onto_the_new_tile_beside_the_builder() -> None:
    """Ruling K-27, rulebook p.16 Building tiles continued: "A player can overbuild a building tile even if there
    is a keyple on the tile being overbuilt", the keyple is put back "onto the new tile" and may later be laid
    down to work it; overbuilt tiles "are no longer operational" and "do not score points". The grey builder
    joins nobody, so it need not match the green keyple already there."""
    state = table(3, active=0)
    claim_all(state)
    for seat in range(3):
        give(state, seat)
    give(state, 0, grey=1)
    give(state, 2, white=1)  # seat 2 plays the season's last keyple, so seat 0 gets a closing lay-down
    goods(state, 0, brick=0, stone=0, wood=1, clay=3)
    build(state, 0, "v1", "key_market", "green")
    assert seat_score(state) == {"Key market": 3}
    assert "play grey v1" not in legal(state, 0) and "play grey v1 build brickmaker" in legal(state, 0)
    state, events = play(state, 0, "play grey v1 build brickmaker")
    assert state.players[0].plots["v1"].under == "key_market"
    assert keyples_on(state, "v1") == [("green", False), ("grey", False)]
    assert "beside the keyple on the old tile, which moves onto the new one" in texts(events)[0]
    assert seat_score(state) == {}
    state, _ = run(state, [(2, "play white 2.wheat"), (2, "skip")])
    assert legal(state, 0) == ["laydown v1", "laydown v1 x2"]
    state, _ = play(state, 0, "laydown v1")
    options = legal(state, 0)
    assert "exchange clay for brick" in options  # the brickmaker works
    assert not any(o.startswith("exchange clay+clay") for o in options)  # the key market does not


def test_k27_no_direct_build_over_a_tile_built_over_already() -> None:
    """Ruling K-27, rulebook p.15: "Each building tile can only be overbuilt once", so a plot holding two tiles
    takes no direct build either; the refusal says why."""
    state = builder_table(wood=1, clay=1)
    build(state, 0, "v1", "drainage")
    state.players[0].plots["v1"] = replace(state.players[0].plots["v1"], under="stonemason")
    not_legal(state, 0, "play grey v1 build brickmaker")
    assert "play grey v2 build brickmaker" in legal(state, 0)
    verdict = GAME.check(state, 0, GAME.parse(state, 0, "play grey v1 build brickmaker"))
    assert "built over only once" in verdict.reason


def test_k27_no_direct_build_where_two_keyples_stand() -> None:
    """Ruling K-27, rulebook p.4 2a: a keyple cannot be played onto a plot "that already contains two keyples",
    even to build over its tile; a build action may still build over it (p.16), keeping both keyples."""
    state = builder_table(wood=1, clay=1)
    build(state, 0, "v1", "carpenter", "green", "grey/lying")
    not_legal(state, 0, "play grey v1 build brickmaker")
    verdict = GAME.check(state, 0, GAME.parse(state, 0, "play grey v1 build brickmaker"))
    assert "already holds two keyples" in verdict.reason
    state, _ = run(state, [(0, "play grey 1.build"), (0, "build brickmaker v1")])
    assert state.players[0].plots["v1"].tile == "brickmaker"
    assert keyples_on(state, "v1") == [("green", False), ("grey", True)]
