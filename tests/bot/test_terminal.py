"""The terminal game as players live it: through a real `keywood` process, or the Console over a StringIO.

Nothing of Keywood is mocked. Where the Keyper registry entry must carry the `choices` hook, a fixture adds it
(and takes it away again) if the registry does not have it yet.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import console, games
from bot.console import Console, Request
from bot.store import Store
from bot.table import Table
from engine.keyper import GAME
from engine.keyper.choices import summary
from tests.bot.helpers import ROOT, SEED, child_env, count, keywood, script_for, url

NAMES3 = ["Ana", "Ben", "Cleo"]


def write(path: Path, lines: list[str]) -> Path:
    """A script file of 'SEAT: COMMAND' lines."""
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def terminal(db: Path, *, images: Path | None = None) -> tuple[Console, io.StringIO, Store]:
    """A Console over a store on db, printing into a StringIO."""
    out = io.StringIO()
    store = Store(url(db))
    return Console(Table(store, images=images is not None), out, images), out, store


def deal(db: Path, names: list[str] | None = None, seed: int = SEED) -> tuple[Console, io.StringIO, Store]:
    """A Console with a new terminal game dealt (images off)."""
    shell, out, store = terminal(db)
    assert shell.ensure_game(Request(names or NAMES3, seed, "keyper"))
    return shell, out, store


@pytest.fixture
def with_choices() -> Iterator[None]:
    """Keyper's registry entry with the choices hook (added for the test when the registry lacks it)."""
    entry = games.get("keyper")
    if entry.texts.choices is not None:
        yield
        return
    games.unregister("keyper")
    games.register(dataclasses.replace(entry, texts=dataclasses.replace(entry.texts, choices=summary)))
    try:
        yield
    finally:
        games.unregister("keyper")
        games.register(entry)


# --- choices in groups ----------------------------------------------------------------------------------------


