"""What a legal Keyflower action would do, in players' words, for a check of a move (engine.core.Game.judge).

Each kind of action gets a sentence or two saying what the move gets, costs and changes, built only from what the
acting seat may see: the table, its own screen, and (when nothing hidden was drawn) the state the move leads to.
Where the move draws or reveals something hidden (workers or skills drawn, a new season's tiles, the winter
choices shown, the screens opened at the end), the text says so and stops there, never naming what was drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from engine.core import Event
from engine.keyflower import celeste, keymelequin
from engine.keyflower import keyples as kp
from engine.keyflower import places as pl
from engine.keyflower import supply as sup
from engine.keyflower import transport as tr
from engine.keyflower.actions import Act
from engine.keyflower.components import COMPONENTS, Face
from engine.keyflower.flow import SEASONS
from engine.keyflower.legal import legal
from engine.keyflower.pieces import ORDER, SUMMER_BOAT, boat_tile, is_tile, order_face, tile
from engine.keyflower.state import CountStep, KfState, MixStep, PayStep, TakeStep, TransportStep
from engine.keyflower.turns import bid_needed, face_of, may_lie, mix_group, needed, output_place, owner_of, sources
from engine.keyflower.wording import (
    BOAT_SCORING,
    POWERS,
    WINTER_SCORING,
    Wording,
    and_list,
    display_name,
    pay_words,
    plural,
    worded,
)

RULES = {
    "bid": "reference §4", "move": "reference §4", "use": "reference §5", "count": "reference §4, §5",
    "join": "reference §4", "add": "module sheet, Using Sven and Paulo; F-26, F-30", "pay": "reference §5",
    "take": "reference §5", "carry": "reference §6", "upgrade": "reference §6", "done": "reference §5, §6",
    "pass": "reference §3.2", "ghost": "module sheet, The ghost; F-39", "boat": "reference §7 step 5",
    "replace": "module sheet, Keymelequin; F-34", "place": "reference §7 step 6", "winter": "reference §3.1",
}
Describe = Callable[[KfState, int, Act, KfState], str]
Step = TypeVar("Step")


def outcome(before: KfState, seat: int, action: Act, after: KfState, events: list[Event]) -> tuple[str, ...]:
    """What the move does, then what follows it; past a draw or a reveal only that something hidden comes."""
    said = describe(before, seat, action, after)
    hidden = hidden_note(before, seat, after)
    if hidden:
        return (said or "You make this move.", hidden)
    if said is None:  # a kind of action no describer knows yet: what the seat sees happen
        return tuple(e.text for e in events if e.visible_to(seat)) or ("Nothing anyone can see changes yet.",)
    return (said, *follow_ups(events, seat))


def describe(before: KfState, seat: int, action: Act, after: KfState) -> str | None:
    """The sentence for this kind of action (None for one no describer knows)."""
    if isinstance(before.pending, CountStep | MixStep) and action.verb in ("add", "done", "join"):
        return _GROUP_STEPS[action.verb](before, seat, action, after)
    found = _DESCRIBE.get(action.verb)
    return found(before, seat, action, after) if found else None


def follow_ups(events: list[Event], seat: int) -> list[str]:
    """What the move sets going beyond itself: the visible events from the first one not about the mover on (the
    move's own lines come first and say what describe() already said)."""
    shown = [e for e in events if e.visible_to(seat)]
    start = next((i for i, e in enumerate(shown) if e.seat != seat), len(shown))
    return [e.text for e in shown[start:]]


def hidden_note(before: KfState, seat: int, after: KfState) -> str | None:
    """What hidden the move draws or reveals, without saying what it is (None: nothing)."""
    notes = [note for note in (_use_draw(before, seat, after), _boat_1a(before, seat, after)) if note]
    if after.phase == "over" != before.phase:
        notes.append("the game ends: every screen is opened for the final count")
    elif before.phase == "winter-choice" != after.phase:
        notes.append("the winter choices are shown together, and the chosen tiles go up for auction in a shuffled "
                     "order")
    elif after.auction and after.auction != before.auction:
        notes.append(f"{SEASONS[after.season]} begins: its tiles are drawn from the stack and turned face up, and the "
                     "boats are loaded from the bag")
    if not notes and before.rng != after.rng:
        notes.append("something is drawn at random, face down")
    return f"Then {'; then '.join(notes)}." if notes else None


def _use_draw(before: KfState, seat: int, after: KfState) -> str | None:
    """The workers and skills a use being finished draws for the seat (None: it draws nothing now)."""
    p = before.pending
    loc = p.loc if isinstance(p, CountStep | MixStep | PayStep) else None
    face = face_of(before, loc) if loc is not None and before.rng != after.rng else None
    if face is None or face.kind != "produce":
        return None
    workers = min(face.gain.get("worker", 0), sum(before.bag.values()))
    skills = min(face.gain.get("skill", 0), sum(before.skill_pile.values()))
    what = and_list([x for x in (plural(workers, "worker") + " from the bag" if workers else "",
                                 plural(skills, "skill") + " from the pile" if skills else "") if x])
    if not what:
        return None
    return f"{what} {'is' if workers + skills == 1 else 'are'} drawn for you, face down: you see which once the " \
           "move is made"


def _boat_1a(before: KfState, seat: int, after: KfState) -> str | None:
    """Summer boat 1a's draw, once every boat is taken (reference §9.4, F-16; None: not now)."""
    if before.phase != "boats" or after.phase == "boats" or before.rng == after.rng:
        return None
    owner = next((s for s in range(before.n) if "1a" in tr.powers(before, s)
                  and (s == seat or any(b.taken == s for b in before.boats))), None)
    if owner is None:
        return None
    if owner == seat:
        return "you draw 2 workers from the bag (summer boat 1a), face down: you see which once the move is made"
    return f"{before.names[owner]} draws 2 workers from the bag (summer boat 1a), face down"


# --- words -------------------------------------------------------------------------------------------------------


def _name(loc: str) -> str:
    """'the Alehouse', 'Turn-order tile 2', 'Key Celeste'."""
    name = display_name(loc)
    return name if loc.startswith((ORDER, "home-", SUMMER_BOAT)) or loc == celeste.LOC else f"the {name}"


def _season(state: KfState) -> str:
    """The season's name."""
    return SEASONS[state.season]


def _span(counts: list[int]) -> str:
    """'2', '2 to 5'; 'none (`count 0`)' when no more are needed."""
    low, high = min(counts, default=0), max(counts, default=0)
    if high == 0:
        return "none (`count 0`)"
    return str(low) if low == high else f"{low} to {high}"


_GAIN: Wording = {"worker": lambda n: f"{plural(n, 'worker')} from the bag",
                  "skill": lambda n: f"{plural(n, 'skill')} from the pile",
                  "green": lambda n: plural(n, "green worker"),
                  "choice": lambda n: f"{n} wood, stone or iron of your choice"}


def _gain_words(gain: Mapping[str, int]) -> str:
    """'2 wood', '2 workers from the bag', '1 green worker', '1 wood, stone or iron of your choice'."""
    return and_list(worded(gain, _GAIN))



def _does(state: KfState, seat: int, loc: str, face: Face) -> str:
    """What a face does in a few words: 'gives 2 wood', 'moves resources 2 steps and upgrades 1 tile per use'."""
    if face.kind == "produce":
        paid = f" for {pay_words(face.pay)}" if face.pay else ""
        return f"gives {_gain_words(face.gain)}{paid} per use"
    if face.kind == "transport":
        factor = 2 if "2b" in tr.powers(state, seat) else 1
        return (f"moves resources {plural(face.transport * factor, 'step')} and upgrades "
                f"{plural(face.upgrades * factor, 'tile')} per use")
    if face.kind == "store":
        what = "any resource" if face.store == "any" else str(face.store)
        return f"scores {plural(face.per, 'point')} for each {what} stored on it"
    if face.kind == "points":
        return f"scores {plural(face.points, 'point')}"
    if face.kind == "winter" and face.scoring in WINTER_SCORING:
        return f"scores {WINTER_SCORING[face.scoring][0]} at the end"
    if is_tile(loc) and tile(loc).kind == "summerboat":
        return f"brings its power: {POWERS[loc[-2:]][0]}"
    return "has no use"


def _prize(state: KfState, seat: int, loc: str) -> str:
    """What a bid that stands at the end of the season wins."""
    end = f"if it is the highest when {_season(state)} ends"
    if loc == celeste.LOC:
        what = "the Key Celeste tile joins your village" if state.season == 3 else "you take the ghost"
        return f"{end}, {what} and the bid goes into the bag"
    if loc.startswith(ORDER):
        order = order_face(int(loc[6:]), state.n)
        start = " and take the start-player keyple" if order is not None and order.start_icon else ""
        return f"{end}, you pick a boat before the players without a turn-order tile{start}"
    face = face_of(state, loc)
    assert face is not None
    return f"{end}, {_name(loc)} ({_does(state, seat, loc, face)}) joins your village and the bid goes into the bag"


def _gets(state: KfState, seat: int, loc: str) -> str:
    """What a use of a tile gives, where it goes, and where the workers go at the end of the season."""
    face = face_of(state, loc)
    assert face is not None
    owner = owner_of(state, loc)
    if owner is None:
        workers = "the workers go with the tile to whoever wins it"
    elif owner[0] == seat:
        workers = "the workers come back to you"
    else:
        workers = f"the workers go to {state.names[owner[0]]}"
    workers += f" at the end of {_season(state)}"
    if face.kind == "transport":
        return f"it {_does(state, seat, loc, face)}; {workers}"
    place = output_place(state, seat, loc)
    onto = f" onto {_name(state.villages[seat][place].tile)}" if any(k in sup.RESOURCES for k in face.gain) else ""
    paid = f"you hand in {pay_words(face.pay)} and " if face.pay else ""
    return f"{paid}it gives {_gain_words(face.gain)}{onto}; {workers}"


def _counts(after: KfState, seat: int) -> list[int]:
    """The counts the next step offers."""
    return [int(a.args[0]) for a in legal(after, seat) if a.verb == "count"]


def _best_other(state: KfState, seat: int, loc: str) -> str:
    """'the best other bid is Ben's 2 red', or that nobody else has bid."""
    others = [(s, b) for s, b in pl.peek(state, loc).bids.items() if s != seat and b.count]
    if not others:
        return "nobody else has bid"
    s, b = max(others, key=lambda item: item[1].count)
    return f"the best other bid is {state.names[s]}'s {b.count} {b.label}"


def _flat(state: KfState, seat: int, loc: str, group: kp.Group, what: str) -> str:
    """A note when the group breaks the tile's colour and lies flat (summer boats 4a, 4b)."""
    if pl.group_fits(state, seat, loc, group, what):
        return ""
    return f"; off the tile's colour, it lies flat (summer boat {'4a' if what == 'bid' else '4b'})"


# --- a turn --------------------------------------------------------------------------------------------------------


def _bid(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`bid LOC COLOUR|sven|paulo|mixed`."""
    loc, kind = action.args[0], action.args[1]
    if kind in kp.COLOURS:
        start = f"You bid {kind} on {_name(loc)}: next you say how many, {_span(_counts(after, seat))}"
        start += _flat(state, seat, loc, {kind: 1}, "bid")
    else:
        start = f"You build a bid on {_name(loc)} {_mix_words(kind)}, {bid_needed(state, seat, loc)} or more"
        start += _flat(state, seat, loc, {kind: 1}, "bid") if kind in kp.WILD else ""
    return f"{start} ({_best_other(state, seat, loc)}). {_cap(_prize(state, seat, loc))}."


def _mix_words(kind: str, any_kind: bool = False) -> str:
    """How a group is built one keyple at a time (any_kind: summer boat 4b lets any keyples join it)."""
    if kind in kp.WILD and not any_kind:
        return f"with {kp.NAMES[kind]}: next you add {' or '.join(kp.WILD[kind])} workers one at a time"
    first = f"with {kp.NAMES[kind]}" if kind in kp.WILD else "from several colours"
    return f"{first}: next you add workers {'of any colours ' if any_kind else ''}one at a time"


def _use(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`use LOC COLOUR|sven|paulo|mixed`."""
    loc, kind = action.args[0], action.args[1]
    if kind in kp.COLOURS:
        start = f"You use {_name(loc)} with {kind}: next you say how many, {_span(_counts(after, seat))}"
        start += _flat(state, seat, loc, {kind: 1}, "use")
    else:
        start = f"You use {_name(loc)} {_mix_words(kind, may_lie(state, seat, loc))}, " \
                f"{pl.next_use_minimum(state, loc)} or more"
        start += _flat(state, seat, loc, {kind: 1}, "use") if kind in kp.WILD else ""
    return f"{start}. {_cap(_gets(state, seat, loc))}."


def _move(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`move SOURCE bid|use LOC`."""
    source, what, loc = action.args
    group = pl.peek(state, source).bids[seat].keyples()
    counts = _counts(after, seat)
    more = f"next you say how many to add from your screen, {_span(counts)}" if counts else \
        "next you add workers of his pair one at a time"
    target = f"bid on {_name(loc)}" if what == "bid" else f"use {_name(loc)}"
    then = _prize(state, seat, loc) if what == "bid" else _gets(state, seat, loc)
    return f"You move your outbid {kp.words(group)} from {_name(source)} to {target}: {more}. {_cap(then)}."


def _ghost(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`ghost LOC` (Key Celeste)."""
    loc = action.args[0]
    top = pl.highest(state, loc)
    assert top is not None
    owner = state.names[top[0]]
    group = pl.peek(state, loc).bids[top[0]].keyples()
    return (f"You play the ghost on {_name(loc)}: {owner}'s winning bid ({kp.words(group)}) goes behind your "
            f"screen, and the ghost wins {_name(loc)} for {owner}; nothing more may go there this season.")


def _pass(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`pass`, in a season's turns."""
    if state.passes + 1 >= state.n:
        return "You pass, and everyone has now passed in a row."
    return (f"You pass ({state.passes + 1} of {state.n} in a row): {_season(state)} ends when everyone passes in a "
            "row, and you may still act on a later turn.")


# --- steps of a bid or a use -------------------------------------------------------------------------------------


def _under_way(state: KfState, kind: type[Step]) -> Step:
    """The action under way, of the kind the step being described belongs to; raises AssertionError for another."""
    p = state.pending
    assert isinstance(p, kind), f"no {kind.__name__} under way"
    return p


def _count(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`count N`: the workers of the colour going to the bid or the use."""
    p = _under_way(state, CountStep)
    n, loc, colour = int(action.args[0]), p.loc, p.colour
    carried = kp.merged(*(pl.peek(state, src).bids[seat].keyples() for src in sources(p)))
    group = kp.merged({colour: n} if n else {}, carried)
    shown = f"your moved {kp.words(carried)}{f' and {n} {colour} more' if n else ''}" if carried else \
        f"{n} {colour}"
    return _placed(state, seat, loc, p.what, group, shown, after)


def _placed(state: KfState, seat: int, loc: str, what: str, group: kp.Group, shown: str, after: KfState) -> str:
    """The sentence of a group placed as a bid or a use (after: the state it leads to, asking for a payment or
    not)."""
    mine = pl.bid_of(state, loc, seat) if what == "bid" else None
    total = kp.size(group) + (mine[1] if mine else 0)
    flat = _flat(state, seat, loc, group, what)
    if what == "bid":
        joined = f", {total} in all" if mine else ""
        return (f"You bid {shown} on {_name(loc)}{joined} ({_best_other(state, seat, loc)}){flat}. "
                f"{_cap(_prize(state, seat, loc))}.")
    face = face_of(state, loc)
    assert face is not None
    if isinstance(after.pending, PayStep):
        return (f"You use {_name(loc)} with {shown}{flat}; next you choose what to hand in "
                f"({pay_words(face.pay)}). {_cap(_gets(state, seat, loc))}.")
    return f"You use {_name(loc)} with {shown}{flat}: {_gets(state, seat, loc)}."


def _join(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`join SOURCE`: another outbid group carried along with the moved one."""
    p = state.pending
    assert isinstance(p, CountStep | MixStep), "no group under way"

    more = pl.peek(state, action.args[0]).bids[seat].keyples()
    total = kp.size(mix_group(state, p)) + kp.size(more)
    return (f"Your outbid {kp.words(more)} on {_name(action.args[0])} joins the group going to {_name(p.loc)}: "
            f"{plural(total, 'worker')} so far.")


def _add(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`add KIND [N]`: a keyple (or several) added to a group built one at a time."""
    p = _under_way(state, MixStep)
    kind = action.args[0]
    k = int(action.args[1]) if len(action.args) > 1 else 1
    group = kp.merged(mix_group(state, p), {kind: k})
    if isinstance(after.pending, MixStep):
        need = needed(state, seat, p.loc, p.what)
        return (f"You add {kp.words({kind: k})} to the group for {_name(p.loc)}: {kp.words(group)} so far "
                f"({need} or more in all; `done` places it).")
    return _placed(state, seat, p.loc, p.what, group, kp.words(group), after)


def _done(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`done`: the group built one keyple at a time is placed."""
    p = _under_way(state, MixStep)
    group = mix_group(state, p)
    return _placed(state, seat, p.loc, p.what, group, kp.words(group), after)


def _pay(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`pay KIND`: a use's extra worker or skill handed in."""
    p = _under_way(state, PayStep)
    kind = action.args[0]
    into = "face down onto the pile" if kind in sup.SKILLS else "into the bag"
    left = p.left - 1
    if left > 0:
        return f"You hand in 1 {kp.NAMES.get(kind, kind)} {into}; {left} more to hand in."
    face = face_of(state, p.loc)
    assert face is not None
    return f"You hand in 1 {kp.NAMES.get(kind, kind)} {into}; then {_name(p.loc)} gives you " \
           f"{_gain_words(face.gain)}."


def _take(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`take KIND`: a resource of one's choice from the supply."""
    p = _under_way(state, TakeStep)
    where = _name(state.villages[seat][p.to].tile)
    left = p.left - 1
    more = f"; {left} more to choose" if left > 0 and after.pending else ""
    return f"You take 1 {action.args[0]} from the supply onto {where}{more}."


# --- transport -----------------------------------------------------------------------------------------------------


def _carry(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`carry KIND FROM TO`: one resource along the roads."""
    kind, source, target = action.args
    p, q = _under_way(state, TransportStep), _under_way(after, TransportStep)
    cost = p.steps - q.steps
    face = face_of(state, target)
    stored = ""
    if face is not None and face.kind == "store" and face.store in ("any", kind):
        stored = f"; there it scores {plural(face.per, 'point')} at the end"
    return (f"You move 1 {kind} from {_name(source)} to {_name(target)}: {plural(cost, 'step')} of your "
            f"{p.steps}, {q.steps} left{stored}.")


def _upgrade(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`upgrade TILE`: a village tile flipped to its back."""
    loc = action.args[0]
    found = owner_of(state, loc)
    assert found is not None
    res_before = state.villages[seat][found[1]].res
    res_after = after.villages[seat][found[1]].res
    paid = {k: n - res_after.get(k, 0) for k, n in res_before.items() if n > res_after.get(k, 0)}
    skills = {k: n - after.skills[seat].get(k, 0) for k, n in state.skills[seat].items()
              if n > after.skills[seat].get(k, 0)}
    cost = and_list([x for x in (f"{sup.words(paid)} from it" if paid else "", sup.words(skills) if skills else "")
                     if x]) or "nothing"
    back = tile(loc).back
    assert back is not None
    points = f", worth {plural(back.points, 'point')}" if back.points and back.kind != "points" else ""
    return f"You flip {_name(loc)}, paying {cost}: its back {_does(state, seat, loc, back)}{points}."


def _end_transport(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`done` of a transport use (a group's `done` is _done)."""
    p = _under_way(state, TransportStep)
    unused = [plural(p.steps, "step") if p.steps else "", plural(p.upgrades, "upgrade") if p.upgrades else ""]
    left = and_list([x for x in unused if x])
    return f"You end the transport{f', leaving {left} unused' if left else ''}."


# --- end of a season ---------------------------------------------------------------------------------------------


def _boat(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`boat ID`: a boat's load (spring to autumn) or the boat itself (winter)."""
    boat_id = action.args[0]
    name = boat_tile(boat_id).name
    powers = tr.powers(state, seat)
    plus = ", plus a green worker from the supply (summer boat 1b)" if "1b" in powers and state.greens else ""
    plus += "; summer boat 1a brings you 2 more workers from the bag once every boat is taken" if "1a" in powers \
        else ""
    if state.season == 3:
        scoring = BOAT_SCORING.get(boat_id, ("its printed points",))[0]
        return f"You take the {name} boat into your village: at the end it scores {scoring}{plus}."
    boat = next(b for b in state.boats if b.id == boat_id)
    load = and_list([x for x in (kp.words(boat.workers) if boat.workers else "",
                                 plural(sum(boat.skills.values()), "skill") if boat.skills else "") if x])

    then = " Then you choose the boat that replaces the Keymelequin for autumn." if keymelequin.must_replace(
        state, boat_id) else ""
    return f"You take the {name} boat's load ({load or 'nothing'}) behind your screen{plus}.{then}"


def _replace(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`replace BOAT` (Keymelequin): the boat that takes its place for autumn and winter."""
    boat = next(b for b in COMPONENTS.boats if b.id == action.args[0])
    return (f"The {boat.name} boat replaces the Keymelequin: in autumn it carries {plural(boat.workers_a, 'worker')} "
            f"and {plural(boat.skills_a, 'skill')}; in winter it scores {BOAT_SCORING[boat.id][0]}.")


def _place(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`place TILE Q/R`: a tile won goes into the village."""
    tile_id, key = action.args
    left = len(state.won[seat]) - 1
    more = f"; {plural(left, 'more tile')} to place" if left else ""
    return f"You place {_name(tile_id)} at {key} in your village{more}."


def _winter(state: KfState, seat: int, action: Act, after: KfState) -> str:
    """`winter TILE ...`: the secret winter choice."""
    names = and_list([display_name(t) for t in action.args])
    rest = len(state.winter_hand[seat]) - len(action.args)
    gone = f"; your other {plural(rest, 'winter tile')} leave the game unseen" if rest > 1 else \
        "; your other winter tile leaves the game unseen" if rest else ""
    return (f"You put {names} into play, face down{gone}. Once everyone has chosen, all the chosen tiles go up for "
            "auction together.")


def _cap(text: str) -> str:
    """The text with its first letter in upper case."""
    return text[:1].upper() + text[1:]


_DESCRIBE: dict[str, Describe] = {
    "bid": _bid, "use": _use, "move": _move, "ghost": _ghost, "pass": _pass, "count": _count, "pay": _pay,
    "take": _take, "carry": _carry, "upgrade": _upgrade, "done": _end_transport, "boat": _boat, "replace": _replace,
    "place": _place, "winter": _winter,
}
_GROUP_STEPS: dict[str, Describe] = {"add": _add, "done": _done, "join": _join}
