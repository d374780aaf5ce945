"""Replays after the end (bot/export.py, `keywood export`): finished games of every registered game, played through
the real Table on a real SQLite file, exported as one self-contained HTML page; games that have not ended are
refused and nothing is written."""

from __future__ import annotations

import base64
import hashlib
import html
import io
import json
import random
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pytest
from PIL import Image, ImageChops, ImageDraw

from bot import cli, export, games
from bot.export import film
from bot.store import Store
from bot.table import Table
from engine.core import JSON
from engine.playout import random_playout
from tests.bot.helpers import ANA, BEN, ELSEWHERE, cmd, count, start_game, url
from tests.quick import QUICK_STANDIN

SEED = 3
EXPORTED = [e.id for e in games.all_games() if e.id != "tokens"] + ["tokens"]


def finish(table: Table, game: str, seed: int = SEED) -> int:
    """Ana against one computer seat plays a whole game through the table (her moves drawn as play-outs draw
    them); returns the finished game's id."""
    entry = games.get(game)
    assert table.handle(cmd(ANA, "new", game, options={"seed": seed, "computers": 1})).ok
    started = table.handle(cmd(ANA, "start"))
    assert started.ok, started.reply
    game_id = started.game_id
    assert game_id is not None
    rng = random.Random(seed)
    for _ in range(5000):
        with table.store.transaction() as tx:
            row, data = tx.game(game_id), tx.snapshot(game_id)
        assert row is not None and data is not None
        if row.status == "finished":
            return game_id
        state = entry.engine.from_json(data)
        legal = entry.engine.legal_actions(state, 0)
        weights = entry.engine.playout_weights(state, 0, legal)
        action = rng.choices(legal, weights)[0] if weights else rng.choice(legal)
        outcome = table.handle(cmd(ANA, "play", entry.engine.format(action)))
        assert outcome.ok, outcome.reply
    raise AssertionError(f"{game} did not end")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, dict[str, int]]]:
    """One database with a finished game of every registered game: (store, game id by game)."""
    store = Store(url(tmp_path_factory.mktemp("export") / "finished.db"))
    table = Table(store, images=False, standin_budget=QUICK_STANDIN)
    yield store, {game: finish(table, game) for game in EXPORTED}
    store.close()


def picture(view: JSON) -> bytes:
    """A quick stand-in for a game's table image: the view's waiting line and a colour block drawn from it (one of
    64 colours, so that a game's images fit one palette)."""
    image = Image.new("RGB", (320, 90), (250, 247, 240))
    draw = ImageDraw.Draw(image)
    draw.text((8, 8), str(view.get("waiting_for", ""))[:48], fill=(30, 30, 30))
    digest = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).digest()
    draw.rectangle((8, 40, 8 + digest[0], 80), fill=tuple(64 + (v & 3) * 60 for v in digest[1:4]))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def page_data(text: str) -> dict[str, Any]:
    """The replay data inside an exported page, inflated as its script inflates it."""
    return export.unpack(text)


def reconstruct(data: dict[str, Any]) -> list[Image.Image]:
    """What the page's canvas shows at every step, worked out from its data the way its script draws it."""
    frames = [image.copy() for image in canvases(data)]
    return [frames[step[0]] for step in data["steps"]]


def canvases(data: dict[str, Any]) -> Iterator[Image.Image]:
    """The page's canvas after each of its frames, in order (the same image, drawn on)."""
    sheets = [Image.open(io.BytesIO(_bytes(uri))).convert("RGB") for uri in data["images"]]
    shown = Image.new("RGB", (1, 1))
    for frame in data["frames"]:
        if "n" in frame:
            shown = Image.new("RGB", tuple(frame["n"]))
        if "s" in frame:
            width, height, top, source, target = frame["s"]
            shown = film._shifted(shown, height, (top, source, target))
        rectangles = frame["r"]
        for k in range(0, len(rectangles), 7):
            x, y, w, h, sheet, sx, sy = rectangles[k:k + 7]
            shown.paste(sheets[sheet].crop((sx, sy, sx + w, sy + h)), (x, y))
        yield shown


