"""tests/sources.need: a test that reads ../shared skips without it on a developer's machine and fails in CI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import sources


def test_present_sources_are_returned(tmp_path: Path) -> None:
    """Only the paths that exist come back."""
    there = tmp_path / "there.txt"
    there.write_text("rules", encoding="utf-8")
    assert sources.need(tmp_path / "missing.txt", there) == [there]


def test_missing_sources_fail_in_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In CI (the CI variable set, as .ci/run sets it) missing sources fail the test."""
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="must be beside the checkout in CI"):
        sources.need(tmp_path / "missing.txt")


def test_missing_sources_skip_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside CI they skip, naming what is missing."""
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="missing.txt"):
        sources.need(tmp_path / "missing.txt")


def test_ci_sets_the_variable() -> None:
    """.ci/run exports CI, so these tests cannot skip there."""
    assert 'export CI="${CI:-true}"' in (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
