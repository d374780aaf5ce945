"""Drawing a run of views in order, redrawing only what changed (for the replay export).

A table is cut into panels, each drawn inside its own box from some of the view's top-level keys, one after the
other in a fixed order. A Sequel keeps one index canvas along the run and, for each panel, the keys its last drawing
read (a Recording notes them) with the values they had, and the palette as that drawing left it. The next view
redraws only the panels one of whose keys now holds another value (the same inputs take a drawing down the same
path, so it reads the same keys: what was not read cannot have changed the panel), each over the base's pixels in
its box and with the palette the panel before it left.

That keeps every image the one the renderer draws alone, index for index: a panel's colours (the text blends' above
all, see canvas.Palette) depend on the palette it starts from, and that is the one the renderer's own drawing would
reach there. When a redrawn panel leaves the palette as it was, the panels after it are kept; when it leaves another
palette, they are redrawn too (with what it left). After a change of layout (another base) the panels whose size is
the same and whose keys did not change are moved from where they were (by even distances only, so that Pillow's
rounding of halves to even places their pixels the same); the rest are drawn afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

from render.draw.canvas import Base, Box, Palette, Pen

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
        self.every: frozenset[str] | None = None  # the view's keys, once gone through (a key added or taken away
        # changes what was read)

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
        self.every = frozenset(self.view)
        self.read.update(self.view)

    def reads(self) -> Reads:
        """What was read so far."""
        return Reads(dict(self.read), self.every)


@dataclass(frozen=True)
class Reads:
    """The top-level keys a drawing read and their values (absent ones as absent), and all the view's keys when it
    went through them."""

    values: dict[str, Any]
    every: frozenset[str] | None

    def changed(self, view: Mapping[str, Any]) -> bool:
        """Whether the view holds something else under a key read (compared deeply, with !=)."""
        if self.every is not None and frozenset(view) != self.every:
            return True
        return any(view.get(key, _ABSENT) != value for key, value in self.values.items())


class Sequel:
    """The state of a run of one table's views drawn in order: the canvas (indices, drawn on), the base it was
    started from, each panel's box (image coordinates, right and bottom exclusive: every pixel the panel may draw,
    the base's under it), and what each panel read when last drawn and the palette that drawing left.

    draw() takes the view, the base of its layout, the panels' boxes in drawing order and a call drawing one panel
    by name. It returns a finished copy of the canvas, never the canvas itself. The views must not be changed after
    they are drawn: what a panel read is kept, not copied."""

    def __init__(self) -> None:
        self._forget()

    def _forget(self) -> None:
        """Nothing drawn yet: the next view is drawn whole."""
        self.base: Base | None = None
        self.image: Image.Image | None = None
        self.boxes: dict[str, Box] = {}
        self.reads: dict[str, Reads] = {}
        self.palettes: dict[str, Palette] = {}  # the palette as each panel's drawing left it (not drawn with again)
        self._flat: tuple[Palette | None, bytes] = (None, b"")  # the last image's palette and its bytes

    def draw(self, view: Mapping[str, Any], base: Base, boxes: Mapping[str, Box], part: Part) -> Drawn:
        """The view's image: the panels whose keys changed redrawn, and those after them should the palette they
        leave differ; changed is None for the first image and after a change of base (another layout), else the
        redrawn panels' boxes."""
        old, old_base = self.image, self.base
        moved = old is None or base is not old_base
        image = base.image.copy() if moved or old is None else old
        # in step: the palette the next panel starts from is the one it started from last time
        in_step = old_base is not None and (base is old_base or _equal(base.colours, old_base.colours))
        palette = base.colours
        changed: list[Box] = []
        try:
            for name, box in boxes.items():
                kept = self.palettes.get(name) if in_step else None
                if kept is not None and not self.reads[name].changed(view):
                    if not moved:
                        palette = kept
                        continue
                    was = self.boxes.get(name)
                    if old is not None and was is not None and _movable(was, box):
                        image.paste(old.crop(was), box)
                        palette = kept
                        continue
                pen = Pen(image, palette.copy())
                if not moved:
                    pen.im.paste(base.image.im.crop(box), box)
                recording = Recording(view)
                part(pen, name, recording)
                self.reads[name] = recording.reads()
                in_step = kept is not None and _equal(pen.colours, kept)
                palette = kept if in_step and kept is not None else pen.colours
                self.palettes[name] = palette
                changed.append(box)
        except BaseException:  # a panel that failed (a view missing a key) leaves the canvas half drawn
            self._forget()
            raise
        self.base, self.image, self.boxes = base, image, dict(boxes)
        return Drawn(self._finished(image, palette), None if moved else tuple(changed))

    def _finished(self, image: Image.Image, palette: Palette) -> Image.Image:
        """A copy of the canvas as a palette ("P") image with the palette written in (canvas.finished's)."""
        if self._flat[0] is not palette:
            self._flat = (palette, bytes(c for colour in palette.rgb for c in colour))
        done = image.copy()
        done.putpalette(self._flat[1])
        return done


def _equal(one: Palette, other: Palette) -> bool:
    """Whether two palettes have the same colours at the same indices and the same text blends (what the colours
    drawn next depend on; the rest is cached work)."""
    return one.rgb == other.rgb and one.blended == other.blended


def _movable(was: Box, box: Box) -> bool:
    """Whether a panel drawn in box was can be moved to box as it is: the same size, moved by even distances."""
    dx, dy = box[0] - was[0], box[1] - was[1]
    return box[2] - box[0] == was[2] - was[0] and box[3] - box[1] == was[3] - was[1] and dx % 2 == dy % 2 == 0
