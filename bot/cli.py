"""The `keywood` command: run the bot, play in the terminal, or check stored games."""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot import configfile, games, migrate
from bot.dburl import driver_fix, shown_url, sqlite_file
from bot.store.core import StoreTrouble, trouble
from engine.core import Playout, Rng
from engine.playout import chosen_moves, pick

if TYPE_CHECKING:
    from bot.store import Store

DEFAULT_DB = "keywood.db"


DEMO_NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eve", "Finn"]


def demo(players: int, seed: int, out: TextIO = sys.stdout, game: str | None = None,
         options: dict[str, str] | None = None, db: str | None = None) -> int:
    """Play a seeded random game as play-outs do (engine.playout.pick), printing every action and event; with db
    (a new SQLite file), also store it as a finished terminal game that `keywood export` can write out. Returns the
    exit code; raises Refused, having stored nothing, on a player count or option the game refuses or a db file that
    exists."""
    entry = games.get(game) if game else games.default()
    GAME = entry.engine  # noqa: N806 - read as the game being shown
    if not entry.min_players <= players <= min(entry.max_players, len(DEMO_NAMES)):
        raise Refused(f"{entry.title} is for {entry.min_players} to {entry.max_players} players, not {players}")
    if db is not None and Path(db).exists():
        raise Refused(f"demo --db stores the demo in a new database, and {db} exists already")
    names = DEMO_NAMES[:players]
    try:
        chosen = entry.engine_options(entry.read_options(options or {}, {}))
        state = GAME.setup(names, seed, chosen)
    except ValueError as exc:  # OptionError included
        raise Refused(str(exc)) from None
    chooser = Rng.from_seed(seed)
    record = Playout(names, seed, chosen)
    print(f"{entry.title} demo: {', '.join(names)}; seed {seed}. {GAME.waiting_for(state)}.", file=out)
    while not GAME.is_over(state):
        seat, legal, index = pick(GAME, state, chooser)
        action = legal[index]
        record.actions.append((seat, GAME.format(action)))
        state, events = GAME.apply(state, seat, action)
        print(f"> {names[seat]}: {action}", file=out)
        for event in events:
            print(f"  {event.text}", file=out)
    for line in GAME.score(state, None).players:
        print(f"  {line.name}: {line.total}", file=out)
    return _store_demo(entry, record, options or {}, db, out) if db is not None else 0


def _store_demo(entry: games.GameEntry, record: Playout, options: dict[str, str], db: str, out: TextIO) -> int:
    """Play a demo's moves again through a terminal table on a new database, so it is stored like any game."""
    from bot import console

    store = open_store(database_url({}, db))
    try:
        script = [f"{seat + 1}: {text}" for seat, text in chosen_moves(entry.engine, record)]
        request = console.Request(record.players, record.seed, entry.id, frozenset({"players", "seed", "game"}),
                                  options | {"min_players": str(len(record.players))})
        code = console.main(store, request, script, out=io.StringIO(), images=None)
        with store.transaction() as tx:
            stored = tx.games("finished")
    finally:
        store.close()
    if code != 0 or not stored:
        print(f"The demo could not be stored in {db}.", file=out)
        return 1
    print(f"Stored as game {stored[-1].id} in {db}: `keywood export {stored[-1].id} --db {db}` writes its replay.",
          file=out)
    return 0


def load_config(path: str | None) -> dict[str, Any]:
    """Every setting (bot/configfile.py): the file's values, defaults for the rest; path None: config.toml if there
    is one. Raises Refused, in one line, for a missing named file, invalid TOML or a setting it cannot use."""
    try:
        return configfile.read(path)
    except configfile.ConfigError as exc:
        raise Refused(str(exc)) from None


def database_url(config: dict[str, Any], db: str | None) -> str:
    """The database to use: --db, then config's database_url, then keywood.db."""
    if db:
        return db if "://" in db else f"sqlite:///{db}"
    return str(config.get("database_url") or f"sqlite:///{DEFAULT_DB}")


def token(config: dict[str, Any]) -> str:
    """The Discord token from config or the environment variable config names."""
    return str(config.get("token") or os.environ.get(str(config.get("token_env") or "KEYWOOD_TOKEN"), ""))


class Refused(Exception):
    """A command the CLI refuses before doing anything: the message is one line for the person; exit code 2."""


