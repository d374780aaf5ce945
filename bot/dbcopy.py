"""`keywood migrate-db FROM_URL TO_URL`: copy a Keywood database to another (a SQLite file to PostgreSQL, or any URL
to any URL) and prove the copy by replaying every game.

Both are opened as every command opens a database: the source is brought to this Keywood's schema first (a SQLite
file is backed up before any upgrade), the target gets the schema if it has none. A target that holds any row is
refused unless `overwrite` (then it is emptied first, in the same transaction as the copy). Every table's rows are
copied with their ids in one transaction (all or nothing), and PostgreSQL's id sequences moved past them. Then the
copy is checked: each table holds the same rows, value for value, in both; and each started game's log, replayed
from its seed through the engine, gives the state stored in the target. One line per game, exit code 1 if any
check fails. The SQL is the store's (Store.read_rows, Store.loading); this module only orders the steps.
"""

from __future__ import annotations

import sys
from itertools import zip_longest
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from bot.store import Store

BATCH = 500  # rows read and written at a time


class TargetNotEmpty(Exception):
    """The target database already holds rows, and overwriting was not asked for."""


def migrate(source: Store, target: Store, *, overwrite: bool = False, out: TextIO = sys.stdout) -> int:
    """Copy every row from source to target, check the copy and replay every game; returns the exit code (0: the
    copy is exact and every game replays to its stored state, 1 otherwise). Raises TargetNotEmpty, having written
    nothing, when the target holds rows and overwrite is False."""
    held = {name: n for name, n in target.row_counts().items() if n}
    if held and not overwrite:
        raise TargetNotEmpty("the target database already holds rows (" + ", ".join(
            f"{name} {n}" for name, n in held.items()) + "); nothing was copied (--overwrite empties it first)")
    copied = copy_rows(source, target, replace=bool(held))
    print("Copied " + ", ".join(f"{name} {n}" for name, n in copied.items()) + " rows.", file=out)
    bad = 0
    for name in differing_tables(source, target):
        print(f"table {name}: the copy differs from the source", file=out)
        bad += 1
    failed, games = check_games(target, out)
    bad += failed
    if bad:
        print(f"Checks failed: {bad}. The copy stays in the target as it is; the source was only read.", file=out)
        return 1
    print(f"Every table matches the source, and every started game ({games}) replays to its stored state.", file=out)
    return 0


def copy_rows(source: Store, target: Store, *, replace: bool = False) -> dict[str, int]:
    """Copy every table's rows, ids kept, in one target transaction (replace: empty the target's tables first);
    returns the rows copied per table."""
    copied: dict[str, int] = {}
    with target.loading(replace=replace) as insert:
        for name in source.table_names():  # parents first, so every foreign key finds its row
            copied[name] = 0
            for rows in source.read_rows(name, BATCH):
                insert(name, rows)
                copied[name] += len(rows)
    return copied


def differing_tables(source: Store, target: Store) -> list[str]:
    """The tables whose rows differ between the two databases (compared in key order, value for value)."""
    differing = []
    for name in source.table_names():
        mine = (row for rows in source.read_rows(name, BATCH) for row in rows)
        theirs = (row for rows in target.read_rows(name, BATCH) for row in rows)
        if any(a != b for a, b in zip_longest(mine, theirs)):
            differing.append(name)
    return differing


def check_games(store: Store, out: TextIO) -> tuple[int, int]:
    """Replay every stored game with a state and report each; returns (how many failed, how many were replayed)."""
    from bot.table import Table, TableError

    table = Table(store, images=False)
    with store.transaction() as tx:
        rows = [(row.id, row.game, row.status, tx.snapshot(row.id) is not None) for row in tx.games()
                if row.id is not None]
    failed = replayed = 0
    for game_id, game, status, has_state in rows:
        if not has_state:
            print(f"game {game_id} ({game}, {status}): never started, nothing to replay", file=out)
            continue
        try:
            verdict, detail = table.verify(game_id)
        except (KeyError, TableError) as exc:  # a game this Keywood does not know, or a state it cannot read
            verdict, detail = "fails", str(exc.args[0] if exc.args else exc)
        print(f"game {game_id} ({game}, {status}): {verdict} — {detail}", file=out)
        replayed += 1
        failed += verdict != "same"
    return failed, replayed
