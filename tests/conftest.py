"""Shared pytest options (fuzzer game counts), and the test-only game Tokens registered beside Keyper."""

from __future__ import annotations

import pytest

from bot import games
from tests.toygame import ENTRY as TOKENS

if TOKENS.id not in {entry.id for entry in games.all_games()}:
    games.register(TOKENS)


def pytest_addoption(parser: pytest.Parser) -> None:
    """--fuzz-games N: random full games the play-out fuzzer plays (default 300, CI's minimum)."""
    parser.addoption("--fuzz-games", type=int, default=300, help="random games for the play-out fuzzer")
    parser.addoption("--fuzz-seed", type=int, default=0, help="first seed for the play-out fuzzer")


@pytest.fixture
def fuzz_games(request: pytest.FixtureRequest) -> int:
    """How many fuzz games to play."""
    return int(request.config.getoption("--fuzz-games"))


@pytest.fixture
def fuzz_seed(request: pytest.FixtureRequest) -> int:
    """The first fuzz seed."""
    return int(request.config.getoption("--fuzz-seed"))
