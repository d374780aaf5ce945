"""The field lattice: labels, neighbours, squares and the edges fences sit on.

Fields sit on integer points (x, y); a square slot (cottage, house or the Keythedral) sits between four fields and
is named by the field at its south-west corner plus "+" (ruling T-3 bounds the lattice to A1..Z26).
"""

from __future__ import annotations

import re

Point = tuple[int, int]

SIZE = 26
CENTRE: Point = (12, 12)
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LABEL = re.compile(r"([a-z])(\d{1,2})(\+?)")


def field_label(p: Point) -> str:
    """'M13' for (12, 12)."""
    return f"{_LETTERS[p[0]]}{p[1] + 1}"


def square_label(p: Point) -> str:
    """'M13+' for the square whose south-west field is (12, 12)."""
    return field_label(p) + "+"


def read_label(text: str) -> tuple[Point, bool] | None:
    """(point, is_square) for 'm13' or 'M13+'; None when the text is no label on the lattice."""
    match = _LABEL.fullmatch(text.strip().lower())
    if not match:
        return None
    x, y = ord(match.group(1)) - ord("a"), int(match.group(2)) - 1
    if not on_lattice((x, y)):
        return None
    return (x, y), bool(match.group(3))


def on_lattice(p: Point) -> bool:
    """Whether a field point lies inside the bounded lattice."""
    return 0 <= p[0] < SIZE and 0 <= p[1] < SIZE


def square_on_lattice(s: Point) -> bool:
    """Whether all four fields of a square lie inside the lattice."""
    return 0 <= s[0] < SIZE - 1 and 0 <= s[1] < SIZE - 1


def orthogonal(p: Point) -> list[Point]:
    """The four field points sharing an edge with field p (inside the lattice)."""
    x, y = p
    return [q for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if on_lattice(q)]


def squares_of(p: Point) -> list[Point]:
    """The four squares touching field p (inside the lattice)."""
    x, y = p
    return [s for s in ((x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1)) if square_on_lattice(s)]


def fields_of(s: Point) -> list[Point]:
    """The four field points a square touches."""
    x, y = s
    return [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
