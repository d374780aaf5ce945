"""Decisions and prompts: one prompt row per open decision of the engine (opened, reused, closed as play moves), its
deadline and clock, the note sent to its holder, and the answers offered as buttons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot import clocks
from bot.clocks import Clock
from bot.loaded import Loaded
from bot.records import PromptPayload
from bot.store import PromptRecord, Tx
from bot.table.commands import Outcome, PromptNote, is_computer
from bot.table.context import Context
from bot.table.texts import MAX_REPEAT, digest, hand_text, waiting
from engine.core import REACTION, TURN, Decision, IllegalAction, clone

MAX_CHOICES = 20
MAX_REPEAT_CHOICES = 4  # repeat buttons are worked out only for this few choices (each is a few trial moves)


def sync_decisions(ctx: Context, tx: Tx, game: Loaded, moment: datetime, outcome: Outcome) -> None:
    """Open a prompt for every new decision, close those the engine no longer has, and say whom to ping.

    A seat is mentioned once per decision (when it opens, or when a decision answered ahead becomes due);
    a decision outside a turn, or whose choices are private, is also sent to its holder (once).
    """
    decisions = [d for d in game.decisions() if not is_computer(game.user_of(d.seat).user_id)]  # played at once
    rows = game.open_prompts(tx)
    by_key = {(p.seat, p.key): p for p in rows}
    adopt_legacy(tx, decisions, rows, by_key)
    wanted = {(d.seat, d.key) for d in decisions}
    ending = [p for p in rows if (p.seat, p.key) not in wanted]
    for decision in decisions:
        row = by_key.get((decision.seat, decision.key))
        newly_due = row is None or (decision.must and not row.payload.must)
        if row is None:
            private = decision.kind != TURN or not decision.public_choices
            reused = None if private else next((p for p in ending if _reusable(p, decision)), None)
            row = _open_prompt(ctx, tx, game, decision, moment, reuse=reused)
            if reused is not None:
                ending.remove(reused)
            if private:
                since = digest(tx, game, decision.seat) if decision.must and decision.kind == TURN else []
                outcome.opened.append(note(game, row, decision, context=outcome.public, digest=since))
        elif newly_due:
            payload = replace(row.payload, must=True)
            row.payload = start_clock(game, row, payload, moment) if decision.default is None else payload
            tx.save_prompt(row)
        if decision.must and newly_due:
            outcome.mention.append(game.user_of(decision.seat).user_id)
    for prompt in ending:
        prompt.status = "closed"
        tx.save_prompt(prompt)
        outcome.closed.append(prompt.id or 0)
    outcome.choices = _channel_choices(game, decisions)


def adopt_legacy(tx: Tx, decisions: list[Decision], rows: list[PromptRecord],
                 by_key: dict[tuple[int | None, str], PromptRecord]) -> None:
    """Give prompts written before decisions had keys (key '') the key of the seat's decision of that kind."""
    for prompt in [p for p in rows if p.key == ""]:
        match = next((d for d in decisions if d.seat == prompt.seat and d.kind == prompt.kind
                      and (d.seat, d.key) not in by_key), None)
        if match is None:
            continue
        del by_key[(prompt.seat, "")]
        prompt.key = match.key
        prompt.payload = replace(prompt.payload, must=match.must, default=match.default)
        tx.save_prompt(prompt)
        by_key[(match.seat, match.key)] = prompt


def _open_prompt(ctx: Context, tx: Tx, game: Loaded, decision: Decision, moment: datetime, *,
                 reuse: PromptRecord | None = None) -> PromptRecord:
    """Store a new decision with its deadline: a default applies at it, otherwise it reminds.

    reuse: an ending turn's row, rewritten for the next turn step (one write, not two).
    """
    wait = ctx.answer_within(game.options) if decision.default is not None else ctx.remind_every(game.options)
    payload = PromptPayload(must=decision.must, default=decision.default, phrase=decision.phrase,
                            public=decision.public_choices)
    if reuse is not None:
        row = reuse
        row.seat, row.key, row.deadline = decision.seat, decision.key, moment + wait
    else:
        row = PromptRecord(game_id=game.id, kind=decision.kind, seat=decision.seat, key=decision.key,
                           deadline=moment + wait)
    row.payload = start_clock(game, row, payload, moment) if decision.must and decision.default is None else payload
    if reuse is not None:
        tx.save_prompt(row)
        return row
    row = tx.add_prompt(row)
    game.remember_prompt(row)
    return row


