"""Keyflower end-game scoring with the Keymelequin module's wild keyples, Sven (blue or yellow) and Paulo (green or
red): the rules sheet's scoring examples, where a wild's colour reading applies, and the optimiser against a
brute force over every allocation and every colour reading of small random holdings.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Mapping
from functools import cache
from itertools import product

import pytest

from engine.keyflower.scoring import PURPLE, WILDS, WORKERS, Holdings, Line, best_score
from tests.keyflower.test_scoring import (
    assert_the_best_is_the_brute_forces,
    lines,
    rich_holdings,
    seconds_per_player,
    total,
)
from tests.keyflower.test_scoring import brute_force as plain_brute_force

# --- The sheet's scoring examples -----------------------------------------------------------------------------


@pytest.mark.parametrize(("red", "green"), [(4, 0), (3, 1), (2, 2), (1, 3), (0, 4)])
def test_key_market_paulo_and_four_of_his_pair_score_10(red: int, green: int) -> None:
    """Keymelequin sheet, Scoring examples: Key market, five ♠ = 10 (reds with Paulo count as green)."""
    assert total(winter=("key-market",), workers={"paulo": 1, "red": red, "green": green}) == 10


def test_key_market_line_names_paulo_and_the_reds_read_as_green() -> None:
    """Keymelequin sheet, Scoring examples: the Key market line says who scored and as what."""
    assert lines(winter=("key-market",), workers={"paulo": 1, "red": 2, "green": 2})["Key market"] == \
        Line("Key market", 10, "Paulo + 2 red + 2 green, all as green")


@pytest.mark.parametrize(("red", "green"), [(4, 0), (2, 2), (1, 3), (0, 4)])
def test_village_hall_paulo_and_four_of_his_pair_score_5(red: int, green: int) -> None:
    """Keymelequin sheet, Scoring examples: Village hall, five ♠ = 5."""
    assert total(winter=("village-hall",), workers={"paulo": 1, "red": red, "green": green}) == 5


@pytest.mark.parametrize(("blue", "yellow"), [(6, 0), (3, 3), (1, 5), (0, 6)])
def test_village_hall_sven_and_six_of_his_pair_score_7(blue: int, yellow: int) -> None:
    """Keymelequin sheet, Scoring examples: Village hall, seven ♣ = 7."""
    assert total(winter=("village-hall",), workers={"sven": 1, "blue": blue, "yellow": yellow}) == 7


def test_village_hall_line_names_sven_and_the_colour_chosen() -> None:
    """Keymelequin sheet, Scoring examples: the hall line names Sven and reads his pair as one colour."""
    assert lines(winter=("village-hall",), workers={"sven": 1, "blue": 3, "yellow": 3})["Village hall"] == \
        Line("Village hall", 7, "blue chosen: Sven + 3 blue + 3 yellow, all as blue")
    assert lines(winter=("village-hall",), workers={"sven": 1, "blue": 1, "yellow": 5})["Village hall"].detail == \
        "yellow chosen: Sven + 1 blue + 5 yellow, all as yellow"


@pytest.mark.parametrize("workers", [
    {"sven": 1, "blue": 3, "paulo": 1, "red": 3},
    {"sven": 1, "blue": 2, "yellow": 1, "paulo": 1, "red": 1, "green": 2},
    {"sven": 1, "yellow": 3, "paulo": 1, "green": 3},
])
def test_craftsmens_guild_eight_keyples_make_two_sets_ruling_f36(workers: dict[str, int]) -> None:
    """Keymelequin sheet, Scoring examples: the guild's eight printed keyples make two sets, 6, not 9 (ruling F-36)."""
    assert sum(workers.values()) == 8
    assert total(winter=("craftsmens-guild",), workers=workers) == 6


