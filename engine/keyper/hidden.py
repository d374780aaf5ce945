"""Redrawing what a viewer cannot see of a Keyper state (engine.core.Game.resample_hidden).

What is hidden, and how it is redrawn consistently with what the viewer sees:

- the other seats' face-down spring, summer and autumn fairs: the fairs of each season the viewer has not seen
  (not its own, not held face up on any fairground; dealt elsewhere, left in the box or discarded unheld) are
  shuffled and dealt back, each seat keeping how many of that season it holds. During the fairs phase a seat
  still deciding is known to have a fair it could hold, so a deal of this season's fairs leaving it none is
  drawn again (after DEAL_ATTEMPTS such draws, the first consistent deal in a fixed order is taken);
- the order of the bag and of the face-down stacks (their contents follow from everything shown: each country
  tile and winter fair is in one known place, and the stacks hold exactly the non-spring ones until they go in
  the bag);
- during choose_display, the displays other seats have chosen but not yet shown;
- the random generator itself, so every later draw differs.

The redraw is a function of what the viewer sees and the seed only (a stand-in player samples with it and must
not learn anything hidden from it): every pool is put in a fixed order (sorted) before it is shuffled, and the
current hidden arrangement never decides which deal is kept.
"""

from __future__ import annotations

from engine.core import Rng, clone
from engine.keyper.fairs import holdable
from engine.keyper.legal import display_choices
from engine.keyper.spaces import comps, season_name
from engine.keyper.state import State
from engine.keyper.vocab import SEASONS

DEAL_ATTEMPTS = 64
"""Random deals tried before taking the first consistent one in a fixed order (the true deal is consistent, so one
always exists)."""


def resample_hidden(state: State, viewer: int | None, seed: int) -> State:
    """A copy of state with everything hidden from viewer (None: the public) redrawn from seed; state is unchanged."""
    new = clone(state)
    rng = Rng.from_seed(seed)
    for season in SEASONS[:3]:
        _redeal_fairs(new, viewer, season, rng)
    new.bag.sort()
    rng.shuffle(new.bag)
    new.stacks.sort()
    rng.shuffle(new.stacks)
    _redraw_displays(new, viewer, rng)
    new.rng = Rng(rng.next64()).state
    return new


def _others(state: State, viewer: int | None) -> list[int]:
    """Every seat but the viewer's."""
    return [s for s in range(len(state.players)) if s != viewer]


def _unseen_fairs(state: State, viewer: int | None, season: str) -> list[str]:
    """The fairs of a season the viewer has not seen: neither among its own face-down fairs nor held face up."""
    seen = {held.fair for p in state.players for shown in p.fairground.values() for held in shown}
    if viewer is not None:
        seen.update(state.players[viewer].hidden_fairs)
    return sorted(f.id for f in comps().fairs.values() if f.kind == season and f.id not in seen)


def _redeal_fairs(state: State, viewer: int | None, season: str, rng: Rng) -> None:
    """Deal the viewer's unseen fairs of one season back to the other seats' face-down slots of that season.

    Only a deal of the season being played can leave a seat still deciding on fairs without one it could hold;
    such a deal is drawn again, and after DEAL_ATTEMPTS the first consistent deal in a fixed order is taken."""
    slots = [(s, i) for s in _others(state, viewer) for i, f in enumerate(state.players[s].hidden_fairs)
             if comps().fairs[f].kind == season]
    if not slots:
        return
    pool = _unseen_fairs(state, viewer, season)
    constrained = state.phase == "fairs" and season == season_name(state)
    for _ in range(DEAL_ATTEMPTS if constrained else 1):
        rng.shuffle(pool)
        _place(state, slots, pool)
        if not constrained or _consistent(state, viewer):
            return
    _place(state, slots, _first_consistent(state, viewer, slots, sorted(pool)))


def _first_consistent(state: State, viewer: int | None, slots: list[tuple[int, int]],
                      pool: list[str]) -> list[str]:
    """The fairs for the slots of the season being played, in slot order, chosen in a fixed order (pool sorted):
    each seat still deciding gets a fair it could hold (a matching by augmenting paths), the rest the remaining
    fairs in pool order."""
    needs = {k for k, (seat, _) in enumerate(slots) if _needs_fair(state, viewer, seat)}
    fits = {k: [f for f in pool if _could_hold(state, slots[k], f)] for k in needs}
    owner: dict[str, int] = {}

    def assign(k: int, tried: set[str]) -> bool:
        for fair in fits[k]:
            if fair not in tried:
                tried.add(fair)
                if fair not in owner or assign(owner[fair], tried):
                    owner[fair] = k
                    return True
        return False

    for k in sorted(needs):
        assign(k, set())
    chosen = {k: fair for fair, k in owner.items()}
    rest = iter(f for f in pool if f not in owner)
    return [chosen[k] if k in chosen else next(rest) for k in range(len(slots))]


def _needs_fair(state: State, viewer: int | None, seat: int) -> bool:
    """Whether everyone knows the seat, another than the viewer, could hold a fair: it is still deciding on fairs."""
    return state.phase == "fairs" and seat != viewer and seat in state.waiting


def _could_hold(state: State, slot: tuple[int, int], fair: str) -> bool:
    """Whether the slot's seat could hold a fair now with this fair in the slot (the state is left as it was)."""
    seat, index = slot
    fairs = state.players[seat].hidden_fairs
    before, fairs[index] = fairs[index], fair
    found = bool(holdable(state, seat))
    fairs[index] = before
    return found


def _place(state: State, slots: list[tuple[int, int]], fairs: list[str]) -> None:
    """Put fairs[k] into the k-th (seat, index) face-down slot."""
    for (seat, index), fair in zip(slots, fairs, strict=False):
        state.players[seat].hidden_fairs[index] = fair


def _consistent(state: State, viewer: int | None) -> bool:
    """Whether every other seat still deciding on fairs could hold one, as everyone knows it can (p.8 note 3)."""
    if state.phase != "fairs":
        return True
    return all(holdable(state, s) for s in state.waiting if s != viewer)


def _redraw_displays(state: State, viewer: int | None, rng: Rng) -> None:
    """Replace the other seats' chosen, not yet shown displays by displays they could as well have chosen."""
    if state.phase != "choose_display":
        return
    choices = display_choices(state)
    for seat in _others(state, viewer):
        player = state.players[seat]
        if player.chosen_display is not None:
            player.chosen_display = choices[rng.below(len(choices))]
