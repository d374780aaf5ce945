"""Runs Keywood's real CLI (or a plain sharded discord.py client) in another OS process, against a fake Discord
that runs in the test's process.

The launcher, as a command::

    python -m tests.discord_fake.process --api-base URL --gateway URL -- <keywood cli args>
    python -m tests.discord_fake.process --api-base URL --gateway URL --client-check [--shards 0 1]
        [--shard-count 2] [--stay]

points discord.py at the fake (``discord.http.Route.BASE`` for REST, so also ``GET /gateway/bot``, whose answer
carries the fake's gateway URL; ``DiscordWebSocket.DEFAULT_GATEWAY`` for clients that know their shard count),
then calls ``bot.cli.main(<keywood cli args>)``. ``--client-check`` instead runs a bare ``AutoShardedClient``
that prints one ``READY ...`` line, answers every interaction with a message naming its process and shard, and
exits after READY unless ``--stay``. SIGTERM stops either gracefully (the client closes its
gateway sessions); SIGKILL is a crash (the fake sees the websocket drop).

From a test (the fake must be started; :func:`spawn_keywood` adds the URLs)::

    async with running_fake(guilds=[...]) as fake:
        async with spawn_keywood(fake, ["--config", str(config), "run"], log_path=tmp_path / "a.log") as proc:
            await fake.wait_for_shard(0, 1)
            ...
            proc.kill()                        # kill -9: a crash
        # leaving the block stops it (SIGTERM, then SIGKILL after a while) if still running
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from . import FAKE_TOKEN

if TYPE_CHECKING:
    from .server import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------------------------------------------
# in the test's process: starting and stopping


class FakeProcess:
    """A launcher process: its :class:`subprocess.Popen`, and its stdout and stderr, both in ``log_path``."""

    def __init__(self, argv: Sequence[str], log_path: Path, env: Mapping[str, str], cwd: Path) -> None:
        """Starts ``argv`` with stdout and stderr going to ``log_path``."""
        self.argv = list(argv)
        self.log_path = log_path
        self._log: IO[bytes] = open(log_path, "wb")  # noqa: SIM115 - closed when the process is reaped
        self.popen: subprocess.Popen[bytes] = subprocess.Popen(
            self.argv, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT, env=dict(env),
            cwd=cwd)

    @property
    def pid(self) -> int:
        return self.popen.pid

    @property
    def returncode(self) -> int | None:
        """The exit code once it ended (negative: killed by that signal), else None."""
        return self.popen.poll()

    @property
    def running(self) -> bool:
        return self.popen.poll() is None

    def output(self) -> str:
        """Everything it printed so far (stdout and stderr interleaved)."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    async def wait(self, timeout: float = 10.0) -> int:
        """Waits (without blocking the event loop, which serves the fake) for it to end; returns the exit code."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (code := self.popen.poll()) is None:
            if loop.time() > deadline:
                raise TimeoutError(f"process {self.pid} still running after {timeout}s; its log:\n{self._tail()}")
            await asyncio.sleep(0.05)
        self._log.close()
        return code

    async def wait_for_output(self, pattern: str, timeout: float = 15.0) -> re.Match[str]:
        """Waits until its output matches the regex ``pattern`` (searched with re.MULTILINE); raises if it ends or
        the time runs out first, with the end of its log."""
        rx = re.compile(pattern, re.MULTILINE)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (found := rx.search(self.output())):
            if not self.running and not rx.search(self.output()):
                raise RuntimeError(f"process {self.pid} ended (code {self.returncode}) without printing "
                                   f"{pattern!r}; its log:\n{self._tail()}")
            if loop.time() > deadline:
                raise TimeoutError(f"process {self.pid} printed no {pattern!r} within {timeout}s; its log:\n"
                                   f"{self._tail()}")
            await asyncio.sleep(0.05)
        return found

    def kill(self) -> None:
        """SIGKILL: a crash (no clean gateway close; the fake sees the connection drop)."""
        if self.running:
            self.popen.kill()

    def terminate(self) -> None:
        """SIGTERM: a running client closes its gateway sessions and exits with 0 (before it runs, the launcher
        turns SIGTERM into Ctrl-C: exit code 130)."""
        if self.running:
            self.popen.terminate()

    async def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM, then SIGKILL if it has not ended within ``timeout``; returns the exit code. (A graceful close
        closes the gateway sessions with the fake, which shares the test's own event loop: on CI's two loaded cores
        a bare client once took more than the 10 s this used to allow.)"""
        self.terminate()
        try:
            return await self.wait(timeout)
        except TimeoutError:
            self.kill()
            return await self.wait(5.0)

    def _tail(self, lines: int = 40) -> str:
        return "\n".join(self.output().splitlines()[-lines:])

    async def __aenter__(self) -> FakeProcess:
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.running:
            await self.stop()
        self._log.close()


