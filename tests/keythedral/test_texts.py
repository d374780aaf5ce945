"""Keythedral's chat texts and rules documents: the public table, one seat's hand, `rules NAME` for components,
the rules summary docs/rules/keythedral.md (format, lookups, our own words) and the T-n rulings it cites.

The views here are built by hand after the shared spec's public view; they stand in until the engine's views
replace them.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import games, rules
from bot.games import GameEntry, Texts
from engine.keythedral import lookup, texts
from engine.keythedral.lookup import DISCORD_SAFE, LAWS, describe, names
from engine.keythedral.texts import DAGGER, RECONSTRUCTED_NOTE, board, cost_text, hand, held_laws

REPO = Path(__file__).resolve().parents[2]
SUMMARY = REPO / "docs" / "rules" / "keythedral.md"
RULINGS = REPO / "docs" / "rulings.md"
SOURCE = REPO.parent / "shared" / "rules-sources" / "keythedral-rules.txt"
LAW_TITLES = [law.title for law in LAWS]


# --- A hand-built view (round 2, phase 3, three players) -------------------------------------------------------


def cubes(**counts: int) -> dict[str, int]:
    """A full cube mapping with the given counts."""
    found = dict.fromkeys(("black", "brown", "blue", "green", "red", "white", "purple", "yellow"), 0)
    found.update(counts)
    return found


TAKEN = (("1.1", 0), ("1.2", 1), ("1.3", 2), ("1.4", 0), ("2.3", 1))  # the seats bought so far, and by whom
SCREENS: list[dict[str, Any]] = [  # what stands behind each screen (ruling T-1)
    {"cubes": {"black": 2, "red": 1, "yellow": 1}, "cube_count": 4, "points": 2,
     "tiles": [{"space": "1.1", "stage": 1}, {"space": "1.4", "stage": 1}]},
    {"cubes": {}, "cube_count": 0, "points": 3, "tiles": [{"space": "1.2", "stage": 1}, {"space": "2.3", "stage": 2}]},
    {"cubes": {"green": 3, "blue": 1}, "cube_count": 4, "points": 1, "tiles": [{"space": "1.3", "stage": 1}]},
]


def mat(shown: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    """Stage 1 bought out, stage 2 on sale with a price increase on 2.2, stages 3-5 face down; who took a seat (and
    its tile) only for the screens in `shown`."""
    spaces: list[dict[str, Any]] = []
    for stage, slots in ((1, 4), (2, 4), (3, 4), (4, 3), (5, 2)):
        for slot in range(1, slots + 1):
            spaces.append({"space": f"{stage}.{slot}", "stage": stage, "face_up": stage <= 2, "tile": None,
                           "cost": None, "reconstructed": True, "taken": False, "taken_by": None,
                           "price_change": 0})
    for space, seat in TAKEN:
        entry = next(s for s in spaces if s["space"] == space)
        entry["taken"] = True
        if seat in shown:
            entry.update(taken_by=seat, tile=f"b{space[0]}-1")
    costs = {"2.1": ["black", "brown", "green", "green", "blue", "blue"],
             "2.2": ["black", "black", "brown", "brown", "green", "blue"],
             "2.4": ["black", "brown", "brown", "green", "blue", "blue"]}
    for space, cost in costs.items():
        next(s for s in spaces if s["space"] == space).update(cost=cost, tile=f"b2-{space[-1]}")
    next(s for s in spaces if s["space"] == "2.2")["price_change"] = 1
    return spaces


def public_view(open_screens: bool = False, shown: frozenset[int] = frozenset()) -> dict[str, Any]:
    """A public view after the spec's layout: the screens closed (T-1) unless open_screens; `shown`: the screens the
    viewer sees behind anyway (its own)."""
    if open_screens:
        shown = frozenset(range(3))
    players: list[dict[str, Any]] = [
        {"seat": 0, "name": "Ana", "colour": "blue", "laws_held": 2, "procured": True, "passed": False},
        {"seat": 1, "name": "Ben", "colour": "yellow", "laws_held": 0, "procured": False, "passed": True},
        {"seat": 2, "name": "Cy", "colour": "grey", "laws_held": 1, "procured": False, "passed": False},
    ]
    for seat in shown:
        players[seat].update(SCREENS[seat], cubes=cubes(**SCREENS[seat]["cubes"]))
    return {
        "game": "keythedral", "viewer": None, "names": ["Ana", "Ben", "Cy"], "colours": ["blue", "yellow", "grey"],
        "round": 2, "variation": {"two_player": False, "no_laws": False, "open_tiles": False},
        "open_screens": open_screens,
        "phase": "actions", "step": "turn", "start_player": 1, "to_act": [2],
        "waiting_for": "waiting for Cy to spend cubes or pass", "keythedral": "M13+",
        "fields": [{"at": "M13", "x": 12, "y": 12, "terrain": "quarry", "back": 1},
                   {"at": "N14", "x": 13, "y": 13, "terrain": "quarry", "back": 1},
                   {"at": "N13", "x": 13, "y": 12, "terrain": "woods", "back": 1},
                   {"at": "M14", "x": 12, "y": 13, "terrain": "woods", "back": 1},
                   {"at": "M12", "x": 12, "y": 11, "terrain": "lake", "back": 2},
                   {"at": "L13", "x": 11, "y": 12, "terrain": "vineyard", "back": 3}],
        "drawn_field": None, "field_stack": 0,
        "cottages": [{"seat": 0, "colour": "blue", "number": 1, "at": "M12+", "x": 12, "y": 11, "house": True},
                     {"seat": 0, "colour": "blue", "number": 2, "at": "L12+", "x": 11, "y": 11, "house": False},
                     {"seat": 1, "colour": "yellow", "number": 1, "at": "N13+", "x": 13, "y": 12, "house": False},
                     {"seat": 2, "colour": "grey", "number": 4, "at": "L13+", "x": 11, "y": 12, "house": False}],
        "fences": [{"seat": 1, "colour": "yellow", "square": "M12+", "field": "M12"}],
        "fences_left": [3, 2, 3],
        "workers": [{"seat": 0, "colour": "blue", "field": "N13", "cottage": 1},
                    {"seat": 2, "colour": "grey", "field": "L13", "cottage": 4}],
        "work_order": [], "current_number": None,
        "mat": mat(shown), "stage": 2, "craftsmen": {"white": 10, "purple": 9, "yellow": 10},
        "store": cubes(black=14, brown=17, blue=15, green=12, red=15, purple=1),
        "law_spaces": [True, False], "law_stack": 15, "laws_played": ["Start Order"],
        "players": players,
        "bids": [], "effects": ["House Moratorium: only Ana may build houses this round"],
        "pending": None,
    }


def seat_view(seat: int, laws: list[Any], legal: list[str] | None = None) -> dict[str, Any]:
    """The seat's own view: the public one, with what stands behind its own screen, its law cards and legal moves."""
    view = public_view(shown=frozenset({seat}))
    view["viewer"] = seat
    view["laws"] = laws
    view["legal"] = legal or []
    return view