def _bytes(uri: str) -> bytes:
    """The bytes of a base64 data: URI."""
    return base64.b64decode(uri.split(",", 1)[1])


def _same(shown: Image.Image, wanted: bytes) -> bool:
    """Whether the page's picture is exactly the wanted image."""
    image = Image.open(io.BytesIO(wanted)).convert("RGB")
    return shown.size == image.size and ImageChops.difference(shown, image).getbbox() is None


def private_lines(store: Store, game_id: int) -> set[str]:
    """Every line the table sent to one person alone in a game (private messages and decisions)."""
    with store.transaction() as tx:
        rows = tx.outbox_kinds(game_id, "private") + tx.outbox_kinds(game_id, "decision")
    return {line.strip() for row in rows for line in json.loads(row.payload)["text"].splitlines() if line.strip()}


@pytest.mark.parametrize("game", EXPORTED)
def test_a_finished_game_exports_one_step_per_action(finished: tuple[Store, dict[str, int]], game: str) -> None:
    """The page has the start and one step per live action with its public log line, the chapters of the game,
    the final scoreboard (text and image), no web address and nothing that was only told to one player."""
    store, ids = finished
    game_id, entry = ids[game], games.get(game)
    with store.transaction() as tx:
        replay = export.collect(tx, game_id)
        rows = tx.actions(game_id)
        seats = tx.seats(game_id)
    text = export.page(replay, render=picture)
    data = page_data(text)
    assert len(data["steps"]) == len(rows) + 1 == len(replay.steps)
    lines = [line for _, line, _ in data["steps"]]
    marks = {"standin": " (Keywood's stand-in)"}  # the log says which moves Keywood's stand-in chose
    assert lines[0] == "" and lines[1:] == [f"{r.seq}. {seats[r.seat].name}{marks.get(r.author_id, '')}: {r.summary}"
                                            for r in rows]
    assert any(marks["standin"] in line for line in lines), "the computer seat's moves are marked"
    assert {frame for frame, _, _ in data["steps"]} <= set(range(len(data["frames"])))
    if entry.chapter:
        labels = [label for label, _ in data["chapters"]]
        assert len(labels) > 1 and labels[0] == entry.chapter(replay.steps[0].view)
        options = [f'<option value="{first}">{html.escape(label)}</option>' for label, first in data["chapters"]]
        assert all(option in text for option in options)
    assert "Final score:" in text and all(html.escape(name) in text for name in ("Ana", "Computer 1"))
    assert ('id="score-image"' in text) == (entry.render_scoreboard is not None)
    assert not re.search(r"https?://", text, re.I), "the page refers to the network"
    hidden = private_lines(store, game_id) - set("\n".join(lines).splitlines())
    assert not [line for line in hidden if len(line) > 12 and line in "\n".join(lines)]
    for k, shown in enumerate(reconstruct(data)):
        assert _same(shown, picture(replay.steps[k].view)), f"step {k} is drawn wrong"


def real_images(game: str, count: int, players: int = 4) -> list[bytes]:
    """The first table images of a seeded random game of a registered game."""
    entry = games.get(game)
    assert entry.render is not None
    state = entry.engine.setup(["Ana", "Ben", "Cleo", "Dev", "Eve", "Finn"][:players], SEED, {})
    rng = random.Random(SEED)
    pngs = [entry.render(entry.engine.view(state, None))]
    while len(pngs) < count:
        seat = entry.engine.to_act(state)[0]
        entry.engine.apply_in_place(state, seat, rng.choice(entry.engine.legal_actions(state, seat)))
        pngs.append(entry.render(entry.engine.view(state, None)))
    return pngs


