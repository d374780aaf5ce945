"""The Keyper table image: renders at every stage, stays under 1 MiB, is deterministic, sees only public data.

Golden images live in tests/render/golden/: each NAME.json holds the input (a public view, or a scoreboard)
and NAME.png the image it gave. Rewrite both after an intended change of the picture with
    python -m pytest tests/render -q -p no:cacheprovider --regen-golden
and look at the new PNGs before committing them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.core import PlayerScore, Scoreboard, ScoreLine, clone
from engine.keyper import GAME
from engine.keyper.components import default
from engine.keyper.state import HeldFair, Keyple, Offer, Plot, State
from engine.playout import random_playout
from render import draw as d
from render.keyper import render, render_scoreboard
from render.keyper.holdings import chip_cost
from render.keyper.layout import CHIP_COLS, CHIP_GAP, CHIP_H
from render.keyper.legend import reconstructed_note
from tests.render.golden_images import GOLDEN, compare_golden, png

MiB = 1 << 20
NAMES = ["Ana", "Ben", "Cy", "Dee"]
STAGE_SEED = 3


def stage_states(seed: int = STAGE_SEED) -> dict[str, State]:
    """A seeded 4-player random game at setup, mid-season with a joiner offer, choosing displays, and over."""
    found: dict[str, State] = {"setup": GAME.setup(NAMES, seed)}

    def hook(state: State, seat: int, action: object) -> None:
        if state.phase == "joiner" and state.season >= 1 and "joiner" not in found:
            found["joiner"] = clone(state)
        if state.phase == "choose_display" and "choose_display" not in found:
            found["choose_display"] = clone(state)

    final, _ = random_playout(GAME, NAMES, seed, on_step=hook)
    found["game_over"] = final
    return found


@pytest.fixture(scope="module")
def stages() -> dict[str, State]:
    """The stage states, played once for the module."""
    return stage_states()


# --- Every stage -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", ["setup", "joiner", "choose_display", "game_over"])
def test_each_stage_renders_a_png_under_a_mebibyte(stages: dict[str, State], stage: str) -> None:
    state = stages[stage]
    assert state.phase == {"setup": "turn"}.get(stage, stage)
    view = GAME.view(state, None)
    highlight = f"{state.offer.board}.{state.offer.field}" if state.offer else None
    data = render(view, highlight=highlight)
    image = png(data)
    assert image.width == 1600
    assert len(data) < MiB


def test_the_joiner_stage_has_an_open_offer(stages: dict[str, State]) -> None:
    view = GAME.view(stages["joiner"], None)
    assert view["offer"] is not None and view["season"] >= 1


@pytest.mark.parametrize("players", [2, 3])
def test_smaller_tables_render(players: int) -> None:
    final, _ = random_playout(GAME, NAMES[:players], 11)
    for state in (GAME.setup(NAMES[:players], 11), final):
        assert len(render(GAME.view(state, None))) < MiB


def test_built_plots_keyp_tile_and_fairs_render(stages: dict[str, State]) -> None:
    state = decorate(clone(stages["joiner"]))
    plain = render(GAME.view(stages["joiner"], None))
    assert render(GAME.view(state, None)) != plain


def test_compact_size_leaves_out_the_player_panels(stages: dict[str, State]) -> None:
    view = GAME.view(stages["joiner"], None)
    full, compact = png(render(view)), png(render(view, size="compact"))
    assert compact.width == full.width and compact.height < full.height / 2
    with pytest.raises(ValueError, match="unknown size"):
        render(view, size="huge")


# --- Tiles to build -----------------------------------------------------------------------------------------


def chip_cost_pixels(cost: dict[str, int], marked: bool) -> bytes:
    """A build cost drawn alone on a blank strip the size of a tile chip's cost row."""
    _, draw = d.canvas(110, 18, d.PANEL)
    chip_cost(draw, cost, marked, (0, 0, 110, 18))
    return d.finished(draw).convert("RGB").tobytes()


def test_a_chip_draws_the_cost_and_marks_a_reconstructed_one() -> None:
    blank = d.finished(d.canvas(110, 18, d.PANEL)[1]).convert("RGB").tobytes()
    plain = chip_cost_pixels({"log": 1, "rock": 1}, marked=False)
    assert plain != blank
    assert chip_cost_pixels({"log": 1, "rock": 1}, marked=True) != plain
    assert chip_cost_pixels({"log": 2, "rock": 1}, marked=False) != plain
    assert chip_cost_pixels({"log": 1, "any_raw": 1}, marked=False) != plain  # a white 'any' icon, not rock


