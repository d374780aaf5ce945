"""The texts of Keyflower's two modules, Keymelequin and Key Celeste: the rulings F-27 to F-43 of docs/rulings.md,
the module sections of docs/rules/keyflower.md, and `rules NAME` for Sven, Paulo, the Keymelequin, Key Celeste and the
ghost (engine/keyflower/lookup.py), all in our own words.

Sources: the module sheet (shared/rules-sources/keyflower-modules-keymelequin-key-celeste.txt) and reference §10
(shared/reference/keyflower-base-and-modules.md). tests/keyflower/test_texts.py checks the base game's descriptions
for copied runs; the check here covers the module descriptions and the whole Keyflower summary and rulings.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from bot import rules
from bot.games import GameEntry
from bot.rules import RuleSection
from engine.keyflower.lookup import DISCORD_SAFE, MARK, describe, module_names, more, names
from tests import sources
from tests.keyflower.test_texts import SOURCES, _words

REPO = Path(__file__).resolve().parents[2]
SUMMARY = REPO / "docs" / "rules" / "keyflower.md"
RULINGS = REPO / "docs" / "rulings.md"
RUN = 12
"""The length of a word run that counts as copied."""

MODULE_RULINGS = [f"F-{n}" for n in range(27, 45)]
MODULE_SECTIONS = [
    "Modules: choosing them", "Keymelequin: the boat", "Sven and Paulo", "Keyples with Sven or Paulo",
    "Colour of a tile with Sven or Paulo", "Keymelequin: bidding example", "Keymelequin: production example",
    "Keymelequin at the end", "Key Celeste: set-up", "Bidding for Key Celeste", "Playing the ghost",
    "Key Celeste at the end of a season", "Key Celeste in winter", "Key Celeste at the end", "Typing module moves",
]
PIECES = {
    "Sven": "Sven and Paulo", "Paulo": "Sven and Paulo", "Keymelequin": "Keymelequin: the boat",
    "Key Celeste": "Key Celeste at the end", "Ghost": "Playing the ghost",
}
"""Module piece -> the summary section its rules phrase reaches first."""


# --- Reading the documents ------------------------------------------------------------------------------------


def keyflower_rulings() -> str:
    """The Keyflower part of docs/rulings.md: from its `# Keyflower` heading to the end or the next top heading."""
    text = RULINGS.read_text(encoding="utf-8")
    start = text.index("\n# Keyflower\n")
    rest = text[start + 1:]
    following = re.search(r"^# ", rest[2:], re.MULTILINE)
    return rest if following is None else rest[: following.start() + 2]


def ruling_bodies() -> dict[str, str]:
    """F-n -> the text under its `### F-n Title` heading."""
    found = re.findall(r"^### (F-\d+) [^\n]+\n(.*?)(?=^#|\Z)", keyflower_rulings(), re.MULTILINE | re.DOTALL)
    return {key: body for key, body in found}


@cache
def sections() -> dict[str, RuleSection]:
    """The summary's sections by title, parsed the way /rules parses them."""
    return {section.title: section for section in rules._parse_summary(SUMMARY)}


# --- The rulings ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruling", MODULE_RULINGS)
def test_each_module_ruling_has_question_ruling_why_source_and_kind(ruling: str) -> None:
    body = ruling_bodies().get(ruling)
    assert body is not None, f"{ruling} is missing from docs/rulings.md"
    parts = [line.split(":**", 1)[0] for line in body.splitlines() if line.startswith("- **")]
    assert parts == ["- **Question", "- **Ruling", "- **Why", "- **Source", "- **Kind"], (ruling, parts)
    why = body[body.index("- **Why:**"):]
    assert re.search(r"module sheet|reference §1[02]", why), ruling


def test_the_module_rulings_follow_f26_in_their_own_section_in_order() -> None:
    text = keyflower_rulings()
    heads = re.findall(r"^### (F-\d+) ", text, re.MULTILINE)
    assert heads[heads.index("F-26"):] == ["F-26", *MODULE_RULINGS]
    module_part = text[text.index("\n## Keymelequin and Key Celeste\n"):]
    assert re.findall(r"^### (F-\d+) ", module_part, re.MULTILINE) == MODULE_RULINGS
    assert "modules' rulings, not here" in text[text.index("### F-26 "): text.index("### F-27 ")]


