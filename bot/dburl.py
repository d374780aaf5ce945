"""Database URLs as Keywood's commands read and show them: a SQLite URL's file, a URL with its password hidden, and
what to install when a URL's Python driver is missing."""

from __future__ import annotations

from pathlib import Path

DRIVER_FIXES = {  # what to do when a database URL's Python driver is missing
    "psycopg": "Install Keywood with its postgres extra: pip install 'keywood[postgres]'.",
    "psycopg2": "Keywood's PostgreSQL driver is psycopg 3: write the URL as postgresql+psycopg://... and install "
                "Keywood with its postgres extra: pip install 'keywood[postgres]'.",
}


def driver_fix(module: str | None) -> str:
    """What to do when the Python module a database URL needs is not installed."""
    return DRIVER_FIXES.get(module or "", f"Install it: pip install {module}.")


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL (also one written as a `file:` URI); None for another database or an
    in-memory one."""
    for prefix in ("sqlite:///", "sqlite+pysqlite:///"):
        if url.startswith(prefix):
            rest = url[len(prefix):].split("?")[0]
            rest = rest.removeprefix("file:") if "uri=true" in url else rest
            return None if rest in ("", ":memory:") else Path(rest)
    return None


def shown_url(url: str) -> str:
    """A database URL as it may be logged: its password hidden."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ValueError:
        return url.rpartition("@")[2]
