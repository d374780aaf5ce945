"""What a seat may see of a Keyper state: the typed public view, built by listing every shown field.

A field of the state that no builder here lists stays hidden. Hidden from everyone: the random generator, the
order and contents of the bag and of the face-down stacks (shown as counts). Hidden from the other seats: a
player's face-down fairs (shown as a count) and the display a player has chosen before all have chosen (shown as
whether one is chosen). The renderer and the chat texts read these records by their keys, so a key renamed here
fails there instead of drawing a default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict, cast

from engine.keyper.actions import Action
from engine.keyper.decisions import waiting_for
from engine.keyper.legal import legal_actions, to_act
from engine.keyper.spaces import season_name
from engine.keyper.state import Board, HeldFair, Keyple, Offer, Payment, Player, Plot, State, Step


class KeypleView(TypedDict):
    """A keyple on a space or on a keyp tile."""

    colour: str
    lying: bool


class BoardView(TypedDict):
    """A country board: its display, the keyper claiming it (a seat), its boat and the keyples on each field."""

    number: int
    display: str
    keyper: int | None
    boat: str | None
    spaces: dict[str, list[KeypleView]]


class PlotView(TypedDict):
    """A built plot: its tile, whether upgraded, and the tile it was built over."""

    tile: str
    upgraded: bool
    under: str | None


class HeldFairView(TypedDict):
    """A fair held at a season's end, with the points of the side shown."""

    fair: str
    points: int


class OfferView(TypedDict):
    """An open joiner offer: the field, the colour it works with, the seats asked in order and who is asked now."""

    board: int
    field: str
    colour: str
    candidates: list[int]
    index: int


class PaymentView(TypedDict):
    """A build or upgrade being paid for item by item."""

    seat: int
    items: list[str]
    effect: str
    plot: str
    tile: str | None


class StepView(TypedDict):
    """One unit of a yield still to be taken: the seat, what kind and from what options."""

    seat: int
    grant: int
    kind: str
    options: list[str]
    source: str


class PlayerView(TypedDict):
    """A player as a seat sees them. hidden_fairs is the list of face-down fairs to the player's own seat and their
    count to everyone else; chosen_display is the display chosen (or None) to the own seat and whether one is
    chosen to everyone else."""

    name: str
    keyp: dict[str, int]
    goods: dict[str, int]
    tiles: list[str]
    hidden_fairs: list[str] | int
    keyper_home: bool
    keyp_tile: list[KeypleView]
    winter_fairs: list[str]
    fairground: dict[str, list[HeldFairView]]
    plots: dict[str, PlotView]
    plot_keyples: dict[str, list[KeypleView]]
    shipping: int
    board: int | None
    chosen_display: str | bool | None


class KeyperView(TypedDict):
    """What a seat (viewer; None: the public) may see of the table, with what the engine says of it: the season's
    name, the seats to act, the 'waiting for ...' phrase, and the viewer's legal actions in notation (none for the
    public). bag and stacks are counts."""

    players: list[PlayerView]
    options: dict[str, Any]
    season: int
    phase: str
    active: int
    start_player: int
    boards: list[BoardView]
    display: list[str]
    bag: int
    discard: list[str]
    stacks: int
    boats: list[str]
    supply: dict[str, int]
    offer: OfferView | None
    payment: PaymentView | None
    steps: list[StepView]
    next_grant: int
    final_queue: list[int] | None
    waiting: list[int]
    last_from_keyp: int | None
    boat_took: list[list[str]]
    boat_sold: list[list[str]]
    turn: int
    last_action: str
    last_space: str
    season_name: str
    to_act: list[int]
    waiting_for: str
    viewer: int | None
    legal: list[str]