def launcher_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment, unbuffered, with the repository importable, without KEYWOOD_TOKEN, plus
    ``extra``."""
    env = {k: v for k, v in os.environ.items() if k != "KEYWOOD_TOKEN"}
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env | dict(extra or {})


def spawn(fake: FakeDiscord, launcher_args: Sequence[str], cli_args: Sequence[str] = (), *,
          env: Mapping[str, str] | None = None, cwd: str | Path | None = None,
          log_path: str | Path | None = None) -> FakeProcess:
    """Starts ``python -m tests.discord_fake.process --api-base ... --gateway ... LAUNCHER_ARGS -- CLI_ARGS``.

    ``env`` is added to this process's environment; ``cwd`` defaults to the repository; ``log_path`` (stdout and
    stderr) defaults to a new file in the temporary folder, left there for debugging.
    """
    if log_path is None:
        handle, name = tempfile.mkstemp(prefix="keywood-process-", suffix=".log")
        os.close(handle)
        log_path = name
    argv = [sys.executable, "-m", "tests.discord_fake.process", "--api-base", fake.api_base,
            "--gateway", fake.gateway_url, *launcher_args, "--", *cli_args]
    return FakeProcess(argv, Path(log_path), launcher_env(env), Path(cwd) if cwd is not None else ROOT)


def spawn_keywood(fake: FakeDiscord, args: Sequence[str], *, env: Mapping[str, str] | None = None,
                  cwd: str | Path | None = None, log_path: str | Path | None = None) -> FakeProcess:
    """Starts Keywood's CLI (``bot.cli.main(args)``, e.g. ``["--config", path, "run"]``) in a new process whose
    discord.py talks to ``fake``. See :func:`spawn` for the keywords."""
    return spawn(fake, [], args, env=env, cwd=cwd, log_path=log_path)


def spawn_client_check(fake: FakeDiscord, shard_ids: Sequence[int] | None = None, shard_count: int | None = None, *,
                       stay: bool = False, token: str = FAKE_TOKEN, env: Mapping[str, str] | None = None,
                       log_path: str | Path | None = None) -> FakeProcess:
    """Starts the launcher's bare ``AutoShardedClient`` (see the module's docstring) for ``shard_ids`` of
    ``shard_count`` (both None: the count ``GET /gateway/bot`` recommends, every shard)."""
    args = ["--client-check", "--token", token]
    if shard_ids is not None:
        args += ["--shards", *map(str, shard_ids)]
    if shard_count is not None:
        args += ["--shard-count", str(shard_count)]
    if stay:
        args.append("--stay")
    return spawn(fake, args, env=env, log_path=log_path)


def write_config(path: str | Path, *, token: str = FAKE_TOKEN, **values: Any) -> Path:
    """Writes a config.toml for ``keywood --config PATH run``: the token and ``values`` (e.g. ``database_url``,
    ``tick_seconds``, ``log_level``); strings, numbers, booleans and lists of those."""
    lines = [f"{key} = {_toml(value)}" for key, value in {"token": token, **values}.items()]
    target = Path(path)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def _toml(value: Any) -> str:
    """A TOML literal for a string, number, boolean or list of those (JSON's string escapes are TOML's too)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)


