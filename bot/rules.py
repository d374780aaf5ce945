"""Rules summaries behind `/rules <topic>`: load a game's summary, find sections for a topic, format them for chat."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources.abc import Traversable

from bot import games

DISCORD_LIMIT = 2000

STOPWORDS = frozenset(
    "a an and are at be can could do does for from get how i if in is it may me my of on or rule rules "
    "the to what when where which who why will with you your".split()
)
_SUFFIXES = ("ings", "ing", "ers", "er", "ed", "es", "s", "e")
_RULING_ID = re.compile(r"(?<![a-z0-9])([a-z])\s?-?\s?(\d{1,3})(?![0-9])")
_CITED_ID = re.compile(r"\b[A-Z]-\d+\b")


@dataclass(frozen=True)
class RuleSection:
    """One section of a rules summary, or one ruling."""

    title: str
    source: str
    keywords: tuple[str, ...]
    body: str


def load_rules(game: str) -> list[RuleSection]:
    """Every section of a game's rules summary (docs/rules/<game>.md, shipped in bot/rulebook), in file order; raises
    ValueError for an unknown game or bad file."""
    return list(_parse_summary(_rules_path(game)))


def topics(game: str) -> list[str]:
    """Section titles of a game's summary, for autocomplete; raises ValueError for an unknown game."""
    return [section.title for section in load_rules(game)]


def lookup(game: str, topic: str, limit: int = 3) -> list[RuleSection]:
    """Up to `limit` sections best matching `topic`, best first; [] when nothing matches."""
    sections = load_rules(game)
    rulings = _ruling_hits(game, topic, sections)
    if rulings:
        return rulings[:limit]
    scored = [(_score(section, topic), index) for index, section in enumerate(sections)]
    ranked = sorted((item for item in scored if item[0] > 0), key=lambda item: (-item[0], item[1]))
    return [sections[index] for _, index in ranked[:limit]]


def format_section(section: RuleSection, max_chars: int = 1800) -> str:
    """The section as one chat message (heading, body cut at a paragraph with "…", source); ValueError if too small."""
    limit = min(max_chars, DISCORD_LIMIT)
    head, foot = f"## {section.title}", f"*Source: {section.source}*"
    room = limit - len(head) - len(foot) - 4
    if room < 2:
        raise ValueError(f"max_chars={max_chars} leaves no room for the body of {section.title!r}")
    body = section.body
    if len(body) > room and section.source.startswith("ruling "):
        body = _ruling_essentials(body)
    return "\n\n".join([head, _fit(body, room), foot])


def _ruling_essentials(body: str) -> str:
    """A ruling too long for one message as its Question and Ruling bullets alone, saying where the rest is."""
    bullets = re.split(r"(?m)^(?=- \*\*)", body)
    kept = [b for b in bullets if b.startswith(("- **Question:**", "- **Ruling:**"))]
    return "".join(kept).rstrip() + "\n(Its reasons, source and kind: docs/rulings.md.)"


def cited_rulings(section: RuleSection) -> list[str]:
    """Ruling ids (such as "K-6") named on the section's source line."""
    return _CITED_ID.findall(section.source)


def _rules_path(game: str) -> Traversable:
    """The summary file of a registered game; raises ValueError when the game is unknown or has no summary."""
    try:
        path = games.get(game).rules
    except KeyError:
        raise ValueError(f"no rules summary for game {game!r}") from None
    if not path.is_file():
        raise ValueError(f"no rules summary for game {game!r} at {path}")
    return path


def _parse_summary(path: Traversable) -> tuple[RuleSection, ...]:
    """Parse a summary file: `## Title`, `Source: ...`, `Keywords: a, b`, body; raises ValueError if malformed."""
    return _summary_sections(path.name, path.read_text(encoding="utf-8"))


@lru_cache(maxsize=16)
def _summary_sections(name: str, text: str) -> tuple[RuleSection, ...]:
    """The sections of a summary's text (see _parse_summary)."""
    return tuple(_parse_chunk(name, chunk) for chunk in re.split(r"^## ", text, flags=re.MULTILINE)[1:])


def _parse_chunk(name: str, chunk: str) -> RuleSection:
    """One section from the text after its `## `; raises ValueError when a header line is missing."""
    title, source, keywords, *body = chunk.split("\n") + ["", ""]
    if not source.startswith("Source: ") or not keywords.startswith("Keywords: "):
        raise ValueError(f"{name}: section {title.strip()!r} needs 'Source:' then 'Keywords:' lines")
    words = tuple(word.strip() for word in keywords.removeprefix("Keywords: ").split(",") if word.strip())
    return RuleSection(title.strip(), source.removeprefix("Source: ").strip(), words, "\n".join(body).strip())


