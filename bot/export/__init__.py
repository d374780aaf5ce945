"""Replays after the end: a finished game as one self-contained HTML page.

`collect` reads a finished game inside a store transaction and replays its log from the seed, keeping the public
view after every action (quick; each view kept as compressed JSON). `write_page` draws the table image of every
step and writes the HTML as it goes (slow: one image per step), so a caller can end its transaction before
drawing. Only public information goes in: the public view after each action, the stored public summary of each
action, the final score, and the game's seed (secret until the end; with it, anyone can check the deal and the
draws).

The page needs no network: images are data: URIs, the style and script are inline. To keep the file small the
images are packed (bot/export/film.py): one palette for the whole game, and per step only the squares that
changed, each distinct rectangle of pixels stored once.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import multiprocessing
import os
import re
import zlib
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import orjson
from PIL import Image

from bot import describe, games
from bot.export.film import Film
from bot.export.template import SCRIPT, STYLE, TEMPLATE
from bot.loaded import Loaded, log_line, record_of
from engine.core import JSON, Scoreboard
from engine.core import replay as replay_log
from render.draw.sequel import Drawn

if TYPE_CHECKING:
    from bot.store import ActionRow, Store, Tx

__all__ = ["ExportError", "Film", "NoGame", "NotFinished", "Replay", "Step", "build", "collect", "export", "page",
           "page_bytes", "unpack", "write", "write_page"]

Drawing = Callable[[JSON], bytes | Image.Image]  # a view's table image, encoded (a renderer's render) or not (picture)
Pictures = Callable[[], Callable[[JSON], Drawn]]  # makes a drawer of a game's views in order (see render.draw.Drawn)
RECENT = 8  # the last views' images kept, so that a view met again (a screen opened and closed) is not redrawn
WORKERS = 2  # processes drawing a long game's images at most (each a part of the game, from a whole image on)
PART = 150  # steps per process at least: starting one costs about a second (a new Python importing the renderers)
PARTS = 2  # parts of a game per process: a process done with a short part takes another, so none waits long
VIEW_LEVEL = 1  # zlib level of the kept views (a long game's 7,500 views: 195 MiB as dicts, a few MiB packed)
PACK_LEVEL = 9  # zlib level of the page's frames and steps (an eighth of their JSON; the page inflates them)


class ExportError(Exception):
    """A game that cannot be exported; the message says why, for the person who asked."""


class NoGame(ExportError):
    """No game has this id."""


class NotFinished(ExportError):
    """The game has not ended (a lobby, a running or an abandoned game): its replay could show what is hidden."""


@dataclass(frozen=True)
class Step:
    """One step of a replay: the public log line of the action (none for the start), its chapter and public view
    (kept as compressed JSON)."""

    line: str
    chapter: str
    packed: bytes

    @classmethod
    def of(cls, line: str, chapter: str, view: JSON) -> Step:
        """A step with its view packed."""
        return cls(line, chapter, zlib.compress(orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS), VIEW_LEVEL))

    @property
    def view(self) -> JSON:
        """The public view after this step."""
        return dict(orjson.loads(zlib.decompress(self.packed)))


@dataclass(frozen=True)
class Replay:
    """Everything public about a finished game that the page shows (its seed too: the game is over, and the seed lets
    anyone check the deal and the draws)."""

    game_id: int
    title: str
    players: list[str]
    steps: list[Step]
    scoreboard: Scoreboard
    seed: int
    render: Callable[[JSON], bytes] | None = None
    render_scoreboard: Callable[[Scoreboard], bytes] | None = None
    picture: Callable[[JSON], Image.Image] | None = None  # render's image unencoded: the export packs it itself
    pictures: Pictures | None = None  # drawers redrawing only what changed from step to step (faster than picture)


# reading a finished game


def build(tx: Tx, game_id: int) -> str:
    """The replay page of a finished game, read in this transaction; raises NoGame or NotFinished.

    Drawing every step takes a while: a caller holding a write lock should call collect inside its transaction
    and page after it.
    """
    return page(collect(tx, game_id))


def export(store: Store, game_id: int) -> str:
    """The replay page of a finished game in a store (read in a short transaction, drawn after it); raises NoGame
    or NotFinished."""
    with store.transaction() as tx:
        replay = collect(tx, game_id)
    return page(replay)


def write(store: Store, game_id: int, path: Path) -> int:
    """Write a finished game's replay page to a file as it is drawn; returns its size in bytes. Raises NoGame or
    NotFinished having written nothing (the page goes to a .part file renamed once complete)."""
    with store.transaction() as tx:
        replay = collect(tx, game_id)
    part = path.with_name(path.name + ".part")
    try:
        with part.open("wb") as out:
            write_page(replay, out)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
    return path.stat().st_size


def collect(tx: Tx, game_id: int) -> Replay:
    """Replay a finished game's log from its seed and keep what the public saw after every action.

    Raises NoGame for an unknown id, NotFinished for a game that has not ended, and ExportError when the log no
    longer replays to the stored state.
    """
    row = tx.game(game_id)
    if row is None:
        raise NoGame(f"no game {game_id}")
    if row.status != "finished":
        raise NotFinished(_not_finished(game_id, row.status))
    entry = games.get(row.game)
    game = Loaded(row, tx.seats(game_id), entry, None)
    rows = tx.actions(game_id)
    steps, final = _replay(game, rows)
    if entry.engine.to_json(final) != tx.snapshot(game_id):
        raise ExportError(f"game {game_id}'s log no longer replays to its stored state (`keywood replay "
                          f"{game_id}` says more); nothing was exported")
    return Replay(game_id, entry.title, [s.name for s in game.seats], steps, _scoreboard(game, final), row.seed,
                  entry.render, entry.render_scoreboard, entry.picture, entry.pictures)


def _not_finished(game_id: int, status: str) -> str:
    """Why a game that has not ended is refused, by its status."""
    why = {"lobby": "has not started yet", "active": "is still being played",
           "abandoned": "was abandoned before its end"}.get(status, f"is {status}")
    return (f"game {game_id} {why}: only a finished game can be exported, since a replay of a game that has not "
            "ended could show what is still hidden")


def _replay(game: Loaded, rows: list[ActionRow]) -> tuple[list[Step], Any]:
    """The public steps of a game (the start, then one per live log row) and the final state."""
    engine, chapter = game.engine, game.entry.chapter
    lines = ["", *(log_line(game, row) for row in rows)]
    steps: list[Step] = []  # the public view at the start and after each action, with today's seat names

    def keep(state: Any) -> None:
        view = game.rename_view(engine.view(state, None))
        steps.append(Step.of(lines[len(steps)], chapter(view) if chapter else "", view))

    final = replay_log(engine, record_of(game, rows), keep)
    if len(steps) != len(lines):
        raise ExportError(f"game {game.id}'s log replays to {len(steps) - 1} actions, not {len(rows)}")
    return steps, final


def _scoreboard(game: Loaded, state: Any) -> Scoreboard:
    """The final score as the public knows it, with the seats' current holders' names."""
    board = game.engine.score(state, None)
    players = tuple(replace(p, name=game.rename(p.name)) for p in board.players)
    return replace(board, players=players, tie_break=game.rename(board.tie_break))


# the page


def page(replay: Replay, *, render: Drawing | None = None, workers: int | None = None) -> str:
    """The replay as one HTML document with everything inline; render (default: the game's) draws a view."""
    return page_bytes(replay, render=render, workers=workers).decode("utf-8")


def page_bytes(replay: Replay, *, render: Drawing | None = None,
               workers: int | None = None) -> bytes:
    """The replay page as UTF-8 bytes, as a file holds it."""
    out = io.BytesIO()
    write_page(replay, out, render=render, workers=workers)
    return out.getvalue()


def write_page(replay: Replay, out: BinaryIO, *, render: Drawing | None = None,
               workers: int | None = None) -> None:
    """Write the replay page to a binary file as it is drawn, in bounded memory whatever the length of the game;
    render (default: the game's) draws a view. workers processes draw the images, each a part of the game (default:
    one per core up to WORKERS for a long game; 1 draws them in this process, each full sheet written at once)."""
    chapters = _chapters(replay.steps)
    top, bottom = _template(replay, chapters)
    out.write(top.encode("utf-8"))
    out.write(b'{"images":[')
    # the game's own renderer draws through its unencoded picture; a replay without a renderer has no images
    draw = render or (replay.picture or replay.render if replay.render is not None else None)
    frames: list[bytes] = []
    shown = [-1] * len(replay.steps)  # the frame of each step
    pictures = replay.pictures if render is None and replay.pictures is not None else None
    if pictures is None and draw is not None:
        pictures = partial(_recent, draw)
    if pictures is not None:
        frames, shown = _draw(replay.steps, pictures, _image_writer(out), _workers(len(replay.steps), workers))
    steps = [[shown[k], s.line, s.chapter] for k, s in enumerate(replay.steps)]
    rest = (b'{"frames":[' + b",".join(frames) + b'],"steps":' + orjson.dumps(steps) + b',"chapters":'
            + orjson.dumps(chapters) + b"}")
    out.write(b'],"packed":"' + base64.b64encode(zlib.compress(rest, PACK_LEVEL)) + b'"}')
    out.write(bottom.encode("utf-8"))


def unpack(text: str) -> dict[str, Any]:
    """The data inside an exported page, as its script reads it: images, frames, steps and chapters; raises
    ExportError when the text holds no replay data."""
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S)
    if found is None:
        raise ExportError("this page holds no replay data")
    data = dict(orjson.loads(found.group(1)))
    data.update(orjson.loads(zlib.decompress(base64.b64decode(data.pop("packed")))))
    return data


