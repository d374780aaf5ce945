"""The Keyper rules summary behind `/rules`: its format, the lookup, chat formatting, and that it is our own words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.rules import RuleSection, cited_rulings, format_section, load_rules, lookup, topics

REPO = Path(__file__).resolve().parents[1]
SUMMARY = REPO / "docs" / "rules" / "keyper.md"
SOURCES = REPO.parent / "shared" / "rules-sources"
SECTIONS = load_rules("keyper")

REQUIRED_TITLES = [
    "Overview and goal",
    "Setup",
    "Your turn: the three actions",
    "Playing the keyper",
    "Playing a keyple",
    "Colour match",
    "White keyples",
    "Joiners",
    "Existing keyples",
    "Laying down",
    "What fields give",
    "Resource fields",
    "Country tiles",
    "Boats and shipping",
    "Build and discount build",
    "Upgrading",
    "Convert and trade fields",
    "Building tiles",
    "Resources and supply limits",
    "Fairs",
    "Housing animals",
    "End of season",
    "Start of next season",
    "Two-player game",
    "End of game and scoring",
    "Tie-breaks",
    "Notation",
]

PLAYER_QUERIES = [
    ("joiner", "Joiners"),
    ("joiners", "Joiners"),
    ("joining", "Joiners"),
    ("can white join", "White keyples"),
    ("white keyple", "White keyples"),
    ("lay down", "Laying down"),
    ("laydown", "Laying down"),
    ("Lay-Down", "Laying down"),
    ("laying down", "Laying down"),
    ("boat", "Boats and shipping"),
    ("selling", "Boats and shipping"),
    ("fairs", "Fairs"),
    ("winter fair", "Fairs"),
    ("animals", "Housing animals"),
    ("housing", "Housing animals"),
    ("keyp tile", "Keyp tile and resting keyples"),
    ("two players", "Two-player game"),
    ("2 players", "Two-player game"),
    ("tie", "Tie-breaks"),
    ("start player", "Turn order and start player"),
    ("who goes first", "Turn order and start player"),
    ("country tile", "Country tiles"),
    ("upgrade", "Upgrading"),
    ("colour match", "Colour match"),
    ("color", "Colour match"),
    ("existing keyple", "Existing keyples"),
    ("discount build", "Build and discount build"),
    ("convert", "Convert and trade fields"),
    ("wheat", "Resources and supply limits"),
    ("overbuild", "Building tiles"),
    ("end of season", "End of season"),
    ("new season", "Start of next season"),
    ("scoring", "End of game and scoring"),
    ("notation", "Notation"),
    ("setup", "Setup"),
    ("keyper", "Playing the keyper"),
    ("what do I earn alone", "What fields give"),
    ("yield table", "What fields give"),
]


def test_required_sections_present() -> None:
    """Every section the brief asks for exists, each title once."""
    titles = topics("keyper")
    assert len(titles) == len(set(titles))
    assert [title for title in REQUIRED_TITLES if title not in titles] == []


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.title)
def test_section_cites_a_source(section: RuleSection) -> None:
    """Each section cites a rulebook page or a Keywood ruling on its Source line."""
    assert re.search(r"rulebook pp?\.\d+|ruling K-\d+", section.source), section.source


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.title)
def test_section_has_keywords_and_body(section: RuleSection) -> None:
    """Each section has keywords to match on and a body to show."""
    assert section.keywords and all(section.keywords)
    assert section.body.strip()


def test_cited_rulings_exist() -> None:
    """Every ruling id a section cites is a heading in docs/rulings.md."""
    known = set(re.findall(r"^### (K-\d+) ", (REPO / "docs" / "rulings.md").read_text(encoding="utf-8"), re.M))
    cited = {ruling for section in SECTIONS for ruling in cited_rulings(section)}
    assert cited and cited <= known


@pytest.mark.parametrize(("query", "title"), PLAYER_QUERIES)
def test_player_query_finds_section_first(query: str, title: str) -> None:
    """Realistic player queries put the right section first."""
    found = lookup("keyper", query)
    assert found, query
    assert found[0].title == title, [section.title for section in found]


@pytest.mark.parametrize("query", ["K-6", "k6", "ruling K-6"])
def test_ruling_id_gives_ruling_then_citing_sections(query: str) -> None:
    """A ruling id returns the ruling's own text first, then the sections that cite it."""
    found = lookup("keyper", query, limit=5)
    assert found[0].source == "ruling K-6"
    assert found[0].title.startswith("K-6 ")
    assert "lying" in found[0].body
    assert "Existing keyples" in [section.title for section in found[1:]]
    assert all("K-6" in cited_rulings(section) for section in found[1:])


def test_ruling_id_does_not_match_longer_id() -> None:
    """K-1 is not K-13."""
    found = lookup("keyper", "K-1", limit=10)
    assert found[0].source == "ruling K-1"
    assert all("K-1" in cited_rulings(section) for section in found[1:])