def test_the_panels_grow_a_row_when_someone_holds_more_tiles_than_two_rows() -> None:
    view = GAME.view(GAME.setup(NAMES, 2), None)
    base = png(render(view)).height
    spare = [t for t in default().tiles if t not in view["players"][0]["tiles"]]
    view["players"][0]["tiles"] += spare[: 2 * CHIP_COLS - len(view["players"][0]["tiles"])]
    assert png(render(view)).height == base  # two full rows still fit
    view["players"][0]["tiles"].append(spare[2 * CHIP_COLS])
    assert png(render(view)).height == base + 2 * (CHIP_H + CHIP_GAP)  # one more row in each of the two panel rows


def test_the_legend_says_what_is_reconstructed() -> None:
    note = reconstructed_note()
    assert note.startswith("build cost reconstructed")
    assert "board layouts" in note and "boat cargo" in note and "field colours except pig" in note


# --- Determinism and highlight -----------------------------------------------------------------------------


def test_the_same_view_gives_the_same_bytes(stages: dict[str, State]) -> None:
    view = GAME.view(stages["joiner"], None)
    first = render(view, highlight="1.keyp")
    assert render(view, highlight="1.keyp") == first
    assert render(json.loads(json.dumps(view)), highlight="1.keyp") == first


def test_highlight_outlines_a_field_or_an_active_players_plot(stages: dict[str, State]) -> None:
    view = GAME.view(stages["joiner"], None)
    plain = render(view)
    board = view["boards"][0]
    field = next(f.id for f in default().display(board["display"]).fields if f.kind not in ("keyp", "river"))
    assert render(view, highlight=f"1.{field}") != plain
    assert render(view, highlight="v3") != plain


def test_the_last_placement_on_a_plot_is_outlined_on_its_owners_panel(stages: dict[str, State]) -> None:
    """A keyple played onto Ana's plot f8 stays outlined on Ana's f8 after play has passed to Ben (issue: the
    outline followed the player to act), and 'f8@seat' names whose plot it is."""
    view = GAME.view(stages["joiner"], None)
    active = int(view["active"])
    other = (active + 1) % len(view["players"])
    on_active = render(view | {"last_space": f"f8@{active}"})
    assert on_active == render(view | {"last_space": ""}, highlight="f8")
    assert render(view | {"last_space": f"f8@{other}"}) not in (on_active, render(view | {"last_space": ""}))


@pytest.mark.parametrize("bad", ["9.pig", "1.nowhere", "x.pig", "v99", "pig", "", "v3@9", "v3@x"])
def test_a_highlight_naming_no_space_is_refused(stages: dict[str, State], bad: str) -> None:
    with pytest.raises(ValueError, match="highlight"):
        render(GAME.view(stages["joiner"], None), highlight=bad)


# --- Public information only -------------------------------------------------------------------------------


def test_a_seats_private_view_is_refused(stages: dict[str, State]) -> None:
    with pytest.raises(ValueError, match="public view"):
        render(GAME.view(stages["joiner"], 0))


@pytest.mark.parametrize(
    "leak",
    [
        lambda v: v.update(viewer=2),
        lambda v: v.update(rng=12345),
        lambda v: v.update(bag=["mine", "kiln"]),
        lambda v: v["players"][1].update(hidden_fairs=["spring-1", "summer-2"]),
        lambda v: v["players"][0].update(chosen_display="summer-2"),
    ],
    ids=["viewer", "rng", "bag-list", "hidden-fair-list", "chosen-display"],
)
def test_a_view_carrying_hidden_information_is_refused(stages: dict[str, State], leak: Any) -> None:
    view = GAME.view(stages["joiner"], None)
    leak(view)
    with pytest.raises(ValueError, match="public view"):
        render(view)


