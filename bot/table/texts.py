"""The table's shared words: who the game waits for, a seat's hand, the record since a seat's last move, channel
notices, and reading a typed repeat count or narrowing suggestions."""

from __future__ import annotations

import re

from bot import describe
from bot.loaded import STANDIN_AUTHOR, TIMEOUT_AUTHOR, Loaded, log_line
from bot.numbers import shorten
from bot.store import Tx
from bot.table.commands import Outcome, TableError, Where

LOG_LINES = 15
DIGEST_LINES = 8  # lines of "since your last move" in the message that asks a player to take a turn
MAX_REPEAT = 20  # the most times one command repeats an action ('take pig x3')
REPEAT = re.compile(r"^(?P<action>.*\S)\s+[x×](?P<times>\d+)$", re.IGNORECASE)


def waiting(game: Loaded) -> str:
    """'waiting for Ben to join or decline' from the open decisions, with the seats' current holders."""
    groups: dict[str, list[str]] = {}
    for decision in game.decisions():
        if decision.must:
            groups.setdefault(decision.phrase, []).append(game.user_of(decision.seat).name)
    if not groups:
        return "waiting for nobody: the game is over"
    parts = [f"{describe.and_list(names)} to {phrase}" for phrase, names in groups.items()]
    return "waiting for " + "; ".join(parts)


def hand_text(game: Loaded, seat: int) -> str:
    """A seat's private view as text, with its holder's name."""
    return game.rename(game.entry.texts.hand(game.engine.view(game.state, seat, game.legal(seat)), seat))


def digest(tx: Tx, game: Loaded, seat: int, limit: int = DIGEST_LINES) -> list[str]:
    """The public record since the seat's own last action: a heading, then up to `limit` lines, newest last."""
    since = tx.actions_since(game.id, seat, limit, not_by=(STANDIN_AUTHOR, TIMEOUT_AUTHOR))
    if not since.rows:
        return []
    more = f" (the last {len(since.rows)} of {since.total})" if since.total > len(since.rows) else ""
    head = f"Since your last move{more}:" if since.acted else f"So far{more}:"
    return [head] + [log_line(game, r) for r in since.rows]


def notice(game: Loaded, lines: list[str], mention: list[str]) -> Outcome:
    """A channel message about the game that changes nothing in it."""
    return Outcome(True, public=lines, mention=mention, game_id=game.id, version=game.row.version,
                   where=Where(game.row.guild_id, game.row.channel_id))


def repeats(text: str) -> tuple[str, int]:
    """'take pig x3' -> ('take pig', 3); text without a repeat count -> (text, 1); raises TableError past 20."""
    match = REPEAT.match(text.strip())
    if match is None:
        return text, 1
    if len(match["times"]) > 3 or not 1 <= (times := int(match["times"])) <= MAX_REPEAT:
        raise TableError(f"A repeat count is from 1 to {MAX_REPEAT}, not {shorten(match['times'])}.")
    return match["action"], times


def grouped(texts: list[str], limit: int) -> list[str]:
    """Suggestions that fit in `limit`: the texts themselves, or else their shared first words ('play green'), as
    many words as still fit, so that a person narrows them down as they type."""
    if len(texts) <= limit:
        return texts
    best: list[str] = []
    for depth in range(1, max(len(t.split()) for t in texts) + 1):
        groups = list(dict.fromkeys(" ".join(t.split()[:depth]) for t in texts))
        if len(groups) > limit:
            return best if len(best) > 1 else groups[:limit]  # one group says nothing new: show the next words
        best = groups
    return best[:limit]
