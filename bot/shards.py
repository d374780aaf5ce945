"""Several bot processes on one database: who looks after which Discord shard's deadlines and messages.

Each process is given some of Discord's shards (`keywood run --shards 0-3 --shard-count 8`; without them, one
process has every shard). A server's shard is its id's `guild_key % count`. A process holds a lease, renewed at
every tick, on each shard it looks after: only the holder fires that shard's deadlines and sends its queued
messages, so each is done by one process. Deadlines are safe twice over: each game's are processed under the
game's lock, and a processed decision is closed.

A process that stops renewing (killed, frozen) loses its leases when they expire; another process then borrows
those shards and does their work, until the process owning them by its configuration comes back and asks for them:
the borrower hands them over at its next tick, and the owner starts on them at its next, so that no two processes
ever hold one shard together. Leases guard the sending too: immediately before each message, the sender checks that
the message is still pending and that this process still holds its shard's lease (the row names it, and it has not
lapsed by this process's own clock), so a process woken from a freeze after its shard was taken over sends nothing
more; until a renewal gives the shard back, it is no longer this process's. A borrower hands a shard back only
between two of its messages, never while one is in flight (the owner would find it pending and send it again).
A process that finds one of its own shards held by another live owner was started twice with the same shard: it
is refused at start, and stops if that happens while it runs (e.g. after a long freeze).
"""

from __future__ import annotations

import os
import re
import socket
import threading
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.store import LeaseRow, ShardSet, Store, Tx, now

RANGE = re.compile(r"(\d+)(?:-(\d+))?")


class ShardTaken(RuntimeError):
    """Another live process holds a shard this process owns (until: when its lease lapses unless renewed), or runs
    with another shard count (until None)."""

    def __init__(self, message: str, until: datetime | None = None) -> None:
        super().__init__(message)
        self.until = until


def parse_shards(text: str) -> frozenset[int]:
    """Shard ids from text like "0-3" or "0,2,5-7"; raises ValueError on anything else."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        found = RANGE.fullmatch(part)
        if found is None:
            raise ValueError(f"not a shard range: {part!r} (write e.g. 0-3 or 0,2,5-7)")
        first, last = int(found[1]), int(found[2] or found[1])
        if last < first:
            raise ValueError(f"not a shard range: {part!r} (the first shard comes first)")
        ids.update(range(first, last + 1))
    return frozenset(ids)


def check_shards(ids: frozenset[int], count: int) -> None:
    """Raise ValueError unless the shard ids are some of `count` shards (0 to count - 1)."""
    if count < 1 or not ids or max(ids) >= count:
        raise ValueError(f"shards {_ranges(ids)} are not all among the {count} shards 0-{count - 1}")


def _ranges(ids: frozenset[int]) -> str:
    """Shard ids as written on the command line: '0-3', '5' or '0,2,5-7'."""
    runs: list[list[int]] = []
    for shard in sorted(ids):
        if runs and shard == runs[-1][1] + 1:
            runs[-1][1] = shard
        else:
            runs.append([shard, shard])
    return ",".join(f"{a}-{b}" if b > a else str(a) for a, b in runs)


def process_name() -> str:
    """A name for this process, unique among every process ever run: host, pid and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def gone(holder: str) -> bool:
    """Whether a lease's holder is known to have ended: a process of this machine (another pid than this one) that
    no longer runs. A bot restarted after a crash takes its shards back at once instead of waiting for their leases."""
    host, _, rest = holder.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # running, as another user
        return False
    return False


@dataclass(frozen=True)
class SendCheck:
    """What a sender learns just before sending a queued message: whether its shard is still this process's, and
    whether the message still waits to be sent."""

    held: bool
    pending: bool


