"""Tests of the bot layer: the table, the store and the terminal front end, on real SQLite files."""

import pytest

pytest.register_assert_rewrite("tests.bot.helpers")
