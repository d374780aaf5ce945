"""The explanation of a player's best allocation, line by line: each winter tile with what it scored, the storage
tiles, White Wind, gold, where the start-player keyple went, and what scored nowhere."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from engine.keyflower.allocation import Group, Plan
from engine.keyflower.holdings import (
    GOLD,
    PAIRS,
    POINTS,
    PURPLE,
    UNSCORED,
    WHITE_WIND,
    WILDS,
    WINTER,
    WORKERS,
    Holdings,
    Line,
)


def _words(counts: Mapping[str, int], order: Sequence[str]) -> str:
    """'2 iron, 1 gold' in the group's order; a wild keyple by its name."""
    return ", ".join(WILDS[k] if k in WILDS else f"{counts[k]} {k}" for k in order if counts.get(k))


def _wild_words(wild: str, counts: Mapping[str, int], order: Sequence[str], label: str) -> tuple[str, str]:
    """'Paulo + 2 red + 2 green, all as green' for a wild keyple fixed on a tile, and the colour they are read as."""
    colour = "green" if label == WINTER["key-market"] else max(PAIRS[wild], key=lambda c: counts.get(c, 0))
    parts = [WILDS[wild]] + [f"{counts[k]} {k}" for k in order if counts.get(k)]
    return " + ".join(parts) + (f", all as {colour}" if len(parts) > 1 else f" as {colour}"), colour


def _arranged(group: Group, members: Sequence[Mapping[int, str]]) -> list[dict[int, str]]:
    """The three-item sets, a guild's rearranged so that as few keyples as possible stand in for another colour."""
    if group.triple_label != WINTER["craftsmens-guild"]:
        return [dict(held) for held in members]
    m = len(members)
    cols = [[held[j] for held in members] for j in range(3)]
    if group.triple[0] == group.triple[2]:  # Sven in the guild: its blue and yellow slots take either colour
        pool = cols[0] + cols[2]
        blues, yellows = [k for k in pool if k == "blue"], [k for k in pool if k == "yellow"]
        rest = [k for k in pool if k not in ("blue", "yellow")] + blues[m:] + yellows[m:]
        gap = m - len(blues[:m])
        cols[0], cols[2] = blues[:m] + rest[:gap], yellows[:m] + rest[gap:]
    cols[1].sort(key=("red", "paulo", "green").index)
    return [{j: cols[j][i] for j in range(3)} for i in range(m)]


def _set_words(group: Group, held: Mapping[int, str]) -> str:
    """One three-item set: its kinds in the group's order; a guild set slot by slot, naming stand-ins."""
    if group.triple_label != WINTER["craftsmens-guild"]:
        return " + ".join(sorted(held.values(), key=group.kinds.index))
    return " + ".join(held[j] if held[j] == r else f"{WILDS.get(held[j], held[j])} as {r}"
                      for j, r in enumerate(WORKERS[:3]))


def _match(group: Group, units: list[str], m: int) -> tuple[list[tuple[int, int]], list[int]]:
    """The open three-item slots (set i, slot j) and a slot per unit: first those, then the five-item sets."""
    prefilled = {j for j, _ in group.prefilled}
    open_slots = [(i, j) for i in range(m) for j in range(3) if i or j not in prefilled]
    accept = [group.triple[j] for _, j in open_slots] + [frozenset(group.kinds)] * (len(units) - len(open_slots))
    owner: list[int] = [-1] * len(accept)

    def place(u: int, seen: set[int]) -> bool:
        for s, kinds in enumerate(accept):
            if units[u] in kinds and s not in seen:
                seen.add(s)
                if owner[s] < 0 or place(owner[s], seen):
                    owner[s] = u
                    return True
        return False

    for u in range(len(units)):
        if not place(u, set()):
            raise AssertionError("the chosen items do not fill the sets")  # _fill checked Hall's condition
    slot = [0] * len(units)
    for s, u in enumerate(owner):
        slot[u] = s
    return open_slots, slot