def four_player_turn(seed: int = SEED, steps: int = 0) -> tuple[dict[str, object], int, list[str]]:
    """(view, seat, legal) of the seat to act after some random steps of a 4-player game."""
    state = GAME.setup(["Ana", "Ben", "Cleo", "Dev"], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    seat = GAME.to_act(state)[0]
    return GAME.view(state, seat), seat, [GAME.format(a) for a in GAME.legal_actions(state, seat)]


def test_the_first_four_player_turn_reads_in_groups() -> None:
    """1068 choices become the keyper's boards, the keyples held, each board's fields by colour, the boats,
    building with a keyple and how to type one, in at most 25 lines; every example typed is legal."""
    view, seat, legal = four_player_turn()
    assert len(legal) > 1000
    text = summary(view, seat, legal)
    lines = text.splitlines()
    assert len(lines) <= 25, text
    assert lines[0].startswith(f"Ben, you have {len(legal)} choices (spring, turn 1)")
    paragraphs = unwrap(text)
    text = "\n".join(paragraphs)
    assert "Keyper: `keyper N` claims board 1, 2, 3 or 4" in text
    assert "Your keyples: blue 1, orange 1, green 1, brown 1, black 1, grey 1, white 2." in text
    for board in (1, 2, 3, 4):
        assert f"Board {board} (spring-{board}): " in text
    assert "green: wheat, cow, pig, sheep, horse" in text  # board 1's light-green fields
    assert "boat-1 (clay/sheep)" in text
    assert "cow_shed, pig_sty, farmyard on f1-f8" in text
    examples = re.findall(r"`([^`]+)`", paragraphs[-1])
    typed = [e for e in examples if e.split()[0] in ("keyper", "play", "laydown")]
    assert len(typed) >= 3 and all(e in legal for e in typed), typed


def unwrap(text: str) -> list[str]:
    """A summary's paragraphs, each wrapped paragraph joined back into one line."""
    paragraphs: list[tuple[int, str]] = []
    for line in text.splitlines():
        indent, words = len(line) - len(line.lstrip()), line.strip()
        if paragraphs and indent > paragraphs[-1][0] and not words.startswith(("Board ", "A river")):
            paragraphs[-1] = (paragraphs[-1][0], paragraphs[-1][1] + " " + words)
        else:
            paragraphs.append((indent, words))
    return [words for _, words in paragraphs]


def listed_fields(text: str) -> set[str]:
    """The 'BOARD.FIELD' of every empty field a summary lists under 'Board N (display): colour: a, b; ...'."""
    found = set()
    for paragraph in unwrap(text):
        m = re.fullmatch(r"Board (\d+) \([^)]*\): (.*)\.", paragraph)
        if m is None:
            continue
        for group in m.group(2).split("; "):
            _, _, names = group.partition(": ")
            found |= {f"{m.group(1)}.{name.split(' (')[0]}" for name in names.split(", ")}
    return found


@pytest.mark.parametrize("steps", [0, 9, 40, 120, 260])
def test_the_fields_listed_are_exactly_the_open_ones(steps: int) -> None:
    """Every empty field a summary lists takes a keyple now, and every empty field that does is listed; the
    fields one may join are listed with the colours that may join there."""
    view, seat, legal = four_player_turn(3, steps)
    text = summary(view, seat, legal)
    boards = {b["number"]: b for b in view["boards"]}  # type: ignore[attr-defined]
    spaces = {a.split()[2] for a in legal if a.startswith("play ") and "." in a.split()[2]}
    empty = {s for s in spaces if not boards[int(s.split(".")[0])]["spaces"].get(s.split(".")[1])}
    assert listed_fields(text) == empty, text
    joining = next((p for p in unwrap(text) if p.startswith("Onto a keyple already there")), "")
    for space in spaces - empty:
        colours = {a.split()[1] for a in legal if a.split()[2:3] == [space]}
        shown = re.search(rf"(?<![\w.]){re.escape(space)} \(([a-z/]+)", joining)
        assert shown and set(shown.group(1).split("/")) == colours, (space, colours, text)


def test_few_choices_are_still_numbered_and_a_build_step_is_grouped() -> None:
    """Under the limit the terminal numbers the choices; a build unit with many plots reads as tiles on plots."""
    legal = [f"build cow_shed f{i}" for i in range(1, 9)] + [f"build brickmaker v{i}" for i in range(1, 13)]
    legal += ["build cow_shed f1 -log", "skip"]
    view, seat, _ = four_player_turn()
    text = summary(view, seat, legal)
    assert "Build: cow_shed on f1-f8; brickmaker on v1-v12" in text
    assert "(log)" in text and "skip" in text
    assert console.numbered(["take pig", "skip"]) == "    1. take pig\n    2. skip"


def test_the_terminal_shows_the_summary_and_numbers_still_play(tmp_path: Path, with_choices: None) -> None:
    """Too many choices: the terminal prints the game's summary, not a count; `list` numbers them all as before,
    and typing a number from the list plays that choice."""
    shell, out, store = deal(tmp_path / "t.db")
    turn = shell.turn()
    assert turn is not None
    number = turn.legal.index("keyper 2") + 1
    code = console.interactive(shell, io.StringIO(f"list\n{number}\nquit\n"))
    store.close()
    text = out.getvalue()
    assert code == 0
    assert "In groups:" in text and "Keyper: `keyper N` claims board 1, 2 or 3" in text
    assert "choices (keyper, play)" not in text
    assert f"  {len(turn.legal)}. {turn.legal[-1]}" in text
    assert "Ana plays the keyper and claims board 2." in text


def test_keywood_play_shows_the_summary_once_the_registry_has_it(tmp_path: Path) -> None:
    """Through the real command at the keyboard: the registry's Keyper texts carry the summary (bot/games.py
    registers choices=choices.summary)."""
    result = subprocess.run([sys.executable, "-m", "bot.cli", "play", "--db", str(tmp_path / "t.db"), "--seed",
                             str(SEED), "--no-images"], cwd=ROOT, env=child_env(), input="quit\n",
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Ana, you have 948 choices (spring, turn 1). In groups:" in result.stdout, result.stdout[-1500:]
    assert "choices (keyper, play)" not in result.stdout


# --- never blind ----------------------------------------------------------------------------------------------


def test_images_at_the_start_after_board_and_after_undo_and_latest_is_the_newest(tmp_path: Path) -> None:
    """The deal, `board` and `undo` each write an image (not only plays), and latest.png is always the newest."""
    images = tmp_path / "pics"
    lines = script_for(SEED)[:8] + ["2: undo", "1: board"]  # Ben's build on v1 is still his to take back
    result = keywood("play", "--db", str(tmp_path / "i.db"), "--seed", str(SEED), "--images", str(images),
                     "--script", str(write(tmp_path / "s.txt", lines)))
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    printed = result.stdout.splitlines()
    assert printed[0] == "New Keyper game for Ana, Ben, Cleo."
    assert printed[1].startswith(f"(image: {images / 'game1-0001.png'}")
    undo = printed.index("[9] Ben: undo")
    board = printed.index("[10] Ana: board")
    assert any(line.startswith("(image: ") for line in printed[undo:board]), printed[undo:board]
    assert printed[-1].startswith("(image: "), printed[-3:]
    numbered = sorted(images.glob("game1-*.png"))
    assert (images / "latest.png").read_bytes() == numbered[-1].read_bytes()
    assert numbered[-1].name == f"game1-{count(tmp_path / 'i.db', 'SELECT version FROM games'):04d}.png"


# --- lobby and command line -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (["--names", "A", "B", "C", "D", "E"], "Keyper is for 2 to 4 players; --names gives 5"),
    (["--names", "Solo"], "Keyper is for 2 to 4 players; --names gives 1"),
    (["--players", "2", "--names", "X", "Y", "Z"], "--players 2 but 3 names (X, Y, Z)"),
    (["--names", "Ana", "Ben", "ana"], "--names has 'Ana' and 'ana'"),
    (["--names", "Ana", "Ben", "Ben"], "--names has 'Ben' twice"),
    (["--names", "Ana", "2"], "'2' cannot be a name"),
    (["--players", "5"], "Keyper is for 2 to 4 players, not 5"),
])
def test_bad_names_and_counts_are_refused_and_store_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    """Each is refused with one clear line and exit code 2, before any database is made; a later `keywood play`
    deals a fresh game rather than a half-made lobby."""
    db = tmp_path / "lobby.db"
    refused = keywood("play", "--db", str(db), "--no-images", *args)
    assert refused.returncode == 2
    assert message in refused.stderr and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert not db.exists()
    later = keywood("play", "--db", str(db), "--seed", str(SEED), "--no-images",
                    "--script", str(write(tmp_path / "s.txt", ["1: board"])))
    assert later.returncode == 0 and later.stdout.startswith("New Keyper game for Ana, Ben, Cleo."), later.stdout


