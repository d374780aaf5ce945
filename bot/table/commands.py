"""What goes into the table and what comes out: a Command (where, who, what) and its Outcome (the reply, and what to
post, tell, mention, open and close), the decisions noted for a person, and the refusals."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.store import OutboxRow
from engine.core import IllegalAction, InvalidAction

COMPUTER = "keywood-computer-"  # the user id of a computer seat is this and its number
CHANGED = "The table changed while your command was applied; nothing was changed."


@dataclass(frozen=True)
class Where:
    """A table: a server (guild) and a channel or thread."""

    guild_id: str
    channel_id: str


@dataclass(frozen=True)
class Who:
    """The person giving a command; is_admin when they may manage the server."""

    user_id: str
    name: str
    is_admin: bool = False


@dataclass(frozen=True)
class Command:
    """A person's command at a table. version is the state a button was shown for (None when typed)."""

    where: Where
    who: Who
    verb: str
    arg: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    version: int | None = None
    at: datetime | None = None
    game_id: int | None = None
    prompt_id: int | None = None
    seat: int | None = None
    slash: bool = False  # the person types slash commands (Discord): hints name /join rather than join

    def typed(self, name: str) -> str:
        """A table command as this person types it: `join` in the terminal, `/join` on Discord."""
        return f"`/{name}`" if self.slash else f"`{name}`"


@dataclass(frozen=True)
class PromptNote:
    """A decision opened for (or handed to) one person: what to decide, the choices, the deadline and default."""

    prompt_id: int
    game_id: int
    kind: str
    user_id: str
    seat: int
    deadline: datetime
    text: str
    choices: tuple[str, ...]
    version: int
    default: str | None = None
    phrase: str = ""
    clocked: bool = False  # the deadline is the seat's clock running out
    with_image: bool = False  # a turn's message carries the table image with its digest


@dataclass
class Outcome:
    """What a command did and what the transport should say, to whom.

    reply goes to the caller alone (with reply_choices as buttons answering prompt reply_prompt, if any);
    everything else is also queued in the outbox.
    """

    ok: bool
    reply: str = ""
    public: list[str] = field(default_factory=list)
    board: dict[str, Any] | None = None
    private: dict[str, list[str]] = field(default_factory=dict)
    mention: list[str] = field(default_factory=list)
    opened: list[PromptNote] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)
    choices: dict[str, list[str]] = field(default_factory=dict)
    seats: dict[str, int] = field(default_factory=dict)
    image: bytes | None = None
    # the image, drawn once the transaction has committed (Table.handle then sets image): not while it holds the lock
    draw: Callable[[], bytes | None] | None = field(default=None, repr=False)
    game_id: int | None = None
    version: int | None = None
    where: Where | None = None
    reply_prompt: int | None = None
    reply_choices: list[str] = field(default_factory=list)
    outbox: list[OutboxRow] = field(default_factory=list)
    attachment: tuple[str, bytes] | None = None  # a file for the caller alone (an exported replay): name, content


class TableError(Exception):
    """A refused command: the message is for the person who gave it; nothing is stored."""


class TableChanged(TableError):
    """Another command changed the game while this one was being applied."""


def is_computer(user_id: str) -> bool:
    """Whether a seat's user is one of Keywood's computer players."""
    return user_id.startswith(COMPUTER)


def error_text(exc: Exception) -> str:
    """A friendly sentence for a refused command; a move that cannot be read points to the notation."""
    if isinstance(exc, IllegalAction):
        return f"Not allowed: {exc}"
    if isinstance(exc, InvalidAction):
        return f"{exc} For the notation, see /rules notation."
    return str(exc)
