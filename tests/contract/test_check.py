"""contract (check explains, issue 39 item 6): in every game, `check` of a legal move says what it would do.

Along random play-outs of each registered game, a spread of every seat's legal actions (the first of each kind
always) is checked: the verdict is legal, has an outcome of non-empty lines (never a bare "Yes."), is what judge
says of the move applied, and is the same on a state the seat cannot tell from this one (resample_hidden for that
seat), so a check never tells what the seat may not see. Each game's own tests (tests/<game>/test_check.py) check
what its texts say.
"""

from __future__ import annotations

from typing import Any

from bot.games import GameEntry
from engine.playout import random_playout
from tests.contract.kit import each_game, setups

PLAYOUTS = 2
SPREAD = 6  # actions checked per seat and step, besides the first of each kind
RESAMPLE_EVERY = 9  # steps between comparisons with a state the seat cannot tell apart


@each_game()
def test_check_says_what_every_kind_of_legal_move_would_do(entry: GameEntry) -> None:
    """contract (check): every kind of legal move gets an outcome, the same as judge's and blind to what is hidden."""
    game = entry.engine
    kinds: set[str] = set()
    steps = [0]

    def each(state: Any, seat: int, action: Any) -> None:
        steps[0] += 1
        for s in game.to_act(state):
            options = game.legal_actions(state, s)
            firsts = {game.format(a).split()[0]: a for a in reversed(options)}
            other = game.resample_hidden(state, s, steps[0]) if steps[0] % RESAMPLE_EVERY == 0 else None
            for a in {game.format(a): a for a in [*options[::max(1, len(options) // SPREAD)],
                                                  *firsts.values()]}.values():
                text = game.format(a)
                verdict = game.check(state, s, a)
                assert verdict.legal, f"check refuses the legal '{text}': {verdict.reason}"
                assert verdict.outcome and all(line.strip() for line in verdict.outcome), f"'{text}': no outcome"
                assert " ".join(verdict.outcome).strip() not in ("Yes", "Yes."), f"'{text}': a bare yes"
                after, events = game.apply(state, s, a)
                assert game.judge(state, s, a, after, events) == verdict
                if other is not None and a in game.legal_actions(other, s):
                    assert game.check(other, s, a) == verdict, f"check of '{text}' tells what the seat cannot see"
                kinds.add(text.split()[0])

    for setup in setups(entry, PLAYOUTS, first_seed=701):
        random_playout(game, list(setup.players), setup.seed, options=setup.options, on_step=each)
    assert len(kinds) >= 2, f"hardly any kind of move was checked: {kinds}"