def test_resuming_says_which_options_it_ignores(tmp_path: Path) -> None:
    """A game in progress goes on; --names and --seed that differ from it are named as ignored, with how to
    abandon; the same --seed says nothing."""
    db, script = tmp_path / "r.db", write(tmp_path / "s.txt", ["1: board"])
    assert keywood("play", "--db", str(db), "--seed", str(SEED), "--no-images", "--script", str(script)).returncode == 0
    again = keywood("play", "--db", str(db), "--seed", "8", "--names", "Xena", "Yuri", "--no-images",
                    "--script", str(script))
    assert again.returncode == 0, again.stderr
    lines = again.stdout.splitlines()
    assert lines[0] == "Resuming the game in progress."
    assert "--names and --seed are ignored" in lines[1] and "`abandon` then `yes`" in lines[1], lines[1]
    assert "(Ana, Ben, Cleo) goes on" in lines[1] and str(SEED) not in lines[1], "the seed stays secret"
    same = keywood("play", "--db", str(db), "--seed", str(SEED), "--no-images", "--script", str(script))
    assert "ignored" not in same.stdout


def test_abandon_asks_first_then_ends_the_game_and_the_next_play_deals_anew(tmp_path: Path) -> None:
    """`abandon` asks; anything but `yes` keeps the game; `abandon` then `yes` ends it, and `keywood play`
    then deals a new game."""
    db = tmp_path / "a.db"
    shell, out, store = deal(db)
    assert console.interactive(shell, io.StringIO("abandon\nno\nabandon\nYES\n")) == 0
    store.close()
    text = out.getvalue()
    assert "Type `yes` to abandon it" in text
    assert "Not abandoned; the game goes on." in text
    assert "Ana abandoned the game." in text and "`keywood play` deals a new one" in text
    assert count(db, "SELECT count(*) FROM games WHERE status = 'abandoned'") == 1
    later = keywood("play", "--db", str(db), "--no-images", "--script", str(write(tmp_path / "s.txt", ["1: board"])))
    assert later.stdout.startswith("New Keyper game for Ana, Ben, Cleo."), later.stdout
    assert count(db, "SELECT count(*) FROM games") == 2


