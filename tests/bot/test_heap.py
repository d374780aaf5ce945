"""The bot process's heap (bot/heap.py): what it holds once started is frozen out of the garbage collector's walks."""

from __future__ import annotations

import gc
import weakref

from bot.heap import freeze_long_lived


class Node:
    """An object that can refer to itself (a reference cycle only the cyclic collector frees)."""

    other: Node | None = None


def test_live_objects_are_frozen_and_garbage_is_collected_not_frozen() -> None:
    """An object alive when the heap is frozen leaves every generation the collector walks; a reference cycle
    that was already garbage is freed first rather than kept for good."""
    alive, garbage = Node(), Node()
    alive.other, garbage.other = alive, garbage
    gone = weakref.ref(garbage)
    del garbage
    try:
        frozen = freeze_long_lived()
        assert gone() is None
        assert frozen == gc.get_freeze_count() > 0
        assert not any(o is alive for o in gc.get_objects())
    finally:
        gc.unfreeze()
    assert any(o is alive for o in gc.get_objects())
