"""Replays after the end: a finished game as one self-contained HTML page.

`collect` reads a finished game inside a store transaction and replays its log from the seed, keeping the public
view after every action (quick). `page` draws the table image of every step and packs everything into one HTML
file (slow: one image per step), so a caller can end its transaction before drawing. Only public information
goes in: the public view after each action, the stored public summary of each action, the final score, and the
game's seed (secret until the end; with it, anyone can check the deal and the draws).

The page needs no network: images are data: URIs, the style and script are inline. To keep the file small, every
image is first mapped onto one palette shared by the whole game; a step then stores only the rectangles that
changed since the step before (packed into one small image), with a whole image every KEY_EVERY changes.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageChops, features

from bot import describe, games
from bot.loaded import Loaded, log_line, record_of
from engine.core import JSON, Scoreboard
from engine.core import replay as replay_log

if TYPE_CHECKING:
    from bot.store import ActionRow, Store, Tx

KEY_EVERY = 30  # a whole image at least every this many changed frames (stepping back redraws from the last one)
TILE = 32  # changed rectangles are made of squares this many pixels wide
NOISE = 40  # a colour channel may differ by this much from the true image (palette rounding) without a redraw...
FAINT = 2.0  # ...as long as the square's mean difference stays under this (a faint change of a whole area counts)
WHOLE = 0.5  # a change covering more than this share of the image is stored as a whole image
PALETTE_SAMPLES = 12  # images sampled for the shared palette
BUDGET = 6 * 2**20  # encoded images past this many bytes are re-encoded as lossless WebP, the largest first


class ExportError(Exception):
    """A game that cannot be exported; the message says why, for the person who asked."""


class NoGame(ExportError):
    """No game has this id."""


class NotFinished(ExportError):
    """The game has not ended (a lobby, a running or an abandoned game): its replay could show what is hidden."""


@dataclass(frozen=True)
class Step:
    """One step of a replay: the public log line of the action (none for the start), its chapter and public view."""

    line: str
    chapter: str
    view: JSON


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


@dataclass
class Film:
    """A game's images, packed: unique encoded images, frames (a whole image or patches) and each step's frame."""

    images: list[bytes] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    _index: dict[bytes, int] = field(default_factory=dict, repr=False)

    def image(self, data: bytes) -> int:
        """The index of an encoded image, stored once however often it is used."""
        if data not in self._index:
            self._index[data] = len(self.images)
            self.images.append(data)
        return self._index[data]


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
    """Write a finished game's replay page to a file; returns its size in bytes. Raises NoGame or NotFinished
    (having written nothing)."""
    text = export(store, game_id).encode("utf-8")
    path.write_bytes(text)
    return len(text)


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
                  entry.render, entry.render_scoreboard)


def _not_finished(game_id: int, status: str) -> str:
    """Why a game that has not ended is refused, by its status."""
    why = {"lobby": "has not started yet", "active": "is still being played",
           "abandoned": "was abandoned before its end"}.get(status, f"is {status}")
    return (f"game {game_id} {why}: only a finished game can be exported, since a replay of a game that has not "
            "ended could show what is still hidden")


def _replay(game: Loaded, rows: list[ActionRow]) -> tuple[list[Step], Any]:
    """The public steps of a game (the start, then one per live log row) and the final state."""
    engine, chapter = game.engine, game.entry.chapter
    views: list[JSON] = []  # the public view at the start and after each action, with today's seat names
    final = replay_log(engine, record_of(game, rows), lambda s: views.append(game.rename_view(engine.view(s, None))))
    lines = ["", *(log_line(game, row) for row in rows)]
    return [Step(line, chapter(view) if chapter else "", view) for line, view in zip(lines, views, strict=True)], final


def _scoreboard(game: Loaded, state: Any) -> Scoreboard:
    """The final score as the public knows it, with the seats' current holders' names."""
    board = game.engine.score(state, None)
    players = tuple(replace(p, name=game.rename(p.name)) for p in board.players)
    return replace(board, players=players, tie_break=game.rename(board.tie_break))


# the images


def film(views: list[JSON], render: Callable[[JSON], bytes]) -> Film:
    """Draw every step's view (each distinct view once) and pack the images into a Film."""
    drawn: dict[str, bytes] = {}
    pngs = []
    for view in views:
        key = json.dumps(view, sort_keys=True)
        if key not in drawn:
            drawn[key] = render(view)
        pngs.append(drawn[key])
    packed = pack(pngs)
    shrink(packed, BUDGET)
    return packed