# --- The public table ----------------------------------------------------------------------------------------


def test_the_board_opens_with_round_phase_start_player_and_whom_it_waits_for() -> None:
    first = board(public_view()).splitlines()[0]
    assert first == ("**Keythedral**, round 2, phase 3 (spending). Start player: Ben (yellow). "
                     "Waiting for Cy to spend cubes or pass.")


def test_the_mat_shows_costs_of_face_up_tiles_taken_spaces_and_face_down_counts() -> None:
    """Ruling T-1: a tile taken goes behind its buyer's screen, so the public mat shows the space taken, not by
    whom (the log says who bought it, as the table saw it happen)."""
    text = board(public_view())
    assert "Keythedral mat, stage 2 on sale:" in text
    assert "- Stage 1 (1 pt each): 1.1 taken; 1.2 taken; 1.3 taken; 1.4 taken" in text
    assert (f"- Stage 2 (2 pts each): 2.1 black + brown + 2 blue + 2 green{DAGGER}; "
            f"2.2 2 black + 2 brown + blue + green{DAGGER} (+1 by law); 2.3 taken; "
            f"2.4 black + 2 brown + 2 blue + green{DAGGER}") in text
    assert "- Stage 3 (3 pts each): 4 face down" in text
    assert "- Stage 5 (5 pts each): 2 face down" in text
    assert text.splitlines()[-1] == RECONSTRUCTED_NOTE


