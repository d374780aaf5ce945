"""Long replies are split between lines into messages within Discord's limit, never silently cut."""

from __future__ import annotations

from bot.discord_app import MAX_CONTENT, pieces


def test_a_long_reply_is_split_between_lines_and_nothing_is_lost() -> None:
    """A 2,150-character late-game board (helper measurement) becomes two messages holding every line."""
    lines = [f"Board {n}: " + "field, " * 40 for n in range(1, 9)]
    text = "\n".join(lines)
    assert len(text) > MAX_CONTENT
    parts = pieces(text)
    assert len(parts) == 2 and all(len(p) <= MAX_CONTENT for p in parts)
    assert "\n".join(parts) == text


def test_a_short_reply_is_one_message_and_an_endless_one_is_capped() -> None:
    """One message when it fits; at most four messages, the last clipped, for something absurdly long."""
    assert pieces("Done.") == ["Done."]
    parts = pieces("\n".join(["z" * 1900] * 9))
    assert len(parts) == 4 and all(len(p) <= MAX_CONTENT for p in parts) and parts[-1].endswith("…")
