"""Issue 41, item 1: Keywood installed from its wheel (`pip install .`, not `-e`) reads everything it needs from the
package, from any folder.

The wheel is built from this checkout and installed without its dependencies into a new virtual environment that
sees the test environment's installed libraries (a .pth line naming their folder; that folder's own .pth files,
such as this checkout's editable install, are not read, so `bot` can only come from the wheel). A scripted terminal
game is then played from an empty temporary folder, with `rules` lines among its moves.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

from tests.bot.helpers import ROOT, script_for


def build_wheel(into: Path) -> Path:
    """Build Keywood's wheel from this checkout into a folder (with the build backend the test extra installs)."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                    "--wheel-dir", str(into), str(ROOT)], check=True, capture_output=True, text=True, timeout=300)
    (wheel,) = into.glob("keywood-*.whl")
    return wheel


def fresh_venv(folder: Path, wheel: Path) -> Path:
    """A new virtual environment holding Keywood's wheel, its libraries lent from this one; returns its `keywood`."""
    venv.create(folder, with_pip=False)
    purelib = Path(sysconfig.get_path("purelib", vars={"base": str(folder), "platbase": str(folder)}))
    (purelib / "lent-libraries.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(folder / "bin" / "python"), "install", "--no-deps",
                    "--quiet", str(wheel)], check=True, capture_output=True, text=True, timeout=300)
    return folder / "bin" / "keywood"


def test_the_installed_wheel_plays_a_game_with_rules_from_any_folder(tmp_path: Path) -> None:
    """Issue 41 §1: the rules summaries and rulings ship inside the package. From an empty folder, the installed
    `keywood play --script` answers `rules` lines with the summary's topics, a topic's text and a ruling, and plays
    the game to its final score; nothing is read from the checkout (the package's files lie in the venv)."""
    wheel = build_wheel(tmp_path / "dist")
    keywood = fresh_venv(tmp_path / "venv", wheel)
    where = subprocess.run([str(keywood.parent / "python"), "-c", "import bot; print(bot.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path)
    assert where.stdout.strip().startswith(str(tmp_path / "venv")), where.stdout
    moves = script_for(3)
    script = tmp_path / "game.txt"
    script.write_text("\n".join(["1: rules", "1: rules notation", "2: rules K-1", *moves]) + "\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    result = subprocess.run([str(keywood), "play", "--db", "game.db", "--seed", "3", "--script", str(script),
                             "--no-images"], cwd=elsewhere, capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "Traceback" not in result.stdout + result.stderr
    assert "no rules summary" not in result.stdout
    assert "notation" in result.stdout.lower() and "K-1" in result.stdout
    assert "Final score" in result.stdout or "final score" in result.stdout.lower(), result.stdout[-1500:]
    assert (elsewhere / "game.db").is_file()