def test_no_reconstructed_note_when_no_cost_shown_is_reconstructed() -> None:
    view = public_view()
    for space in view["mat"]:
        space["reconstructed"] = False
    text = board(view)
    assert DAGGER not in text and RECONSTRUCTED_NOTE not in text


def test_the_board_shows_craftsmen_store_laws_and_players() -> None:
    """Ruling T-1: the players' lines show how many law cards each holds and what they did in the open; their
    cubes and seats stay behind the screen."""
    text = board(public_view())
    assert ("Craftsmen: blacksmith 10 white (any 2 cubes, `smith`), glassmaker 9 purple (any 3 cubes, `glass`), "
            "goldsmith 10 yellow (any 4 cubes, `gold`).") in text
    assert "Store: black 14, brown 17, blue 15, green 12, red 15; used craft cubes: purple 1." in text
    assert "New laws: 1 on offer (face down), 15 in the stack. Played: Start Order." in text
    assert "- Ana (blue): cubes and seats behind the screen; 2 law cards; 3 fences left; procured a law" in text
    assert ("- Ben (yellow, start player): cubes and seats behind the screen; 0 law cards; 2 fences left; "
            "passed") in text
    assert "In force: House Moratorium: only Ana may build houses this round." in text
    assert "Open screens" not in text


def test_with_open_screens_the_board_shows_every_players_cubes_and_seats() -> None:
    """Ruling T-1, table option open_screens: every player's cubes, seats and points are on the board, and who took
    each seat."""
    text = board(public_view(open_screens=True))
    assert "Open screens (table option): everyone's cubes and seats are shown." in text
    assert ("- Ana (blue): 2 pts (1.1, 1.4); 4 cubes: black 2, red 1, yellow 1; 2 law cards; 3 fences left; "
            "procured a law") in text
    assert "- Ben (yellow, start player): 3 pts (1.2, 2.3); 0 cubes: none; 0 law cards; 2 fences left; passed" in text
    assert "- Stage 1 (1 pt each): 1.1 Ana; 1.2 Ben; 1.3 Cy; 1.4 Ana" in text
    assert "behind the screen" not in text


def test_the_board_shows_fields_workers_cottages_and_fences_compactly() -> None:
    text = board(public_view())
    assert ("Fields (Keythedral M13+): quarry M13, N14; woods N13 (blue1), M14; lake M12; vineyard L13 (grey4)."
            in text)
    assert "Cottages: blue 1 M12+ house, 2 L12+; yellow 1 N13+; grey 4 L13+." in text
    assert "Fences: yellow M12+|M12." in text


def test_the_board_hides_what_the_public_view_hides() -> None:
    """Ruling T-1: law cards only as counts; no player's cubes, seats or points; the tiles face down show no cost."""
    text = board(public_view())
    assert "laws" not in public_view()
    assert not any(title in text for title in LAW_TITLES if title != "Start Order" and title != "House Moratorium")
    rows = [line for line in text.splitlines() if line.startswith(("- Ana", "- Ben", "- Cy"))]
    assert len(rows) == 3 and not any(word in row for row in rows for word in ("pt", "black", "green", "1.1"))


