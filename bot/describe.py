"""Plain-text descriptions that every game shares: scoreboards, for chat messages and the terminal."""

from __future__ import annotations

from engine.core import Scoreboard


def capitalise(text: str) -> str:
    """Upper-case the first letter only."""
    return text[:1].upper() + text[1:]


def and_list(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def scoreboard(board: Scoreboard) -> str:
    """The score, line by line, ranked."""
    title = "Final score" if board.final else "Projected score"
    lines = [f"{title}:"]
    for rank, player in enumerate(board.players, start=1):
        lines.append(f"{rank}. {player.name}: {player.total}")
        for line in player.lines:
            if line.points:
                lines.append(f"   {line.label} {line.points}" + (f" [{line.detail}]" if line.detail else ""))
    if board.tie_break:
        lines.append(board.tie_break)
    return "\n".join(lines)