@pytest.mark.parametrize(("ruling", "says"), [
    ("F-27", ["blue, a yellow or Sven", "green, a red or Paulo"]),
    ("F-28", ["Bids beside a tile are not on it", "in any order"]),
    ("F-29", ["open between them", "opens again", "both Sven and Paulo fits no colour"]),
    ("F-30", ["lies flat with the rest of its group", "one colour the standing workers cannot be", "F-26",
              "may so counter a red bid", "open between blue and yellow"]),
    ("F-31", ["Tavern", "they choose", "into the bag"]),
    ("F-32", ["into the bag", "tile's owner", "Paulo is out of play"]),
    ("F-33", ["5 workers and 1 skill", "3 workers and 1 skill", "reconstructed"]),
    ("F-34", ["not in the game", "never scores"]),
    ("F-35", ["keymelequin=BOAT", "keymelequin=off", "refuses"]),
    ("F-36", ["6\n  points", "nine keyples"]),
    ("F-37", ["Emporium", "The Merchants", "neither implemented nor tested"]),
    ("F-38", ["Keywood shows who holds it"]),
    ("F-39", ["another player's winning bid", "turn-order tile", "summer, autumn and winter"]),
    ("F-40", ["still wins the tile", "behind the ghost player's\n  screen"]),
    ("F-41", ["no place in the boat order", "last", "leaves the game"]),
    ("F-42", ["reconstructed", "at most 32", "further 3"]),
    ("F-43", ["leaves the game", "also wins Key Celeste"]),
])
def test_module_rulings_decide_what_the_brief_asks(ruling: str, says: list[str]) -> None:
    body = ruling_bodies()[ruling]
    for words in says:
        assert words in body, (ruling, words)


# --- The rules summary ------------------------------------------------------------------------------------------


def test_the_module_sections_exist_in_order_before_hidden_information() -> None:
    titles = list(sections())
    assert len(titles) == len(set(titles))
    found = [t for t in titles if t in MODULE_SECTIONS]
    assert found == MODULE_SECTIONS
    assert titles.index(MODULE_SECTIONS[-1]) + 1 == titles.index("Hidden information in Keywood")
    assert titles.index(MODULE_SECTIONS[0]) == titles.index("White Wind") + 1


@pytest.mark.parametrize("title", MODULE_SECTIONS)
def test_each_module_section_has_source_keywords_body_and_known_rulings(title: str) -> None:
    section = sections()[title]
    assert section.keywords and section.body.strip()
    assert "module sheet" in section.source or section.source.startswith("Keywood notation")
    cited = set(rules.cited_rulings(section)) | set(re.findall(r"\bF-\d+\b", section.body))
    assert cited and cited <= set(ruling_bodies()), (title, sorted(cited - set(ruling_bodies())))


def test_every_module_ruling_is_cited_by_a_module_section() -> None:
    cited = set()
    for title in MODULE_SECTIONS:
        cited |= set(rules.cited_rulings(sections()[title]))
    assert [r for r in MODULE_RULINGS if r not in cited] == []


def test_the_worked_examples_are_explained_with_their_figures() -> None:
    bidding = sections()["Keymelequin: bidding example"].body
    for words in ("one blue", "two blue", "Sven and a yellow", "four yellow", "open: blue or yellow",
                  "narrows to yellow"):
        assert words in bidding, words
    production = sections()["Keymelequin: production example"].body
    for words in ("one red", "Paulo and a green", "two red and a green", "six on the tile", "red extension",
                  "F-37"):
        assert words in production, words
    scoring = sections()["Keymelequin at the end"].body
    for words in ("**6 points**", "F-36", "**10 points**", "**5 points**", "**7 points**", "Emporium",
                  "The Merchants", "F-37"):
        assert words in scoring, words


