"""The replay page's HTML, style and script (its data comes from bot/export/__init__.py)."""

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
async function unpack(data) {
  // the frames, steps and chapters come deflated and in base64 (an eighth of their JSON): inflated here
  const bytes = Uint8Array.from(atob(data.packed), c => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return Object.assign(data, JSON.parse(await new Response(stream).text()));
}
unpack(JSON.parse(document.getElementById("replay-data").textContent)).then(start).catch(err => {
  document.getElementById("line").textContent = "This browser could not open the replay's data: " + err;
});

function start(D) {
const last = D.steps.length - 1;
const board = document.getElementById("board");
const ctx = board ? board.getContext("2d") : null;
const slider = document.getElementById("slider");
const chapter = document.getElementById("chapter");
const logList = document.getElementById("log");
const startOf = [];  // the frame each frame's canvas begins with (a new canvas)
D.frames.forEach((f, i) => startOf.push("n" in f ? i : startOf[i - 1]));
const CHECK = 50, KEEP = 12;  // a copy of the canvas every CHECK frames drawn, the last KEEP of them kept
const saved = new Map();
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
  if (frame.n) { board.width = frame.n[0]; board.height = frame.n[1]; }
  if (frame.s) resize(...frame.s);
  const r = frame.r;
  for (let k = 0; k < r.length; k += 7) {
    ctx.drawImage(images.get(r[k + 4]), r[k + 5], r[k + 6], r[k + 2], r[k + 3], r[k], r[k + 1], r[k + 2], r[k + 3]);
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

function save(frame) {
  const copy = document.createElement("canvas");
  copy.width = board.width; copy.height = board.height;
  copy.getContext("2d").drawImage(board, 0, 0);
  saved.set(frame, copy);
  if (saved.size > KEEP) saved.delete(saved.keys().next().value);
}

function restore(frame) {
  const copy = saved.get(frame);
  saved.delete(frame); saved.set(frame, copy);  // the last used is kept longest
  board.width = copy.width; board.height = copy.height;
  ctx.drawImage(copy, 0, 0);
}

function beginning(target) {
  // the latest frame at or before target from which to paint: the canvas as drawn, a saved copy or a new canvas
  const first = startOf[target];
  let best = drawn >= first && drawn <= target ? drawn : -1;
  for (const frame of saved.keys()) if (frame >= first && frame <= target && frame > best) best = frame;
  return best;
}

async function drawStep(step) {
  const mine = ++token;
  const target = D.steps[step][0];
  if (!ctx || target < 0) return;
  const from = beginning(target);
  const start = from < 0 ? startOf[target] : from + 1;
  const wanted = new Set();
  for (let f = start; f <= target; f++) for (let k = 4; k < D.frames[f].r.length; k += 7) wanted.add(D.frames[f].r[k]);
  const images = new Map();
  const ids = [...wanted];
  (await Promise.all(ids.map(load))).forEach((img, n) => images.set(ids[n], img));
  if (mine !== token) return;
  if (from >= 0 && from !== drawn) restore(from);
  for (let f = start; f <= target; f++) {
    paint(D.frames[f], images);
    if (f % CHECK === 0 && !saved.has(f)) save(f);
  }
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
}
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
