"""docs/notation.md stays true: every action written in its table and its sample log reads as an action."""

from __future__ import annotations

import re
from pathlib import Path

from engine.keyper.actions import parse_syntax

DOC = Path(__file__).resolve().parents[2] / "docs" / "notation.md"


def documented_actions() -> list[str]:
    """The notations in the first column of the actions table, and the lines of the sample log."""
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## Actions", 1)[1].split("##", 1)[0]
    found = [m for row in table.splitlines() if row.startswith("| `")
             for m in re.findall(r"`([^`]+)`", row.split("|")[1])]
    log = text.split("```", 2)[1]
    found += [line.split(":", 1)[1].strip() for line in log.splitlines() if ":" in line]
    return found


def test_the_notation_doc_lists_actions() -> None:
    """The table is found and is not empty (so the next test checks something)."""
    assert len(documented_actions()) >= 20


def test_every_documented_action_parses_and_round_trips() -> None:
    """Each documented notation parses; its canonical form parses back to the same action."""
    for text in documented_actions():
        action = parse_syntax(text)
        assert parse_syntax(str(action)) == action, text
