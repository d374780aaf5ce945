"""The rule sources beside the checkout (../shared): tests that read them skip without them, except in CI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"


def need(*paths: Path) -> list[Path]:
    """The paths that exist; with none of them, skip the test, or fail it in CI (which must have ../shared)."""
    found = [path for path in paths if path.is_file()]
    if not found:
        reason = "not found: " + ", ".join(str(path) for path in paths)
        if os.environ.get("CI"):
            pytest.fail(f"the rule sources must be beside the checkout in CI; {reason}")
        pytest.skip(reason)
    return found
