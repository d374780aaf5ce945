"""docs/rulings.md as a whole: every ruling of the three games (K-n Keyper, T-n Keythedral, F-n Keyflower) says
what it rests on and what kind of ruling it is, and no ruling decides against the rules text (issue 39, item 5).

Each `### X-n Title` block has, in this order, the bullets Question, Ruling, Why, Source and Kind. Source names a
section of that game's rules the way the document cites them (a Keyper rulebook page, a Keythedral rules section or
law card, a Keyflower rulebook or module-sheet section with the reference section restating it). Kind is `fills a
gap — reason` or `follows the text — reason`. Ids are unique, and every ruling id the code cites is a heading here.

The game-specific tests check what they own and are not repeated: tests/test_rules_lookup.py (the Keyper summary's
citations), tests/keythedral/test_texts.py (T-n numbered without gaps; the summary's citations),
tests/keythedral/test_coverage_doc.py and tests/keyflower/test_coverage_doc.py (a coverage row per ruling),
tests/keyflower/test_module_texts.py (the module rulings' wording and our own words).
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RULINGS = REPO / "docs" / "rulings.md"
CODE = ("engine", "bot", "render")
"""The folders whose sources cite rulings (in docstrings, comments, refusal reasons and help texts)."""

BULLETS = ("Question", "Ruling", "Why", "Source", "Kind")
KINDS = ("fills a gap", "follows the text")
RULING_ID = re.compile(r"\b[KTF]-\d+\b")
HEADING = re.compile(r"^### ([A-Z]-\d+) ([^\n]+)\n(.*?)(?=^#|\Z)", re.MULTILINE | re.DOTALL)
AGAINST = re.compile(r"decides? against|decided against|against (what )?the (rules? )?text|contrary to the "
                     r"(rules|text)|overrid\w* the (rules|text)", re.IGNORECASE)

KEYTHEDRAL_SECTIONS = (
    "Background", "Introduction", "Contents", "Preparation", "Set up", "The game", "Phase one", "Phase two",
    "Phase three", "Phase four", "Phase five", "End of the game", "The winner", "Variation one", "Variation two",
    "Variation three", "Appendix",
)
KEYFLOWER_SECTIONS = (
    "Game summary", "Components and key", "Set up", "Start of season", "Bidding", "Production",
    "Transport and upgrading", "End of season", "Game end scoring", "Village tiles - detail",
)
SHEET_SECTIONS = (
    "Contents", "Set up and the Keymelequin tile", "Using Sven and Paulo", "Bidding example", "Production example",
    "Scoring examples", "Set up", "Bidding for the ghost or the Key Celeste", "The ghost", "End of the season",
    "Scoring at the end of the game",
)


# --- Reading the document ----------------------------------------------------------------------------------------


def rulings(text: str | None = None) -> list[tuple[str, str]]:
    """(id, body) for each `### X-n Title` block of the rulings document (or of the text given), in order."""
    source = RULINGS.read_text(encoding="utf-8") if text is None else text
    return [(key, body) for key, _title, body in HEADING.findall(source)]


def bullets(body: str) -> list[tuple[str, str]]:
    """(name, text) of each top-level `- **Name:** text` bullet of a ruling, its continuation lines joined."""
    found: list[tuple[str, str]] = []
    for line in body.splitlines():
        head = re.match(r"- \*\*([^*:]+):\*\*\s*(.*)", line)
        if head:
            found.append((head.group(1), head.group(2).strip()))
        elif found and line.strip():
            found[-1] = (found[-1][0], f"{found[-1][1]} {line.strip()}")
    return found


# --- The checks, one per ruling ------------------------------------------------------------------------------------


def bullet_problem(body: str) -> str | None:
    """What is wrong with the ruling's bullets (missing, extra, out of order), or None."""
    names = [name for name, _ in bullets(body)]
    if names == list(BULLETS):
        return None
    missing = [name for name in BULLETS if name not in names]
    return f"missing {', '.join(missing)}" if missing else f"bullets {names}, wanted {list(BULLETS)}"


def section_problem(key: str, source: str) -> str | None:
    """What is wrong with a Source naming no section of the ruling's own game, or None."""
    if not source:
        return "Source is empty"
    if key.startswith("K-"):
        pages = [int(p) for p in re.findall(r"\bpp?\.(\d+)", source)]
        if not source.startswith("Keyper rulebook p") or not pages or not all(1 <= p <= 20 for p in pages):
            return f"Source names no Keyper rulebook page (p.1 to p.20): {source!r}"
        return None
    if key.startswith("T-"):
        named = re.findall(r"Keythedral rules, ([^;(]+)", source)
        if not named or not all(n.startswith(KEYTHEDRAL_SECTIONS) for n in named):
            return f"Source names no section of the Keythedral rules: {source!r}"
        if "Appendix" in source and not re.search(r"Appendix, cards? \d+", source):
            return f"Source cites the Appendix without a card number: {source!r}"
        return None
    if key.startswith("F-"):
        book = re.findall(r"Keyflower rulebook, ([^;(]+)", source)
        sheet = re.findall(r"module sheet, ([^;(]+)", source)
        if not book + sheet or not re.search(r"reference §\d+", source):
            return f"Source names no Keyflower rulebook or module-sheet section with its reference §: {source!r}"
        wrong = [n for n in book if not n.startswith(KEYFLOWER_SECTIONS)]
        wrong += [n for n in sheet if not n.startswith(SHEET_SECTIONS)]
        return f"Source names sections that are not in the text: {wrong}" if wrong else None
    return f"{key} belongs to no game"