def view(state: State, seat: int | None, legal_now: list[Action] | None = None) -> KeyperView:
    """What the seat (None: the public) may see, with its legal actions (legal_now: those of legal_actions, when
    the caller has them)."""
    if seat is None:
        legal: list[str] = []
    else:
        legal = [str(a) for a in (legal_actions(state, seat) if legal_now is None else legal_now)]
    return {
        "players": [_player(p, own=i == seat) for i, p in enumerate(state.players)],
        "options": dict(state.options),
        "season": state.season,
        "phase": state.phase,
        "active": state.active,
        "start_player": state.start_player,
        "boards": [_board(b) for b in state.boards],
        "display": list(state.display),
        "bag": len(state.bag),
        "discard": list(state.discard),
        "stacks": len(state.stacks),
        "boats": list(state.boats),
        "supply": dict(state.supply),
        "offer": None if state.offer is None else _offer(state.offer),
        "payment": None if state.payment is None else _payment(state.payment),
        "steps": [_step(s) for s in state.steps],
        "next_grant": state.next_grant,
        "final_queue": None if state.final_queue is None else list(state.final_queue),
        "waiting": list(state.waiting),
        "last_from_keyp": state.last_from_keyp,
        "boat_took": [list(items) for items in state.boat_took],
        "boat_sold": [list(items) for items in state.boat_sold],
        "turn": state.turn,
        "last_action": state.last_action,
        "last_space": state.last_space,
        "season_name": season_name(state),
        "to_act": to_act(state),
        "waiting_for": waiting_for(state, [p.name for p in state.players]),
        "viewer": seat,
        "legal": legal,
    }


def as_view(data: Mapping[str, Any]) -> KeyperView:
    """A view the engine made, read back as the typed record (from JSON, say); raises ValueError when it lacks one of
    the view's keys."""
    missing = sorted(KeyperView.__required_keys__ - data.keys())
    if missing:
        raise ValueError(f"not a Keyper view: no {', '.join(missing)}")
    return cast(KeyperView, data)


def own_hidden_fairs(player: PlayerView) -> list[str]:
    """A player's face-down fairs as their own seat sees them; raises ValueError on another seat's view of them (a
    count)."""
    fairs = player["hidden_fairs"]
    if isinstance(fairs, int):
        raise ValueError(f"this view shows {player['name']}'s face-down fairs as a count, not the seat's own view")
    return fairs


def _player(player: Player, own: bool) -> PlayerView:
    """A player's shown fields; their secrets in full to their own seat, summarised to everyone else."""
    return {
        "name": player.name,
        "keyp": dict(player.keyp),
        "goods": dict(player.goods),
        "tiles": list(player.tiles),
        "hidden_fairs": list(player.hidden_fairs) if own else len(player.hidden_fairs),
        "keyper_home": player.keyper_home,
        "keyp_tile": [_keyple(k) for k in player.keyp_tile],
        "winter_fairs": list(player.winter_fairs),
        "fairground": {season: [_held(h) for h in held] for season, held in player.fairground.items()},
        "plots": {plot_id: _plot(p) for plot_id, p in player.plots.items()},
        "plot_keyples": {plot_id: [_keyple(k) for k in ks] for plot_id, ks in player.plot_keyples.items()},
        "shipping": player.shipping,
        "board": player.board,
        "chosen_display": player.chosen_display if own else player.chosen_display is not None,
    }


def _board(board: Board) -> BoardView:
    """A country board as everyone sees it."""
    return {"number": board.number, "display": board.display, "keyper": board.keyper, "boat": board.boat,
            "spaces": {field: [_keyple(k) for k in ks] for field, ks in board.spaces.items()}}


def _keyple(keyple: Keyple) -> KeypleView:
    """A keyple as everyone sees it."""
    return {"colour": keyple.colour, "lying": keyple.lying}


def _plot(plot: Plot) -> PlotView:
    """A built plot as everyone sees it."""
    return {"tile": plot.tile, "upgraded": plot.upgraded, "under": plot.under}


def _held(held: HeldFair) -> HeldFairView:
    """A held fair as everyone sees it."""
    return {"fair": held.fair, "points": held.points}


def _offer(offer: Offer) -> OfferView:
    """The open joiner offer as everyone sees it."""
    return {"board": offer.board, "field": offer.field, "colour": offer.colour,
            "candidates": list(offer.candidates), "index": offer.index}


def _payment(payment: Payment) -> PaymentView:
    """The payment under way as everyone sees it."""
    return {"seat": payment.seat, "items": list(payment.items), "effect": payment.effect, "plot": payment.plot,
            "tile": payment.tile}


def _step(step: Step) -> StepView:
    """A yield unit still to be taken, as everyone sees it."""
    return {"seat": step.seat, "grant": step.grant, "kind": step.kind, "options": list(step.options),
            "source": step.source}
