"""The words the Discord transport writes itself, and the cutting of texts to Discord's limits."""

from __future__ import annotations

from datetime import datetime

import discord

MAX_CONTENT = 2000
NO_TABLE_IN_DMS = "Open a table in a server channel or thread: a DM holds no game."
NO_THREAD = ("Keywood cannot open a thread here: it needs the Create Public Threads and Send Messages in Threads "
             "permissions in this channel. Ask a server admin, or run /new without thread to play in this channel.")
SEED_IS_SECRET = ("Keywood draws every game's seed in secret, so that nobody can work out what is hidden; only the "
                  "terminal's `keywood play --seed` chooses one.")
HOW_TO_OPEN_DMS = ("To get your private prompts by DM, allow direct messages from members of this server (the "
                   "server's name → Privacy Settings → Direct Messages). Until then they appear here, behind a "
                   "button only you can open; /hand shows your private view at any time.")


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """Cut a message to Discord's length limit."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pieces(text: str, limit: int = MAX_CONTENT, most: int = 4) -> list[str]:
    """A long text as at most `most` messages within Discord's limit, split between lines (the last one clipped)."""
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) <= limit or not current:
            current = candidate
            continue
        parts.append(current)
        current = line
    parts.append(current)
    if len(parts) > most:
        parts = parts[: most - 1] + ["\n".join(parts[most - 1:])]
    return [clip(part, limit) for part in parts]


def with_tail(text: str, tail: str) -> str:
    """The text cut so that the tail (a line of mentions) always fits after it."""
    if not tail:
        return clip(text)
    return f"{clip(text, MAX_CONTENT - len(tail) - 1)}\n{tail}".strip()


def decision_text(text: str, deadline: datetime | None) -> str:
    """The words of a decision, with its deadline (None: a decision without a default, whose deadline only brings
    a reminder, is shown without one)."""
    if deadline is None:
        return text
    return f"{text}\nDeadline: {when(deadline)}."


def when(moment: datetime) -> str:
    """A moment as Discord shows it to each reader: the date and time in their own time zone, then how far off it
    is ('in 12 hours'), both kept up to date by their client."""
    return f"{discord.utils.format_dt(moment, 'f')} ({discord.utils.format_dt(moment, 'R')})"


def not_offered(names: list[str]) -> str:
    """Why /new refuses options it does not offer, naming them (a seed is secret on Discord)."""
    return f"/new has no option {', '.join(names)}; no table was opened." + (
        f" {SEED_IS_SECRET}" if "seed" in names else "")