def shrink(packed: Film, budget: int) -> None:
    """Re-encode the largest images as lossless WebP (about half the bytes, several times slower to encode) until
    the images fit the budget; nothing happens where Pillow has no WebP."""
    if not features.check("webp"):
        return
    total = sum(map(len, packed.images))
    for k in sorted(range(len(packed.images)), key=lambda n: -len(packed.images[n])):
        if total <= budget:
            return
        out = io.BytesIO()
        Image.open(io.BytesIO(packed.images[k])).save(out, format="WEBP", lossless=True, method=1, quality=25)
        if len(out.getvalue()) < len(packed.images[k]):
            total += len(out.getvalue()) - len(packed.images[k])
            packed.images[k] = out.getvalue()


def pack(pngs: list[bytes]) -> Film:
    """Pack a sequence of images: one shared palette, then a whole image or the changed rectangles per change.

    A rectangle changes where some colour channel differs by more than NOISE from what is already shown, so the
    page shows each image to within NOISE of its palette colours and tiny differences of shading cost nothing.
    """
    palette = shared_palette(pngs)
    packed = Film()
    shown: Image.Image | None = None
    since_key = 0
    for data in pngs:
        image = _indexed(data, palette)
        colours = image.convert("RGB")
        if shown is not None and shown.width == image.width and since_key < KEY_EVERY:
            shift = None
            if shown.height != image.height:
                shift = _shift(shown, colours)
                shown = _shifted(shown, image.height, shift)
            boxes = changed(shown, colours)
            if not boxes and shift is None:
                packed.steps.append(len(packed.frames) - 1)
                continue
            area = sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes)
            if area <= WHOLE * image.width * image.height:
                frame = _patches(packed, image, boxes)
                if shift is not None:
                    frame["s"] = [image.width, image.height, *shift]
                packed.frames.append(frame)
                packed.steps.append(len(packed.frames) - 1)
                for box in boxes:
                    shown.paste(colours.crop(box), box[:2])
                since_key += 1
                continue
        packed.frames.append({"k": packed.image(_encode(image)), "w": image.width, "h": image.height})
        packed.steps.append(len(packed.frames) - 1)
        shown, since_key = colours, 0
    return packed


def _shift(before: Image.Image, after: Image.Image) -> tuple[int, int, int]:
    """How an image of another height is guessed from the one shown: (rows kept at the top, first row of the rest
    in the image shown, where that rest goes), the rest kept against the bottom edge."""
    height = min(before.height, after.height)
    box = changed_box(before.crop((0, 0, before.width, height)), after.crop((0, 0, after.width, height)))
    top = height if box is None else box[1]
    grow = after.height - before.height
    source = max(0, top - grow)
    return top, source, source + grow


def _shifted(before: Image.Image, height: int, shift: tuple[int, int, int]) -> Image.Image:
    """The image shown, resized to a new height as the page does it: black, the top rows kept, the rest moved."""
    top, source, target = shift
    guess = Image.new("RGB", (before.width, height))
    guess.paste(before.crop((0, 0, before.width, min(top, height))), (0, 0))
    guess.paste(before.crop((0, source, before.width, before.height)), (0, target))
    return guess


