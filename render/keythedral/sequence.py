"""The Keythedral table drawn for a run of public views in order (the replay export's steps): render.keythedral's
pictures() makes a Pictures, which draws each view as picture() does, index for index, but redraws only the panels
(Keythedral mat, Keytown mat, header, lattice, players' table) whose part of the view changed since the view before
(render.draw's Sequel: each panel's top-level keys are learnt from what its drawing read)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from engine.keythedral.view import KView
from render import draw as d
from render.keythedral import PANELS, Layout, _table, check_public, layout, panel


class Pictures:
    """A drawer of one run of views: call it with each public view in turn (it raises as picture does)."""

    def __init__(self) -> None:
        self.sequel = d.Sequel()
        self._boxes: tuple[Layout, dict[str, d.Box]] | None = None

    def __call__(self, public_view: Mapping[str, Any]) -> d.Drawn:
        check_public(public_view)
        place = layout(cast(KView, public_view))
        return self.sequel.draw(public_view, _table(*place), self.boxes(place),
                                lambda draw, name, view: panel(draw, place, name, view))

    def boxes(self, place: Layout) -> dict[str, d.Box]:
        """Every pixel each panel may draw (its frame, corners included) in image coordinates, right and bottom
        exclusive, in PANELS' order."""
        if self._boxes is None or self._boxes[0] != place:
            frames = place.frames()
            self._boxes = place, {name: (*frames[name][:2], frames[name][2] + 1, frames[name][3] + 1)
                                  for name in PANELS}
        return self._boxes[1]
