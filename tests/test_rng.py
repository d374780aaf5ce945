"""The engines' seeded generator (engine.core.Rng): what its draws let a watcher work out (issue 39, item 1).

Every public draw (a shuffle of tiles turned face up, the start player) is a function of the generator's state. The
plain xorshift64* generator's outputs are linear in its state over GF(2): the lowest bit of every output is the lowest
bit of the state, so the parities of draws seen in public satisfy a linear recurrence of order at most 64, which
Berlekamp-Massey finds from 128 of them and which then predicts every later draw's parity. The hashed generator that
every drawn seed gets has no such recurrence. These tests show both, so the difference is measured, not asserted.
"""

from __future__ import annotations

import orjson
import pytest

from bot.table import draw_seed
from engine.core import PLAIN_SEEDS, Rng

DRAWS = 400


def linear_complexity(bits: list[int]) -> int:
    """The length of the shortest linear recurrence over GF(2) that produces the bits (Berlekamp-Massey)."""
    c, b = [1] + [0] * len(bits), [1] + [0] * len(bits)
    length, m = 0, -1
    for n, bit in enumerate(bits):
        discrepancy = bit
        for i in range(1, length + 1):
            discrepancy ^= c[i] & bits[n - i]
        if discrepancy:
            t = c[:]
            for i in range(len(bits) - n + m):
                c[n - m + i] ^= b[i]
            if 2 * length <= n:
                length, m, b = n + 1 - length, n, t
    return length


def parities(rng: Rng, count: int = DRAWS) -> list[int]:
    """The parity of each of count draws among 2 (a coin a public shuffle of an even pile reveals)."""
    return [rng.below(2) for _ in range(count)]


def test_berlekamp_massey_finds_a_known_recurrence() -> None:
    """The measuring tool itself: a sequence made by a recurrence of order 5 has linear complexity 5."""
    bits = [1, 0, 0, 1, 1]
    while len(bits) < 60:
        bits.append(bits[-5] ^ bits[-3])  # x^5 + x^2 + 1
    assert linear_complexity(bits) == 5


@pytest.mark.parametrize("seed", [0, 7, 12345, PLAIN_SEEDS - 1])
def test_the_plain_generator_gives_its_state_away(seed: int) -> None:
    """Seeds below PLAIN_SEEDS (every seed dealt before seeds became secret, and small typed seeds) keep xorshift64*,
    so stored games replay exactly; its draws' parities follow a recurrence of order at most 64."""
    rng = Rng.from_seed(seed)
    assert rng.state > 0
    assert linear_complexity(parities(rng)) <= 64


@pytest.mark.parametrize("seed", [-(2**63), -1, PLAIN_SEEDS, 2**63 - 1])
def test_the_hashed_generator_follows_no_recurrence(seed: int) -> None:
    """Any other seed gets the hashed generator: no recurrence shorter than about half the draws seen explains its
    parities (a random sequence's linear complexity is about n/2), so they predict nothing."""
    rng = Rng.from_seed(seed)
    assert rng.state < 0
    assert linear_complexity(parities(rng)) >= DRAWS // 2 - 16
    assert rng.state < 0, "the hashed generator's state left its kind"


def test_every_drawn_seed_gets_the_hashed_generator() -> None:
    """The table's secret seeds never fall among the plain generator's seeds."""
    assert all(Rng.from_seed(draw_seed()).state < 0 for _ in range(200))


@pytest.mark.parametrize("seed", [-(2**63), 2**63 - 1, 3])
def test_a_generator_state_is_a_json_number_that_resumes_the_same_draws(seed: int) -> None:
    """The state is stored as one JSON number in the snapshot; a generator rebuilt from it draws what the original
    would have, for both kinds (a replay and a resumed game agree)."""
    rng = Rng.from_seed(seed)
    rng.next64()
    stored = orjson.loads(orjson.dumps({"rng": rng.state}))["rng"]
    resumed = Rng(stored)
    assert [resumed.next64() for _ in range(20)] == [rng.next64() for _ in range(20)]


def test_the_hashed_counter_wraps_within_its_kind() -> None:
    """At the end of its range the counter wraps to its start and stays negative (it never turns into a plain
    generator's state)."""
    rng = Rng(-(2**63))
    rng.next64()
    assert rng.state == -1
    rng.next64()
    assert rng.state == -2
