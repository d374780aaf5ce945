"""The Keythedral sequence drawer (render.keythedral.pictures, render.draw.Sequel): over slices of whole random games
at 2 to 5 players, screens closed and open, every image it returns is picture(view) index for index, palette
included (so within any tolerance of it as RGB), and outside its changed boxes it is the image it returned before
(the same indices standing for the same colours), which it never changes afterwards. A private view is refused, a
change of layout gives changed None, the same view again changed (); Recording notes what a drawing reads.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Mapping, Sequence
from typing import Any, cast

import pytest
from PIL import Image, ImageChops

from bot import games
from engine.core import Playout, replay
from engine.keythedral.view import KView
from engine.playout import random_playout
from render import draw as d
from render import keythedral as kt

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eve")
View = dict[str, Any]


@functools.cache
def game(players: int, seed: int, open_screens: bool) -> Playout:
    """A whole random game at this many players, with the open_screens table option when asked."""
    entry = games.get("keythedral")
    options = entry.engine_options(entry.read_options({"open_screens": open_screens}, {}))
    _, record = random_playout(entry.engine, list(NAMES[:players]), seed, options=options)
    return record


def views(record: Playout, starts: Sequence[float], length: int) -> list[View]:
    """The public views (as bot/export's _replay keeps them) of slices of length steps starting at each fraction of
    the game, one slice after the other."""
    engine = games.get("keythedral").engine
    steps = len(record.actions) + 1
    firsts = sorted({min(int(start * steps), steps - length) for start in starts})
    wanted = {k for first in firsts for k in range(first, first + length)}
    found: list[View] = []
    count = [0]

    def keep(state: Any) -> None:
        if count[0] in wanted:
            found.append(dict(engine.view(state, None)))
        count[0] += 1

    replay(engine, record, keep)
    return found


def same(one: Image.Image, other: Image.Image) -> bool:
    """Whether two palette images of one size hold the same indices (palettes aside)."""
    return ImageChops.difference(one, other).getbbox() is None


def same_outside(before: Image.Image, after: Image.Image, boxes: Sequence[d.Box]) -> bool:
    """Whether two palette images hold the same indices standing for the same colours outside the boxes."""
    if before.size != after.size:
        return False
    difference = ImageChops.difference(before, after)
    outside = Image.new("L", after.size, 255)
    for box in boxes:
        difference.paste(0, box)
        outside.paste(0, box)
    if difference.getbbox() is not None:
        return False
    used = [i for i, n in enumerate(before.histogram(outside)) if n]
    colours, other = before.getpalette() or [], after.getpalette() or []
    return all(colours[3 * i:3 * i + 3] == other[3 * i:3 * i + 3] for i in used)


def assert_picture(drawn: d.Drawn, view: Mapping[str, Any]) -> None:
    """The drawer's image is picture(view), its indices and its palette."""
    want = kt.picture(view)
    assert drawn.image.mode == "P" and drawn.image.size == want.size
    assert drawn.image.getpalette() == want.getpalette()
    assert same(drawn.image, want)


GAMES = [  # players, seed, open_screens, where slices start (fractions of the game), views per slice
    (2, 1, False, (0.0, 0.7), 30),
    (2, 2, True, (0.4,), 30),
    (3, 15, False, (0.3,), 300),
    (3, 2, True, (0.0, 1.0), 30),
    (4, 1, False, (0.5,), 40),
    (4, 2, True, (0.2, 1.0), 30),
    (5, 1, False, (0.6, 1.0), 30),
    (5, 2, True, (0.1,), 30),
]


@pytest.mark.parametrize(("players", "seed", "open_screens", "starts", "length"), GAMES)
def test_each_image_is_the_picture_and_changes_only_inside_its_boxes(players: int, seed: int, open_screens: bool,
                                                                      starts: tuple[float, ...], length: int) -> None:
    """Every image equals picture(view); outside changed it equals the one before, which stays as it was."""
    draw = kt.pictures()
    before: Image.Image | None = None
    kept = Image.new("P", (1, 1))
    wholes = 0
    for view in views(game(players, seed, open_screens), starts, length):
        drawn = draw(view)
        assert before is None or same(before, kept)  # the image returned before was left alone
        assert_picture(drawn, view)
        if drawn.changed is None:
            wholes += 1
        else:
            assert before is not None
            width, height = drawn.image.size
            assert all(0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height for x0, y0, x1, y1 in drawn.changed)
            assert same_outside(before, drawn.image, drawn.changed)
        before, kept = drawn.image, drawn.image.copy()
    assert wholes < length * len(starts) // 2  # most images redrew some panels only


def test_a_private_view_is_refused() -> None:
    """pictures() refuses a seat's view (and one showing law cards) with ValueError, as picture does."""
    engine = games.get("keythedral").engine
    state = engine.setup(list(NAMES[:3]), 4, {})
    public = dict(engine.view(state, None))
    draw = kt.pictures()
    with pytest.raises(ValueError):
        draw(dict(engine.view(state, 0)))
    with pytest.raises(ValueError):
        draw(public | {"laws": []})
    assert draw(public).changed is None


def test_a_change_of_layout_compares_everything_and_the_same_view_nothing() -> None:
    """A taller header (another layout) gives changed None; the same view again changed (), the same image."""
    view = views(game(3, 2, False), (0.5,), 1)[0]
    taller = view | {"pending": "a payment of four cubes", "effects": ["a law in force"]}
    assert kt.layout(cast(KView, taller)) != kt.layout(cast(KView, view))
    draw = kt.pictures()
    first = draw(view)
    assert first.changed is None
    again = draw(view)
    assert again.changed == ()
    assert again.image is not first.image and same(again.image, first.image)
    moved = draw(taller)
    assert moved.changed is None
    assert_picture(moved, taller)
    back = draw(view)
    assert back.changed is None
    assert_picture(back, view)
    assert draw(dict(view)).changed == ()  # an equal view, not the same dict


def test_pictures_pickles_and_makes_a_new_drawer_each_call() -> None:
    """The export sends render.keythedral.pictures to its worker processes: it pickles by name."""
    made = pickle.loads(pickle.dumps(kt.pictures))
    assert made is kt.pictures
    assert made() is not made()


def test_a_recording_notes_the_keys_read() -> None:
    """Reads by [], get and in are noted (absent keys too); going through the keys notes them all and their set."""
    view = {"a": 1, "b": [2, 3], "c": {"d": 4}}
    recording = d.Recording(view)
    assert recording["a"] == 1 and recording.get("z") is None and "c" in recording and "y" not in recording
    reads = recording.reads()
    assert set(reads.values) == {"a", "z", "c", "y"} and reads.every is None
    assert not reads.changed(view | {"b": [9]})  # b was not read
    assert reads.changed(view | {"c": {"d": 5}}) and reads.changed(view | {"z": 0}) and reads.changed({"a": 1})
    every = d.Recording(view)
    assert dict(every.items()) == view and list(every.keys()) == list(view)
    assert every.reads().changed(view | {"e": 0}) and not every.reads().changed(dict(view))


def test_a_view_that_fails_to_draw_leaves_the_drawer_drawing_whole() -> None:
    """A view missing a key raises KeyError; the drawer then draws the next view whole, as picture does."""
    view = views(game(4, 1, False), (0.3,), 1)[0]
    draw = kt.pictures()
    draw(view)
    broken = {key: value for key, value in view.items() if key != "store"}
    with pytest.raises(KeyError):
        draw(broken)
    after = draw(view)
    assert after.changed is None
    assert_picture(after, view)