OPEN_TROUBLE = {  # bot.store's StoreTrouble kinds, when a database cannot be opened (and its schema brought up to date)
    "locked": "another program held it locked for longer than Keywood waits (60 s)",
    "full": "its disk is full",
    "read-only": "Keywood may only read it, and must write to it",
    "unreachable": "it did not answer",
}


def open_store(url: str, *, must_exist: bool = False) -> Store:
    """Open (and upgrade) the database at a URL; raises Refused, having created nothing, when it cannot be opened.

    must_exist: the file must be there already (replay and patch read a database, they never start one).
    """
    from sqlalchemy.exc import DBAPIError

    from bot.store import Store

    path = sqlite_file(url)
    if path is not None:
        if not path.parent.is_dir():
            raise Refused(f"cannot open the database at {path}: no such folder ({path.parent})")
        if path.is_dir():
            raise Refused(f"cannot open the database at {path}: it is a folder")
        if must_exist and not path.exists():
            raise Refused(f"no database at {path} (there is no such file; `keywood play --db {path}` starts one)")
    try:
        return Store(url)
    except DBAPIError as exc:
        found = trouble(exc)
        raise Refused(f"cannot open the database at {path or shown_url(url)}: {OPEN_TROUBLE[found.kind]}; nothing was "
                      f"changed ({' '.join(str(exc.orig).split())})") from None
    except ModuleNotFoundError as exc:  # the URL's driver is not installed
        raise Refused(f"cannot open {url.split('://')[0]}:// databases: the Python module '{exc.name}' is not "
                      f"installed. {driver_fix(exc.name)}") from None


def check_games(url: str, game_ids: list[int] | None, write: bool, out: TextIO = sys.stdout) -> int:
    """Replay stored games from their logs and report each; 1 if any differs or fails.

    Raises Refused, having replayed none, when a named game is not stored or never started.
    """
    from bot.table import Table

    table = Table(open_store(url, must_exist=True))
    stored = table.game_ids()
    missing = [game_id for game_id in game_ids or [] if game_id not in stored]
    if missing:
        known = f"stored games: {', '.join(map(str, stored))}" if stored else "it holds no started game"
        raise Refused(f"no game {', '.join(map(str, missing))} in {sqlite_file(url) or url} ({known}); "
                      "nothing was replayed")
    if not stored:
        print("No started game is stored; nothing to replay.", file=out)
    bad = 0
    for game_id in game_ids or stored:
        status, detail = table.verify(game_id, write=write)
        print(f"game {game_id}: {status} — {detail}", file=out)
        bad += status in ("differs", "fails")
    return 1 if bad else 0


def export_game(url: str, game_id: int, out: str | None, stream: TextIO | None = None) -> int:
    """Write a finished game's replay page and say where and how big; raises Refused, having written nothing, for
    a missing database or game, or a game that has not ended."""
    from bot import export

    store = open_store(url, must_exist=True)
    try:
        path = Path(out or f"keywood-game-{game_id}.html")
        if not path.parent.is_dir():
            raise Refused(f"cannot write {path}: no such folder ({path.parent})")
        try:
            size = export.write(store, game_id, path)
        except export.NoGame:
            raise Refused(f"no game {game_id} in {sqlite_file(url) or url}; nothing was written") from None
        except export.ExportError as exc:
            raise Refused(f"{exc}; nothing was written") from None
    finally:
        store.close()
    print(f"Wrote {path} ({size / 2**20:.2f} MiB, {size} bytes).", file=stream or sys.stdout)
    return 0


def doctor(path: str | None, out: TextIO | None = None) -> int:
    """Print every check of bot/doctor.py; 0 when all are fine, 1 when something needs fixing."""
    from bot.doctor import checks

    found = checks(path)
    for check in found:
        print(check.line(), file=out or sys.stdout)
    bad = sum(not check.ok for check in found)
    print("Everything Keywood needs is in place." if not bad else f"{bad} thing(s) to fix.", file=out or sys.stdout)
    return 1 if bad else 0


