"""Turn clocks: how long a seat has for a decision, when it is warned, and what happens when its time runs out.

A table's clock is three of its options (the registry's, shared by every game): `clock_hours`, the pace of one
decision (0: no clock); `on_timeout`, what happens when it runs out (the stand-in plays that decision, the seat is
offered to a substitute, or the host is asked); and `away_hours`, how long each player may pause their own clock
in all. A running clock lives in its decision's prompt row (the payload's `clock`, a records.Timer: when it ends, and
its stage, `running` before the warning, `warned` after it, `out` once it ran out; the prompt's deadline is the next
moment the clock needs attention), so it survives a restart like every deadline. The table (bot/table/timing.py)
applies what these helpers work out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.numbers import shorten
from bot.records import TableNotes, Timer
from bot.store import aware

CONSEQUENCES = ("standin", "sub", "host")
WARN_SHARE = 4  # a seat is warned when a quarter of its time is left
WHAT_HAPPENS = {
    "standin": "Keywood's stand-in plays that decision",
    "sub": "the seat is offered to a substitute (anyone not playing volunteers with `sub`; the host confirms)",
    "host": "the host is asked what to do",
}
_PART = re.compile(r"(\d+)\s*(d|days?|h|hours?|hrs?|m|mins?|minutes?)?", re.IGNORECASE)


@dataclass(frozen=True)
class Clock:
    """A table's clock: the pace of one decision, the consequence of running out, and the away allowance."""

    pace: timedelta
    on_timeout: str
    away_limit: timedelta

    @classmethod
    def of(cls, options: dict[str, Any]) -> Clock:
        """The clock of a table's stored options (a table stored before clocks existed has none)."""
        return cls(timedelta(hours=int(options.get("clock_hours") or 0)), str(options.get("on_timeout") or "standin"),
                   timedelta(hours=int(options.get("away_hours", 72) or 0)))

    @property
    def on(self) -> bool:
        """Whether decisions are timed at all."""
        return self.pace > timedelta(0)

    def start(self, moment: datetime, away_until: datetime | None = None) -> tuple[datetime, Timer]:
        """A new decision's first deadline (its warning) and its clock, counted from the moment (or from the end of
        the seat's time away)."""
        begins = max(moment, away_until) if away_until else moment
        ends = begins + self.pace
        return ends - self.pace / WARN_SHARE, Timer(ends, "running")

    def describe(self) -> str:
        """The clock in words, for `clock` and the message announcing a change of it."""
        if not self.on:
            return "No clock: a player who must act is reminded, and nothing happens on its own."
        away = f"each player may pause their own clock for {say(self.away_limit)} in all (`away`)" \
            if self.away_limit else "pausing one's clock is not allowed at this table"
        return (f"Clock: {say(self.pace)} for each decision, with a warning when {say(self.pace / WARN_SHARE)} "
                f"are left; when it runs out, {WHAT_HAPPENS[self.on_timeout]}. Decisions that have a default answer "
                f"keep their own deadline. {away[0].upper()}{away[1:]}.")


def shifted(clock: Timer, by: timedelta, pace: timedelta) -> tuple[datetime, Timer] | None:
    """A running (or warned) clock moved on by a pause, with its next deadline; None for a clock already out. A
    clock whose holder was warned is not warned again."""
    if clock.stage == "out":
        return None
    later = ends(clock) + by
    if clock.stage == "warned":
        return later, Timer(later, "warned")
    return later - pace / WARN_SHARE, Timer(later, "running")


def ends(clock: Timer) -> datetime:
    """When a clock runs (or ran) out."""
    return aware(clock.ends)


def parse_duration(text: str) -> timedelta:
    """'12h', '2d', '1d 6h', '90m', or a bare number of hours; raises ValueError with an example otherwise."""
    cleaned = text.strip().lower().replace(",", " ")
    parts = list(_PART.finditer(cleaned))
    if not cleaned or not parts or "".join(p.group(0) for p in parts).replace(" ", "") != cleaned.replace(" ", ""):
        raise ValueError(f"'{text.strip()}' is not a duration: write it as 12h, 2d, 1d6h or 90m.")
    total = timedelta(0)
    for part in parts:
        if len(part.group(1)) > 6:  # past any clock, and past what a timedelta holds
            raise ValueError(f"'{shorten(part.group(1))}' is longer than any clock here: write a duration as 12h, "
                             "2d, 1d6h or 90m.")
        number, unit = int(part.group(1)), (part.group(2) or "h")[0]
        total += {"d": timedelta(days=number), "h": timedelta(hours=number), "m": timedelta(minutes=number)}[unit]
    return total


def say(span: timedelta) -> str:
    """A duration in words: '1 day 6 hours', '45 minutes'."""
    minutes = max(0, round(span.total_seconds() / 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((days, "day"), (hours, "hour"), (mins, "minute"))
             if n]
    return " ".join(parts) or "no time"


def away_until(notes: TableNotes, seat: int, moment: datetime) -> datetime | None:
    """Until when a seat's clock is paused, if it is paused at this moment."""
    until = notes.away_of(seat).until
    if until is None:
        return None
    found = aware(until)
    return found if found > moment else None