def test_work_order_bids_set_up_and_variations_show_when_they_matter() -> None:
    view = public_view()
    view.update(phase="workers", current_number=1,
                work_order=[{"marker": 2, "number": 1, "seat": 2}, {"marker": 1, "number": 3, "seat": 1}])
    assert "Work order: 1st on 3 (Ben), 2nd on 1 (Cy); placing for 1." in board(view)
    view.update(phase="bidding", bids=[{"seat": 0, "bid": 1}, {"seat": 1, "bid": None}])
    assert "Bids: Ana 1, Ben passed." in board(view)
    view.update(phase="setup", drawn_field={"terrain": "lake", "back": 2}, field_stack=9)
    assert "Field to lay: lake (back 2); 9 left in the stack." in board(view)
    view["variation"] = {"two_player": True, "no_laws": True, "open_tiles": True}
    text = board(view)
    assert "Variations: two players, no laws, open tiles." in text
    assert "New laws" not in text and "law card" not in text


def test_unplaced_cottages_are_counted_in_set_up() -> None:
    view = public_view()
    view["cottages"].append({"seat": 2, "colour": "grey", "number": 5, "at": None, "x": None, "y": None,
                             "house": False})
    assert "grey 4 L13+ (1 to lay)" in board(view)


def test_cost_text_counts_repeats_in_cube_order() -> None:
    assert cost_text(["yellow", "black", "green", "black"]) == "2 black + green + yellow"
    assert cost_text([]) == "nothing"


# --- One seat's hand -----------------------------------------------------------------------------------------


def test_the_hand_lists_law_cards_with_when_to_play_them_and_the_seat_holdings() -> None:
    text = hand(seat_view(0, ["Sale", "Work Order"], ["law sale gold", "pass"]), 0)
    lines = text.splitlines()
    assert lines[0] == "Ana (blue), what you hold behind your screen:"
    assert "- **Work Order**: at the start of phase 1 (`law work-order`)." in lines
    assert "- **Sale**: on your phase-3 turn (`law sale gold`)." in lines
    assert lines.index("- **Work Order**: at the start of phase 1 (`law work-order`).") < lines.index(
        "- **Sale**: on your phase-3 turn (`law sale gold`).")
    assert "Cubes (4): black 2, red 1, yellow 1." in lines
    assert "Seats: 1.1 (stage 1), 1.4 (stage 1); 2 points." in lines
    assert "You procured a law this round: no more phase-3 turns until next round." in lines
    assert lines[-1] == "You may: law sale gold, pass"


def test_the_hand_reads_law_cards_by_their_titles() -> None:
    """The seat's view lists its law cards by title (engine.keythedral.view); a title no card has is an error, not a
    card left out."""
    assert [card.key for card in held_laws(seat_view(2, ["Sale", "Repeal Law"]))] == ["repeal", "sale"]
    repeal = lookup.law("repeal")
    assert repeal is not None
    assert f"- **Repeal Law**: {repeal.when} (`law repeal`)." in hand(seat_view(2, ["Repeal Law"]), 2)
    with pytest.raises(KeyError):
        held_laws(seat_view(2, ["repeal"]))


def test_a_hand_with_no_law_cards_says_so_and_variation_two_leaves_them_out() -> None:
    view = seat_view(1, [])
    assert "Law cards: none." in hand(view, 1)
    assert "Seats: 1.2 (stage 1), 2.3 (stage 2); 3 points." in hand(view, 1)
    view["variation"]["no_laws"] = True
    assert "Law cards" not in hand(view, 1)


def test_a_long_list_of_moves_is_cut() -> None:
    legal = [f"fence blue1 X{i}" for i in range(30)]
    text = hand(seat_view(2, [], legal), 2)
    assert text.splitlines()[-1].endswith("… and 10 more")