def _group_lines(plan: Plan, owned: set[str], choice_key: str) -> tuple[dict[str, Line], str]:
    """The lines of one group's plan by label, and where the start-player keyple went ('' if not in it)."""
    group = plan.group
    got: dict[str, Counter[str]] = {}
    points: Counter[str] = Counter()
    units: list[str] = []
    purple_unit = -1
    purple_where = ""
    for pile, n in zip(plan.piles, plan.taken, strict=True):
        if pile.origin == PURPLE and n:
            purple_unit = len(units)
        units += [pile.kind] * n
        rest = pile.count - n
        if rest:
            label = pile.where or UNSCORED
            got.setdefault(label, Counter())[pile.kind] += rest
            points[label] += pile.value * rest
            if pile.origin == PURPLE:
                purple_where = label
    wild_at = {label: wild for wild, label, _ in plan.placed}
    for _, label, wild_points in plan.placed:
        got.setdefault(label, Counter())
        points[label] += wild_points
    lines: dict[str, Line] = {}
    open_slots, slot = _match(group, units, plan.sets3)
    cut = len(open_slots)
    if group.triple:
        members: list[dict[int, str]] = [dict(group.prefilled) if i == 0 else {} for i in range(plan.sets3)]
        for u, s in enumerate(slot):
            if s < cut:
                i, j = open_slots[s]
                members[i][j] = units[u]
        sets = Counter(_set_words(group, held) for held in _arranged(group, members))
        detail = ", ".join(f"{n} × {words}" for words, n in sets.items()) or "no set"
        lines[group.triple_label] = Line(group.triple_label, group.triple_value * plan.sets3, detail)
    if group.five_value:
        five = Counter(units[u] for u in range(len(units)) if slot[u] >= cut)
        detail = f"{plan.sets5} × 5 ({_words(five, group.kinds)})" if plan.sets5 else "no set"
        lines[group.five_label] = Line(group.five_label, group.five_value * plan.sets5, detail)
    if purple_unit >= 0:
        purple_where = group.triple_label if slot[purple_unit] < cut else group.five_label
    for label, counts in got.items():
        choice = plan.choice
        if label in wild_at:
            detail, choice = _wild_words(wild_at[label], counts, group.kinds, label)
        else:
            detail = _words(counts, group.kinds)
        if label == WINTER.get(choice_key):
            detail = f"{choice} chosen: {detail}"
        if label in (GOLD, WINTER["jeweller"]) and set(counts) - {"gold"}:
            detail += " (3b: any resource counts as gold)"
        lines[label] = Line(label, points[label], detail)
    if choice_key in owned and WINTER[choice_key] not in lines:
        lines[WINTER[choice_key]] = Line(WINTER[choice_key], 0, "nothing to score")
    return lines, purple_where


def _purple_words(h: Holdings, use: str, where: str) -> str:
    """Where the start-player keyple scores (its points are in that tile's line)."""
    if not use or where == UNSCORED:
        return "adds no points"
    if where in {t.name for t in h.storage}:
        return f"counted as {use}, kept on the {where}"
    if where == GOLD:
        return f"counted as {use}, 1 VP as gold"
    return f"counted as {use}, scored by the {where}"


def lines_of(h: Holdings, plans: Sequence[Plan], purple_use: str) -> list[Line]:
    """Every line: fixed ones, then each owned winter tile, storage tiles, White Wind, gold, the keyple, the rest."""
    owned = set(h.winter)
    by_label: dict[str, Line] = {}
    purple_where = ""
    unscored: list[str] = []
    for plan, key in zip(plans, ("village-hall", "scholar", "watermill"), strict=True):
        lines, where = _group_lines(plan, owned, key)
        purple_where = purple_where or where
        if UNSCORED in lines:
            unscored.append(lines.pop(UNSCORED).detail)
        by_label.update(lines)
    out = [Line(label, points) for label, points in h.fixed]
    for key, name in WINTER.items():
        if key in owned:
            out.append(by_label.get(name, Line(name, POINTS["keythedral"], "once")) if key == "keythedral"
                       else by_label.get(name, Line(name, 0, "nothing to score")))
    for tile in h.storage:
        line = by_label.get(tile.name)
        out.append(Line(tile.name, line.points, f"{line.detail}, {tile.per} VP each") if line
                   else Line(tile.name, 0, "nothing stored"))
    if WHITE_WIND in by_label:
        out.append(by_label[WHITE_WIND])
    elif h.white_wind:
        out.append(Line(WHITE_WIND, 0, "every worker scores elsewhere" if sum(h.workers.values()) else "no workers"))
    if GOLD in by_label:
        line = by_label[GOLD]
        out.append(Line(GOLD, line.points, f"{line.detail}, 1 VP each"))
    if h.purple:
        out.append(Line(PURPLE, 0, _purple_words(h, purple_use, purple_where)))
    if unscored:
        out.append(Line(UNSCORED, 0, ", ".join(unscored)))
    return out
