"""The Keyflower table's boats panel: one card per boat with its load (in winter its scoring) and its taker; the
Keymelequin's card also says who is aboard, its load and the boat it replaced."""

from __future__ import annotations

from collections.abc import Mapping

from engine.keyflower import keyples as kp
from engine.keyflower.components import COMPONENTS, SKILLS
from engine.keyflower.lookup import BOAT_SCORING
from engine.keyflower.pieces import KEYMELEQUIN
from engine.keyflower.view import BoatView, KfView
from render import draw as d
from render.keyflower.chips import seat_disc, worker_pill, worker_pill_width
from render.keyflower.look import BOAT_CARD_H, KIND_FILL, PAD, Box
from render.keyflower.reading import ascii_words, boat_face, kind_order, name_of, title_of

KEYMELEQUIN_LINE_H = 24


def boats_height(view: KfView) -> int:
    """The boats panel (0 without boats)."""
    return 44 + _card_height(view) + 10 if view["boats"] else 0


def _card_height(view: KfView) -> int:
    """A boat card's height: a line more when the Keymelequin (module) is among the boats."""
    mele = any(b["id"] == KEYMELEQUIN for b in view["boats"])
    return BOAT_CARD_H + (KEYMELEQUIN_LINE_H if mele else 0)


def boats(draw: d.Pen, view: KfView, box: Box) -> None:
    """One card per boat: its name and face, the workers by colour and skills by kind on it (in winter its
    scoring), and who took it."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    season = view["season"]
    winter = season == "winter"
    face_text = "summer face (b)" if season == "summer" else "winter face (b)" if winter else "spring/autumn face (a)"
    tw = d.text(draw, (x0 + PAD, y0 + 22), "BOATS", 20, bold=True, anchor="lm")
    note = face_text + ("; taken as village tiles at the end of winter" if winter else
                        "; picked in turn order at the end of the season")
    if view["phase"] == "boats" and view["picking"]:
        note += ". Picking: " + ", ".join(f"{s + 1} {name_of(view, s)}" for s in view["picking"])
    d.text(draw, (x0 + PAD + tw + 14, y0 + 22), d.ellipsize(note, 16, x1 - x0 - 2 * PAD - tw - 14), 16, d.MUTED,
           anchor="lm")
    n = max(4, len(view["boats"]))
    card_w = (x1 - x0 - 2 * PAD - 10 * (n - 1)) // n
    card_h = _card_height(view)
    for i, boat in enumerate(view["boats"]):
        bx = x0 + PAD + i * (card_w + 10)
        _boat_card(draw, view, boat, (bx, y0 + 44, bx + card_w, y0 + 44 + card_h), boat_face(view), winter)


def _boat_card(draw: d.Pen, view: KfView, boat: BoatView, box: Box, face: str, winter: bool) -> None:
    """A boat: name, load or winter scoring, taker; the Keymelequin also says who is aboard, its load (marked '*':
    Keywood's figures, F-2) and the boat it replaced."""
    x0, y0, x1, y1 = box
    boat_id, taken = boat["id"], boat["taken"]
    fill = KIND_FILL["boat"] if taken is None else d.lighter(KIND_FILL["boat"], 0.6)
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=d.INK if taken is None else d.FAINT, width=2)
    d.text(draw, (x0 + 10, y0 + 16), d.ellipsize(title_of(boat_id), 18, x1 - x0 - 50, bold=True), 18, bold=True,
           anchor="lm")
    d.text(draw, (x1 - 10, y0 + 16), face, 16, d.MUTED, bold=True, anchor="rm")
    workers, skills = boat["workers"], boat["skills"]
    y = y0 + 42
    if taken is not None and not winter:
        d.text(draw, (x0 + 10, y), "load taken", 15, d.MUTED, anchor="lm")
    elif winter:
        text = "winter: " + ascii_words(BOAT_SCORING.get(boat_id, ("?",))[0])
        d.text_box(draw, (x0 + 10, y0 + 30, x1 - 10, y0 + 88), text, 16, 14, align="left", valign="top")
    else:
        x = x0 + 10
        x += d.text(draw, (x, y), f"{sum(workers.values())} workers", 15, d.MUTED, anchor="lm") + 6
        for colour in kind_order(workers):
            count = workers.get(colour, 0)
            if count and x + worker_pill_width(colour, count) <= x1 - 6:
                x += worker_pill(draw, x, y, colour, count) + 4
        y += 25
        skill_total = sum(skills.values())
        words = ", ".join(f"{k} {skills[k]}" for k in [*SKILLS, *sorted(s for s in skills if s not in SKILLS)]
                          if skills.get(k, 0))
        text = f"{skill_total} skill{'' if skill_total == 1 else 's'}" + (f": {words}" if words else "")
        d.text(draw, (x0 + 10, y), d.ellipsize(text, 15, x1 - x0 - 20), 15, anchor="lm")
    if boat_id == KEYMELEQUIN:
        _keymelequin_line(draw, view, workers, face, (x0 + 10, y0 + 42 + 50, x1 - 10))
    ty = y1 - 17
    if taken is not None:
        d.text(draw, (x0 + 10, ty), "taken by", 15, d.MUTED, anchor="lm")
        seat_disc(draw, x0 + 86, ty, taken)
        d.text(draw, (x0 + 102, ty), d.ellipsize(name_of(view, taken), 16, x1 - x0 - 110, bold=True), 16, bold=True,
               anchor="lm")
    else:
        d.text(draw, (x0 + 10, ty), "not taken", 15, d.MUTED, anchor="lm")


def _keymelequin_line(draw: d.Pen, view: KfView, workers: Mapping[str, int], face: str,
                      where: tuple[float, float, float]) -> None:
    """The Keymelequin's own line: who is aboard (Sven in spring, Paulo in summer), the load it takes from the bag
    ('*': the sheet's icons are lost, Keywood's figures, F-2) and the boat it replaced at set-up."""
    x, y, right = where
    boat = COMPONENTS.keymelequin
    load = (boat.workers_b, boat.skills_b) if face == "b" else (boat.workers_a, boat.skills_a)
    mark = "*" if boat.provenance == "reconstructed" else ""
    aboard = [kp.NAMES.get(k, k) for k in kind_order(workers) if k in kp.WILD and workers.get(k, 0)]
    replaced = view["modules"]["keymelequin"]
    words = [f"{' and '.join(aboard)} aboard"] if aboard else []
    words.append(f"load {load[0]} + {load[1]} skill{mark}")
    if replaced:
        words.append(f"replaces {title_of(replaced)}")
    d.text(draw, (x, y), d.ellipsize("; ".join(words), 15, int(right - x)), 15, anchor="lm")