def _parse_rulings(path: Traversable) -> tuple[RuleSection, ...]:
    """Each `### K-n Title` of a rulings file as a section whose source is "ruling K-n"."""
    return _ruling_sections(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=4)
def _ruling_sections(text: str) -> tuple[RuleSection, ...]:
    """The rulings of a rulings file's text (see _parse_rulings)."""
    found = re.findall(r"^### ([A-Z]-\d+) ([^\n]+)\n(.*?)(?=^#|\Z)", text, re.MULTILINE | re.DOTALL)
    return tuple(
        RuleSection(f"{key} {name.strip()}", f"ruling {key}", (key,), body.strip()) for key, name, body in found
    )


def _ruling_hits(game: str, topic: str, sections: list[RuleSection]) -> list[RuleSection]:
    """For a topic naming a ruling id: the ruling's text, then the sections citing it."""
    path = games.get(game).rulings
    if path is None or not path.is_file():
        return []
    wanted = [f"{letter.upper()}-{number}" for letter, number in _RULING_ID.findall(topic.lower())]
    # the rulings file serves every game: a game's rulings are those of the letter its own summary cites
    ours = {ruling[0] for section in sections for ruling in cited_rulings(section)}
    rulings = [ruling for ruling in _parse_rulings(path)
               if ruling.keywords[0] in wanted and ruling.keywords[0][0] in ours]
    citing = [section for section in sections if set(wanted) & set(cited_rulings(section))]
    return rulings + citing if rulings else []


def _stem(word: str) -> str:
    """A crude stem: "joiners" and "joining" -> "join", "houses" -> "hous", "ties" -> "tie"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _stems(text: str) -> list[str]:
    """Stems of the words in `text` that are neither stopwords nor single characters, in order."""
    words = re.findall(r"[a-z0-9]+", text.lower().replace("'", ""))
    return [_stem(word) for word in words if len(word) > 1 and word not in STOPWORDS]


def _compact(text: str) -> str:
    """Lowercase letters and digits only, so "Lay-down", "lay down" and "laydown" compare equal."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _contains(haystack: list[str], needle: list[str]) -> bool:
    """Whether `needle` occurs as a contiguous run in `haystack`."""
    size = len(needle)
    return size > 0 and any(haystack[i : i + size] == needle for i in range(len(haystack) - size + 1))


def _score(section: RuleSection, topic: str) -> int:
    """How well a section answers a topic: exact title > keyword > word in title > words in body; 0 for no match."""
    query = _stems(topic)
    if not query:
        return 0
    title = _stems(section.title)
    return (
        _title_score(section.title, topic, title, query)
        + _keyword_score(section.keywords, topic, query)
        + 30 * len(set(query) & set(title))
        + _body_score(section.body, query)
    )


def _title_score(raw: str, topic: str, title: list[str], query: list[str]) -> int:
    """1000 for the exact title, 900 for the same words in another form."""
    if _compact(raw) == _compact(topic):
        return 1000
    return 900 if title == query else 0


def _keyword_score(keywords: tuple[str, ...], topic: str, query: list[str]) -> int:
    """Best keyword match (exact 500, same stems 400, keyword inside the topic 100 a word) plus 20 a shared word."""
    best, shared = 0, set[str]()
    for keyword in keywords:
        stems = _stems(keyword)
        if _compact(keyword) == _compact(topic):
            best = max(best, 500)
        elif stems == query:
            best = max(best, 400)
        elif _contains(query, stems):
            best = max(best, 100 * len(stems))
        shared |= set(stems) & set(query)
    return best + 20 * len(shared)


def _body_score(body: str, query: list[str]) -> int:
    """One point a body occurrence of each query word, at most three a word."""
    words = _stems(body)
    return sum(min(words.count(stem), 3) for stem in set(query))


def _fit(body: str, room: int) -> str:
    """The body's leading paragraphs that fit in `room` characters, with "…" when some are left out."""
    paragraphs = [part for part in body.split("\n\n") if part.strip()]
    kept: list[str] = []
    for index, paragraph in enumerate(paragraphs):
        rest = len(paragraphs) - index - 1
        needed = len("\n\n".join([*kept, paragraph])) + (3 if rest else 0)
        if needed > room:
            return "\n\n".join([*kept, "…"]) if kept else _cut_lines(paragraph, room)
        kept.append(paragraph)
    return "\n\n".join(kept)


def _cut_lines(paragraph: str, room: int) -> str:
    """A paragraph too long on its own, cut at a line (or, failing that, a word) with "…"."""
    lines: list[str] = []
    for line in paragraph.split("\n"):
        if len("\n".join([*lines, line])) + 2 > room:
            break
        lines.append(line)
    text = "\n".join(lines) if lines else paragraph[: room - 2].rsplit(" ", 1)[0]
    return f"{text}\n…" if lines else f"{text} …"
