"""Typed records of the table's state that is stored as JSON: the notes a game row keeps beside its options (seat
names, handovers, time away, seats offered to substitutes and their volunteers), and a decision prompt's payload.

Each record reads and writes the JSON shape stored games have, so games stored before these records existed load
unchanged. The pairs read_game_options / write_game_options and PromptPayload.from_json / to_json are the only
(de)serialisation of those columns; this module imports nothing else of the bot.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal, cast

import orjson

Stage = Literal["running", "warned", "out"]  # a clock before its warning, after it, and once it has run out
NOTE_KEYS = ("names", "handovers", "away", "sub_open", "volunteers")  # the table's own keys in a game's options
PAYLOAD_KEYS = ("must", "default", "phrase", "public", "clock", "by", "timed_out")


@dataclass(frozen=True)
class Handover:
    """A running game's seat given from one user to another (JSON: seat, from, to)."""

    seat: int
    from_user: str
    to_user: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Handover:
        """A handover as stored."""
        return cls(int(data["seat"]), str(data["from"]), str(data["to"]))

    def to_json(self) -> dict[str, Any]:
        """The handover as stored."""
        return {"seat": self.seat, "from": self.from_user, "to": self.to_user}


@dataclass(frozen=True)
class Volunteer:
    """Someone not playing who offered to take over a seat offered to substitutes."""

    seat: int
    user_id: str
    name: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Volunteer:
        """An offer as stored."""
        return cls(int(data["seat"]), str(data["user_id"]), str(data["name"]))

    def to_json(self) -> dict[str, Any]:
        """The offer as stored."""
        return {"seat": self.seat, "user_id": self.user_id, "name": self.name}


@dataclass(frozen=True)
class Away:
    """A seat's time away: the minutes of pause used in this game, and until when its clock is paused (None: not
    paused; a time already past means the pause is over)."""

    used: int = 0
    until: datetime | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Away:
        """A seat's time away as stored (until as ISO text, absent when not paused)."""
        until = data.get("until")
        return cls(int(data.get("used", 0)), datetime.fromisoformat(until) if until else None)

    def to_json(self) -> dict[str, Any]:
        """The time away as stored."""
        return {"used": self.used} | ({"until": self.until.isoformat()} if self.until else {})


@dataclass(frozen=True)
class TableNotes:
    """What a table keeps about its game beside the game's options. A field is None while its key is not stored."""

    names: tuple[str, ...] | None = None  # the seat names the engine knows, from the start (handovers do not change it)
    handovers: tuple[Handover, ...] | None = None
    away: Mapping[int, Away] | None = None  # by seat
    sub_open: tuple[int, ...] | None = None  # seats offered to substitutes
    volunteers: tuple[Volunteer, ...] | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableNotes:
        """The notes among a game's stored options (other keys are ignored)."""
        def listed(key: str) -> list[Any] | None:
            return list(data[key]) if key in data else None

        names, handovers, sub_open, volunteers = (listed(k) for k in ("names", "handovers", "sub_open", "volunteers"))
        return cls(
            names=tuple(str(n) for n in names) if names is not None else None,
            handovers=tuple(Handover.from_json(h) for h in handovers) if handovers is not None else None,
            away={int(seat): Away.from_json(a) for seat, a in data["away"].items()} if "away" in data else None,
            sub_open=tuple(int(s) for s in sub_open) if sub_open is not None else None,
            volunteers=tuple(Volunteer.from_json(v) for v in volunteers) if volunteers is not None else None)

    def to_json(self) -> dict[str, Any]:
        """The notes as stored among a game's options: only the keys that are set."""
        data: dict[str, Any] = {}
        if self.names is not None:
            data["names"] = list(self.names)
        if self.handovers is not None:
            data["handovers"] = [h.to_json() for h in self.handovers]
        if self.away is not None:
            data["away"] = {str(seat): a.to_json() for seat, a in self.away.items()}
        if self.sub_open is not None:
            data["sub_open"] = list(self.sub_open)
        if self.volunteers is not None:
            data["volunteers"] = [v.to_json() for v in self.volunteers]
        return data

    def handed_from(self, user_id: str) -> list[Handover]:
        """The handovers of seats this user held, oldest first."""
        return [h for h in self.handovers or () if h.from_user == user_id]

    def away_of(self, seat: int) -> Away:
        """A seat's time away (none used when nothing is stored)."""
        return (self.away or {}).get(seat, Away())

    def offered(self) -> tuple[int, ...]:
        """The seats offered to substitutes."""
        return self.sub_open or ()

    def offers(self) -> tuple[Volunteer, ...]:
        """The volunteers' offers, oldest first."""
        return self.volunteers or ()

    def with_handover(self, handover: Handover) -> TableNotes:
        """These notes with one more handover."""
        return replace(self, handovers=(*(self.handovers or ()), handover))

    def with_away(self, seat: int, away: Away) -> TableNotes:
        """These notes with a seat's time away replaced."""
        return replace(self, away={**(self.away or {}), seat: away})

    def with_seat_offered(self, seat: int) -> TableNotes:
        """These notes with a seat offered to substitutes (the seats in order)."""
        return replace(self, sub_open=tuple(sorted({*self.offered(), seat})))

    def with_volunteer(self, volunteer: Volunteer) -> TableNotes:
        """These notes with one more volunteer's offer."""
        return replace(self, volunteers=(*self.offers(), volunteer))

    def without_offer(self, seat: int) -> TableNotes:
        """These notes with a seat taken off offer to substitutes, with the offers made for it."""
        return replace(self, sub_open=tuple(s for s in self.offered() if s != seat),
                       volunteers=tuple(v for v in self.offers() if v.seat != seat))