def shared_palette(pngs: list[bytes]) -> Image.Image:
    """A 256-colour palette drawn from a sample of the images (spread over the game), as a 'P' image."""
    chosen = sorted({round(k * (len(pngs) - 1) / max(1, PALETTE_SAMPLES - 1)) for k in range(PALETTE_SAMPLES)})
    tiles = [Image.open(io.BytesIO(pngs[k])).convert("RGB") for k in chosen]
    tiles = [t.resize((max(1, t.width // 4), max(1, t.height // 4)), Image.Resampling.NEAREST) for t in tiles]
    sheet = Image.new("RGB", (max(t.width for t in tiles), sum(t.height for t in tiles)))
    y = 0
    for tile in tiles:
        sheet.paste(tile, (0, y))
        y += tile.height
    return sheet.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _indexed(data: bytes, palette: Image.Image) -> Image.Image:
    """An encoded image mapped onto the shared palette, without dithering."""
    return Image.open(io.BytesIO(data)).convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)


def changed(before: Image.Image, after: Image.Image) -> list[tuple[int, int, int, int]]:
    """The rectangles (left, top, right, bottom), made of TILE-sized squares, where two same-sized RGB images
    differ: some channel of a pixel by more than NOISE, or a square by more than FAINT on average."""
    difference = _difference(before, after)
    if difference.getbbox() is None:
        return []
    sharp = difference.point([0] * (NOISE + 1) + [255] * (255 - NOISE)).convert("F").reduce(TILE)
    faint = difference.convert("F").reduce(TILE).point(lambda v: v * 1000 - FAINT * 1000).convert("L")
    tiles = ImageChops.lighter(sharp.point(lambda v: v * TILE * TILE).convert("L"), faint)  # 0: unchanged
    flags = list(tiles.tobytes())
    runs: dict[tuple[int, int], tuple[int, int, int, int]] = {}  # (first, last column) -> open rectangle
    boxes: list[tuple[int, int, int, int]] = []
    for row in range(tiles.height):
        found = _runs(flags[row * tiles.width:(row + 1) * tiles.width])
        top, bottom = row * TILE, min(after.height, (row + 1) * TILE)
        for span, box in list(runs.items()):
            if span not in found:
                boxes.append(box)
                del runs[span]
        for first, last in found:
            left, right = first * TILE, min(after.width, (last + 1) * TILE)
            opened = runs.get((first, last))
            runs[(first, last)] = (left, opened[1] if opened else top, right, bottom)
    return boxes + list(runs.values())


def changed_box(before: Image.Image, after: Image.Image) -> tuple[int, int, int, int] | None:
    """The bounding box of the TILE squares that differ between two same-sized RGB images (None: nothing)."""
    boxes = changed(before, after)
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _difference(before: Image.Image, after: Image.Image) -> Image.Image:
    """The largest channel difference of each pixel of two same-sized RGB images, as a greyscale image."""
    red, green, blue = ImageChops.difference(before, after).split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue)


def _runs(flags: list[int]) -> list[tuple[int, int]]:
    """(first, last) index of each run of non-zero values."""
    found: list[tuple[int, int]] = []
    start = None
    for k, value in enumerate([*flags, 0]):
        if value and start is None:
            start = k
        elif not value and start is not None:
            found.append((start, k - 1))
            start = None
    return found


def _patches(packed: Film, image: Image.Image, boxes: list[tuple[int, int, int, int]]) -> dict[str, Any]:
    """One frame's changed rectangles, stacked into one image: {'p': image index, 'r': [[x, y, w, h, sy]...]}."""
    if not boxes:
        return {"r": []}
    sheet = Image.new("P", (max(b[2] - b[0] for b in boxes), sum(b[3] - b[1] for b in boxes)))
    sheet.putpalette(image.getpalette() or [])
    places = []
    y = 0
    for box in boxes:
        sheet.paste(image.crop(box), (0, y))
        places.append([box[0], box[1], box[2] - box[0], box[3] - box[1], y])
        y += box[3] - box[1]
    return {"p": packed.image(_encode(sheet)), "r": places}


def _encode(image: Image.Image) -> bytes:
    """A palette image as PNG bytes."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def data_uri(data: bytes) -> str:
    """Encoded image bytes (PNG or WebP) as a data: URI."""
    kind = "webp" if data[:4] == b"RIFF" and data[8:12] == b"WEBP" else "png"
    return f"data:image/{kind};base64," + base64.b64encode(data).decode("ascii")


# the page


def page(replay: Replay, *, render: Callable[[JSON], bytes] | None = None) -> str:
    """The replay as one HTML document with everything inline; render (default: the game's) draws a view."""
    draw = render or replay.render
    packed = film([s.view for s in replay.steps], draw) if draw else None
    chapters = _chapters(replay.steps)
    data = {
        "images": [data_uri(b) for b in packed.images] if packed else [],
        "frames": packed.frames if packed else [],
        "steps": [[packed.steps[k] if packed else -1, s.line, s.chapter] for k, s in enumerate(replay.steps)],
        "chapters": chapters,
    }
    score_text = describe.scoreboard(replay.scoreboard)
    score_image = replay.render_scoreboard(replay.scoreboard) if replay.render_scoreboard else None
    title = f"{replay.title}, game {replay.game_id}: replay"
    options = "".join(f'<option value="{step}">{html.escape(label)}</option>' for label, step in chapters)
    picture = (f'<img id="score-image" alt="The final scoreboard" src="{data_uri(score_image)}">'
               if score_image else "")
    return TEMPLATE.format(
        title=html.escape(title), players=html.escape(describe.and_list(replay.players)),
        count=len(replay.steps) - 1, seed=replay.seed, last=len(replay.steps) - 1, chapters=options,
        score_text=html.escape(score_text), score_image=picture, style=STYLE, script=SCRIPT, data=_script_json(data),
        first_line=html.escape(replay.steps[0].line or START),
    )


START = "The start of the game."


def _chapters(steps: list[Step]) -> list[tuple[str, int]]:
    """(label, first step) of each run of steps in one chapter, in order (a label may come back later)."""
    found: list[tuple[str, int]] = []
    for k, step in enumerate(steps):
        if step.chapter and (not found or found[-1][0] != step.chapter):
            found.append((step.chapter, k))
    return found


def _script_json(data: Any) -> str:
    """JSON safe to put inside a <script> element."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


STYLE = """
:root { color-scheme: light; --ink: #222; --muted: #666; --line: #d8d2c4; --paper: #faf7f0; --accent: #7a4b16; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       background: var(--paper); }
header { padding: 10px 16px; border-bottom: 1px solid var(--line); background: #fff; }
h1 { font-size: 20px; margin: 0; } h2 { font-size: 17px; margin: 0 0 8px; }
header p { margin: 2px 0 0; color: var(--muted); }
main { display: flex; gap: 16px; padding: 12px 16px; align-items: flex-start; }
#stage { flex: 1 1 auto; min-width: 0; }
#board { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); background: #fff; }
aside { flex: 0 0 360px; position: sticky; top: 8px; display: flex; flex-direction: column; gap: 10px;
        max-height: calc(100vh - 16px); }
.controls { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
button { font: inherit; padding: 4px 10px; border: 1px solid var(--accent); border-radius: 4px;
         background: #fff; color: var(--accent); cursor: pointer; }
button:hover:not(:disabled) { background: #f3e8d8; } button:disabled { opacity: 0.4; cursor: default; }
#counter { margin-left: auto; color: var(--muted); font-variant-numeric: tabular-nums; }
#slider { width: 100%; } select { font: inherit; padding: 2px; }
.controls, #slider, label, #line, .hint { flex: 0 0 auto; }
#line { margin: 0; padding: 8px 10px; background: #fff; border-left: 4px solid var(--accent); min-height: 3em; }
#log { margin: 0; padding: 0; list-style: none; overflow-y: auto; flex: 1 1 auto; min-height: 120px;
       border: 1px solid var(--line); background: #fff; }
#log li { padding: 2px 8px; cursor: pointer; border-bottom: 1px solid #f0ece2; }
#log li.chapter { font-weight: 600; background: #f6f0e4; }
#log li.now { background: #ffe9b8; }
.hint { color: var(--muted); font-size: 13px; margin: 0; }
#score { padding: 12px 16px 24px; border-top: 1px solid var(--line); }
#score pre { background: #fff; padding: 8px 12px; border: 1px solid var(--line); overflow-x: auto; }
#score img { max-width: 100%; height: auto; border: 1px solid var(--line); }
@media (max-width: 900px) { main { flex-direction: column; } aside { position: static; flex-basis: auto;
                            width: 100%; max-height: none; } #log { max-height: 40vh; } }
"""

SCRIPT = """
"use strict";
const D = JSON.parse(document.getElementById("replay-data").textContent);
const last = D.steps.length - 1;
const board = document.getElementById("board");
const ctx = board ? board.getContext("2d") : null;
const slider = document.getElementById("slider");
const chapter = document.getElementById("chapter");
const logList = document.getElementById("log");
const keyOf = [];
D.frames.forEach((f, i) => keyOf.push("k" in f ? i : keyOf[i - 1]));
const cache = [];
let current = 0, drawn = -1, token = 0;

function load(i) {
  if (!cache[i]) {
    cache[i] = new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => resolve(img);
      img.onerror = () => reject(new Error("image " + i + " did not load"));
      img.src = D.images[i];
    });
  }
  return cache[i];
}

function paint(frame, images) {
  if ("k" in frame) {
    if (board.width !== frame.w || board.height !== frame.h) { board.width = frame.w; board.height = frame.h; }
    ctx.drawImage(images.get(frame.k), 0, 0);
  } else {
    if (frame.s) resize(...frame.s);
    const sheet = images.get(frame.p);
    for (const [x, y, w, h, sy] of frame.r) ctx.drawImage(sheet, 0, sy, w, h, x, y, w, h);
  }
}

function resize(w, h, top, source, target) {
  const copy = document.createElement("canvas");
  copy.width = board.width; copy.height = board.height;
  copy.getContext("2d").drawImage(board, 0, 0);
  board.width = w; board.height = h;
  ctx.fillStyle = "#000"; ctx.fillRect(0, 0, w, h);
  const kept = Math.min(top, h);
  if (kept > 0) ctx.drawImage(copy, 0, 0, w, kept, 0, 0, w, kept);
  if (copy.height > source) ctx.drawImage(copy, 0, source, w, copy.height - source, 0, target, w, copy.height - source);
}

async function drawStep(step) {
  const mine = ++token;
  const target = D.steps[step][0];
  if (!ctx || target < 0) return;
  const start = drawn >= keyOf[target] && drawn <= target ? drawn + 1 : keyOf[target];
  const frames = D.frames.slice(start, target + 1);
  const wanted = [...new Set(frames.map(f => ("k" in f ? f.k : f.p)).filter(i => i !== undefined))];
  const images = new Map();
  (await Promise.all(wanted.map(load))).forEach((img, n) => images.set(wanted[n], img));
  if (mine !== token) return;
  frames.forEach(f => paint(f, images));
  drawn = target;
  board.dataset.step = String(step);
  board.dataset.frame = String(target);
}

function show(step) {
  current = Math.max(0, Math.min(last, step));
  const [, line, label] = D.steps[current];
  document.getElementById("line").textContent = line || "The start of the game.";
  document.getElementById("counter").textContent = "Step " + current + " of " + last;
  slider.value = String(current);
  document.getElementById("prev").disabled = document.getElementById("first").disabled = current === 0;
  document.getElementById("next").disabled = document.getElementById("last").disabled = current === last;
  if (chapter) {
    let pick = 0;
    D.chapters.forEach(([, first], n) => { if (first <= current) pick = n; });
    chapter.selectedIndex = pick;
  }
  const old = logList.querySelector("li.now");
  if (old) old.classList.remove("now");
  const now = logList.children[current];
  if (now) { now.classList.add("now"); now.scrollIntoView({block: "nearest"}); }
  document.body.dataset.step = String(current);
  drawStep(current).catch(err => console.error(err));
}

D.steps.forEach(([, line, label], n) => {
  const item = document.createElement("li");
  item.textContent = line || "The start of the game.";
  item.dataset.step = String(n);
  if (D.chapters.some(([, first]) => first === n)) { item.classList.add("chapter"); item.title = label; }
  logList.appendChild(item);
});
logList.addEventListener("click", e => { const li = e.target.closest("li"); if (li) show(Number(li.dataset.step)); });
document.getElementById("first").addEventListener("click", () => show(0));
document.getElementById("prev").addEventListener("click", () => show(current - 1));
document.getElementById("next").addEventListener("click", () => show(current + 1));
document.getElementById("last").addEventListener("click", () => show(last));
slider.addEventListener("input", () => show(Number(slider.value)));
if (chapter) chapter.addEventListener("change", () => show(Number(chapter.value)));
document.addEventListener("keydown", e => {
  const typing = e.target instanceof HTMLInputElement && e.target.type !== "range";
  if (typing || e.target instanceof HTMLSelectElement) return;
  const moves = {ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last};
  if (e.key in moves) { e.preventDefault(); show(moves[e.key]); }
});
show(0);
"""

TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; \
script-src 'unsafe-inline'">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<header><h1>{title}</h1><p>{players} &middot; {count} actions &middot; seed {seed} &middot; step with the buttons, \
the slider or the arrow keys</p></header>
<main>
<div id="stage"><canvas id="board" width="800" height="600" aria-label="The table at this step"></canvas></div>
<aside>
<div class="controls">
<button id="first" type="button" title="The start (Home)">|&#x25C0;</button>
<button id="prev" type="button" title="One step back (left arrow)">&#x25C0; Back</button>
<button id="next" type="button" title="One step forward (right arrow)">Forward &#x25B6;</button>
<button id="last" type="button" title="The end (End)">&#x25B6;|</button>
<span id="counter">Step 0 of {last}</span>
</div>
<input id="slider" type="range" min="0" max="{last}" value="0" aria-label="Step">
<label>Jump to <select id="chapter">{chapters}</select></label>
<p id="line">{first_line}</p>
<ol id="log" aria-label="The public log"></ol>
<p class="hint">Click a line to go to it. <a href="#score">The final score</a></p>
</aside>
</main>
<section id="score"><h2>Final score</h2>
<pre id="score-text">{score_text}</pre>
{score_image}
</section>
<script type="application/json" id="replay-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
