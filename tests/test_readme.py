"""The README's two setup commands are the ones that work on a fresh machine, and CI runs the test one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    """The bash blocks of the README's 'Set up' section, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", section, re.DOTALL)]


def test_the_setup_commands_make_and_use_a_virtual_environment() -> None:
    """PEP 668 systems refuse a bare `pip install`: both commands create .venv and use its pip and Python."""
    run, test = readme_commands()[:2]
    for command in (run, test):
        assert command.startswith("python3 -m venv .venv && .venv/bin/pip install -e "), command
        assert "python3 -m pip" not in command
    assert run.endswith(".venv/bin/keywood")
    assert test.endswith(".venv/bin/python -m pytest")


def test_ci_runs_exactly_the_readmes_test_command() -> None:
    """.ci/run has the README's test command as one of its lines, verbatim."""
    test = readme_commands()[1]
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert test in lines


def test_the_readme_says_near_the_top_which_values_are_reconstructed() -> None:
    """Before the setup: which Keyper component values are reconstructed, and how a group types in its own."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    top = " ".join(text.split("## Set up", 1)[0].split())
    assert "reconstructed" in top.lower() and "docs/components.md" in top and "engine.keyper.validate" in top
    for part in ("board layouts", "fair tiles", "boats' contents", "build and upgrade costs", "keyp-tile table"):
        assert part in top, part