def test_craftsmens_guild_three_of_paulos_pair_and_six_of_svens_score_9_ruling_f36() -> None:
    """Keymelequin sheet, Scoring examples: 3 ♠ and 6 ♣ make three sets, the printed 9 (ruling F-36: a ♣ was lost)."""
    scored = lines(winter=("craftsmens-guild",),
                   workers={"paulo": 1, "red": 1, "green": 1, "sven": 1, "blue": 2, "yellow": 3})
    assert scored["Craftsmen's guild"] == Line("Craftsmen's guild", 9, "1 × blue + red + yellow, 1 × blue + Paulo "
                                               "as red + yellow, 1 × Sven as blue + green as red + yellow")


# --- Where the readings apply ---------------------------------------------------------------------------------


def test_a_wild_reads_only_on_its_own_tile() -> None:
    """Reds score as green only beside Paulo; Sven's blue-for-yellow in the guild leaves the hall one colour."""
    assert total(winter=("key-market", "village-hall"), workers={"red": 2, "green": 2}) == 4 + 2
    scored = lines(winter=("key-market", "village-hall"), workers={"paulo": 1, "red": 2, "green": 2, "blue": 3})
    assert scored["Key market"] == Line("Key market", 10, "Paulo + 2 red + 2 green, all as green")
    assert scored["Village hall"] == Line("Village hall", 3, "blue chosen: 3 blue")
    scored = lines(winter=("craftsmens-guild", "village-hall"), workers={"sven": 1, "blue": 4, "red": 2})
    assert scored["Craftsmen's guild"] == Line("Craftsmen's guild", 6,
                                               "1 × blue + red + Sven as yellow, 1 × blue + red + blue as yellow")
    assert scored["Village hall"] == Line("Village hall", 1, "blue chosen: 1 blue")  # no Sven: blue only


def test_the_hall_reads_one_pair_when_both_wilds_could_go_there() -> None:
    """One colour is chosen: Sven's pair or Paulo's, never both (3, not 3 + 2)."""
    scored = lines(winter=("village-hall",), workers={"sven": 1, "paulo": 1, "blue": 2, "green": 1})
    assert sum(line.points for line in scored.values()) == 3
    assert scored["Village hall"].detail == "blue chosen: Sven + 2 blue, all as blue"


def test_a_wild_keyple_scores_once() -> None:
    """Paulo completes a guild set or scores on the Key market, not both; Sven sits on one tile only."""
    assert total(winter=("craftsmens-guild", "key-market"), workers={"paulo": 1, "blue": 1, "yellow": 1}) == 3
    assert total(winter=("craftsmens-guild", "village-hall"), workers={"sven": 1, "red": 1, "yellow": 1}) == 3
    assert total(winter=("apothecary",), white_wind=True, workers={"sven": 1, "blue": 4}) == 5


def test_sven_as_blue_completes_a_guild_set() -> None:
    """Sven reads as the missing blue."""
    assert lines(winter=("craftsmens-guild",), workers={"sven": 1, "red": 1, "yellow": 1})["Craftsmen's guild"] == \
        Line("Craftsmen's guild", 3, "1 × Sven as blue + red + yellow")


def test_paulo_alone_is_one_keyple_of_his_pair() -> None:
    """With no green or red beside him Paulo scores as one green on the market, one on the hall, one red set."""
    assert lines(winter=("key-market",), workers={"paulo": 1})["Key market"] == Line("Key market", 2, "Paulo as green")
    assert total(winter=("village-hall",), workers={"paulo": 1}) == 1
    assert total(winter=("craftsmens-guild",), workers={"paulo": 1, "blue": 1, "yellow": 1}) == 3
    assert total(winter=("craftsmens-guild",), workers={"paulo": 1, "blue": 1}) == 0


def test_greens_fill_the_guilds_red_slot_only_beside_paulo() -> None:
    """Greens never stand in for red on their own; with Paulo in the guild they do."""
    assert total(winter=("craftsmens-guild",), workers={"green": 3, "blue": 3, "yellow": 3}) == 0
    assert lines(winter=("craftsmens-guild",), workers={"paulo": 1, "green": 3, "blue": 3, "yellow": 3})[
        "Craftsmen's guild"] == Line("Craftsmen's guild", 9,
                                     "1 × blue + Paulo as red + yellow, 2 × blue + green as red + yellow")