def start_clock(game: Loaded, row: PromptRecord, payload: PromptPayload, moment: datetime) -> PromptPayload:
    """The payload of a decision that now must be made and has no default, with its clock started when the table has
    a clock (the row's deadline becomes the clock's first; nothing is saved)."""
    clock = Clock.of(game.options)
    if not clock.on or row.seat is None:
        return payload
    row.deadline, timer = clock.start(moment, clocks.away_until(game.notes, row.seat, moment))
    return replace(payload, clock=timer)


def retime(ctx: Context, tx: Tx, game: Loaded, moment: datetime, seat: int | None = None) -> None:
    """Start the open decisions' clocks afresh (every seat's, or one seat's): after the clock changed (or was
    taken away), or when a seat changed hands."""
    for prompt in game.open_prompts(tx):
        payload = prompt.payload
        if not payload.must or payload.default is not None or seat not in (None, prompt.seat):
            continue
        prompt.deadline = moment + ctx.remind_every(game.options)
        prompt.payload = start_clock(game, prompt, replace(payload, clock=None), moment)
        tx.save_prompt(prompt)


def close_prompts(tx: Tx, game_id: int) -> list[int]:
    """Close every open prompt of a game."""
    closed = []
    for prompt in tx.open_prompts(game_id):
        prompt.status = "closed"
        tx.save_prompt(prompt)
        closed.append(prompt.id or 0)
    return closed


def still_open(game: Loaded, prompt: PromptRecord) -> bool:
    """Whether a prompt's decision is still one of the engine's open decisions."""
    return any(d.seat == prompt.seat and d.key == prompt.key for d in game.decisions())


def _reusable(prompt: PromptRecord, decision: Decision) -> bool:
    """Whether an ending prompt can be rewritten for a new decision: both turns with public choices and no default.

    Nobody holds a button tied to such a prompt's id (turn buttons carry the table's version; a private turn step,
    sent by DM with buttons, is never reused), so its row can serve the next turn step, whoever's it is: one write
    instead of closing one row and inserting another.
    """
    payload = prompt.payload
    return (prompt.kind == decision.kind == TURN and payload.must and payload.default is None and payload.public
            and decision.default is None and prompt.answer is None)


def note(game: Loaded, row: PromptRecord, decision: Decision, context: Sequence[str] = (),
         digest: Sequence[str] = ()) -> PromptNote:
    """What to send a seat's holder about one open decision (by DM, or privately in the channel).

    context: the public lines of what just happened, so the message says what is going on; digest: for a
    turn, the public record since the holder's own last move (texts.digest).
    """
    assert row.id is not None and row.seat is not None
    holder = game.user_of(row.seat)
    choices = tuple(prompt_choices(game, row.seat))
    ask = f"{holder.name}, you are to {decision.phrase}."
    lines = [f"{game.entry.title}: " + " ".join(context), ask] if context else [f"{game.entry.title}: {ask}"]
    lines += digest
    if not decision.public_choices:
        lines.append(hand_text(game, row.seat))
    if decision.kind == REACTION:
        lines += _what_each_does(game, row.seat, choices)
    if not decision.must:
        lines.append(f"You may answer now; it counts once it is your turn to answer ({waiting(game)}).")
    if not choices:
        lines.append("Too many answers for buttons: answer with `/play` (its suggestions list your choices).")
    if decision.default is not None:
        lines.append(f"If you have not answered by the deadline: {decision.default}.")
    timer = row.payload.clock
    if timer:
        then = clocks.WHAT_HAPPENS[Clock.of(game.options).on_timeout]
        lines.append(f"Your clock runs out at the deadline; then {then} (`away` pauses it).")
    deadline = clocks.ends(timer) if timer else row.deadline
    return PromptNote(row.id, game.id, decision.kind, holder.user_id, row.seat, deadline, "\n".join(lines),
                      choices, game.row.version, decision.default, decision.phrase, clocked=timer is not None,
                      with_image=bool(digest))