def swap_hidden(state: State) -> State:
    """The same table with different hidden information: other face-down fairs, bag order, generator, choices."""
    other = clone(state)
    fairs = default().fairs
    for player in other.players:  # each face-down fair becomes the next fair of its kind
        kinds = [[f for f in sorted(fairs) if fairs[f].kind == fairs[h].kind] for h in player.hidden_fairs]
        player.hidden_fairs = [k[(k.index(h) + 1) % len(k)] for k, h in zip(kinds, player.hidden_fairs, strict=True)]
        if player.chosen_display is not None:
            season = default().display(player.chosen_display).seasons
            player.chosen_display = next(d.id for d in default().displays
                                         if d.seasons == season and d.id != player.chosen_display)
    other.bag = list(reversed(state.bag))
    other.stacks = list(reversed(state.stacks))
    other.rng = state.rng ^ 0x5DEECE66D
    return other


@pytest.mark.parametrize("stage", ["setup", "joiner", "choose_display"])
def test_hidden_information_does_not_change_the_image(stages: dict[str, State], stage: str) -> None:
    state = stages[stage]
    if stage == "choose_display" and all(p.chosen_display is None for p in state.players):
        state = clone(state)
        state.players[0].chosen_display = default().displays_by_season[
            GAME.view(state, None)["season_name"]][0].id
    other = swap_hidden(state)
    assert [p.hidden_fairs for p in other.players] != [p.hidden_fairs for p in state.players]
    assert other.bag != state.bag
    assert render(GAME.view(other, None)) == render(GAME.view(state, None))


# --- Scoreboard --------------------------------------------------------------------------------------------


def sample_scoreboard() -> Scoreboard:
    """A final scoreboard with a tie settled by the tie-break."""
    return Scoreboard(
        (
            PlayerScore(2, "Cy", (ScoreLine("shipping track", 6), ScoreLine("spring fair spring-3", 3),
                                  ScoreLine("autumn fair winter-2", 6), ScoreLine("buildings", 9))),
            PlayerScore(0, "Ana", (ScoreLine("shipping track", 10), ScoreLine("summer fair summer-5", 4),
                                   ScoreLine("buildings", 10))),
            PlayerScore(3, "Dee", (ScoreLine("shipping track", 2), ScoreLine("buildings", 7))),
            PlayerScore(1, "Ben", ()),
        ),
        final=True,
        tie_break="Cy and Ana both have 24 points; Cy has more resources left over.",
    )


def test_scoreboard_renders_deterministically() -> None:
    board = sample_scoreboard()
    data = render_scoreboard(board)
    assert png(data).width == 1000 and len(data) < MiB
    assert render_scoreboard(board) == data
    projected = render_scoreboard(GAME.score(GAME.setup(NAMES, 1), None))
    assert png(projected).height < png(data).height


# --- Golden images -----------------------------------------------------------------------------------------


def decorate(state: State) -> State:
    """Build plots, rest keyples on keyp tiles and hold fairs, so a table shows every kind of thing."""
    ana, ben, cy = state.players[0], state.players[1], state.players[2]
    ana.plots.update(f1=Plot("cow_shed"), f2=Plot("pig_sty", upgraded=True), v1=Plot("brickmaker", upgraded=True),
                     v5=Plot("alchemist", under="scrapyard"), v6=Plot("cluck_cluck_chicken_house"))
    ana.plot_keyples["v1"] = [Keyple("orange"), Keyple("white", lying=True)]
    ana.keyp_tile = [Keyple("grey"), Keyple("white", lying=True)]
    ana.fairground = {"spring": [HeldFair("spring-3", 3)], "summer": [HeldFair("summer-2", 2)]}
    ana.winter_fairs = ["winter-2"]
    ben.plots.update(f3=Plot("stable"), v3=Plot("carpenter"), v12=Plot("game_wardens_cottage"))
    ben.fairground = {"summer": [HeldFair("winter-1", 4)]}
    cy.plots.update(v2=Plot("stonemason", upgraded=True), v4=Plot("village_hall"))
    cy.plot_keyples["v2"] = [Keyple("grey")]
    for player in state.players:
        player.tiles = [t for t in player.tiles if t not in {p.tile for p in player.plots.values()}]
    return state


