"""Options for the render tests: --regen-golden rewrites the golden views and images instead of comparing.

pytest reads options only from conftest files it loads at start-up, so name this folder on the command line:
    python -m pytest tests/render -q -p no:cacheprovider --regen-golden
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    """--regen-golden: rebuild tests/render/golden/*.json and *.png from the scenarios, then pass."""
    parser.addoption(
        "--regen-golden",
        action="store_true",
        default=False,
        help="rewrite the render golden views and images instead of comparing against them",
    )


@pytest.fixture
def regen_golden(request: pytest.FixtureRequest) -> bool:
    """Whether this run rewrites the golden files (False when pytest was started without tests/render in its args)."""
    return bool(request.config.getoption("--regen-golden", default=False))
