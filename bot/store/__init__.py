"""The game store: the tables and the only code in Keywood that speaks to the database.

- rows.py: the tables, one SQLModel class each (the rows the store hands out), and their column types;
- connect.py: engines (SQLite's WAL and BEGIN IMMEDIATE, PostgreSQL's UTC sessions) and schema upgrades;
- core.py: what a transaction's queries stand on (its connection, its moment, locks, the rows it reads);
- games.py, seats.py, log.py, prompts.py, outbox.py, leases.py, settings.py: the queries of each area;
- transaction.py: Store, which opens transactions, and Tx, every area's queries in one.

SQLite by default; PostgreSQL (`postgresql+psycopg://...`) for several processes on one database.
"""

from bot.store.connect import DEFAULT_URL, backup, connect, make_engine
from bot.store.core import ReadOnlyTransaction, StaleVersion, StoreTrouble
from bot.store.log import Since
from bot.store.rows import (
    LIVE,
    NOTICES,
    OPEN,
    ActionRow,
    GameRecord,
    GameRow,
    GuildSettingsRow,
    LeaseRow,
    OutboxRow,
    PromptRecord,
    PromptRow,
    RecipientRow,
    SeatRecord,
    SeatRow,
    ShardSet,
    SnapshotRow,
    UTCTime,
    aware,
    guild_key,
    now,
)
from bot.store.transaction import Store, Tx

__all__ = [
    "DEFAULT_URL", "LIVE", "NOTICES", "OPEN", "ActionRow", "GameRecord", "GameRow", "GuildSettingsRow", "LeaseRow",
    "OutboxRow", "PromptRecord", "PromptRow", "ReadOnlyTransaction", "RecipientRow", "SeatRecord", "SeatRow",
    "ShardSet", "Since", "SnapshotRow", "StaleVersion", "Store", "StoreTrouble", "Tx", "UTCTime", "aware", "backup",
    "connect", "guild_key", "make_engine", "now",
]