def test_the_reconstructed_values_are_stated_and_said_to_be_ours() -> None:
    boat = sections()["Keymelequin: the boat"].body
    assert "5 workers and 1 skill" in boat and "3 workers and 1 skill" in boat
    assert "Keywood's own" in boat and "not public" in boat
    setup = sections()["Key Celeste: set-up"].body
    assert "river on its north and south sides" in setup and "roads on its north-east and south-west" in setup
    assert "Keywood's own" in setup and "not public" in setup
    assert "**3 points**" in sections()["Key Celeste at the end"].body


def test_the_notation_lines_are_all_there() -> None:
    body = sections()["Typing module moves"].body
    for words in ("keymelequin=", "key_celeste=yes", "`bid key-celeste red`", "`count 2`", "`ghost alehouse`",
                  "`bid alehouse sven`", "`use alehouse paulo`", "`add yellow`", "`add yellow 3`", "`done`",
                  "`bid alehouse mixed`", "`use alehouse mixed`", "summer boat 4b", "`replace flipper`"):
        assert words in body, words


def test_the_boat_4a_4b_and_hidden_information_sections_point_to_the_module_rulings() -> None:
    assert "F-30" in rules.cited_rulings(sections()["Summer boat 4a"])
    assert "F-30" in rules.cited_rulings(sections()["Summer boat 4b"])
    hidden = sections()["Hidden information in Keywood"]
    assert {"F-32", "F-38"} <= set(rules.cited_rulings(hidden))


@pytest.mark.parametrize(("topic", "title"), [
    ("modules", "Modules: choosing them"), ("keymelequin boat", "Keymelequin: the boat"),
    ("with sven", "Keyples with Sven or Paulo"), ("open colour", "Colour of a tile with Sven or Paulo"),
    ("bidding example", "Keymelequin: bidding example"), ("production example", "Keymelequin: production example"),
    ("scoring examples", "Keymelequin at the end"), ("bid key celeste", "Bidding for Key Celeste"),
    ("ghost returns", "Key Celeste at the end of a season"), ("winter ghost", "Key Celeste in winter"),
    ("key celeste scoring", "Key Celeste at the end"), ("module notation", "Typing module moves"),
    ("F-36", "F-36 The Craftsman's guild example"),
])
def test_rules_topics_reach_the_module_sections(keyflower_entry: GameEntry, topic: str, title: str) -> None:
    found = rules.lookup(keyflower_entry.id, topic)
    assert found and found[0].title == title, [s.title for s in found]


def test_every_section_fits_a_chat_message() -> None:
    for title in MODULE_SECTIONS:
        text = rules.format_section(sections()[title])
        assert len(text) <= rules.DISCORD_LIMIT
        assert sections()[title].body in text, f"{title} is cut in chat"


# --- rules NAME for the module pieces ---------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "spellings"), [
    ("Sven", ["sven", "SVEN", " sven keyple "]),
    ("Paulo", ["paulo", "paulo keyple"]),
    ("Keymelequin", ["keymelequin", "keymelequin boat", "Keymelequin_Boat"]),
    ("Key Celeste", ["key celeste", "key-celeste", "key_celeste", "Key Celeste tile"]),
    ("Ghost", ["ghost", "the ghost", "ghost keyple"]),
])
def test_each_module_piece_is_found_in_any_spelling(name: str, spellings: list[str]) -> None:
    text = describe(name)
    assert text is not None and text.startswith(f"**{name}** (")
    assert len(text) < DISCORD_SAFE
    for spelling in spellings:
        assert describe(spelling) == text, spelling


def test_module_names_are_listed_apart_from_the_base_components() -> None:
    assert module_names() == list(PIECES)
    assert names(modules=True) == names() + module_names()
    assert not set(module_names()) & set(names())


@pytest.mark.parametrize(("name", "says"), [
    ("sven", ["blue or yellow", "Peddler", "Store", "Tavern", "F-27", "F-28", "F-29", "F-30", "F-31", "F-32"]),
    ("paulo", ["green or red", "Fair", "out of play until the Keymelequin is turned over", "F-31", "F-32"]),
    ("keymelequin", ["spring face 5 workers + 1 skill (reconstructed) with Sven",
                     "summer face (turned over) 3 workers + 1 skill (reconstructed) with Paulo", "`replace BOAT`",
                     "never scores", "F-33", "F-34", "F-35"]),
    ("key celeste", ["3 points, 3 more with the ghost", "Sides, upright: water N, S; roads NE, SW (reconstructed)",
                     "Sea Breese", "at most 32", "F-41", "F-42"]),
    ("ghost", ["never a worker", "another player's winning bid", "F-38", "F-39", "F-40", "F-43"]),
])
def test_module_pieces_are_described_in_our_words(name: str, says: list[str]) -> None:
    text = describe(name) or ""
    for words in says:
        assert words in text, (name, words)