def test_the_apothecary_counts_wild_keyples_as_workers() -> None:
    """Sven and Paulo are two of the five."""
    assert lines(winter=("apothecary",), workers={"sven": 1, "paulo": 1, "blue": 1, "green": 2})["Apothecary"] == \
        Line("Apothecary", 3, "1 × 5 (1 blue, 2 green, Sven, Paulo)")
    assert total(winter=("apothecary",), workers={"sven": 1, "paulo": 1, "blue": 2}) == 0


def test_white_wind_scores_each_wild_keyple_once() -> None:
    """1 VP per worker, wilds included, unless another tile scores it."""
    assert lines(white_wind=True, workers={"sven": 1, "paulo": 1, "red": 1})["White Wind"] == \
        Line("White Wind", 3, "1 red, Sven, Paulo")
    scored = lines(white_wind=True, winter=("key-market",), workers={"paulo": 1, "sven": 1, "blue": 2})
    assert scored["Key market"].points == 2 and scored["White Wind"] == Line("White Wind", 3, "2 blue, Sven")


def test_the_start_player_keyple_is_a_plain_colour_beside_the_wilds() -> None:
    """It may be the red that Sven's guild set lacks, or a red read as green beside Paulo, but never a wild."""
    scored = lines(winter=("craftsmens-guild",), workers={"sven": 1, "blue": 1}, purple=True)
    assert scored["Craftsmen's guild"] == Line("Craftsmen's guild", 3, "1 × blue + red + Sven as yellow")
    assert scored[PURPLE].detail == "counted as one red worker, scored by the Craftsmen's guild"
    assert total(winter=("key-market",), workers={"red": 2, "green": 2}, purple=True) == 6  # not Paulo: 10
    assert total(winter=("key-market",), workers={"paulo": 1, "red": 2}, purple=True) == 8


def test_no_wild_keyples_counted_zero_changes_nothing() -> None:
    """A count of 0 for Sven or Paulo is the same as leaving them out."""
    held = {"winter": ("craftsmens-guild", "village-hall", "key-market"), "workers": {"blue": 2, "red": 1}}
    assert best_score(Holdings(**held)) == best_score(  # type: ignore[arg-type]
        Holdings(**{**held, "workers": {"blue": 2, "red": 1, "sven": 0, "paulo": 0}}))  # type: ignore[arg-type]


@pytest.mark.parametrize(("workers", "message"), [
    ({"sven": 2}, "one Sven"), ({"paulo": 3}, "one Paulo"), ({"paulo": -1}, "negative"),
    ({"harlequin": 1}, "unknown worker colour"),
])
def test_bad_wild_counts_are_refused(workers: dict[str, int], message: str) -> None:
    """A second Sven or Paulo, a negative count or an unknown keyple raise ValueError."""
    with pytest.raises(ValueError, match=message):
        best_score(Holdings(workers=workers))


# --- The optimiser equals a brute force ------------------------------------------------------------------------

KINDS = (*WORKERS, *WILDS)
WORKER_TILES = ("apothecary", "craftsmens-guild", "key-market", "village-hall")