def packed(pngs: list[bytes]) -> dict[str, Any]:
    """A sequence of images packed as a page packs them, as the page's data (one step per image)."""
    sheets: list[bytes] = []
    packer = film.Film(sheets.append)
    for png in pngs:
        packer.add(png)
    packer.close()
    return {"images": [export.data_uri(b) for b in sheets], "frames": [json.loads(f) for f in packer.frames],
            "steps": [[f, "", ""] for f in packer.steps]}


def test_real_table_images_are_redrawn_exactly() -> None:
    """A Keyper game's first table images (their height changes as offers come and go) are packed into a first
    image, resizes and changed rectangles, and the page redraws every one of them pixel for pixel."""
    pngs = real_images("keyper", 16)
    data = packed(pngs)
    for k, (shown, png) in enumerate(zip(reconstruct(data), pngs, strict=True)):
        assert _same(shown, png), f"image {k} is drawn wrong"
    assert any("s" in frame for frame in data["frames"]), "a change of height was drawn as a resize"
    assert sum(len(_bytes(u)) for u in data["images"]) < sum(len(p) for p in pngs) / 3, "packing saves most bytes"


def test_a_renderers_changed_boxes_give_the_frames_a_whole_comparison_gives() -> None:
    """When the drawer says where an image may differ from the one before (render.draw.Drawn.changed), only
    those squares are compared, and the frames are those of comparing the whole images."""
    images = [Image.open(io.BytesIO(png)) for png in real_images("keyper", 16)]
    whole, told = film.Film(lambda _: None), film.Film(lambda _: None)
    for k, image in enumerate(images):
        whole.add(image)
        before = images[k - 1] if k else None
        box = None
        if before is not None and before.size == image.size:
            found = ImageChops.difference(before.convert("RGB"), image.convert("RGB")).getbbox()
            box = (found,) if found else ()
        told.add(image, box)
    assert told.frames == whole.frames and told.steps == whole.steps
    assert len(set(whole.frames)) > 8, "the images change from step to step"


def test_sheets_hold_their_rectangles_side_by_side() -> None:
    """New rectangles are laid on shelves across a sheet, not one under another: the sheets' area stays within
    twice the area of the rectangles they hold."""
    sheets: list[bytes] = []
    packer = film.Film(sheets.append)
    for png in real_images("keyper", 24):
        packer.add(png)
    packer.close()
    held = sum(w * h for f in packer.frames for x, y, w, h, *_ in _rectangles(orjson.loads(f)["r"]))
    area = sum(w * h for w, h in (Image.open(io.BytesIO(b)).size for b in sheets))
    stored = {(sheet, sx, sy, w, h) for f in packer.frames for _, _, w, h, sheet, sx, sy in _rectangles(
        orjson.loads(f)["r"])}
    assert held >= sum(w * h for *_, w, h in stored) and area <= 2 * sum(w * h for *_, w, h in stored)


def _rectangles(flat: list[int]) -> list[tuple[int, ...]]:
    """A frame's flat rectangle list as (x, y, w, h, sheet, sx, sy) tuples."""
    return [tuple(flat[k:k + 7]) for k in range(0, len(flat), 7)]