def test_texts_do_not_change_the_view() -> None:
    view = seat_view(0, ["Sale"], ["pass"])
    before = copy.deepcopy(view)
    board(view)
    hand(view, 0)
    assert view == before


# --- The component lookup ------------------------------------------------------------------------------------


def test_every_law_card_is_found_by_key_title_and_law_key_in_any_case() -> None:
    for card in LAWS:
        text = describe(card.title)
        assert text is not None and text.startswith(f"**{card.title}** (law card {card.number})")
        for spelling in (card.key, card.key.upper(), f"  {card.title.lower()} ", f"law {card.key}",
                         card.key.replace("-", "_")):
            assert describe(spelling) == text, spelling
        assert f"`{card.example}`" in text and f"rules: Appendix, law card {card.number}" in text


def test_law_keys_and_titles_match_the_component_data() -> None:
    """The law table agrees with the spec's law list as the engine loads it."""
    components = pytest.importorskip("engine.keythedral.components")
    loaded = [(card.number, card.key, card.title) for card in components.COMPONENTS.laws]
    assert loaded == [(card.number, card.key, card.title) for card in LAWS]


def test_law_examples_are_the_spec_notation() -> None:
    assert [card.example.split()[1] for card in LAWS] == [card.key for card in LAWS]
    assert lookup.law("10") == lookup.law("Repeal Law") == lookup.LAW_BY_KEY["repeal"]
    assert lookup.law("chess") is None


@pytest.mark.parametrize(("name", "starts"), [
    ("quarry", "**Quarry** (grey field tile, 6 in the game"), ("quarries", "**Quarry**"),
    ("Woods", "**Woods** (brown field tile, 8"), ("vineyard", "**Vineyard** (red field tile, 5"),
    ("black", "**Black cube** (stone)"), ("stone", "**Black cube**"), ("timber", "**Brown cube**"),
    ("Purple cube", "**Purple cube** (stained glass)"), ("glass", "**Purple cube**"), ("gold", "**Yellow cube**"),
    ("iron", "**White cube** (ironwork)"), ("blacksmith", "**Blacksmith** (forge)"), ("smith", "**Blacksmith**"),
    ("forge", "**Blacksmith**"), ("glassmaker", "**Glassmaker** (glassworks)"), ("workshop", "**Goldsmith**"),
    ("trader", "**Trader**"), ("Law master", "**Law master**"), ("fences", "**Fence**"), ("house", "**House**"),
    ("cottage", "**Cottage**"),
])
def test_components_are_described(name: str, starts: str) -> None:
    text = describe(name)
    assert text is not None and text.startswith(starts), text


def test_cubes_say_what_they_are_worth_and_craftsmen_what_they_ask() -> None:
    assert "Counts 1 in bids, 4 in the tie-break." in (describe("yellow") or "")
    assert "Also a player colour." in (describe("blue") or "") and "player colour" not in (describe("black") or "")
    assert "for any 3 cubes" in (describe("glassmaker") or "") and "Sale makes it 1." in (describe("glassmaker") or "")
    assert "(T-11)" in (describe("goldsmith") or "")


@pytest.mark.parametrize("name", ["chess", "", "   ", "phase 3", "relocation", "work order card", "grey"])
def test_other_names_are_left_to_the_rules_sections(name: str) -> None:
    assert describe(name) is None


def test_names_are_unique_described_and_fit_discord() -> None:
    found = names()
    assert len(found) == len(set(found)) == 20 + 5 + 8 + 3 + 5
    assert found[:20] == LAW_TITLES
    for name in found:
        text = describe(name)
        assert text is not None and len(text) < DISCORD_SAFE, name


def test_descriptions_point_to_a_rules_topic_that_is_no_component(keythedral_entry: GameEntry) -> None:
    """Each component has a rules topic that says more (lookup.more); describe() does not answer the topic, a rules
    section does. The descriptions name no command: the bot offers the topic with its own."""
    for name in names():
        topic = lookup.more(name)
        assert topic, name
        assert describe(topic) is None, topic
        assert rules.lookup(keythedral_entry.id, topic), topic
        assert "`/" not in (describe(name) or ""), name
    assert lookup.more("chess") is None