def read_game_options(text: str) -> tuple[dict[str, Any], TableNotes]:
    """A game row's stored options (JSON text): the game's options (the registry's values), and the table's notes."""
    data = dict(orjson.loads(text))
    notes = TableNotes.from_json({key: data.pop(key) for key in NOTE_KEYS if key in data})
    return data, notes


def write_game_options(options: Mapping[str, Any], notes: TableNotes) -> str:
    """A game row's options as stored: one JSON object, keys sorted, holding the game's options and the notes."""
    return json.dumps({**options, **notes.to_json()}, sort_keys=True)


@dataclass(frozen=True)
class GameOptions:
    """A game row's options: the game's own (the registry's values) and the table's notes, stored as one object."""

    values: Mapping[str, Any] = field(default_factory=dict)
    notes: TableNotes = field(default_factory=TableNotes)

    @classmethod
    def from_json(cls, text: str) -> GameOptions:
        """The options as stored (JSON text)."""
        return cls(*read_game_options(text))

    def to_json(self) -> str:
        """The options as stored."""
        return write_game_options(self.values, self.notes)


@dataclass(frozen=True)
class Timer:
    """A decision's running clock: when it runs (or ran) out, and its stage."""

    ends: datetime
    stage: Stage

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Timer:
        """A clock as stored in a prompt's payload."""
        return cls(datetime.fromisoformat(str(data["ends"])), cast(Stage, data["stage"]))

    def to_json(self) -> dict[str, Any]:
        """The clock as stored."""
        return {"ends": self.ends.isoformat(), "stage": self.stage}


@dataclass(frozen=True)
class PromptPayload:
    """What a decision's prompt row keeps beside its columns: whether play waits for it (must), its default answer,
    its phrase, whether its choices are public, its clock, who answered it ahead (by), and whether its default was
    applied because its deadline passed (timed_out). older: keys of rows stored by earlier versions, kept as read."""

    must: bool = False
    default: str | None = None
    phrase: str | None = None  # None only in rows stored before decisions had phrases
    public: bool = True
    clock: Timer | None = None
    by: str | None = None
    timed_out: bool = False
    older: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, text: str) -> PromptPayload:
        """A prompt's payload as stored (JSON text)."""
        data = dict(orjson.loads(text))
        clock, by = data.get("clock"), data.get("by")
        return cls(must=bool(data.get("must")), default=data.get("default"), phrase=data.get("phrase"),
                   public=bool(data.get("public", True)), clock=Timer.from_json(clock) if clock else None,
                   by=str(by) if by is not None else None, timed_out=bool(data.get("timed_out")),
                   older={k: v for k, v in data.items() if k not in PAYLOAD_KEYS})

    def to_json(self) -> str:
        """The payload as stored: must, default, phrase and public, then clock, by and timed_out when set."""
        data: dict[str, Any] = {"must": self.must, "default": self.default}
        if self.phrase is not None:
            data["phrase"] = self.phrase
        data["public"] = self.public
        if self.clock is not None:
            data["clock"] = self.clock.to_json()
        if self.by is not None:
            data["by"] = self.by
        if self.timed_out:
            data["timed_out"] = True
        return orjson.dumps(data | dict(self.older)).decode()