# --------------------------------------------------------------------------------------------------------------
# in the launched process


def point_discord(api_base: str, gateway_url: str) -> None:
    """Points this process's discord.py at the fake for good (REST base, and the default gateway)."""
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def _sigterm_as_ctrl_c(signum: int, frame: object) -> None:
    """SIGTERM handler until a client runs (which then closes itself on SIGTERM, bot.discord_app.close_on_sigterm):
    raise SIGINT, which asyncio.run turns into cancelling the bot (a graceful close)."""
    os.kill(os.getpid(), signal.SIGINT)


async def client_check(token: str, shard_ids: list[int] | None, shard_count: int | None, stay: bool) -> int:
    """Runs a bare AutoShardedClient: prints READY with its shards and guilds, answers interactions, exits after
    READY unless ``stay``."""
    import discord

    from bot.discord_app import close_on_sigterm

    class CheckClient(discord.AutoShardedClient):
        async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
            """No 5-second pause between this process's shards (discord.py's default)."""

        async def on_ready(self) -> None:
            guilds = sorted(g.id for g in self.guilds)
            print(f"READY pid={os.getpid()} shards={sorted(self.shards)} shard_count={self.shard_count} "
                  f"guilds={guilds}", flush=True)
            if not stay:
                await self.close()

        async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
            gid = interaction.guild_id
            shard = (gid >> 22) % (self.shard_count or 1) if gid else 0
            await interaction.response.send_message(f"pid {os.getpid()} shard {shard} answered {interaction.id}")
            print(f"ANSWERED {interaction.id} shard={shard}", flush=True)

    options: dict[str, Any] = {"shard_ids": shard_ids, "shard_count": shard_count}  # None: ask /gateway/bot
    client = CheckClient(intents=discord.Intents.default(), guild_ready_timeout=0.05, **options)
    async with client:
        close_on_sigterm(client)
        await client.start(token)
    return 0


def parse(argv: Sequence[str]) -> tuple[argparse.Namespace, list[str]]:
    """The launcher's own options (before ``--``) and the CLI's arguments (after it)."""
    args = list(argv)
    cut = args.index("--") if "--" in args else len(args)
    own, rest = args[:cut], args[cut + 1:]
    parser = argparse.ArgumentParser(prog="python -m tests.discord_fake.process",
                                     description="Run Keywood's CLI (or a bare sharded client) against a fake "
                                                 "Discord.")
    parser.add_argument("--api-base", required=True, help="the fake's REST base (FakeDiscord.api_base)")
    parser.add_argument("--gateway", required=True, help="the fake's gateway URL (FakeDiscord.gateway_url)")
    parser.add_argument("--client-check", action="store_true", help="run a bare AutoShardedClient instead")
    parser.add_argument("--shards", type=int, nargs="+", help="--client-check: the shard ids to run")
    parser.add_argument("--shard-count", type=int, help="--client-check: the shard count")
    parser.add_argument("--token", default=FAKE_TOKEN, help="--client-check: the bot token")
    parser.add_argument("--stay", action="store_true", help="--client-check: keep running after READY")
    return parser.parse_args(own), rest


def main(argv: Sequence[str] | None = None) -> int:
    """The launcher: point discord.py at the fake, then run Keywood's CLI (or the bare client)."""
    args, rest = parse(sys.argv[1:] if argv is None else argv)
    point_discord(args.api_base, args.gateway)
    signal.signal(signal.SIGTERM, _sigterm_as_ctrl_c)
    try:
        if args.client_check:
            logging.basicConfig(level=logging.INFO)
            return asyncio.run(client_check(args.token, args.shards, args.shard_count, args.stay))
        from bot.cli import main as keywood_main

        return keywood_main(rest)
    except KeyboardInterrupt:
        print("launcher: stopped by SIGINT/SIGTERM", file=sys.stderr, flush=True)
        return 130


if __name__ == "__main__":
    sys.exit(main())
