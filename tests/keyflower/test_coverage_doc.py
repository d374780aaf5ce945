"""docs/rules-coverage.md, the Keyflower part: every test it names exists, no rule is left as a GAP, and every
Keyflower ruling (F-n in docs/rulings.md) has its row.

Test names in that part are `file::test` (optionally `[id]` for one case), the files in tests/keyflower/. They are
checked against pytest's own collection of that folder, so a renamed or deleted test, or a parameter case that no
longer exists, shows up here.
"""

from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
COVERAGE = REPO / "docs" / "rules-coverage.md"
RULINGS = REPO / "docs" / "rulings.md"
HEADING = "# Keyflower rules coverage"
FOLDER = "tests/keyflower"
NAMED = re.compile(r"(test_\w+\.py)::(test_\w+)(\[[^\]]*\])?")
SECTIONS = ("§1", "§2", "§3", "§4", "§5", "§6", "§7", "§8", "§9")


def part() -> str:
    """The Keyflower part of the coverage document: from its heading to the next top-level heading or the end."""
    text = COVERAGE.read_text(encoding="utf-8")
    start = text.find(f"\n{HEADING}\n")
    assert start >= 0, f"{COVERAGE} has no '{HEADING}' part"
    rest = text[start + 1:]
    following = re.search(r"^# ", rest[len(HEADING):], re.MULTILINE)
    return rest if following is None else rest[: len(HEADING) + following.start()]


@cache
def collected() -> frozenset[str]:
    """The node ids pytest collects in tests/keyflower/."""
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                             FOLDER], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return frozenset(line.strip() for line in result.stdout.splitlines() if "::" in line)


def test_every_test_named_in_the_keyflower_part_exists() -> None:
    """Each `file::test` (and `file::test[id]`) in the Keyflower part is a test pytest collects."""
    ids = collected()
    bare = {i.split("[", 1)[0] for i in ids}
    named = NAMED.findall(part())
    assert len(named) > 100, "the Keyflower part names hardly any tests: is the pattern still right?"
    missing = sorted({f"{file}::{test}{case}" for file, test, case in named
                      if (f"{FOLDER}/{file}::{test}{case}" not in ids if case
                          else f"{FOLDER}/{file}::{test}" not in bare)})
    assert missing == [], f"tests named in {COVERAGE.name} that pytest does not collect: {missing}"


def test_the_keyflower_part_has_no_gap() -> None:
    """Every rule sentence of the Keyflower part maps to a test: no row is left as a GAP."""
    gaps, section = [], ""
    for line in part().splitlines():
        section = line[3:] if line.startswith("## ") else section
        if "GAP" in line:
            gaps.append(f"{section}: {line}")
    assert gaps == [], f"{len(gaps)} rows without a test:\n" + "\n".join(gaps)


def test_every_reference_section_has_its_table() -> None:
    """Sections 1 to 9 of the reference each have a table (a `## §n ...` heading followed by rows)."""
    headings = re.findall(r"^## (§\d)", part(), re.MULTILINE)
    assert [s for s in SECTIONS if s not in headings] == []


def test_every_row_names_a_test_or_says_why_not() -> None:
    """A row of a table names at least one test, or says why it has none (not a rule, not modelled)."""
    bare = []
    for line in part().splitlines():
        if line.startswith("| ") and not line.startswith(("| Section", "| Ruling")):
            if not NAMED.search(line) and "not a rule" not in line and "not modelled" not in line:
                bare.append(line)
    assert bare == []


def test_every_keyflower_ruling_has_a_row() -> None:
    """The rulings table names every F-n heading of docs/rulings.md, each with a test or an explained marker."""
    rulings = re.findall(r"^### (F-\d+) ", RULINGS.read_text(encoding="utf-8"), re.MULTILINE)
    assert rulings, "no F-n rulings found"
    rows: dict[str, list[str]] = {}
    for line in part().splitlines():
        found = re.match(r"\| (F-\d+) [^|]*\| (.*) \|$", line)
        if found:
            rows.setdefault(found.group(1), []).append(found.group(2))
    assert [f for f in rulings if f not in rows] == []
    for ruling, cells in rows.items():
        assert any(NAMED.search(c) or "not modelled" in c for c in cells), ruling
