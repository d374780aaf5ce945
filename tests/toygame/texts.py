"""Tokens views as chat text: the public table, and one seat's hand."""

from __future__ import annotations

from typing import Any


def board(view: dict[str, Any]) -> str:
    """The public table in a few lines."""
    names = view["names"]
    lines = [f"Tokens, round {view['round']} of {view['rounds']}. {view['waiting_for'][:1].upper()}"
             f"{view['waiting_for'][1:]}."]
    for seat, name in enumerate(names):
        picked = ", picked" if view["picked"][seat] else ""
        lines.append(f"{name}: {view['points'][seat]} points, {view['hand_sizes'][seat]} cards{picked}")
    for number, picks in enumerate(view["revealed"], start=1):
        lines.append(f"Round {number}: " + ", ".join(f"{n} {p}" for n, p in zip(names, picks, strict=True)))
    lines.append(f"Deck: {view['deck_size']} cards.")
    return "\n".join(lines)


def hand(view: dict[str, Any], seat: int) -> str:
    """What one seat alone sees: its hand, its pick not yet revealed, and what it may do."""
    name = view["names"][seat]
    lines = [f"{name}, your hand: {', '.join(map(str, view['hand'])) or 'empty'}."]
    if view.get("pick") is not None:
        lines.append(f"Your secret pick: {view['pick']}.")
    if view.get("legal"):
        lines.append("You may: " + ", ".join(view["legal"]) + ".")
    return "\n".join(lines)