@dataclass
class Leases:
    """This process's leases: the shards it owns by configuration, and those it has borrowed."""

    store: Store
    own: frozenset[int]
    count: int
    seconds: float = 90.0
    name: str = field(default_factory=process_name)
    released: bool = False
    # a renewal still running in its thread when the process stops must not take the leases back after release();
    # a send checked (check_send) waits for a renewal, and a renewal for a check
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _sending: int | None = field(default=None, repr=False)  # the shard of the message being sent, if any

    def __post_init__(self) -> None:
        """Check the configuration; raises ValueError on a shard outside 0..count-1."""
        check_shards(self.own, self.count)

    def start(self, moment: datetime | None = None) -> ShardSet:
        """Take this process's own shards; raises ShardTaken, having taken none, when another live process owns one
        of them or runs with another shard count."""
        moment = moment or now()
        with self.store.transaction() as tx:
            rows = tx.leases()
            for row in rows.values():
                self._refuse_conflict(row, moment)
            return self._renew(tx, rows, moment)

    def renew(self, moment: datetime | None = None) -> ShardSet:
        """Renew, borrow and give back leases; the shards this process looks after until its next tick. Raises
        ShardTaken when another live process has taken one of this process's own shards as its owner."""
        moment = moment or now()
        with self._lock, self.store.transaction() as tx:
            if self.released:
                return ShardSet(frozenset(), self.count)
            rows = tx.leases()
            for shard in self.own:
                if shard in rows:
                    self._refuse_conflict(rows[shard], moment)
            return self._renew(tx, rows, moment)

    def check_send(self, row_id: int, shard_key: int) -> SendCheck:
        """Whether this process may still send a queued message (of a server with this shard key): one reading
        transaction, no database lock taken. The clock is read after the lease: a freeze in between cannot make a
        lapsed lease look live. A message it may send is in flight until done_sending(): meanwhile a renewal does
        not hand its shard back to its owner, who would find it still pending and send it too."""
        shard = shard_key % self.count
        with self._lock:
            with self.store.reading() as tx:
                lease = tx.lease(shard)
                status = tx.outbox_status(row_id)
            held = (not self.released and lease is not None and lease.holder == self.name
                    and lease.count == self.count and lease.expires_at > now())
            check = SendCheck(held, status == "pending")
            if check.held and check.pending:
                self._sending = shard
            return check

    def done_sending(self) -> None:
        """The message check_send allowed was sent and recorded (or its failure was): its shard may be handed over."""
        self._sending = None

    def release(self) -> None:
        """Give up every lease this process holds, for good (at a clean stop: others may borrow them at once)."""
        with self._lock, self.store.transaction() as tx:
            self.released = True
            for row in tx.leases().values():
                if row.holder == self.name:
                    tx.drop_lease(row)

    def _refuse_conflict(self, row: LeaseRow, moment: datetime) -> None:
        """Raise ShardTaken when a live lease of another process makes this one's configuration a conflict."""
        if row.holder == self.name or row.expires_at <= moment or gone(row.holder):
            return
        if row.count != self.count:
            raise ShardTaken(f"another Keywood process ({row.holder}) runs on this database with {row.count} shards; "
                             f"this one was given {self.count}: every process must be given the same shard count")
        if row.shard in self.own and not row.borrowed:
            raise ShardTaken(f"shard {row.shard} is already run by another Keywood process ({row.holder}, its lease "
                             f"runs until {row.expires_at:%H:%M:%S} UTC): give each process other shards",
                             row.expires_at)

    def _renew(self, tx: Tx, rows: dict[int, LeaseRow], moment: datetime) -> ShardSet:
        """Hold own shards (or ask a borrower for them), borrow shards nobody renews, give back those asked for."""
        until = moment + timedelta(seconds=self.seconds)
        held: set[int] = set()
        for shard in range(self.count):
            row = rows.get(shard)
            live = (row is not None and row.expires_at > moment and row.holder != self.name
                    and not gone(row.holder))
            mine = shard in self.own
            if row is not None and live and row.borrowed and mine:
                row.waiting = self.name  # the borrower gives it back at its next tick
                tx.save_lease(row)
            elif row is not None and row.holder == self.name and row.borrowed and row.waiting:
                if shard == self._sending:  # handed over at the next tick, once the message is recorded
                    row.expires_at = until
                    held.add(shard)
                else:  # its owner is back: handed over whole, so that nobody borrows it in between
                    row.holder, row.borrowed, row.waiting, row.expires_at = row.waiting, False, None, until
                tx.save_lease(row)
            elif not live:
                tx.save_lease(LeaseRow(shard=shard, count=self.count, holder=self.name, borrowed=not mine,
                                       expires_at=until))
                held.add(shard)
        return ShardSet(frozenset(held), self.count)
