"""Shared pytest options (fuzzer game counts), the test-only game Tokens registered beside Keyper, and the
databases a test may run on (tests/databases.py: the `database` fixture and the `databases` marker)."""

from __future__ import annotations

import pytest

from bot import games
from tests import databases
from tests.databases import database, postgres_server
from tests.toygame import ENTRY as TOKENS

__all__ = ["database", "postgres_server"]

if TOKENS.id not in {entry.id for entry in games.all_games()}:
    games.register(TOKENS)


def pytest_addoption(parser: pytest.Parser) -> None:
    """--fuzz-games N: random full games the play-out fuzzer plays (default 300, CI's minimum)."""
    parser.addoption("--fuzz-games", type=int, default=300, help="random games for the play-out fuzzer")
    parser.addoption("--fuzz-seed", type=int, default=0, help="first seed for the play-out fuzzer")


def pytest_configure(config: pytest.Config) -> None:
    """Register the `databases` marker."""
    config.addinivalue_line("markers", "databases(*kinds): run the test on each kind of database named ('sqlite', "
                                       "'postgresql'), through the `database` fixture")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise `database` by the test's `databases` marker."""
    databases.generate(metafunc)


@pytest.fixture
def fuzz_games(request: pytest.FixtureRequest) -> int:
    """How many fuzz games to play."""
    return int(request.config.getoption("--fuzz-games"))


@pytest.fixture
def fuzz_seed(request: pytest.FixtureRequest) -> int:
    """The first fuzz seed."""
    return int(request.config.getoption("--fuzz-seed"))
