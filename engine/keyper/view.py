"""What a seat may see of a Keyper state, built by listing every shown field (a new field stays hidden).

Hidden from everyone: the random generator, the order and contents of the bag and of the face-down stacks
(shown as counts). Hidden from the other seats: a player's face-down fairs (shown as a count) and the display
a player has chosen before all have chosen (shown as whether one is chosen).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import JSON
from engine.keyper.state import Board, HeldFair, Keyple, Offer, Payment, Player, Plot, State, Step

# Every record nested in the view, with the fields shown of it; any other record is refused.
_RECORDS: dict[type, tuple[str, ...]] = {
    Board: ("number", "display", "keyper", "boat", "spaces"),
    Keyple: ("colour", "lying"),
    Plot: ("tile", "upgraded", "under"),
    HeldFair: ("fair", "points"),
    Offer: ("board", "field", "colour", "candidates", "index"),
    Payment: ("seat", "items", "effect", "plot", "tile"),
    Step: ("seat", "grant", "kind", "options", "source"),
}

STATE_FIELDS = (
    "players", "options", "season", "phase", "active", "start_player", "boards", "display", "bag", "discard",
    "stacks", "boats", "supply", "offer", "payment", "steps", "next_grant", "final_queue", "waiting",
    "last_from_keyp", "boat_took", "boat_sold", "turn", "last_action", "last_space",
)
"""The state's fields in the view, in order; players are listed by _player, the rest by shown()."""

PLAYER_FIELDS = (
    "name", "keyp", "goods", "tiles", "hidden_fairs", "keyper_home", "keyp_tile", "winter_fairs", "fairground",
    "plots", "plot_keyples", "shipping", "board", "chosen_display",
)
"""A player's fields in the view, in order."""

_STATE_SECRETS: dict[str, Callable[[State], Any]] = {
    "bag": lambda s: len(s.bag),
    "stacks": lambda s: len(s.stacks),
}
"""State fields nobody sees, with what everyone sees of them instead."""

_PLAYER_SECRETS: dict[str, Callable[[Player], Any]] = {
    "hidden_fairs": lambda p: len(p.hidden_fairs),
    "chosen_display": lambda p: p.chosen_display is not None,
}
"""Player fields only their own seat sees, with what the others see of them instead."""

_PLAIN = (str, int, float, bool, type(None))


def table_view(state: State, seat: int | None) -> JSON:
    """The state's shown fields as the seat (None: the public) may see them; raises TypeError on an unlisted record."""
    data: JSON = {}
    for name in STATE_FIELDS:
        if name == "players":
            data[name] = [_player(p, own=i == seat) for i, p in enumerate(state.players)]
        elif name in _STATE_SECRETS:
            data[name] = _STATE_SECRETS[name](state)
        else:
            data[name] = shown(getattr(state, name))
    return data


def _player(player: Player, own: bool) -> JSON:
    """A player's shown fields; their secrets in full to their own seat, summarised to everyone else."""
    return {
        name: _PLAYER_SECRETS[name](player) if name in _PLAYER_SECRETS and not own else shown(getattr(player, name))
        for name in PLAYER_FIELDS
    }


def shown(value: Any) -> Any:
    """JSON-ready data of a value, listing only the _RECORDS fields of records; raises TypeError on anything else."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, list | tuple):
        return [shown(x) for x in value]
    if isinstance(value, dict):
        return {str(k): shown(v) for k, v in value.items()}
    fields = _RECORDS.get(type(value))
    if fields is None:
        raise TypeError(f"{type(value).__name__} is not listed as shown in the view")
    return {name: shown(getattr(value, name)) for name in fields}