def _tile_points(dest: str, held: Mapping[str, int]) -> int:
    """What one worker tile scores for the keyples put on it, best over every colour reading the rule allows."""
    sven, paulo = held["sven"], held["paulo"]
    n = sum(held.values())
    if dest == "apothecary":
        return 3 * (n // 5)
    if dest == "white-wind":
        return n
    if dest == "key-market":  # 2 per green; Paulo and the reds beside him read as green
        return 2 * (held["green"] + (paulo + held["red"] if paulo else 0))
    if dest == "village-hall":  # one colour; a wild and its pair beside it read as the colour chosen
        return max(held[c] + sum(held[w] + sum(held[k] for k in pair if k != c)
                                 for w, pair in (("sven", ("blue", "yellow")), ("paulo", ("green", "red")))
                                 if held[w] and c in pair) for c in WORKERS)
    by, rg = held["blue"] + held["yellow"] + sven, held["red"] + held["green"] + paulo
    best = 0
    for blue in range(by + 1) if sven else [held["blue"]]:  # how many of Sven's pair read as blue
        yellow = by - blue if sven else held["yellow"]
        for red in range(rg + 1) if paulo else [held["red"]]:  # how many of Paulo's pair read as red
            best = max(best, 3 * min(blue, red, yellow))
    return best


def brute_force(h: Holdings) -> int:
    """The best total over every allocation of the workers to the worker tiles or none, and every keyple use."""
    # allocations are tried tile by tile, the best of each remainder remembered; the keyple is a worker or a gold
    tiles = tuple(t for t in WORKER_TILES if t in h.winter) + (("white-wind",) if h.white_wind else ())

    @cache
    def best(i: int, left: tuple[int, ...]) -> int:
        """The best the tiles from the i-th on score with these counts of each kind left."""
        if i == len(tiles):
            return 0
        return max(_tile_points(tiles[i], dict(zip(KINDS, part, strict=True)))
                   + best(i + 1, tuple(a - b for a, b in zip(left, part, strict=True)))
                   for part in product(*(range(n + 1) for n in left)))

    base = tuple(h.workers.get(k, 0) for k in KINDS)
    found = best(0, base)
    if h.purple:
        found = max([found + 1] + [best(0, tuple(n + (k == c) for n, k in zip(base, KINDS, strict=True)))
                                   for c in WORKERS])
    return found


def wild_holdings(seed: int) -> Holdings:
    """Random small holdings: some of the four worker tiles, White Wind, up to 7 workers of which Sven and Paulo."""
    rng = random.Random(seed)
    wilds = {w: 1 for w in WILDS if rng.random() < 0.75}
    plain = Counter(rng.choice(WORKERS) for _ in range(rng.randint(1, 7 - len(wilds))))
    return Holdings(winter=tuple(t for t in WORKER_TILES if rng.random() < 0.6), workers={**plain, **wilds},
                    purple=rng.random() < 0.3, white_wind=rng.random() < 0.3)


def _truthful(shown: list[Line]) -> bool:
    """No keyple stands in for another colour on a tile without its wild beside it."""
    by = {line.label: line.detail for line in shown}
    guild, market = by.get("Craftsmen's guild", ""), by.get("Key market", "")
    hall = by.get("Village hall", "").partition("chosen: ")[2]
    swapped = "blue as yellow" in guild or "yellow as blue" in guild
    return (not swapped or "Sven as" in guild) and ("green as red" not in guild or "Paulo as red" in guild) \
        and ("red" not in market or market.startswith("Paulo")) \
        and ("blue" not in hall or "yellow" not in hall or hall.startswith("Sven")) \
        and ("green" not in hall or "red" not in hall or hall.startswith("Paulo"))


def test_the_brute_force_agrees_with_the_plain_one_without_wilds() -> None:
    """Without Sven and Paulo this brute force gives the plain scoring tests' brute force totals."""
    for seed in range(50):
        h = wild_holdings(seed)
        plain = dataclasses.replace(h, workers={k: n for k, n in h.workers.items() if k not in WILDS})
        assert brute_force(plain) == plain_brute_force(plain), seed


@pytest.mark.parametrize("chunk", range(8))
def test_the_optimiser_equals_a_brute_force_with_wild_keyples(chunk: int) -> None:
    """Seeded small holdings with wilds: the brute force's total, lines adding up to it, stand-ins beside a wild."""
    for seed in range(chunk * 60, chunk * 60 + 60):
        shown = assert_the_best_is_the_brute_forces(wild_holdings(seed), seed, brute_force)
        assert _truthful(shown), (seed, shown)


def test_a_six_player_end_with_both_wilds_scores_in_under_50_ms_per_player() -> None:
    """Best of five timings of six rich players holding Sven and Paulo."""
    took = seconds_per_player([dataclasses.replace(h, workers={**h.workers, "sven": 1, "paulo": 1})
                               for h in (rich_holdings(seed) for seed in range(6))])
    assert took < 0.050, f"{took * 1000:.1f} ms per player"
