"""Tokens, a tiny second game defined only in the tests, and its registry entry (registered by tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

from bot.games import GameEntry, Option, Texts
from tests.toygame import render, texts
from tests.toygame.game import GAME, Action, TokensGame, TokensState

RULES = Path(__file__).resolve().parent / "rules.md"

ENTRY = GameEntry(
    id="tokens", title="Tokens", engine=GAME,
    texts=Texts(board=texts.board, hand=texts.hand),
    rules=RULES,
    options=(Option("fast", bool, False, "Play 2 rounds instead of 3"),),
    render=render.render, render_scoreboard=render.render_scoreboard,
    blurb="A tiny test game: secret picks, a draw and objections (2-3 players).",
)

__all__ = ["ENTRY", "GAME", "RULES", "Action", "TokensGame", "TokensState"]