def backup(url: str, target: str, out: TextIO | None = None) -> int:
    """Copy the SQLite database to a new file while Keywood may be running (every committed game, none half-done);
    raises Refused, having written nothing, for a file that exists, a missing folder or a PostgreSQL database."""
    if sqlite_file(url) is None:
        raise Refused("keywood backup copies a SQLite file; for PostgreSQL use pg_dump (docs/deploy.md, Backups)")
    path = Path(target)
    if path.exists():
        raise Refused(f"{path} exists already; a backup never overwrites a file")
    if not path.parent.is_dir():
        raise Refused(f"cannot write {path}: no such folder ({path.parent})")
    source = sqlite_file(url)
    if source is None or not source.is_file():
        raise Refused(f"no database at {source} (there is no such file)")
    from bot.store import backup as copy_database

    copy_database(url, path)
    print(f"Backed up {sqlite_file(url)} to {path} ({path.stat().st_size} bytes).", file=out or sys.stdout)
    return 0


def migrate_db(source_url: str, target_url: str, overwrite: bool, out: TextIO | None = None) -> int:
    """Copy a database to another and check the copy game by game (bot/dbcopy.py); raises Refused, having copied
    nothing, when the source does not exist, either cannot be opened, both are one, or the target holds rows."""
    from bot import dbcopy

    if source_url == target_url:
        raise Refused(f"{source_url} is both the source and the target; nothing was copied")
    source = open_store(source_url, must_exist=True)
    try:
        target = open_store(target_url)
        try:
            return dbcopy.migrate(source, target, overwrite=overwrite, out=out or sys.stdout)
        except dbcopy.TargetNotEmpty as exc:
            raise Refused(str(exc)) from None
        finally:
            target.close()
    finally:
        source.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `keywood` console script."""
    parser = argparse.ArgumentParser(prog="keywood", description="Keywood, a Discord referee for Key-series games.")
    parser.add_argument("--config", help="configuration file (default: config.toml, when there is one)")
    parser.add_argument("--version", action="version", version=f"keywood {version()}")
    sub = parser.add_subparsers(dest="command")
    game_ids = [entry.id for entry in games.all_games()]
    play = sub.add_parser("play", help="a hot-seat game in the terminal")
    play.add_argument("--game", choices=game_ids, help=f"which game, for a new table (default {game_ids[0]})")
    play.add_argument("--players", type=int, help="how many players, for a new table (default 3; --names sets it)")
    play.add_argument("--names", nargs="+", help="player names, in seat order (they set the number of players)")
    play.add_argument("--db", help="database file or URL (default: config's database_url or keywood.db)")
    play.add_argument("--seed", type=int, help="the random seed of a new table, for a chosen deal (otherwise "
                                               "Keywood draws one in secret)")
    play.add_argument("--script", help="a file of 'SEAT: COMMAND' lines to play instead of the keyboard "
                                       "(SEAT: a name, or a seat number from 1)")
    play.add_argument("--keep-going", action="store_true",
                      help="with --script: play on past a refused line (exit code 1 at the end)")
    play.add_argument("--images", help="folder for the board image after every turn (default: keywood-images/, in a "
                                       "folder named after the database)")
    play.add_argument("--no-images", action="store_true", help="do not write board images")
    play.add_argument("--computer", type=int, default=0, metavar="N",
                      help="N more seats played by Keywood's stand-in (computer players), after the people")
    for command in (play, run_demo := sub.add_parser("demo", help="watch a seeded random game")):
        command.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                             help="a game option for a new table, e.g. keymelequin=flipper (repeatable; "
                                  "`/games` or the README lists them)")
    run_demo.add_argument("--game", choices=game_ids, default=game_ids[0])
    run_demo.add_argument("--players", type=int, default=3, help="how many players (each game's own range; default 3)")
    run_demo.add_argument("--db", help="also store the demo in this new SQLite file, so `keywood export` can write it")
    run_demo.add_argument("--seed", type=int, default=1)
    rep = sub.add_parser("replay", help="replay one stored game's log and compare it with its stored state")
    rep.add_argument("game", type=int)
    rep.add_argument("--db")
    patch = sub.add_parser("patch", help="replay stored games (after a rules fix); list those that changed")
    patch.add_argument("game", type=int, nargs="*", help="the games to replay (default: every started game)")
    patch.add_argument("--db")
    patch.add_argument("--write", action="store_true", help="store the replayed state of games that differ")
    exp = sub.add_parser("export", help="write a finished game's replay as one self-contained HTML file")
    exp.add_argument("game", type=int)
    exp.add_argument("--db")
    exp.add_argument("--out", help="the HTML file to write (default keywood-game-N.html)")
    mig = sub.add_parser("migrate-db", help="copy every game to another database (e.g. SQLite to PostgreSQL) and "
                                            "check each by replaying it")
    mig.add_argument("source", metavar="FROM_URL", help="the database to copy: a URL, or a SQLite file's path")
    mig.add_argument("target", metavar="TO_URL", help="the database to fill: a URL (postgresql+psycopg://...), or a "
                                                     "SQLite file's path; it must hold no rows")
    mig.add_argument("--overwrite", action="store_true", help="empty a target that already holds rows first")
    sub.add_parser("doctor", help="check the configuration, token, database and its folder without starting the bot")
    back = sub.add_parser("backup", help="copy the SQLite database to a new file, safely while the bot runs")
    back.add_argument("file", help="the new file to write (never overwritten)")
    back.add_argument("--db")
    run = sub.add_parser("run", help="run the Discord bot (needs a token)")
    run.add_argument("--shards", help="run only these of Discord's shards, e.g. 0-3 (other processes run the rest, "
                                      "on one PostgreSQL database); needs --shard-count")
    run.add_argument("--shard-count", type=int, help="how many shards all the processes run together")
    args = parser.parse_args(argv)
    try:
        if args.command == "doctor":  # reports a configuration it cannot read instead of refusing it
            return doctor(args.config)
        return _dispatch(args, load_config(args.config))
    except (migrate.SchemaTooNew, migrate.NotKeywoodDatabase) as exc:
        print(exc, file=sys.stderr)
        return 2
    except Refused as exc:
        print(f"keywood {args.command or 'play'}: {exc}", file=sys.stderr)
        return 2
    except StoreTrouble as exc:  # after it opened: each accepted command was committed, a failed one changed nothing
        print(f"keywood {args.command or 'play'}: {exc}; the failed step changed nothing: mend the database, then run "
              "the same command again.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # each accepted command was committed in its own transaction; a half-done one was not
        print(f"\nkeywood {args.command or 'play'}: stopped (Ctrl-C); everything accepted so far is saved.",
              file=sys.stderr)
        return 130


def _dispatch(args: argparse.Namespace, config: dict[str, Any]) -> int:
    """Run the chosen command (the database is upgraded when a store opens it)."""
    if args.command == "demo":
        return demo(args.players, args.seed, game=args.game, options=_options(args.option), db=args.db)
    if args.command == "replay":
        return check_games(database_url(config, args.db), [args.game], False)
    if args.command == "patch":
        return check_games(database_url(config, args.db), args.game or None, args.write)
    if args.command == "backup":
        return backup(database_url(config, args.db), args.file)
    if args.command == "export":
        return export_game(database_url(config, args.db), args.game, args.out)
    if args.command == "migrate-db":
        return migrate_db(database_url({}, args.source), database_url({}, args.target), args.overwrite)
    if args.command == "run" or (args.command is None and token(config)):
        return run_bot(config, args.config or configfile.DEFAULT_FILE, getattr(args, "shards", None),
                       getattr(args, "shard_count", None))
    return _play(config, args)


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"  # each line with its moment (UTC offset: the host's)


def version() -> str:
    """Keywood's installed version."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("keywood")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


