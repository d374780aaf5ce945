"""What the tests give Keywood's stand-in to think with: little, and the same every run (no clock), so that whole
games with computer seats or timed-out clocks stay quick and repeatable."""

from engine import standin

QUICK_STANDIN = standin.Budget(playouts=2, seconds=None, candidates=3, depth=4, greedy=0.0, screened=6)