def open_note(ctx: Context, tx: Tx, prompt_id: int, user_id: str) -> PromptNote | None:
    """An open decision's note for its seat's current holder (to open it privately); None otherwise."""
    prompt = tx.prompt(prompt_id)
    if prompt is None or prompt.status != "open" or prompt.seat is None:
        return None
    row = tx.game(prompt.game_id)
    if row is None or row.status != "active":
        return None
    game = ctx.load(tx, row)
    if game.user_of(prompt.seat).user_id != user_id:
        return None
    decision = next((d for d in game.decisions() if d.seat == prompt.seat and d.key == prompt.key), None)
    return note(game, prompt, decision) if decision else None


def _what_each_does(game: Loaded, seat: int, choices: tuple[str, ...]) -> list[str]:
    """For a reaction: what each answer would do, as `check` says it (for an invitee not asked yet: once those
    before them have taken their decision's default)."""
    engine, state = game.engine, game.state
    for _ in range(len(game.seats)):
        due = engine.decisions(state)
        if seat in engine.to_act(state) or not due or not due[0].must or due[0].default is None:
            break
        state, _events = game.tried(state, due[0].seat, engine.parse(state, due[0].seat, due[0].default))
    if seat not in engine.to_act(state):
        return []
    lines = []
    for choice in choices:
        action = engine.parse(state, seat, choice)
        try:
            verdict = engine.judge(state, seat, action, *game.tried(state, seat, action))
        except IllegalAction:
            continue
        if verdict.outcome:
            lines.append(f"• {choice}: " + game.rename(" ".join(verdict.outcome)))
    return lines


def prompt_choices(game: Loaded, seat: int) -> list[str]:
    """A seat's answers as button labels (its legal actions, or those it may give ahead), when few enough."""
    due = seat in game.engine.to_act(game.state)  # out of turn, a seat's legal plays are unasked (engine.core)
    options = game.legal(seat) if due else game.engine.pending_answers(game.state, seat)
    return [game.engine.format(a) for a in options] if 0 < len(options) <= MAX_CHOICES else []


def _channel_choices(game: Loaded, decisions: list[Decision]) -> dict[str, list[str]]:
    """Buttons for the channel: only when one seat must act and every choice's text is public; an answer the
    seat could give several times in a row also comes as one button ('take pig x3')."""
    due = [d for d in decisions if d.must]
    if len(due) != 1 or not due[0].public_choices:
        return {}
    seat = due[0].seat
    choices = prompt_choices(game, seat)
    if 0 < len(choices) <= MAX_REPEAT_CHOICES and len(choices) == len(game.legal(seat)):  # one per legal action
        runs = {c: _run_length(game, seat, i) for i, c in enumerate(choices)}
        choices = [c for c in choices for c in ([c] + ([f"{c} x{runs[c]}"] if runs[c] > 1 else []))]
    return {game.user_of(seat).user_id: choices} if choices else {}


def _run_length(game: Loaded, seat: int, index: int) -> int:
    """How many times in a row the seat could take its index-th legal action now (at most MAX_REPEAT)."""
    engine, action = game.engine, game.legal(seat)[index]
    if not engine.may_repeat(action):
        return 1
    trial = game.trial(seat, index)
    legal: list[Any] | None = trial.again
    if legal is None or action not in legal:
        return 1
    state = clone(trial.after)  # a copy, played on in place (the trial's state may become the game's)
    times = 1
    while legal is not None and action in legal and times < MAX_REPEAT:
        engine.apply_choice(state, seat, legal, legal.index(action))
        times += 1
        legal = engine.legal_actions(state, seat) if seat in engine.to_act(state) else None
    return times