NO_TOKEN = """No Discord token found in {path} or ${env}.
To run Keywood on Discord: create an application at https://discord.com/developers/applications, add a bot,
copy its token into config.toml (see config.example.toml) or export {env}=..., and invite the bot (README).
To play without Discord, run `keywood play`."""


def run_bot(config: dict[str, Any], path: str, shards: str | None = None, shard_count: int | None = None) -> int:
    """Run the Discord bot with the configured token; without one, explain how to get it. Raises Refused on a bad
    shard range or a shard another process runs."""
    import asyncio
    import logging

    from bot.discord_app import BotConfig, TokenRefused, serve
    from bot.heap import freeze_long_lived
    from bot.shards import ShardTaken
    from bot.table import Table

    secret = token(config)
    env = config["token_env"]
    if not secret:
        print(NO_TOKEN.format(path=path, env=env))
        return 1
    settings = BotConfig(secret, config["dev_guild_ids"], config["tick_seconds"], lease_seconds=config["lease_seconds"],
                         send_seconds=config["send_seconds"], owns_process=True)
    settings.shard_ids, settings.shard_count = _shards(shards or config["shards"], shard_count or config["shard_count"])
    logging.basicConfig(level=config["log_level"], format=LOG_FORMAT)
    logging.getLogger("keywood").info("Keywood %s starting: database %s; %s", version(), shown_url(database_url(
        config, None)), f"shards {','.join(map(str, settings.shard_ids))} of {settings.shard_count}"
        if settings.shard_ids is not None else "every shard")
    table = Table(open_store(database_url(config, None)), decision_minutes=config["decision_minutes"],
                  reminder_hours=config["turn_reminder_hours"])
    freeze_long_lived()  # what startup made lives as long as the process (Keywood.on_ready adds Discord's caches)
    try:
        asyncio.run(serve(table, settings))
    except ShardTaken as exc:
        raise Refused(str(exc)) from None
    except TokenRefused:
        source = path if config.get("token") else f"${env}"
        print(f"Discord refused the token from {source}: check {path} or ${env} (the Developer Portal's Bot page "
              "can reset it).", file=sys.stderr)
        return 1
    return 0