def test_the_cli_writes_a_finished_game(finished: tuple[Store, dict[str, int]], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """`keywood export N --db FILE --out PAGE` writes the page and says where and how big (Tokens: quick to draw)."""
    store, ids = finished
    out = tmp_path / "tokens.html"
    assert cli.main(["export", str(ids["tokens"]), "--db", store.url.removeprefix("sqlite:///"),
                     "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"Wrote {out} (") and "MiB" in said
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and len(page_data(text)["frames"]) > 1


@pytest.mark.parametrize("stage", ["lobby", "active", "abandoned"])
def test_a_game_that_has_not_ended_is_refused(db_path: Path, tmp_path: Path, stage: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A lobby, a running game and an abandoned one are refused, saying why; the CLI exits with 2 and writes
    nothing."""
    table = Table(Store(url(db_path)), images=False)
    if stage == "lobby":
        assert table.handle(cmd(ANA, "new", "keyper")).ok
    else:
        start_game(table, (ANA, BEN))
        if stage == "abandoned":
            assert table.handle(cmd(ANA, "abandon")).ok
    with table.store.transaction() as tx, pytest.raises(export.NotFinished) as refused:
        export.build(tx, 1)
    why = {"lobby": "has not started yet", "active": "is still being played", "abandoned": "was abandoned"}[stage]
    assert why in str(refused.value) and "only a finished game can be exported" in str(refused.value)
    out = tmp_path / "page.html"
    assert cli.main(["export", "1", "--db", str(db_path), "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("keywood export: game 1 ") and why in error and "nothing was written" in error
    assert not out.exists()


def test_an_unknown_game_or_database_is_refused_like_replay(db_path: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """No such game: exit code 2 with 'no game N'; no such database file: exit code 2, and none is created."""
    Store(url(db_path)).close()
    with Store(url(db_path)).transaction() as tx, pytest.raises(export.NoGame, match="no game 7"):
        export.build(tx, 7)
    assert cli.main(["export", "7", "--db", str(db_path), "--out", str(tmp_path / "x.html")]) == 2
    assert "no game 7" in capsys.readouterr().err
    missing = tmp_path / "none.db"
    assert cli.main(["export", "1", "--db", str(missing), "--out", str(tmp_path / "x.html")]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not missing.exists() and not (tmp_path / "x.html").exists()
    assert count(db_path, "SELECT COUNT(*) FROM games") == 0


def test_the_table_gives_the_replay_to_the_caller_alone(finished: tuple[Store, dict[str, int]]) -> None:
    """`export` at the table: the channel's finished game (here the last one played in it) comes back as a file for
    the caller alone, with nothing queued for anyone else."""
    store, ids = finished
    table = Table(store, images=False)
    outcome = table.handle(cmd(BEN, "export"))
    assert outcome.ok and outcome.outbox == [] and outcome.public == []
    assert outcome.attachment is not None
    name, content = outcome.attachment
    game_id = ids[EXPORTED[-1]]
    assert name == f"keywood-game-{game_id}.html"
    with store.transaction() as tx:
        actions = len(tx.actions(game_id))
    assert outcome.reply == f"The replay of this Tokens game: {actions} actions, step by step (open the file in a " \
                            "browser)."
    assert len(page_data(content.decode("utf-8"))["steps"]) == actions + 1


def test_the_table_refuses_a_replay_while_the_game_runs(table: Table) -> None:
    """`export` during a game says why it is refused and queues nothing."""
    start_game(table, (ANA, BEN))
    outcome = table.handle(cmd(BEN, "export"))
    assert not outcome.ok and outcome.attachment is None and outcome.outbox == []
    assert outcome.reply == ("Game 1 is still being played: only a finished game can be exported, since a replay of "
                             "a game that has not ended could show what is still hidden.")
    empty = table.handle(cmd(BEN, "export", where=ELSEWHERE))
    assert not empty.ok and empty.reply == "There is no game in this channel. Start one with `new`."


def made_up(views: list[JSON], render: Any = None) -> export.Replay:
    """A replay of a made-up game whose steps have these views (drawn by picture unless render says otherwise)."""
    steps = [export.Step.of(f"{k}. a move" if k else "", "", view) for k, view in enumerate(views)]
    board = games.get("tokens").engine
    state = board.setup(["Ana", "Ben"], SEED, {})
    return export.Replay(0, "Made up", ["Ana", "Ben"], steps, board.score(state, None), SEED, render or picture)


def test_processes_drawing_parts_of_a_game_draw_what_one_process_draws() -> None:
    """Two processes drawing the game in PARTS parts each (each part from a whole image on, the later parts first)
    give a page whose every step is the step's image, as one process gives it."""
    views: list[JSON] = [{"waiting_for": f"move {k // 3}", "n": k % 7} for k in range(60)]
    one, two = (page_data(export.page(made_up(views), workers=n)) for n in (1, 2))
    parts = 2 * export.PARTS
    assert sum("n" in json.dumps(f) for f in two["frames"]) == parts > sum("n" in json.dumps(f) for f in one["frames"])
    for k, (a, b) in enumerate(zip(reconstruct(one), reconstruct(two), strict=True)):
        assert _same(a, picture(views[k])) and _same(b, picture(views[k])), f"step {k} is drawn wrong"


def test_images_seen_before_are_stored_once() -> None:
    """A table going back and forth between two pictures 200 times stores about as many image bytes as going
    back and forth twice: each rectangle of pixels is stored once and pointed at again (by one drawing process;
    each process stores its own)."""
    def sizes(count: int) -> tuple[int, int]:
        views: list[JSON] = [{"waiting_for": "a" if k % 2 else "b"} for k in range(count)]
        data = page_data(export.page(made_up(views), workers=1))
        return sum(len(u) for u in data["images"]), len(data["steps"])

    (short, steps), (long, many) = sizes(4), sizes(400)
    assert many == 400 and steps == 4
    assert long == short


def noise(view: JSON) -> bytes:
    """A stand-in table image nothing in another resembles: random pixels drawn from the view's number."""
    rng = random.Random(view["n"])
    image = Image.frombytes("P", (256, 256), rng.randbytes(256 * 256))
    image.putpalette([rng.randrange(256) for _ in range(768)])
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


class Written(io.BytesIO):
    """A file in memory that notes how many bytes it held each time a table image was drawn."""

    def __init__(self) -> None:
        super().__init__()
        self.held: list[int] = []

    def draw(self, view: JSON) -> bytes:
        """Draw a view (as noise does) after noting how much has been written so far."""
        self.held.append(self.tell())
        return noise(view)


def test_the_page_is_written_while_the_images_are_drawn() -> None:
    """The images packed so far leave for the file while later ones are still to be drawn (memory does not grow
    with the number of images): by the last image, most of the page's image bytes are written."""
    out = Written()
    export.write_page(made_up([{"n": k} for k in range(120)], out.draw), out, workers=1)
    images = sum(len(u) for u in page_data(out.getvalue().decode())["images"])
    assert len(out.held) == 120 and images > 120 * 256 * 256 * 0.9, "noise does not pack"
    assert out.held[60] > images / 3 and out.held[-1] > images * 0.8


def test_a_long_game_stays_under_discords_limit() -> None:
    """The longest of ten seeded random 4-player Keyper games (425 actions) with its real table images: every
    step is on the page, and the page stays under 8 MiB (Discord's limit is 10 MiB)."""
    entry = games.get("keyper")
    lengths = {seed: len(random_playout(entry.engine, ["Ana", "Ben", "Cleo", "Dev"], seed)[1].actions)
               for seed in range(1, 11)}
    seed = max(lengths, key=lengths.__getitem__)
    views: list[JSON] = []  # copies: the play-out changes its state in place

    def keep(state: Any, seat: int, action: Any) -> None:
        views.append(json.loads(json.dumps(entry.engine.view(state, None))))

    random_playout(entry.engine, ["Ana", "Ben", "Cleo", "Dev"], seed, on_step=keep)
    final, _ = random_playout(entry.engine, ["Ana", "Ben", "Cleo", "Dev"], seed)
    views.append(entry.engine.view(final, None))
    assert len(views) == lengths[seed] + 1 > 400
    replay = replace(made_up(views, entry.render), title="Keyper", render_scoreboard=entry.render_scoreboard)
    text = export.page_bytes(replay)
    assert len(text) < 8 * 2**20
    data = page_data(text.decode())
    assert len(data["steps"]) == len(views) and {f for f, _, _ in data["steps"]} <= set(range(len(data["frames"])))
    wanted = {k: v for k, v in enumerate(views) if k % 100 == 0 or k == len(views) - 1}
    frames = {data["steps"][k][0]: k for k in wanted}
    for index, shown in enumerate(canvases(data)):
        if index in frames:
            assert entry.render is not None and _same(shown, entry.render(wanted[frames[index]])), index
