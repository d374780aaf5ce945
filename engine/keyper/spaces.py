"""Where keyples stand: country-board fields and player-board plots, and the colour rules between them."""

from __future__ import annotations

from dataclasses import dataclass

from engine.keyper.components import Components, FieldKind, default
from engine.keyper.state import Keyple, State
from engine.keyper.vocab import FARM_PLOTS, SEASONS, VILLAGE_PLOTS

PLOT_IDS: tuple[str, ...] = tuple(f"f{i}" for i in range(1, FARM_PLOTS + 1)) + tuple(
    f"v{i}" for i in range(1, VILLAGE_PLOTS + 1)
)


@dataclass(frozen=True)
class SpaceRef:
    """A space named in notation: a field of a country board (board >= 1) or one of the acting seat's plots."""

    board: int | None
    name: str

    def __str__(self) -> str:
        return f"{self.board}.{self.name}" if self.board is not None else self.name


def parse_space(text: str) -> SpaceRef | None:
    """Read '2.pig' or 'v3'; None when the text names neither."""
    if "." in text:
        number, _, name = text.partition(".")
        return SpaceRef(int(number), name) if number.isdigit() else None
    return SpaceRef(None, text) if text in PLOT_IDS else None


def comps() -> Components:
    """The component data in use."""
    return default()


def season_name(state: State) -> str:
    """The current season's name."""
    return SEASONS[state.season]


def field_kind(state: State, board: int, field_id: str) -> FieldKind | None:
    """The kind of a field on a board's current display; None when the board or field does not exist."""
    if not 1 <= board <= len(state.boards):
        return None
    display = comps().display(state.boards[board - 1].display)
    for f in display.fields:
        if f.id == field_id:
            return comps().field_kinds[f.kind]
    return None


def keyples_on(state: State, seat: int, ref: SpaceRef) -> list[Keyple]:
    """The keyples on a space (a fresh list for an empty space; the stored one otherwise)."""
    if ref.board is None:
        return state.players[seat].plot_keyples.get(ref.name, [])
    return state.boards[ref.board - 1].spaces.get(ref.name, [])


def put_keyple(state: State, seat: int, ref: SpaceRef, keyple: Keyple) -> None:
    """Place a keyple on a space."""
    if ref.board is None:
        state.players[seat].plot_keyples.setdefault(ref.name, []).append(keyple)
    else:
        state.boards[ref.board - 1].spaces.setdefault(ref.name, []).append(keyple)


def space_colour(state: State, ref: SpaceRef) -> str | None:
    """A space's border colour: a field's colour, never a plot's (rulebook p.4)."""
    if ref.board is None:
        return None
    kind = field_kind(state, ref.board, ref.name)
    return kind.colour if kind else None


def working_colour(first: Keyple, border: str | None) -> str:
    """The colour a space's first keyple works in: a white keyple takes the border's colour (rulebook p.5)."""
    if first.colour != "white":
        return first.colour
    return border if border is not None else "white"


def may_join(colour: str, working: str) -> bool:
    """Whether a keyple of this colour may join one working in that colour (rulebook p.5, 2b and 2c)."""
    return colour == "white" or colour == working


def matches(working: str, border: str | None) -> bool:
    """Whether keyples working in this colour get the colour bonus on this border (rulebook p.4)."""
    return border is not None and working == border


def clockwise_from(state: State, seat: int) -> list[int]:
    """The other seats in clockwise order, starting with the seat's left neighbour."""
    n = len(state.players)
    return [(seat + i) % n for i in range(1, n)]


def keyp_empty(state: State, seat: int) -> bool:
    """Whether a seat has neither keyper nor keyples left in its keyp."""
    p = state.players[seat]
    return not p.keyper_home and not any(p.keyp.values())


def claimed_board(state: State, seat: int) -> int | None:
    """The number of the board this seat's keyper claimed this season, if any."""
    for board in state.boards:
        if board.keyper == seat:
            return board.number
    return None


def all_spaces(state: State, seat: int) -> list[tuple[SpaceRef, list[Keyple]]]:
    """Every occupied space the seat could refer to: all board fields, then its own plots."""
    found = [
        (SpaceRef(b.number, fid), ks) for b in state.boards for fid, ks in b.spaces.items() if ks
    ]
    found += [(SpaceRef(None, pid), ks) for pid, ks in state.players[seat].plot_keyples.items() if ks]
    return found