def test_only_the_reconstructed_values_are_marked() -> None:
    """The Keymelequin's loads and Key Celeste's sides are Keywood's own (F-33, F-42); Key Celeste's points, Sven,
    Paulo and the ghost come from the sheet and carry no mark."""
    boat = describe("keymelequin") or ""
    load = next(line for line in boat.splitlines() if line.startswith("Load"))
    assert load.count(MARK) == 2
    celeste = (describe("key celeste") or "").splitlines()
    assert [MARK in line for line in celeste] == [line.startswith("Sides") for line in celeste]
    for name in ("sven", "paulo", "ghost"):
        assert MARK not in (describe(name) or ""), name


def test_module_descriptions_cite_known_rulings_and_point_to_their_section(keyflower_entry: GameEntry) -> None:
    known = set(ruling_bodies())
    for name, title in PIECES.items():
        text = describe(name) or ""
        assert "Source: reference §10" in text, name
        cited = set(re.findall(r"\bF-\d+\b", text))
        assert cited and cited <= known, (name, sorted(cited - known))
        phrase = more(name)
        assert phrase is not None and "/rules" not in text, name
        assert describe(phrase) is None, phrase
        found = rules.lookup(keyflower_entry.id, phrase)
        assert found and found[0].title == title, (name, [s.title for s in found])


@pytest.mark.parametrize("name", ["sven and paulo", "playing the ghost", "key celeste at the end", "modules",
                                  "keymelequin: the boat", "colour of a tile with sven or paulo"])
def test_section_titles_are_left_to_the_rules_sections(name: str) -> None:
    assert describe(name) is None


# --- Our own words ------------------------------------------------------------------------------------------------


@cache
def source_runs() -> frozenset[tuple[str, ...]]:
    """Every run of RUN consecutive words in the module sheet and the reference notes."""
    grams: set[tuple[str, ...]] = set()
    for path in SOURCES:
        if path.is_file():
            words = _words(path.read_text(encoding="utf-8"))
            grams |= {tuple(words[i: i + RUN]) for i in range(len(words) - RUN + 1)}
    return frozenset(grams)


def copied(text: str) -> list[str]:
    """The runs of RUN words of text that also occur in a source."""
    grams = source_runs()
    ours = _words(text)
    return [" ".join(ours[i: i + RUN]) for i in range(len(ours) - RUN + 1) if tuple(ours[i: i + RUN]) in grams]


@pytest.fixture(scope="module")
def have_sources() -> None:
    sources.need(*SOURCES)


@pytest.mark.usefixtures("have_sources")
def test_no_run_of_twelve_words_is_copied_into_the_summary() -> None:
    """The whole Keyflower summary, module sections included, is our own wording."""
    for title, section in sections().items():
        assert copied(f"{section.source}\n{section.body}") == [], title


@pytest.mark.usefixtures("have_sources")
def test_no_run_of_twelve_words_is_copied_into_the_rulings() -> None:
    """Every Keyflower ruling, F-27 to F-43 included, is our own wording."""
    for ruling, body in ruling_bodies().items():
        assert copied(body) == [], ruling


@pytest.mark.usefixtures("have_sources")
def test_no_run_of_twelve_words_is_copied_into_the_module_descriptions() -> None:
    for name in module_names():
        assert copied(describe(name) or "") == [], name


def test_the_copy_check_would_see_a_copied_sentence() -> None:
    """The check itself works: a sentence lifted from the module sheet is caught."""
    sources.need(SOURCES[1])
    sheet = SOURCES[1].read_text(encoding="utf-8")
    sentence = next(line for line in sheet.splitlines() if len(_words(line)) > RUN + 2)
    assert copied(f"As the sheet puts it: {sentence}")
