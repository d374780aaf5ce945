"""Law cards: their keys, when each may be played (ruling T-13) and which arguments each takes."""

from __future__ import annotations

KEYS = {
    1: "work-order", 2: "price-increase", 3: "price-decrease", 4: "upgrade-cottage", 5: "substitution",
    6: "cottage-number", 7: "craft-bargain", 8: "unexpected-harvest", 9: "broken-fences", 10: "repeal",
    11: "unsafe-fence", 12: "house-moratorium", 13: "design-change", 14: "double-production", 15: "bargain",
    16: "sale", 17: "downgrade-house", 18: "good-harvest", 19: "poor-harvest", 20: "start-order",
}
NUMBERS = {key: number for number, key in KEYS.items()}
TITLES = {
    1: "Work Order", 2: "Price Increase", 3: "Price Decrease", 4: "Upgrade Cottage", 5: "Substitution",
    6: "Cottage Number", 7: "Craft Bargain", 8: "Unexpected Harvest", 9: "Broken Fences", 10: "Repeal Law",
    11: "Unsafe Fence", 12: "House Moratorium", 13: "Design Change", 14: "Double Production", 15: "Bargain",
    16: "Sale", 17: "Downgrade House", 18: "Good Harvest", 19: "Poor Harvest", 20: "Start Order",
}

ANY_TIME = frozenset({"craft-bargain", "unsafe-fence", "design-change"})
PHASE_START = {
    1: frozenset({"work-order", "broken-fences", "house-moratorium", "start-order"}) | ANY_TIME,
    2: frozenset({"unexpected-harvest", "double-production", "good-harvest", "poor-harvest", "house-moratorium",
                  "start-order"}) | ANY_TIME,
    3: frozenset({"house-moratorium", "start-order"}) | ANY_TIME,
    5: frozenset({"start-order"}) | ANY_TIME,
}
PURCHASE = frozenset({"price-increase"}) | ANY_TIME
PLACEMENT = frozenset({"cottage-number", "broken-fences", "house-moratorium"}) | ANY_TIME
OWN_TURN = frozenset({"price-decrease", "upgrade-cottage", "substitution", "bargain", "sale",
                      "downgrade-house"}) | ANY_TIME
REPEAL = frozenset({"repeal"})

RULE = "rules: Appendix, law card {number} ({title}); ruling T-13"


def rule(number: int) -> str:
    """The rule reference of a law card."""
    return RULE.format(number=number, title=TITLES[number])
