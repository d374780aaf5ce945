"""`keywood doctor`: a configuration checked end to end without starting the bot (the file, the token's form, the
database's driver, folder and schema), each check saying what to fix."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import configfile, migrate
from bot.dburl import driver_fix, shown_url, sqlite_file
from bot.store import connect

# A bot token: three dot-separated parts of URL-safe base64 (the id, a time stamp, an HMAC).
TOKEN_FORM = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")


@dataclass(frozen=True)
class Check:
    """One thing checked: whether it is fine, what was found, and what to do when it is not."""

    ok: bool
    found: str
    fix: str = ""

    def line(self) -> str:
        """The check as doctor prints it."""
        return f"{'ok  ' if self.ok else 'FIX '} {self.found}" + (f"\n       {self.fix}" if self.fix else "")


def checks(path: str | None, environ: dict[str, str] | None = None) -> list[Check]:
    """Every check of a configuration file (None: config.toml if there is one), stopping at a file Keywood would
    refuse."""
    try:
        config = configfile.read(path)
    except configfile.ConfigError as exc:
        return [Check(False, f"configuration: {exc}", "Fix the file; config.example.toml shows every setting.")]
    shown = path or (configfile.DEFAULT_FILE if Path(configfile.DEFAULT_FILE).is_file() else None)
    found = [Check(True, f"configuration: {shown or 'no config.toml here, so every setting has its default'}")]
    found.append(_token(config, environ if environ is not None else dict(os.environ), shown))
    url = str(config["database_url"])
    driver = _driver(url)
    found.append(driver)
    if driver.ok:
        found += _database(url)
    return found


def _token(config: dict[str, Any], environ: dict[str, str], path: str | None) -> Check:
    """Whether there is a bot token, and whether it has a token's form (Discord alone can say if it is valid)."""
    source = f"the token in {path or 'config.toml'}" if config["token"] else f"${config['token_env']}"
    secret = str(config["token"] or environ.get(str(config["token_env"]), ""))
    if not secret:
        return Check(False, f"token: none in {path or 'config.toml'} or ${config['token_env']}",
                     "keywood run needs one (docs/discord.md, section 1); keywood play needs none.")
    if not TOKEN_FORM.fullmatch(secret.strip()):
        return Check(False, f"token: {source} does not look like a bot token (three parts joined by dots)",
                     "Copy it again from the Developer Portal's Bot page (Reset Token).")
    return Check(True, f"token: {source} has a bot token's form")


def _driver(url: str) -> Check:
    """Whether the Python driver the database URL needs is installed."""
    scheme = url.split("://")[0]
    try:
        connect(url).dispose()  # loads the driver, opens nothing
    except ModuleNotFoundError as exc:
        return Check(False, f"database driver: {scheme}:// needs the Python module '{exc.name}', which is not "
                            "installed", driver_fix(exc.name))
    return Check(True, f"database driver: {scheme}://")


def _database(url: str) -> list[Check]:
    """The database's folder (SQLite: it must be writable) and schema revision, read without changing anything."""
    file = sqlite_file(url)
    if file is not None:
        folder = file.parent
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            return [Check(False, f"database folder: {folder} is not a folder Keywood may write in",
                          "Create it, or give the user Keywood runs as write access to it.")]
        if not file.exists():
            return [Check(True, f"database: {file} does not exist yet; the first start creates it")]
    engine = connect(url)
    try:
        with engine.connect():  # stored_versions takes a database that does not answer for one without a schema
            pass
        versions = migrate.stored_versions(engine)
    except Exception as exc:  # noqa: BLE001 - whatever stops the database from answering is what to report
        return [Check(False, f"database: cannot open {shown_url(url)}: {' '.join(str(exc).split())}",
                      "Check the URL, the server and the password.")]
    finally:
        engine.dispose()
    return [_schema(shown_url(url), versions)]


def _schema(url: str, versions: list[str] | None) -> Check:
    """What the stored schema revision means for the next start."""
    if not versions:
        return Check(True, f"database: {url} holds no Keywood schema yet; the first start creates it")
    if versions == [migrate.HEAD]:
        return Check(True, f"database: {url}, schema {migrate.HEAD} (up to date)")
    if all(v in migrate.REVISIONS for v in versions):
        return Check(True, f"database: {url}, schema {versions[0]}; the next start upgrades it to {migrate.HEAD}, "
                           "after a backup copy")
    return Check(False, f"database: {url} has schema {versions[0]}, newer than this Keywood ({migrate.HEAD})",
                 "Upgrade Keywood, or point database_url at another database.")
