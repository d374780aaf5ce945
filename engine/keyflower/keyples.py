"""Keyples and groups of them: the four colours, and the Keymelequin's wild keyples Sven and Paulo.

A group (a bid, a use, a screen) is counted by kind: {"blue": 2, "sven": 1}. Sven counts as one blue or one
yellow keyple, Paulo as one green or one red; a keyple of Sven's pair that is *with* Sven (in his bid, or used on
the tile he is used on) may count as either colour of the pair (module sheet "Using Sven and Paulo", F-28, F-29).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

COLOURS = ("blue", "red", "yellow", "green")
WILD: dict[str, tuple[str, str]] = {"sven": ("blue", "yellow"), "paulo": ("green", "red")}
KINDS = (*COLOURS, *WILD)
PAIR_OF = {colour: wild for wild, pair in WILD.items() for colour in pair}
NAMES = {"sven": "Sven", "paulo": "Paulo"}
Group = Mapping[str, int]


BIT = {"blue": 1, "red": 2, "yellow": 4, "green": 8}
PAIR_BITS = {wild: BIT[a] | BIT[b] for wild, (a, b) in WILD.items()}
ANY = 15
SETS = tuple(frozenset(c for c in COLOURS if m & BIT[c]) for m in range(16))  # a colour mask as a set


def can_be(group: Group, wild_here: Iterable[str] = ()) -> frozenset[str]:
    """The colours every keyple of the group can count as at once (empty: the group fits no colour); wild_here
    names wild keyples the group is with besides its own (used on the same tile)."""
    return SETS[mask(group, sum(PAIR_BITS[w] for w in set(wild_here)))]


def mask(group: Group, with_pairs: int = 0) -> int:
    """can_be() as a colour mask; with_pairs: the colour bits of the pairs whose wild keyple is with the group."""
    for wild, bits in PAIR_BITS.items():
        if group.get(wild):
            with_pairs |= bits
    out = ANY
    for kind, n in group.items():
        if n > 0:
            bits = PAIR_BITS.get(kind) or BIT[kind]
            out &= PAIR_BITS[PAIR_OF[kind]] if bits & with_pairs and kind in BIT else bits
    return out


def wilds_in(group: Group) -> set[str]:
    """The wild keyples a group holds."""
    return {w for w in WILD if group.get(w)}


def label(group: Group) -> str:
    """What a group is shown as: its one colour, or the colours it may count as ('blue/yellow'); '?' for none."""
    colours = can_be(group)
    return "/".join(c for c in COLOURS if c in colours) if colours else "?"


def merged(*groups: Group) -> dict[str, int]:
    """Several groups counted together."""
    out: dict[str, int] = {}
    for group in groups:
        for kind, n in group.items():
            if n:
                out[kind] = out.get(kind, 0) + n
    return out


def size(group: Group) -> int:
    """How many keyples a group holds."""
    return sum(group.values())


def words(group: Group) -> str:
    """'Sven, 2 yellow' (nothing: 'nothing')."""
    parts = [NAMES[w] for w in WILD if group.get(w)]
    parts += [f"{group[c]} {c}" for c in sorted(COLOURS) if group.get(c)]
    return ", ".join(parts) or "nothing"