def _workers(steps: int, asked: int | None) -> int:
    """How many processes draw a game's images: as asked, else one per core (up to WORKERS) for a long game."""
    if asked is not None:
        return max(1, asked)
    return max(1, min(WORKERS, os.cpu_count() or 1, steps // PART))


def _draw(steps: list[Step], pictures: Pictures, sheet: Callable[[bytes], None],
          workers: int) -> tuple[list[bytes], list[int]]:
    """Draw and pack every step's image, each sheet handed to `sheet` in order: (frames, each step's frame)."""
    if workers == 1:
        film = _film([s.packed for s in steps], pictures, sheet)
        return film.frames, film.steps
    size = -(-len(steps) // (PARTS * workers))
    parts = [[s.packed for s in steps[k:k + size]] for k in range(0, len(steps), size)]
    frames: list[bytes] = []
    shown: list[int] = []
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        # a game's later parts have more on the table and take longer to draw: they start first
        started = [pool.submit(_drawn_part, pictures, part) for part in reversed(parts)]
        sheets = 0
        for future in reversed(started):
            drawn, part_frames, part_steps = future.result()
            for data in drawn:
                sheet(data)
            shown.extend(len(frames) + f for f in part_steps)
            frames.extend(_renumbered(f, sheets) for f in part_frames)
            sheets += len(drawn)
    return frames, shown


def _drawn_part(pictures: Pictures, views: list[bytes]) -> tuple[list[bytes], list[bytes], list[int]]:
    """A worker's part of a game, its views packed: (its sheets, its frames, each step's frame), from a new canvas."""
    sheets: list[bytes] = []
    film = _film(views, pictures, sheets.append)
    return sheets, film.frames, film.steps


def _renumbered(frame: bytes, first: int) -> bytes:
    """A part's frame with its sheets numbered from first."""
    if not first:
        return frame
    data = orjson.loads(frame)
    rectangles = data["r"]
    for k in range(4, len(rectangles), 7):
        rectangles[k] += first
    return orjson.dumps(data)


def _film(views: list[bytes], pictures: Pictures, sheet: Callable[[bytes], None]) -> Film:
    """Draw each packed view in order with one of pictures' drawers and pack the images."""
    film = Film(sheet)
    draw = pictures()
    for packed in views:
        drawn = draw(dict(orjson.loads(zlib.decompress(packed))))
        film.add(drawn.image, drawn.changed)
    film.close()
    return film


def _recent(render: Drawing) -> Callable[[JSON], Drawn]:
    """A drawer of views one at a time with a renderer that draws each whole (a view met among the last few drawn
    is not drawn again: a screen opened and closed)."""
    drawn: OrderedDict[bytes, Image.Image] = OrderedDict()

    def draw(view: JSON) -> Drawn:
        key = hashlib.blake2b(orjson.dumps(view, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS),
                              digest_size=16).digest()
        image = drawn.get(key)
        if image is None:
            made = render(view)
            image = drawn[key] = made if isinstance(made, Image.Image) else Image.open(io.BytesIO(made))
            if len(drawn) > RECENT:
                drawn.popitem(last=False)
        drawn.move_to_end(key)
        return Drawn(image, None)

    return draw


def _image_writer(out: BinaryIO) -> Callable[[bytes], None]:
    """A call writing each encoded image it is given as the next string of the page's list of data: URIs."""
    written = [0]

    def write_image(data: bytes) -> None:
        out.write(b'"' if not written[0] else b',"')
        out.write(data_uri(data).encode("ascii") + b'"')
        written[0] += 1

    return write_image


def data_uri(data: bytes) -> str:
    """Encoded image bytes (PNG or WebP) as a data: URI."""
    kind = "webp" if data[:4] == b"RIFF" and data[8:12] == b"WEBP" else "png"
    return f"data:image/{kind};base64," + base64.b64encode(data).decode("ascii")


def _template(replay: Replay, chapters: list[tuple[str, int]]) -> tuple[str, str]:
    """The page around its data: everything before it and everything after it."""
    score_text = describe.scoreboard(replay.scoreboard)
    score_image = replay.render_scoreboard(replay.scoreboard) if replay.render_scoreboard else None
    title = f"{replay.title}, game {replay.game_id}: replay"
    options = "".join(f'<option value="{step}">{html.escape(label)}</option>' for label, step in chapters)
    picture = (f'<img id="score-image" alt="The final scoreboard" src="{data_uri(score_image)}">'
               if score_image else "")
    text = TEMPLATE.format(
        title=html.escape(title), players=html.escape(describe.and_list(replay.players)),
        count=len(replay.steps) - 1, seed=replay.seed, last=len(replay.steps) - 1, chapters=options,
        score_text=html.escape(score_text), score_image=picture, style=STYLE, script=SCRIPT, data=DATA,
        first_line=html.escape(replay.steps[0].line or START),
    )
    before, after = text.split(DATA)
    return before, after


DATA = "\0data\0"  # where the data goes in the formatted template (no escaped text holds a NUL)
START = "The start of the game."


def _chapters(steps: list[Step]) -> list[tuple[str, int]]:
    """(label, first step) of each run of steps in one chapter, in order (a label may come back later)."""
    found: list[tuple[str, int]] = []
    for k, step in enumerate(steps):
        if step.chapter and (not found or found[-1][0] != step.chapter):
            found.append((step.chapter, k))
    return found