@pytest.mark.parametrize("query", ["quantum teleportation", "castling", "", "   ", "the", "K-99"])
def test_unknown_topic_returns_empty(query: str) -> None:
    """A topic the summary does not cover gives no sections."""
    assert lookup("keyper", query) == []


def test_limit_is_respected() -> None:
    """Never more sections than asked for."""
    assert len(lookup("keyper", "keyple", limit=2)) == 2
    assert lookup("keyper", "keyple", limit=0) == []


def test_unknown_game_raises() -> None:
    """A game with no summary, or a name that is not a plain id, is refused."""
    with pytest.raises(ValueError, match="no rules summary"):
        load_rules("chess")
    with pytest.raises(ValueError, match="no rules summary"):
        lookup("../rulings", "fairs")


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.title)
def test_format_section_fits_discord(section: RuleSection) -> None:
    """Every section formats under Discord's 2000 characters with its heading and source."""
    text = format_section(section)
    assert len(text) < 2000
    assert text.startswith(f"## {section.title}\n")
    assert text.endswith(f"*Source: {section.source}*")


def test_format_section_cuts_at_paragraph() -> None:
    """A tight limit keeps whole paragraphs and marks the cut with an ellipsis."""
    section = next(s for s in SECTIONS if s.title == "Your turn: the three actions")
    full = format_section(section)
    short = format_section(section, max_chars=400)
    assert len(short) <= 400 < len(full)
    kept = short.split("\n\n")[1:-2]
    assert kept and all(paragraph in section.body.split("\n\n") for paragraph in kept)
    assert short.split("\n\n")[-2] == "…"


def test_format_section_never_exceeds_limit() -> None:
    """Whatever the limit, the message stays within it; a limit with no room for a body is refused."""
    for section in SECTIONS:
        for limit in (150, 300, 700, 5000):
            assert len(format_section(section, max_chars=min(limit, 2000))) <= min(limit, 2000)
    with pytest.raises(ValueError):
        format_section(SECTIONS[0], max_chars=10)


def _words(text: str) -> list[str]:
    """Lowercase words with apostrophes normalised, punctuation and whitespace dropped."""
    return re.findall(r"[a-z0-9']+", text.replace("\u2019", "'").replace("\u2018", "'").lower())


@pytest.mark.parametrize("source", ["keyper-rulebook.txt", "keyper-turn-rules.txt"])
def test_summary_is_not_pasted(source: str) -> None:
    """No run of 12 consecutive words from the rule sources appears verbatim in the summary."""
    path = SOURCES / source
    if not SOURCES.is_dir():
        pytest.skip(f"rule sources not found at {SOURCES} (CI keeps them in ../shared beside the repository)")
    original = _words(path.read_text(encoding="utf-8"))
    grams = {tuple(original[i : i + 12]) for i in range(len(original) - 11)}
    ours = _words(SUMMARY.read_text(encoding="utf-8"))
    copied = [" ".join(ours[i : i + 12]) for i in range(len(ours) - 11) if tuple(ours[i : i + 12]) in grams]
    assert copied == []


def test_a_ruling_id_of_another_game_is_not_found_in_this_games_rules() -> None:
    """docs/rulings.md holds every game's rulings: Keyper's K-n and Keythedral's T-n each answer only in their game."""
    assert lookup("keyper", "T-1") == []
    assert lookup("keythedral", "K-1") == []
    assert lookup("keythedral", "T-1")[0].title.startswith("T-1 ")
    assert lookup("keyper", "K-1")[0].title.startswith("K-1 ")


def test_every_rulings_question_and_ruling_reach_the_player_whole() -> None:
    """/rules K-n shows a ruling in one message: when the whole ruling is too long, its Question and Ruling are
    shown whole and the reasons are left to docs/rulings.md; no ruling's decision is ever cut."""
    shortened = 0
    text_of_rulings = (Path(__file__).resolve().parents[1] / "docs" / "rulings.md").read_text(encoding="utf-8")
    games_by_letter = {"K": "keyper", "T": "keythedral", "F": "keyflower"}
    keys = re.findall(r"^### ([KTF]-\d+) ", text_of_rulings, re.MULTILINE)
    assert len(keys) > 100
    for key in keys:
        ruling = lookup(games_by_letter[key[0]], key)[0]
        assert ruling.title.startswith(key), f"/rules {key} found {ruling.title}"
        text = format_section(ruling)
        decision = ruling.body.split("- **Why:**")[0].rstrip()
        assert decision in text, f"{key}: the question and ruling are cut in /rules"
        assert "…" not in text, f"{key} is cut in /rules"
        shortened += "docs/rulings.md" in text
    assert shortened, "no ruling needed shortening: the shortened form went untested"