def test_a_script_may_abandon_too(tmp_path: Path) -> None:
    """In a script, `abandon` followed by `yes` ends the game and the run, exit code 0."""
    db = tmp_path / "s.db"
    result = keywood("play", "--db", str(db), "--no-images",
                     "--script", str(write(tmp_path / "s.txt", ["1: abandon", "1: yes", "1: board"])))
    assert result.returncode == 0, result.stdout
    assert "Ana abandoned the game." in result.stdout and "[3]" not in result.stdout
    assert count(db, "SELECT count(*) FROM games WHERE status = 'abandoned'") == 1


def test_replay_and_patch_of_a_missing_game_fail_and_say_so(tmp_path: Path) -> None:
    """`keywood replay 99` and `keywood patch 99` on a database without game 99: 'no game 99', non-zero."""
    db = tmp_path / "g.db"
    keywood("play", "--db", str(db), "--no-images", "--script", str(write(tmp_path / "s.txt", ["1: board"])))
    for command in ("replay", "patch"):
        result = keywood(command, "99", "--db", str(db))
        assert result.returncode == 2, (command, result.stdout, result.stderr)
        assert "no game 99" in result.stderr and "stored games: 1" in result.stderr
    assert keywood("patch", "1", "--db", str(db)).stdout.startswith("game 1: same")


def test_a_missing_database_or_folder_is_named_and_nothing_is_created(tmp_path: Path) -> None:
    """replay and patch never create a database; a --db in a folder that does not exist is one line, exit 2."""
    nothere = tmp_path / "nothere.db"
    for command in (["replay", "1"], ["patch"]):
        result = keywood(*command, "--db", str(nothere))
        assert result.returncode == 2 and f"no database at {nothere}" in result.stderr, result.stderr
        assert not nothere.exists()
    missing = "/nonexistent/dir/x.db"
    for command in (["play", "--no-images"], ["replay", "1"]):
        result = keywood(*command, "--db", missing)
        assert result.returncode == 2
        assert result.stderr.strip().splitlines() == [
            f"keywood {command[0]}: cannot open the database at {missing}: no such folder (/nonexistent/dir)"]
        assert result.stdout == ""


def test_script_seats_count_from_one(tmp_path: Path) -> None:
    """'1:' is the first seat, like every number the terminal shows; '0:' is no seat; names still work."""
    result = keywood("play", "--db", str(tmp_path / "n.db"), "--seed", str(SEED), "--no-images", "--keep-going",
                     "--script", str(write(tmp_path / "s.txt", ["1: hand", "ben: hand", "0: hand"])))
    assert "[1] Ana: hand" in result.stdout and "[2] Ben: hand" in result.stdout
    assert "! line 3: no player '0' (seats count from 1: 1 Ana, 2 Ben, 3 Cleo)" in result.stdout
    assert result.returncode == 1