def kind_problem(kind: str) -> str | None:
    """What is wrong with a Kind that is not one of the two kinds followed by a reason, or None."""
    found = re.fullmatch(r"(.+?) — (.+)", kind)
    if found is None or found.group(1) not in KINDS:
        return f"Kind must be 'fills a gap — reason' or 'follows the text — reason': {kind!r}"
    if len(found.group(2).split()) < 4:
        return f"Kind gives no reason: {kind!r}"
    return None


def fields(body: str) -> dict[str, str]:
    """The ruling's bullets by name."""
    return dict(bullets(body))


# --- The tests --------------------------------------------------------------------------------------------------


def test_the_document_holds_rulings_of_all_three_games() -> None:
    """The parser finds the rulings: dozens of each letter, so an empty or misparsed file cannot pass."""
    letters = [key[0] for key, _ in rulings()]
    assert {letter: letters.count(letter) >= 30 for letter in "KTF"} == {"K": True, "T": True, "F": True}, letters


def test_ruling_ids_are_unique() -> None:
    """No id heads two rulings."""
    keys = [key for key, _ in rulings()]
    assert sorted({k for k in keys if keys.count(k) > 1}) == []


def test_every_ruling_has_question_ruling_why_source_and_kind() -> None:
    """Each ruling has the five bullets, in order, each once (issue 39: Source and Kind after Why)."""
    problems = {key: problem for key, body in rulings() if (problem := bullet_problem(body))}
    assert problems == {}, (f"{len(problems)} rulings lack bullets: {', '.join(problems)}\n"
                            + "\n".join(f"{key}: {why}" for key, why in problems.items()))


def test_every_source_names_a_section_of_its_games_rules() -> None:
    """Source cites the game's own text the way its rulings are cited: page, section or card, and reference §."""
    problems = {key: problem for key, body in rulings()
                if "Source" in fields(body) and (problem := section_problem(key, fields(body)["Source"]))}
    assert problems == {}, "\n".join(f"{key}: {why}" for key, why in problems.items())


def test_every_kind_is_one_of_the_two_with_a_reason() -> None:
    """Kind is 'fills a gap' or 'follows the text', then a dash and why."""
    problems = {key: problem for key, body in rulings()
                if "Kind" in fields(body) and (problem := kind_problem(fields(body)["Kind"]))}
    assert problems == {}, "\n".join(f"{key}: {why}" for key, why in problems.items())


def test_no_ruling_says_it_decides_against_the_text() -> None:
    """No ruling admits deciding against the rules text; such a reading may only be a table option."""
    against = {key: found.group(0) for key, body in rulings() if (found := AGAINST.search(body))}
    assert against == {}, against


def test_every_ruling_cited_in_the_code_exists() -> None:
    """Each K-n, T-n or F-n in engine/, bot/ and render/ is the id of a ruling in docs/rulings.md."""
    known = {key for key, _ in rulings()}
    cited: dict[str, str] = {}
    for folder in CODE:
        for path in sorted((REPO / folder).rglob("*")):
            if path.suffix in (".py", ".toml") and path.is_file():
                for ruling in RULING_ID.findall(path.read_text(encoding="utf-8")):
                    cited.setdefault(ruling, str(path.relative_to(REPO)))
    assert len(cited) > 50, "hardly any ruling is cited in the code: is the pattern still right?"
    assert {k: where for k, where in cited.items() if k not in known} == {}


def test_the_checks_catch_a_bad_ruling() -> None:
    """The checks themselves can fail: a ruling without Kind, a Source of another game, a third kind, an admission."""
    bad = ("### T-99 Made up\n- **Question:** q?\n- **Ruling:** r.\n- **Why:** w.\n"
           "- **Source:** Keyper rulebook p.4.\n\n### F-98 Also made up\n- **Question:** q?\n- **Ruling:** r.\n"
           "- **Why:** this decides against the text.\n- **Source:** module sheet, The ghost.\n"
           "- **Kind:** overrules the text — because we like it better.\n")
    (t99, t_body), (f98, f_body) = rulings(bad)
    assert (t99, f98) == ("T-99", "F-98")
    assert bullet_problem(t_body) == "missing Kind"
    assert bullet_problem(f_body) is None
    assert section_problem("T-99", fields(t_body)["Source"]) is not None
    assert section_problem("F-98", fields(f_body)["Source"]) is not None  # no reference §
    assert section_problem("F-98", "module sheet, The ghost (reference §10.2)") is None
    assert section_problem("K-1", "Keyper rulebook p.44") is not None
    assert kind_problem(fields(f_body)["Kind"]) is not None
    assert kind_problem("fills a gap — silent") is not None  # no real reason
    assert kind_problem("fills a gap — the text is silent on it") is None
    assert AGAINST.search(f_body) is not None and AGAINST.search(t_body) is None
