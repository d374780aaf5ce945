"""Drawing a run of views in order, redrawing only what changed (for the replay export).

A table is cut into panels, each drawn inside its own box from some of the view's top-level keys. A Sequel keeps
one index canvas and one palette along the run, and for each panel the keys its last drawing read (a Recording
notes them) with the values they had: the next view redraws only the panels one of whose keys now holds another
value, each over the base's pixels in its box. The same inputs take a drawing down the same path, so it reads the
same keys: what was not read cannot have changed the panel.

The palette only grows along a run, so the base's indices and those of panels left alone stay valid; a text blend
may take a colour already in its box (at most 7 off a channel, see canvas.BLEND_BOX) where a table drawn whole
would add its own, never the nearest colour: once the palette holds BLEND_LIMIT colours the table is drawn whole
from a new copy of the base's palette, as the renderer draws it alone.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

from render.draw.canvas import TEXT_RESERVE, Base, Box, Pen, start

BLEND_LIMIT = 256 - TEXT_RESERVE  # palette entries past which a text blend may be given its nearest colour

Views = Callable[[str], Mapping[str, Any]]  # a panel's name -> the view it draws from (a Recording, in a Sequel)
Whole = Callable[[Pen, Views], None]  # draws every panel on a table started from the base, in the renderer's order
Part = Callable[[Pen, str, Mapping[str, Any]], None]  # draws one panel, by name, over the base's pixels in its box


@dataclass(frozen=True)
class Drawn:
    """A drawer's image of one view, and the boxes outside which it equals the image the drawer returned before it
    (None: anywhere may differ)."""

    image: Image.Image
    changed: tuple[Box, ...] | None


_ABSENT = object()  # what a Recording notes for a key the view does not hold


class Recording(Mapping[str, Any]):
    """A view that notes which of its top-level keys are read, and what they held (reads); going through its keys
    (iter, len, keys, items, values, ==) reads them all, and their set too."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.view = view
        self.read: dict[str, Any] = {}
        self.every = False  # went through the keys: a key added or taken away changes what was read

    def __getitem__(self, key: str) -> Any:
        value = self.view[key]
        self.read[key] = value
        return value

    def get(self, key: str, default: Any = None) -> Any:
        """The key's value, else default (noted either way)."""
        value = self.read[key] = self.view.get(key, _ABSENT)
        return default if value is _ABSENT else value

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        return self.get(key, _ABSENT) is not _ABSENT

    def __iter__(self) -> Iterator[str]:
        self._read_all()
        return iter(self.view)

    def __len__(self) -> int:
        self._read_all()
        return len(self.view)

    def _read_all(self) -> None:
        """Note every key and its value."""
        self.every = True
        self.read.update(self.view)

    def reads(self) -> Reads:
        """What was read so far."""
        return Reads(dict(self.read), frozenset(self.read) if self.every else None)


@dataclass(frozen=True)
class Reads:
    """The top-level keys a drawing read and their values (absent ones as absent), and all the view's keys when it
    went through them."""

    values: dict[str, Any]
    keys: frozenset[str] | None

    def changed(self, view: Mapping[str, Any]) -> bool:
        """Whether the view holds something else under a key read (compared deeply, with !=)."""
        if self.keys is not None and frozenset(view) != self.keys:
            return True
        return any(view.get(key, _ABSENT) != value for key, value in self.values.items())


class Sequel:
    """The state of a run of one table's views drawn in order: the canvas (indices, drawn on), its pen and palette,
    the layout and base it was drawn from, and what each panel read when last drawn.

    draw() takes the view, its layout key, the base of that layout, each panel's box (image coordinates, right and
    bottom exclusive: every pixel the panel may draw, the base's under it) and the renderer's two ways of drawing:
    whole, and one panel. It returns a finished copy of the canvas; the canvas is never handed out. The views must
    not be changed after they are drawn: what a panel read is kept, not copied."""

    def __init__(self) -> None:
        self.key: Hashable = None
        self.base: Base | None = None
        self.pen: Pen | None = None
        self.reads: dict[str, Reads] = {}
        self._palette = (0, b"")  # the palette's length and its bytes, for finished copies

    def draw(self, view: Mapping[str, Any], key: Hashable, base: Base, boxes: Mapping[str, Box], whole: Whole,
             part: Part) -> Drawn:
        """The view's image: only the panels whose keys changed redrawn when the layout and base are the ones drawn
        before and the palette stays short of BLEND_LIMIT, else the whole table afresh (changed None)."""
        pen = self.pen
        if pen is not None and key == self.key and base is self.base and len(pen.colours.rgb) < BLEND_LIMIT:
            changed = self._redraw(pen, view, base, boxes, part)
            if len(pen.colours.rgb) < BLEND_LIMIT:  # no blend went to its nearest colour
                return Drawn(self._finished(pen), changed)
        self._whole(view, key, base, whole)
        assert self.pen is not None
        return Drawn(self._finished(self.pen), None)

    def _redraw(self, pen: Pen, view: Mapping[str, Any], base: Base, boxes: Mapping[str, Box], part: Part
                ) -> tuple[Box, ...]:
        """Redraw the panels whose keys changed (or never drawn), each over the base's pixels: their boxes."""
        changed = []
        for name, box in boxes.items():
            reads = self.reads.get(name)
            if reads is not None and not reads.changed(view):
                continue
            pen.im.paste(base.image.im.crop(box), box)
            recording = Recording(view)
            part(pen, name, recording)
            self.reads[name] = recording.reads()
            changed.append(box)
        return tuple(changed)

    def _whole(self, view: Mapping[str, Any], key: Hashable, base: Base, whole: Whole) -> None:
        """Draw the whole table on a new copy of the base (its palette too), noting what each panel reads."""
        _, pen = start(base)
        recordings: dict[str, Recording] = {}

        def views(name: str) -> Recording:
            found = recordings[name] = Recording(view)
            return found

        whole(pen, views)
        self.key, self.base, self.pen = key, base, pen
        self.reads = {name: recording.reads() for name, recording in recordings.items()}
        self._palette = (0, b"")

    def _finished(self, pen: Pen) -> Image.Image:
        """A copy of the canvas as a palette ("P") image with the palette written in (canvas.finished's)."""
        rgb = pen.colours.rgb
        if self._palette[0] != len(rgb):  # the palette only grows: its length tells whether it changed
            self._palette = (len(rgb), bytes(c for colour in rgb for c in colour))
        image = pen.image.copy()
        image.putpalette(self._palette[1])
        return image