def test_a_script_stops_at_its_first_refused_line_unless_told_to_keep_going(tmp_path: Path) -> None:
    """The refused line's number and reason, exit 1, and nothing after it played; --keep-going plays on."""
    script = write(tmp_path / "s.txt", ["1: board", "# a comment", "1: keyper 9", "1: keyper 2"])
    db = tmp_path / "stop.db"
    stopped = keywood("play", "--db", str(db), "--seed", str(SEED), "--no-images", "--script", str(script))
    assert stopped.returncode == 1
    assert "! line 3: Not allowed:" in stopped.stdout and "The script stops at line 3" in stopped.stdout
    assert "[4]" not in stopped.stdout
    assert count(db, "SELECT count(*) FROM actions") == 0
    going = keywood("play", "--db", str(tmp_path / "go.db"), "--seed", str(SEED), "--no-images", "--keep-going",
                    "--script", str(script))
    assert going.returncode == 1 and "! line 3:" in going.stdout
    assert "Ana plays the keyper and claims board 2." in going.stdout
    assert count(tmp_path / "go.db", "SELECT count(*) FROM actions") == 1


def test_the_final_score_is_printed_once(tmp_path: Path) -> None:
    """The last move's message carries the final score; the terminal does not print it again."""
    lines = script_for(SEED)
    shell, out, store = deal(tmp_path / "end.db")
    assert console.scripted(shell, lines[:-1]) == 0
    turn = shell.turn()
    seat, last = lines[-1].split(": ", 1)
    assert turn is not None and turn.seat == int(seat) - 1
    done = io.StringIO()
    shell.out = done
    assert console.interactive(shell, io.StringIO(last + "\n")) == 0
    store.close()
    assert done.getvalue().count("Final score:") == 1, done.getvalue()[-1500:]
    assert "The game is over" in done.getvalue()


def test_terminal_commands_in_any_case_and_in_the_terminals_words(tmp_path: Path) -> None:
    """LIST, Board, Help and Quit work as their lower-case selves; a hint says `rules notation`, never /rules."""
    shell, out, store = deal(tmp_path / "c.db")
    code = console.interactive(shell, io.StringIO("LIST\nBoard\nHELP\nKEYPER 2\nnonsense\nQuit\n"))
    store.close()
    text = out.getvalue()
    assert code == 0
    assert "    1. keyper 1" in text
    assert text.count("🌱 Spring, turn 1.") == 2  # the board at the start, and after `Board`
    assert "abandon        end this game for everyone" in text
    assert "Ana plays the keyper and claims board 2." in text
    assert "! 'nonsense' is not a Keyper action" in text and "see rules notation" in text
    assert "/rules" not in text
    assert text.rstrip().endswith("Game saved; `keywood play` resumes it.")


def test_a_number_outside_the_list_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """'0' or a number past the list: a clear message, the game where it was."""
    db = tmp_path / "n.db"
    shell, out, store = deal(db)
    assert console.interactive(shell, io.StringIO("0\n99999\nquit\n")) == 0
    store.close()
    assert "! No choice 99999: the numbers are 1 to " in out.getvalue()
    assert count(db, "SELECT count(*) FROM actions") == 0


def test_game_options_reach_a_new_terminal_table(tmp_path: Path) -> None:
    """`keywood play --option`: a new Keyflower table with both modules shows Key Celeste, the ghost and the
    Keymelequin (its reconstructed load marked †) on its board."""
    result = keywood("play", "--db", str(tmp_path / "m.db"), "--game", "keyflower", "--seed", "3", "--no-images",
                     "--option", "keymelequin=keyflower", "--option", "key_celeste=yes",
                     "--script", str(write(tmp_path / "s.txt", ["1: board"])))
    assert result.returncode == 0, result.stderr
    assert "Key Celeste `key-celeste` (bid like a turn-order tile; wins the ghost): no bids." in result.stdout
    assert "Ghost: on Key Celeste." in result.stdout
    assert "- Keymelequin\u2020: workers Sven, " in result.stdout and "\u2020 Keywood's own figure" in result.stdout


def test_an_option_refused_for_these_players_stores_nothing(tmp_path: Path) -> None:
    """A boat the Keymelequin cannot replace with three players is refused in one line, exit code 2, no database."""
    db = tmp_path / "o.db"
    refused = keywood("play", "--db", str(db), "--game", "keyflower", "--no-images", "--option",
                      "keymelequin=white-wind")
    assert refused.returncode == 2
    assert "With 3 players the Keymelequin can replace keyflower, sea-bastion, sea-breese, not 'white-wind'" in (
        refused.stderr) and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert not db.exists()
