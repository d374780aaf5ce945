"""`keywood run` as a host starts it, in its own process against the fake Discord: a token Discord refuses is
explained in one line, with no traceback, and the process ends with a non-zero exit code."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

from tests.discord_fake import payloads as p
from tests.discord_fake import running_fake
from tests.discord_fake.process import FakeProcess, launcher_env, write_config

ROOT = Path(__file__).resolve().parents[2]
# bot/cli.py's LOG_FORMAT: the moment, the level, the logger
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+: ")


async def keywood_run(config: Path, api_base: str, env: dict[str, str]) -> tuple[int, str, str]:
    """`keywood --config CONFIG run` in a new Python process whose discord.py talks to the fake at api_base."""
    script = ("import sys, discord.http; discord.http.Route.BASE = sys.argv.pop(1); from bot.cli import main; "
              "sys.exit(main(sys.argv[1:]))")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, api_base, "--config", str(config), "run", cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "KEYWOOD_TOKEN"} | env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_a_refused_token_is_explained_in_one_line(tmp_path: Path) -> None:
    world = p.sample_world(("ana",))
    database = tmp_path / "keywood.db"
    async with running_fake(guilds=[world.guild], token="the-real-token") as fake:
        for name, token, variable in (("in-file.toml", "an-old-token", {}),
                                      ("from-env.toml", "", {"MY_TOKEN": "a-typo"})):
            config = tmp_path / name
            source = str(config) if token else "$MY_TOKEN"  # where the refused token came from
            config.write_text(f'token = "{token}"\ntoken_env = "MY_TOKEN"\ndatabase_url = "sqlite:///{database}"\n'
                              'log_level = "INFO"\n', encoding="utf-8")
            code, out, err = await keywood_run(config, fake.api_base, variable)
            assert code == 1 and out == "", (code, out, err)
            assert "Traceback" not in err, err
            told = [line for line in err.splitlines() if not LOG_LINE.match(line)]
            assert told == [f"Discord refused the token from {source}: check {config} or $MY_TOKEN (the Developer "
                            "Portal's Bot page can reset it)."], err
        assert fake.gateway_connections == []  # refused at login, before connecting
        assert {r.status for r in fake.requests} == {401}


async def test_discord_out_of_reach_at_start_is_tried_again_until_stopped(tmp_path: Path) -> None:
    """Issue 41 §3: with Discord out of reach (here nothing listens where its API should be), `keywood run` does
    not die with a traceback: it logs one line per try, waits longer each time, and stops cleanly on SIGTERM (as
    systemd stops it) in the middle of a wait."""
    config = write_config(tmp_path / "config.toml", database_url=f"sqlite:///{tmp_path / 'k.db'}", log_level="INFO")
    argv = [sys.executable, "-m", "tests.discord_fake.process", "--api-base", "http://127.0.0.1:9/api/v10",
            "--gateway", "ws://127.0.0.1:9", "--", "--config", str(config), "run"]
    async with FakeProcess(argv, tmp_path / "keywood.log", launcher_env(), ROOT) as proc:
        tries = r"cannot reach Discord \(.+\); trying again in (\d+) s"
        await proc.wait_for_output(rf"(?s){tries}.*{tries}", timeout=30)
        waits = [int(w) for w in re.findall(tries, proc.output())]
        assert len(waits) >= 2 and waits[0] <= 1 and waits[1] <= 2, waits
        assert proc.running, "still trying"
        assert await proc.stop() == 0
    assert "Traceback" not in proc.output()
