"""docs/rules-coverage.md, the Keythedral part: every test it names exists, no rule is left as a GAP, and every
Keythedral ruling (T-n in docs/rulings.md) has its row.

Test names in that part are `file::test` (optionally `[id]` for one case): a bare file is in tests/keythedral/,
`render/...` and `contract/...` are in tests/render/ and tests/contract/. They are checked against pytest's own
collection of those folders, so a renamed or deleted test, or a parameter case that no longer exists, shows up here.
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
HEADING = "# Keythedral rules coverage"
FOLDERS = ("tests/keythedral", "tests/render", "tests/contract")
NAMED = re.compile(r"((?:render/|contract/)?test_\w+\.py)::(test_\w+)(\[[^\]]*\])?")


def part() -> str:
    """The Keythedral part of the coverage document: from its heading to the next top-level heading or the end."""
    text = COVERAGE.read_text(encoding="utf-8")
    start = text.find(f"\n{HEADING}\n")
    assert start >= 0, f"{COVERAGE} has no '{HEADING}' part"
    rest = text[start + 1:]
    following = re.search(r"^# ", rest[len(HEADING):], re.MULTILINE)
    return rest if following is None else rest[: len(HEADING) + following.start()]


@cache
def collected() -> frozenset[str]:
    """The node ids pytest collects in the three folders the document cites."""
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                             *FOLDERS], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return frozenset(line.strip() for line in result.stdout.splitlines() if "::" in line)


def node(file: str, test: str) -> str:
    """The pytest node id (without parameters) of a `file::test` named in the document."""
    folder = "tests/" if "/" in file else "tests/keythedral/"
    return f"{folder}{file}::{test}"


def test_every_test_named_in_the_keythedral_part_exists() -> None:
    """Each `file::test` (and `file::test[id]`) in the Keythedral part is a test pytest collects."""
    ids = collected()
    bare = {i.split("[", 1)[0] for i in ids}
    named = NAMED.findall(part())
    assert len(named) > 100, "the Keythedral part names hardly any tests: is the pattern still right?"
    missing = sorted({f"{file}::{test}{case}" for file, test, case in named
                      if (node(file, test) + case not in ids if case else node(file, test) not in bare)})
    assert missing == [], f"tests named in {COVERAGE.name} that pytest does not collect: {missing}"


def test_the_keythedral_part_has_no_gap() -> None:
    """Every rule sentence of the Keythedral part maps to a test: no row is left as a GAP."""
    gaps, section = [], ""
    for line in part().splitlines():
        section = line[3:] if line.startswith("## ") else section
        if "GAP" in line:
            gaps.append(f"{section}: {line}")
    assert gaps == [], f"{len(gaps)} rows without a test:\n" + "\n".join(gaps)


def test_every_keythedral_ruling_has_a_row() -> None:
    """The rulings table names every T-n heading of docs/rulings.md, each with a test or an explained marker."""
    rulings = re.findall(r"^### (T-\d+) ", RULINGS.read_text(encoding="utf-8"), re.MULTILINE)
    assert rulings, "no T-n rulings found"
    rows: dict[str, list[str]] = {}
    for line in part().splitlines():
        found = re.match(r"\| (T-\d+) [^|]*\| (.*) \|$", line)
        if found:
            rows.setdefault(found.group(1), []).append(found.group(2))
    assert [t for t in rulings if t not in rows] == []
    for ruling, cells in rows.items():
        assert any(NAMED.search(c) or "not modelled" in c or "GAP" in c for c in cells), ruling
