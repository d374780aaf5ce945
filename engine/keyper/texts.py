"""Keyper's views as chat text: the public table in a few lines, and one seat's private hand."""

from __future__ import annotations

from typing import Any

SEASON_ICON = {"spring": "🌱", "summer": "🌼", "autumn": "🍂", "winter": "❄"}


def _counts(items: dict[str, int]) -> str:
    """'clay 2, wood 1' for the non-zero entries, or '-'."""
    shown = [f"{k} {v}" for k, v in items.items() if v]
    return ", ".join(shown) or "-"


def _keyples(keyples: list[dict[str, Any]]) -> str:
    """'green+white_' style: colours, an underscore for a keyple lying down."""
    return "+".join(k["colour"] + ("_" if k["lying"] else "") for k in keyples)


def table(view: dict[str, Any]) -> str:
    """The public state of the table in a few lines."""
    lines = [f"{SEASON_ICON.get(view['season_name'], '')} {capitalise(view['season_name'])}, turn {view['turn']}. "
             f"{capitalise(view['waiting_for'])}."]
    names = [p["name"] for p in view["players"]]
    for board in view["boards"]:
        claim = f" claimed by {names[board['keyper']]}" if board["keyper"] is not None else ""
        boat = f", boat {board['boat']}" if board["boat"] else ""
        spaces = "; ".join(f"{fid} {_keyples(ks)}" for fid, ks in board["spaces"].items() if ks)
        lines.append(f"Board {board['number']} ({board['display']}{claim}{boat}): {spaces or 'empty'}")
    lines.append(f"Display: {', '.join(view['display'])}. Boats this season: {', '.join(view['boats'])}.")
    for player in view["players"]:
        lines.append(_player_line(player))
    if view.get("offer"):
        offer = view["offer"]
        lines.append(f"Open invitation on board {offer['board']} {offer['field']} for {offer['colour']} or white.")
    if view.get("last_action"):
        lines.append(f"Last: {view['last_action']}")
    return "\n".join(lines)


def _player_line(player: dict[str, Any]) -> str:
    """One player's public summary."""
    keyper = "keyper + " if player["keyper_home"] else ""
    built = ", ".join(f"{pid}:{p['tile']}" for pid, p in player["plots"].items())
    fairs = sum(len(v) for v in player["fairground"].values())
    return (f"{player['name']}: keyp {keyper}{_counts(player['keyp'])}; goods {_counts(player['goods'])}; "
            f"shipping {player['shipping']}; fairs held {fairs}" + (f"; built {built}" if built else ""))


def hand(view: dict[str, Any], seat: int) -> str:
    """What a player alone may see: their fair tiles and their legal actions."""
    me = view["players"][seat]
    lines = [f"{me['name']}, your fair tiles: {', '.join(me['hidden_fairs']) or 'none'}; "
             f"winter fairs: {', '.join(me['winter_fairs']) or 'none'}.",
             f"Your unbuilt tiles: {', '.join(me['tiles']) or 'none'}.",
             f"Goods: {_counts(me['goods'])}."]
    if me.get("chosen_display"):
        lines.append(f"Your chosen display: {me['chosen_display']}.")
    legal = view.get("legal") or []
    if legal:
        shown = ", ".join(legal[:20]) + (f" … and {len(legal) - 20} more" if len(legal) > 20 else "")
        lines.append(f"You may: {shown}")
    return "\n".join(lines)


def capitalise(text: str) -> str:
    """Upper-case the first letter only."""
    return text[:1].upper() + text[1:]