def _shards(text: Any, count: Any) -> tuple[list[int] | None, int | None]:
    """The shard ids and count to run from --shards/--shard-count or the config (empty or 0: every shard in this
    process); raises Refused when they do not fit together."""
    from bot.shards import check_shards, parse_shards

    if not text:
        if count:
            raise Refused("--shard-count needs --shards: say which of the shards this process runs (e.g. --shards 0-3)")
        return None, None
    if not count:
        raise Refused("--shards needs --shard-count: how many shards all the processes run together")
    try:
        ids = parse_shards(str(text))
        check_shards(ids, int(count))
    except ValueError as exc:
        raise Refused(str(exc)) from None
    return sorted(ids), int(count)


def _play(config: dict[str, Any], args: argparse.Namespace) -> int:
    """Start or resume the terminal game; raises Refused, having stored nothing, on bad names, counts, script or
    database."""
    from bot import console

    typed = {name: getattr(args, name, None) for name in ("players", "names", "seed", "game")}
    entry = games.get(typed["game"]) if typed["game"] else games.default()
    computers = int(getattr(args, "computer", 0) or 0)
    try:
        names = console.lineup(entry, typed["players"], typed["names"], computers)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    options = _options(getattr(args, "option", None) or [])
    if computers:
        options["computers"] = str(computers)
    if options:  # checked for these players before any database is made
        seated = names + [f"Computer {k}" for k in range(1, computers + 1)]
        try:
            entry.engine.setup(seated, 0, entry.engine_options(entry.read_options(options, {})))
        except ValueError as exc:  # OptionError included
            raise Refused(str(exc)) from None
    script = _read_script(getattr(args, "script", None))
    url = database_url(config, getattr(args, "db", None))
    store = open_store(url)
    images = None if getattr(args, "no_images", False) else getattr(args, "images", None) or images_folder(url)
    request = console.Request(names, typed["seed"], entry.id,
                              frozenset(name for name, value in typed.items() if value is not None),
                              options | {"min_players": str(len(names) + computers)})
    try:
        return console.main(store, request, script, images=images, keep_going=getattr(args, "keep_going", False))
    finally:
        store.close()


def images_folder(url: str) -> str:
    """Where a database's terminal games put their images by default: keywood-images/, in a folder named after the
    database (a SQLite file's name; another database's host and name), so games of two databases never share one."""
    path = sqlite_file(url)
    name = path.stem if path is not None else url.rpartition("@")[2].split("?")[0]
    return str(Path("keywood-images") / (re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.") or "memory"))


def _options(items: Sequence[str]) -> dict[str, str]:
    """--option NAME=VALUE items as a dict; raises Refused on one without '='."""
    found = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise Refused(f"--option takes NAME=VALUE, not '{item}'")
        found[name.strip()] = value.strip()
    return found


def _read_script(path: str | None) -> list[str] | None:
    """The lines of a --script file; raises Refused when it cannot be read."""
    if path is None:
        return None
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise Refused(f"cannot read the script {path}: {reason.lower()}") from None


if __name__ == "__main__":
    sys.exit(main())