def test_cited_rulings_in_lookup_and_texts_exist() -> None:
    known = ruling_ids()
    cited = set()
    for name in names():
        cited |= set(re.findall(r"\bT-\d+\b", describe(name) or ""))
    assert cited and cited <= known, cited - known


# --- The rules summary ---------------------------------------------------------------------------------------


REQUIRED_TITLES = [
    "Overview and goal", "Components", "Set-up", "Set-up: fields and cottages", "The round",
    "Phase 1: work order and workers", "Houses", "Fences and relocation", "Phase 2: harvest and the limited supply",
    "Phase 3: spending cubes", "Phase 3: buy a seat", "Phase 3: build a house", "Phase 3: build or remove a fence",
    "Phase 3: the craftsmen", "Phase 3: the trader", "Phase 3: procure a new law",
    "Phase 3: passing and the end of the phase", "Phase 4: retrieve workers", "Phase 5: start-player bidding",
    "Stage reveals and the end", "Scoring and ties", "Law cards: when they may be played", *LAW_TITLES,
    "Variation one: two players", "Variation two: no laws", "Variation three: open tiles", "Typing moves",
    "Typing law cards",
]


def sections() -> list[rules.RuleSection]:
    """The summary parsed by bot/rules.py's own parser."""
    return list(rules._parse_summary(SUMMARY))


@pytest.fixture(scope="module")
def keythedral_entry() -> Iterator[GameEntry]:
    """The registered Keythedral game, or, until the lead registers it, a stand-in entry for the documents."""
    known = {entry.id for entry in games.all_games()}
    if "keythedral" in known:
        yield games.get("keythedral")
        return
    from tests.toygame import GAME as STAND_IN

    entry = games.register(GameEntry(
        id="keythedral", title="Keythedral", engine=STAND_IN,
        texts=Texts(board=board, hand=hand, lookup=describe, names=names),
        rules=SUMMARY, rulings=RULINGS))
    yield entry
    games.unregister("keythedral")


def ruling_ids() -> set[str]:
    """Every T-n heading of docs/rulings.md."""
    return set(re.findall(r"^### (T-\d+) ", RULINGS.read_text(encoding="utf-8"), re.MULTILINE))


def test_the_summary_parses_with_the_bot_parser_and_has_every_section_once() -> None:
    titles = [section.title for section in sections()]
    assert len(titles) == len(set(titles))
    assert [title for title in REQUIRED_TITLES if title not in titles] == []


def test_every_section_cites_the_rules_or_a_ruling_and_has_keywords() -> None:
    for section in sections():
        assert re.search(r"\brules: |ruling T-\d+", section.source), section.title
        assert section.keywords and all(section.keywords), section.title
        assert section.body.strip(), section.title


def test_every_cited_ruling_exists() -> None:
    """Every T-n in the summary (source lines and bodies) is a heading of docs/rulings.md."""
    cited = set(re.findall(r"\bT-\d+\b", SUMMARY.read_text(encoding="utf-8")))
    assert cited and cited <= ruling_ids(), sorted(cited - ruling_ids())


def test_the_rulings_are_all_there_in_the_keythedral_part_with_question_ruling_and_why() -> None:
    """docs/rulings.md: the Keythedral part holds T-1..T-n without gaps, each with question, ruling and why."""
    text = RULINGS.read_text(encoding="utf-8")
    head, _, part = text.partition("\n# Keythedral\n")
    assert part and "### T-" not in head and "### K-" not in part
    assert ruling_ids() == {f"T-{n}" for n in range(1, len(ruling_ids()) + 1)}, "T-n numbered without gaps"
    for block in re.split(r"^### ", part, flags=re.MULTILINE)[1:]:
        assert all(f"- **{word}:**" in block for word in ("Question", "Ruling", "Why")), block[:40]