def autumn_table() -> tuple[dict[str, Any], str]:
    """A hand-set 4-player autumn table with a joiner offer open; returns its public view and highlight."""
    state = GAME.setup(NAMES, 5)
    state.season = 2
    for board in state.boards:
        board.display = f"autumn-winter-{board.number}"
    for player in state.players:
        player.hidden_fairs = [f for f in player.hidden_fairs if default().fairs[f].kind == "autumn"]
    state.boats = ["boat-1", "boat-3", "boat-5", "boat-6"]
    b1, b2, b3, b4 = state.boards
    b1.keyper, b1.boat = 2, "boat-3"
    b1.spaces = {"emerald": [Keyple("black"), Keyple("white", lying=True)], "build": [Keyple("orange")],
                 "river": [Keyple("blue")]}
    b2.spaces = {"convert_clay": [Keyple("orange"), Keyple("white")], "ruby": [Keyple("black", lying=True)]}
    b3.keyper, b3.boat = 0, "boat-5"
    b3.spaces = {"sheep": [Keyple("green"), Keyple("green", lying=True)], "clay": [Keyple("orange")]}
    b4.spaces = {"horse": [Keyple("green")], "convert_log": [Keyple("brown"), Keyple("brown", lying=True)]}
    state.players[0].keyper_home = state.players[2].keyper_home = False
    state.players[0].board, state.players[2].board = 3, 1
    state.players[0].keyp = {"blue": 1, "orange": 0, "green": 1, "brown": 1, "black": 0, "grey": 0, "white": 2}
    state.players[2].keyp = {"blue": 0, "orange": 0, "green": 0, "brown": 1, "black": 0, "grey": 0, "white": 1}
    state.display = ["mine", "winter-4", "kiln", "copse", "jeweller", "winter-7", "hunters_lodge", "village_hall"]
    state.bag = state.bag[:9]
    decorate(state)
    for seat, extra in enumerate(({"clay": 3, "wood": 2, "emerald": 1, "pig": 2, "wheat": 1},
                                  {"rock": 4, "stone": 1, "cow": 1, "sheep": 2},
                                  {"log": 2, "gold": 1, "sapphire": 2, "horse": 1},
                                  {})):
        state.players[seat].goods.update(extra)
    state.players[0].shipping, state.players[1].shipping = 6, 2
    state.phase, state.active, state.turn = "joiner", 1, 61
    state.offer = Offer(board=4, field="horse", colour="green", candidates=[3, 2, 0], index=0)
    state.last_action = "Ben: play green 4.horse"
    return GAME.view(state, None), "4.horse"


def setup_table() -> tuple[dict[str, Any], str | None]:
    """A two-player table straight after setup."""
    return GAME.view(GAME.setup(["Ana", "Ben"], 2), None), None


def scoreboard_data(board: Scoreboard) -> dict[str, Any]:
    """A scoreboard as JSON-ready data."""
    return {"final": board.final, "tie_break": board.tie_break,
            "players": [{"seat": p.seat, "name": p.name, "lines": [[x.label, x.points] for x in p.lines]}
                        for p in board.players]}


def scoreboard_from(data: dict[str, Any]) -> Scoreboard:
    """Rebuild a scoreboard from scoreboard_data's output."""
    return Scoreboard(tuple(PlayerScore(p["seat"], p["name"], tuple(ScoreLine(a, b) for a, b in p["lines"]))
                            for p in data["players"]), data["final"], data["tie_break"])


GOLDEN_TABLES = {"autumn_4p_offer": autumn_table, "setup_2p": setup_table}


@pytest.mark.parametrize("name", sorted(GOLDEN_TABLES))
def test_table_matches_golden(name: str, regen_golden: bool, tmp_path: Path) -> None:
    source = GOLDEN / f"{name}.json"
    if regen_golden:
        view, highlight = GOLDEN_TABLES[name]()
        source.write_text(json.dumps({"highlight": highlight, "view": view}, indent=1, sort_keys=True) + "\n")
    stored = json.loads(source.read_text())
    data = render(stored["view"], highlight=stored["highlight"])
    if regen_golden:
        (GOLDEN / f"{name}.png").write_bytes(data)
    compare_golden(name, data, tmp_path)


def test_scoreboard_matches_golden(regen_golden: bool, tmp_path: Path) -> None:
    source = GOLDEN / "scoreboard.json"
    if regen_golden:
        source.write_text(json.dumps(scoreboard_data(sample_scoreboard()), indent=1) + "\n")
    data = render_scoreboard(scoreboard_from(json.loads(source.read_text())))
    if regen_golden:
        (GOLDEN / "scoreboard.png").write_bytes(data)
    compare_golden("scoreboard", data, tmp_path)