def test_every_section_fits_one_discord_message() -> None:
    for section in sections():
        text = rules.format_section(section)
        assert len(text) < 2000 and not text.split("\n\n")[-2] == "…", section.title


def _words(text: str) -> list[str]:
    """Lowercase words, apostrophes normalised."""
    return re.findall(r"[a-z0-9']+", text.replace("\u2019", "'").replace("\u2018", "'").lower())


@pytest.mark.parametrize("path", [SUMMARY, RULINGS], ids=["summary", "rulings"])
def test_our_words_not_the_rulebook(path: Path) -> None:
    """No run of 12 consecutive words of the rules text appears in the summary or the rulings."""
    if not SOURCE.is_file():
        pytest.skip(f"rule source not found at {SOURCE}")
    original = _words(SOURCE.read_text(encoding="utf-8"))
    grams = {tuple(original[i: i + 12]) for i in range(len(original) - 11)}
    ours = _words(path.read_text(encoding="utf-8"))
    copied = [" ".join(ours[i: i + 12]) for i in range(len(ours) - 11) if tuple(ours[i: i + 12]) in grams]
    assert copied == []


PLAYER_QUERIES = [
    ("bid", "Phase 5: start-player bidding"),
    ("bidding", "Phase 5: start-player bidding"),
    ("start player marker", "Phase 5: start-player bidding"),
    ("who starts next", "Phase 5: start-player bidding"),
    ("relocation", "Fences and relocation"),
    ("fenced off", "Fences and relocation"),
    ("two workers", "Houses"),
    ("build house", "Phase 3: build a house"),
    ("remove fence", "Phase 3: build or remove a fence"),
    ("harvest", "Phase 2: harvest and the limited supply"),
    ("run out", "Phase 2: harvest and the limited supply"),
    ("work order marker", "Phase 1: work order and workers"),
    ("idle", "Phase 1: work order and workers"),
    ("procure", "Phase 3: procure a new law"),
    ("craftsmen", "Phase 3: the craftsmen"),
    ("trade", "Phase 3: the trader"),
    ("pass", "Phase 3: passing and the end of the phase"),
    ("tie", "Scoring and ties"),
    ("scoring", "Scoring and ties"),
    ("end of game", "Stage reveals and the end"),
    ("next stage", "Stage reveals and the end"),
    ("two players", "Variation one: two players"),
    ("no laws", "Variation two: no laws"),
    ("open tiles", "Variation three: open tiles"),
    ("notation", "Typing moves"),
    ("law notation", "Typing law cards"),
    ("when can i play a law", "Law cards: when they may be played"),
    ("lay cottage", "Set-up: fields and cottages"),
    ("setup", "Set-up"),
    ("phase 3", "Phase 3: spending cubes"),
    ("phase 4", "Phase 4: retrieve workers"),
    ("round", "The round"),
    ("work order card", "Work Order"),
    ("sale card", "Sale"),
    ("repeal law card", "Repeal Law"),
    ("design change card", "Design Change"),
]


@pytest.mark.parametrize(("query", "title"), PLAYER_QUERIES)
def test_player_queries_find_the_section_first(keythedral_entry: GameEntry, query: str, title: str) -> None:
    found = rules.lookup(keythedral_entry.id, query)
    assert found and found[0].title == title, [section.title for section in found]


def test_a_ruling_id_gives_the_ruling_then_the_sections_citing_it(keythedral_entry: GameEntry) -> None:
    found = rules.lookup(keythedral_entry.id, "T-24", limit=5)
    assert found[0].source == "ruling T-24" and found[0].title.startswith("T-24 ")
    assert "Phase 5: start-player bidding" in [section.title for section in found[1:]]


def test_texts_module_exports() -> None:
    assert texts.LAWS is LAWS
