"""A small in-process fake of Discord's HTTP API and gateway, for end-to-end tests with the unmodified discord.py.

:class:`FakeDiscord` is an aiohttp.web application on ``127.0.0.1`` with an ephemeral port. It serves the REST
routes discord.py uses (under ``/api/v10``), a gateway websocket (``/gateway``), and the bytes of the attachments
it received (``/attachments/...``). It records every request, message and interaction response, and enforces the
Discord rules a bot can break (late or double interaction responses, length and count limits), recording them in
:attr:`FakeDiscord.violations` and answering with the error Discord would give. Like Discord, a message POSTed again
with the same ``nonce`` and ``enforce_nonce`` within a few minutes returns the first message instead of a new one.
Tests can close a user's DMs (:meth:`FakeDiscord.refuse_dms`), take the bot's permission to post in a channel
(:meth:`FakeDiscord.deny_send`), make the next message POSTs to a channel fail (:meth:`FakeDiscord.fail_sends`)
and hold them unanswered until released (:meth:`FakeDiscord.hold_sends`).

Shards work as on Discord: a session that IDENTIFYs with ``shard: [id, count]`` gets READY, GUILD_CREATE and every
other event of the guilds with ``(guild_id >> 22) % count == id``; events without a guild (DMs) go to shard 0. A
session without ``shard`` is shard ``[0, 1]`` (all guilds). Several sessions (clients, possibly in other
processes) can be connected at once; :meth:`FakeDiscord.connected_sessions`, :meth:`FakeDiscord.sessions_for_shard`
and :meth:`FakeDiscord.wait_for_shard` tell who is connected. An event whose guild no connected session owns is not
delivered (as on Discord); :attr:`InteractionRecord.delivered_to` says which sessions got an interaction.

It does not point discord.py at itself; :func:`tests.discord_fake.running_fake` does that.
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
import re
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

from . import payloads as p

T = TypeVar("T")

MAX_CONTENT = 2000
MAX_ATTACHMENTS = 10
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_COMPONENTS = 5
MAX_CUSTOM_ID = 100
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_MODAL_TITLE = 45
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15
SELECT_TYPES = {3, 5, 6, 7, 8}
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content

# Discord's JSON error bodies, by what went wrong.
ERRORS: dict[str, tuple[int, int, str]] = {
    "unknown_interaction": (404, 10062, "Unknown interaction"),
    "already_acknowledged": (400, 40060, "Interaction has already been acknowledged."),
    "invalid_form_body": (400, 50035, "Invalid Form Body"),
    "too_large": (413, 40005, "Request entity too large"),
    "empty_message": (400, 50006, "Cannot send an empty message"),
    "unknown_webhook": (404, 10015, "Unknown Webhook"),
    "invalid_webhook_token": (401, 50027, "Invalid Webhook Token"),
    "unknown_message": (404, 10008, "Unknown Message"),
    "unknown_channel": (404, 10003, "Unknown Channel"),
    "unknown_user": (404, 10013, "Unknown User"),
    "unknown_member": (404, 10007, "Unknown Member"),
    "unknown_guild": (404, 10004, "Unknown Guild"),
    "unknown_command": (404, 10063, "Unknown application command"),
    "cannot_dm": (403, 50007, "Cannot send messages to this user"),
    "missing_permissions": (403, 50013, "Missing Permissions"),
    "not_author": (403, 50005, "Cannot edit a message authored by another user"),
    "wrong_channel_type": (400, 50024, "Cannot execute action on this channel type"),
    "invalid_recipient": (400, 50033, "Invalid Recipient(s)"),
    "unauthorized": (401, 0, "401: Unauthorized"),
    "not_found": (404, 0, "404: Not Found"),
    "server_error_500": (500, 0, "500: Internal Server Error"),
    "server_error_502": (502, 0, "502: Bad Gateway"),
    "server_error_503": (503, 0, "503: Service Unavailable"),
    "server_error_504": (504, 0, "504: Gateway Timeout"),
}
NONCE_WINDOW = 5 * 60.0  # seconds during which Discord answers a repeated enforced nonce with the first message


# --------------------------------------------------------------------------------------------------------------
# records


@dataclass
class FakeFile:
    """A file the bot uploaded: its name and exact bytes."""

    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    index: int | None = field(default=None, repr=False, compare=False)  # n of its ``files[n]`` form field

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class RecordedRequest:
    """One HTTP request to the fake. ``path`` is below ``/api/v10`` (e.g. ``/channels/1/messages``)."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[FakeFile]
    at: float
    status: int = 0
    response: Any = None


@dataclass
class Violation:
    """A Discord rule the bot broke. ``status``/``code`` are what the fake (like Discord) answered."""

    rule: str
    detail: str
    method: str = ""
    path: str = ""
    status: int = 0
    code: int = 0


@dataclass
class FakeMessage:
    """A message the bot created (in a channel, a DM, or through an interaction), in its current state.

    ``payload`` is what Discord would return for it now; ``history`` holds earlier versions (one per edit);
    ``files`` are the current attachments with their bytes.
    """

    payload: dict[str, Any]
    files: list[FakeFile] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False
    interaction_id: str | None = None
    source: str = "channel"  # channel | interaction | followup | dispatched

    @property
    def id(self) -> str:
        return str(self.payload["id"])

    @property
    def channel_id(self) -> str:
        return str(self.payload["channel_id"])

    @property
    def content(self) -> str:
        return str(self.payload.get("content") or "")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.payload.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.payload.get("components") or [])

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def filenames(self) -> list[str]:
        return [f.filename for f in self.files]

    @property
    def custom_ids(self) -> list[str]:
        """custom_ids of all interactive components, in order (buttons, selects, nested v2 components)."""
        return [c["custom_id"] for c in walk_components(self.components) if c.get("custom_id")]


@dataclass
class CallbackRecord:
    """One ``POST /interactions/{id}/{token}/callback``: the response type, its data, and how Discord took it."""

    type: int
    data: dict[str, Any]
    files: list[FakeFile]
    elapsed: float  # seconds since the interaction was dispatched
    status: int = 0

    @property
    def accepted(self) -> bool:
        return 200 <= self.status < 300

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.data.get("choices") or [])


@dataclass
class InteractionRecord:
    """An interaction the fake dispatched, and everything the bot did with it."""

    id: str
    token: str
    payload: dict[str, Any]
    dispatched_at: float
    responses: list[CallbackRecord] = field(default_factory=list)
    ack_type: int | None = None
    original_message_id: str | None = None
    followup_ids: list[str] = field(default_factory=list)
    delivered_to: list[str] = field(default_factory=list)  # ids of the sessions it was dispatched to
    _followed_up_defer: bool = field(default=False, repr=False)

    @property
    def type(self) -> int:
        return int(self.payload["type"])

    @property
    def delivered(self) -> bool:
        """Whether any connected session got it (False: no session owned its guild's shard, as on Discord)."""
        return bool(self.delivered_to)

    @property
    def acknowledged(self) -> bool:
        return self.ack_type is not None

    @property
    def initial_response(self) -> CallbackRecord | None:
        return next((r for r in self.responses if r.accepted), None)


@dataclass
class GatewayConnection:
    """One websocket connection from a client."""

    ws: web.WebSocketResponse
    compress: str | None
    encoding: str
    version: str | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    compressor: Any = None
    session: Session | None = None
    received: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    close_code: int | None = None
    closed: bool = False

    async def send(self, payload: dict[str, Any]) -> None:
        raw = json.dumps(payload)
        async with self.lock:
            if self.ws.closed:
                return
            self.sent.append(payload)
            if self.compressor is not None:
                data = self.compressor.compress(raw.encode()) + self.compressor.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(raw)


@dataclass
class Session:
    """A gateway session (survives reconnects through RESUME)."""

    id: str
    intents: int
    shard: list[int] | None
    connection: GatewayConnection | None
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def shard_id(self) -> int:
        return int(self.shard[0]) if self.shard else 0

    @property
    def shard_count(self) -> int:
        return int(self.shard[1]) if self.shard else 1

    @property
    def connected(self) -> bool:
        """Whether its websocket is open (a closed or killed client's session is not, until it RESUMEs)."""
        return self.connection is not None and not self.connection.closed

    def owns(self, guild_id: str | int | None) -> bool:
        """Whether Discord sends this session the events of ``guild_id`` (None: a DM or other guildless event)."""
        return self.shard_id == (p.shard_of(guild_id, self.shard_count) if guild_id is not None else 0)

    def dispatched(self, event: str) -> list[dict[str, Any]]:
        """The ``d`` of every event of that type sent to this session, in order."""
        return [f["d"] for f in self.events if f["t"] == event]

    async def send_dispatch(self, event: str, data: Any) -> int:
        self.seq += 1
        frame = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.events.append(frame)
        if self.connection is not None and not self.connection.closed:
            await self.connection.send(frame)
        return self.seq


@dataclass
class ShardOverlap:
    """A session identified for a shard that a connected session already held (Discord allows it: both get its
    events, so a bot started twice answers each interaction twice)."""

    shard: tuple[int, int]
    session_id: str
    others: list[str]


GUILD_OBJECT_EVENTS = {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"}  # whose ``d`` is the guild (``id``)


def event_guild(event: str, data: Mapping[str, Any]) -> str | None:
    """The guild an event belongs to, which decides its shard; None for DMs and other guildless events."""
    gid = data.get("id") if event in GUILD_OBJECT_EVENTS else data.get("guild_id")
    return str(gid) if gid is not None else None


class HTTPError(Exception):
    def __init__(self, kind: str, detail: str | None = None, errors: Any = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.detail = detail
        self.errors = errors


@dataclass
class _Problem:
    rule: str
    detail: str
    kind: str = "invalid_form_body"


@dataclass
class _Ctx:
    request: web.Request
    record: RecordedRequest

    @property
    def json(self) -> Any:
        return self.record.json

    @property
    def body(self) -> dict[str, Any]:
        return self.record.json if isinstance(self.record.json, dict) else {}

    @property
    def files(self) -> list[FakeFile]:
        return self.record.files

    @property
    def query(self) -> dict[str, str]:
        return self.record.query


def walk_components(components: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    """Every component, depth first (rows, sections, containers and their children, accessories)."""
    for c in components:
        yield c
        if isinstance(c.get("components"), list):
            yield from walk_components(c["components"])
        if isinstance(c.get("accessory"), Mapping):
            yield from walk_components([c["accessory"]])
        if isinstance(c.get("component"), Mapping):  # a label wrapping one component (modals)
            yield from walk_components([c["component"]])


# --------------------------------------------------------------------------------------------------------------
# rule checks (each returns the problems found)


def check_embeds(embeds: Any) -> list[_Problem]:
    out: list[_Problem] = []
    if not isinstance(embeds, list):
        return out
    if len(embeds) > MAX_EMBEDS:
        out.append(_Problem("too_many_embeds", f"{len(embeds)} embeds (max {MAX_EMBEDS})"))
    total = 0
    limits = {"title": 256, "description": 4096}
    for i, e in enumerate(embeds):
        for key, lim in limits.items():
            text = e.get(key) or ""
            total += len(text)
            if len(text) > lim:
                out.append(_Problem("embed_too_long", f"embed {i} {key} is {len(text)} chars (max {lim})"))
        fields = e.get("fields") or []
        if len(fields) > 25:
            out.append(_Problem("embed_too_long", f"embed {i} has {len(fields)} fields (max 25)"))
        for j, f in enumerate(fields):
            name, value = f.get("name") or "", f.get("value") or ""
            total += len(name) + len(value)
            if len(name) > 256 or len(value) > 1024:
                out.append(_Problem("embed_too_long", f"embed {i} field {j}: name {len(name)}/256, value "
                                                      f"{len(value)}/1024 chars"))
        footer = (e.get("footer") or {}).get("text") or ""
        author = (e.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > 2048 or len(author) > 256:
            out.append(_Problem("embed_too_long", f"embed {i}: footer {len(footer)}/2048, author {len(author)}/256"))
    if total > MAX_EMBED_TOTAL:
        out.append(_Problem("embed_too_long", f"embeds total {total} chars (max {MAX_EMBED_TOTAL})"))
    return out


def check_components(components: Any, flags: int = 0) -> list[_Problem]:
    out: list[_Problem] = []
    if not isinstance(components, list):
        return out
    seen: set[str] = set()
    for c in walk_components(components):
        cid = c.get("custom_id")
        if cid is not None:
            if not 1 <= len(cid) <= MAX_CUSTOM_ID:
                out.append(_Problem("custom_id_too_long", f"custom_id of {len(cid)} chars (max {MAX_CUSTOM_ID}): "
                                                          f"{cid[:40]!r}..."))
            if cid in seen:
                out.append(_Problem("duplicate_custom_id", f"custom_id {cid!r} used twice in one message"))
            seen.add(cid)
        if c.get("type") == 2:
            label = c.get("label") or ""
            if len(label) > 80:
                out.append(_Problem("button_label_too_long", f"button label of {len(label)} chars (max 80)"))
            style = c.get("style")
            if style == 5 and not c.get("url"):
                out.append(_Problem("invalid_component", "link button without url"))
            if style not in (5, 6) and not cid:
                out.append(_Problem("invalid_component", "button without custom_id"))
        if c.get("type") in SELECT_TYPES:
            opts = c.get("options") or []
            if c.get("type") == 3 and not 1 <= len(opts) <= 25:
                out.append(_Problem("too_many_select_options", f"select {cid!r} has {len(opts)} options (1-25)"))
            for o in opts:
                if len(o.get("label") or "") > 100 or len(str(o.get("value") or "")) > 100:
                    out.append(_Problem("select_option_too_long", f"select {cid!r} option over 100 chars"))
            if len(c.get("placeholder") or "") > 150:
                out.append(_Problem("invalid_component", f"select {cid!r} placeholder over 150 chars"))
    if flags & IS_COMPONENTS_V2:
        n = sum(1 for _ in walk_components(components))
        if n > 40:
            out.append(_Problem("too_many_components", f"{n} components (max 40 with components v2)"))
        return out
    if len(components) > MAX_ACTION_ROWS:
        out.append(_Problem("too_many_action_rows", f"{len(components)} action rows (max {MAX_ACTION_ROWS})"))
    for i, row in enumerate(components):
        if row.get("type") != 1:
            out.append(_Problem("invalid_component", f"top-level component {i} is type {row.get('type')}, not an "
                                                     "action row (set the components v2 flag for layouts)"))
            continue
        children = row.get("components") or []
        if not children:
            out.append(_Problem("invalid_component", f"action row {i} is empty"))
        buttons = [c for c in children if c.get("type") == 2]
        if len(buttons) > MAX_ROW_COMPONENTS or len(children) > MAX_ROW_COMPONENTS:
            out.append(_Problem("too_many_buttons", f"action row {i} has {len(children)} components "
                                                    f"(max {MAX_ROW_COMPONENTS})"))
        if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
            out.append(_Problem("invalid_component", f"action row {i} mixes a select menu with other components"))
    return out


def check_message(body: Mapping[str, Any], files: Sequence[FakeFile], *, creating: bool, size_limit: int,
                  require_content: bool = True) -> list[_Problem]:
    """Checks a message create/edit body: content, embeds, components, attachments."""
    out: list[_Problem] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        out.append(_Problem("content_too_long", f"content of {len(content)} chars (max {MAX_CONTENT})"))
    flags = int(body.get("flags") or 0)
    if flags & IS_COMPONENTS_V2 and (content or body.get("embeds")):
        out.append(_Problem("invalid_form_body", "content/embeds cannot be used with the components v2 flag"))
    out += check_embeds(body.get("embeds"))
    out += check_components(body.get("components"), flags)
    attachments = body.get("attachments")
    n_att = max(len(files), len(attachments) if isinstance(attachments, list) else 0)
    if n_att > MAX_ATTACHMENTS:
        out.append(_Problem("too_many_attachments", f"{n_att} attachments (max {MAX_ATTACHMENTS})"))
    for f in files:
        if f.size > size_limit:
            out.append(_Problem("file_too_large", f"{f.filename!r} is {f.size} bytes (max {size_limit})",
                                kind="too_large"))
    if creating and require_content and not (content or body.get("embeds") or files or body.get("components")
                                             or body.get("sticker_ids") or body.get("poll") or attachments):
        out.append(_Problem("empty_message", "message with no content, embeds, components or files",
                            kind="empty_message"))
    return out


def check_choices(data: Mapping[str, Any]) -> list[_Problem]:
    out: list[_Problem] = []
    choices = data.get("choices") or []
    if len(choices) > MAX_CHOICES:
        out.append(_Problem("too_many_choices", f"{len(choices)} autocomplete choices (max {MAX_CHOICES})"))
    for c in choices:
        name = c.get("name") or ""
        if not 1 <= len(name) <= MAX_CHOICE_NAME:
            out.append(_Problem("choice_name_too_long", f"choice name of {len(name)} chars (1-{MAX_CHOICE_NAME}): "
                                                        f"{name[:40]!r}"))
        value = c.get("value")
        if isinstance(value, str) and len(value) > 100:
            out.append(_Problem("choice_value_too_long", f"choice value of {len(value)} chars (max 100)"))
    return out


def check_modal(data: Mapping[str, Any]) -> list[_Problem]:
    out: list[_Problem] = []
    cid = data.get("custom_id") or ""
    if not 1 <= len(cid) <= MAX_CUSTOM_ID:
        out.append(_Problem("custom_id_too_long", f"modal custom_id of {len(cid)} chars (1-{MAX_CUSTOM_ID})"))
    title = data.get("title") or ""
    if not 1 <= len(title) <= MAX_MODAL_TITLE:
        out.append(_Problem("modal_title_too_long", f"modal title of {len(title)} chars (1-{MAX_MODAL_TITLE})"))
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        out.append(_Problem("too_many_action_rows", f"modal with {len(comps)} top-level components (1-5)"))
    for c in walk_components(comps):
        if c.get("custom_id") is not None and len(c["custom_id"]) > MAX_CUSTOM_ID:
            out.append(_Problem("custom_id_too_long", f"modal component custom_id of {len(c['custom_id'])} chars"))
        if c.get("type") in (4, 18) and len(c.get("label") or "") > 45:
            out.append(_Problem("invalid_component", f"modal label of {len(c['label'])} chars (max 45)"))
    return out


_NAME_RE = re.compile(r"^[-_'\w]{1,32}$", re.UNICODE)


def check_commands(commands: Any) -> list[_Problem]:
    """The checks Discord applies to a bulk command overwrite."""
    out: list[_Problem] = []
    if not isinstance(commands, list):
        return [_Problem("invalid_command", "command list is not a JSON array")]
    seen: set[tuple[str, int]] = set()
    n_chat = sum(1 for c in commands if c.get("type", 1) == 1)
    if n_chat > 100:
        out.append(_Problem("invalid_command", f"{n_chat} slash commands (max 100)"))

    def check_option_list(where: str, options: list[dict[str, Any]]) -> None:
        if len(options) > 25:
            out.append(_Problem("invalid_command", f"{where}: {len(options)} options (max 25)"))
        optional_seen = False
        for o in options:
            oname = o.get("name") or ""
            here = f"{where} {oname}"
            if not _NAME_RE.match(oname) or oname != oname.lower():
                out.append(_Problem("invalid_command", f"{here}: bad option name"))
            if not 1 <= len(o.get("description") or "") <= 100:
                out.append(_Problem("invalid_command", f"{here}: description must be 1-100 chars"))
            choices = o.get("choices") or []
            if len(choices) > 25:
                out.append(_Problem("invalid_command", f"{here}: {len(choices)} choices (max 25)"))
            if choices and o.get("autocomplete"):
                out.append(_Problem("invalid_command", f"{here}: autocomplete cannot be used with choices"))
            for ch in choices:
                if not 1 <= len(ch.get("name") or "") <= 100:
                    out.append(_Problem("invalid_command", f"{here}: choice name must be 1-100 chars"))
            if o.get("type") in (1, 2):
                check_option_list(here, o.get("options") or [])
            else:
                if o.get("required"):
                    if optional_seen:
                        out.append(_Problem("invalid_command", f"{here}: required option after an optional one"))
                else:
                    optional_seen = True

    for c in commands:
        name, ctype = c.get("name") or "", c.get("type", 1)
        if (name, ctype) in seen:
            out.append(_Problem("invalid_command", f"duplicate command {name!r}"))
        seen.add((name, ctype))
        if ctype == 1:
            if not _NAME_RE.match(name) or name != name.lower():
                out.append(_Problem("invalid_command", f"/{name}: bad command name"))
            if not 1 <= len(c.get("description") or "") <= 100:
                out.append(_Problem("invalid_command", f"/{name}: description must be 1-100 chars"))
            check_option_list(f"/{name}", c.get("options") or [])
        elif not 1 <= len(name) <= 32:
            out.append(_Problem("invalid_command", f"context menu {name!r}: name must be 1-32 chars"))
    return out


def _file_attachment(att_id: str, f: FakeFile, url: str) -> dict[str, Any]:
    ctype = f.content_type
    if not ctype or ctype == "application/octet-stream":
        ctype = mimetypes.guess_type(f.filename)[0] or ctype
    a: dict[str, Any] = {"id": att_id, "filename": f.filename, "size": f.size, "url": url, "proxy_url": url,
                         "content_type": ctype}
    if f.description is not None:
        a["description"] = f.description
    return a


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")


def _valid_shard(shard: Any) -> bool:
    """IDENTIFY's ``shard`` is ``[shard_id, shard_count]`` with ``0 <= shard_id < shard_count``."""
    return (isinstance(shard, list) and len(shard) == 2 and all(type(n) is int for n in shard)
            and 0 <= shard[0] < shard[1])


# --------------------------------------------------------------------------------------------------------------
# the fake


Handler = Callable[..., Awaitable[Any]]


class FakeDiscord:
    """Fake Discord: REST under ``/api/v10``, a gateway at ``/gateway``, uploaded files under ``/attachments``.

    Use as ``async with FakeDiscord(guilds=[...]) as fake:`` (or ``await fake.start()`` / ``await fake.stop()``).
    It listens on 127.0.0.1 only, on an ephemeral port (:attr:`port`).
    """

    def __init__(
        self,
        *,
        guilds: Iterable[Mapping[str, Any]] = (),
        users: Iterable[Mapping[str, Any]] = (),
        bot_name: str = "Keywood",
        application_id: str | int = p.DEFAULT_APPLICATION_ID,
        owner: Mapping[str, Any] | None = None,
        token: str | None = None,
        application_flags: int = 0,
        allowed_intents: int | None = None,
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60,
        attachment_size_limit: int = p.ATTACHMENT_SIZE_LIMIT,
        heartbeat_interval_ms: int = 41250,
        echo_messages: bool = False,
        recommended_shards: int = 1,
    ) -> None:
        """``token``: if set, requests and IDENTIFY must carry it (else 401 / close 4004).
        ``allowed_intents``: privileged intents the application may use (None: all); IDENTIFY asking for more is
        closed with 4014 like Discord. ``echo_messages``: also dispatch MESSAGE_CREATE for the bot's messages.
        ``recommended_shards``: the shard count ``GET /gateway/bot`` recommends (an ``AutoShardedClient`` without
        ``shard_count`` launches that many)."""
        self.application_id = str(application_id)
        self.bot: dict[str, Any] = p.bot_user(bot_name, id=self.application_id)
        self.owner: dict[str, Any] = dict(owner) if owner is not None else p.user("owner")
        self.token = token
        self.application_flags = application_flags
        self.allowed_intents = allowed_intents
        self.interaction_deadline = interaction_deadline
        self.token_lifetime = token_lifetime
        self.attachment_size_limit = attachment_size_limit
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.echo_messages = echo_messages
        self.recommended_shards = recommended_shards

        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[tuple[str, str]] = []
        self.violations: list[Violation] = []
        self.gateway_connections: list[GatewayConnection] = []
        self.sessions: dict[str, Session] = {}
        self.shard_overlaps: list[ShardOverlap] = []

        self.guilds: dict[str, dict[str, Any]] = {}
        self.channels: dict[str, dict[str, Any]] = {}
        self.users: dict[str, dict[str, Any]] = {self.bot["id"]: self.bot, self.owner["id"]: self.owner}
        self.members: dict[tuple[str, str], dict[str, Any]] = {}
        self.thread_members: dict[str, set[str]] = {}
        self.dm_channel_of: dict[str, str] = {}
        self.refused_dm_users: set[str] = set()
        self.denied_channels: set[str] = set()
        self.denied_threads: set[str] = set()
        self.failing_sends: dict[str, list[tuple[int, bool]]] = {}
        self.holding_sends: dict[str, int] = {}  # channel -> how many more message POSTs to hold (hold_sends)
        self.held_sends: dict[str, int] = {}  # channel -> how many message POSTs wait now
        self.gateway_down = False  # set: new gateway connections are refused with 503 (an outage)
        self.gateway_refusals = 0  # how many were refused so far
        self._releases: dict[str, asyncio.Event] = {}
        self.nonce_window = NONCE_WINDOW
        self._nonces: dict[tuple[str, str], tuple[str, float]] = {}  # (channel, nonce) -> (message id, created)
        self.commands_by_scope: dict[str | None, list[dict[str, Any]]] = {}
        self.interactions: dict[str, InteractionRecord] = {}
        self._by_token: dict[str, str] = {}
        self._messages: dict[str, FakeMessage] = {}
        self._files: dict[str, FakeFile] = {}
        self._changed = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()

        for u in users:
            self.add_user(u)
        for g in guilds:
            self.add_guild(g)

        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []
        self._add_routes()
        self._runner: web.AppRunner | None = None
        self.port: int = 0

    # ---------------------------------------------------------------------------------------------- lifecycle

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be set to."""
        return f"{self.http_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._ws_handler)
        app.router.add_get("/gateway/", self._ws_handler)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment_handler)
        app.router.add_route("*", "/api/v{version:\\d+}/{tail:.*}", self._api_handler)
        app.router.add_route("*", "/{tail:.*}", self._fallback_handler)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        addr = self._runner.addresses[0]
        self.port = int(addr[1])
        return self

    async def stop(self) -> None:
        for channel_id in list(self._releases):
            self.release_sends(channel_id)
        for conn in list(self.gateway_connections):
            if not conn.ws.closed:
                await conn.ws.close(code=1001, message=b"fake stopping")
        for task in list(self._tasks):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ---------------------------------------------------------------------------------------------- world

    def add_user(self, user: Mapping[str, Any]) -> dict[str, Any]:
        u = dict(user)
        self.users[str(u["id"])] = u
        return u

    def add_channel(self, channel: Mapping[str, Any]) -> dict[str, Any]:
        ch = dict(channel)
        self.channels[str(ch["id"])] = ch
        if ch.get("type") == 1:
            for r in ch.get("recipients") or []:
                self.add_user(r)
                self.dm_channel_of[str(r["id"])] = str(ch["id"])
        return ch

    def add_guild(self, guild: Mapping[str, Any]) -> dict[str, Any]:
        """Registers a full guild (see :func:`payloads.guild`) with its channels and members. If a client is
        connected it also gets a GUILD_CREATE (use :meth:`dispatch_guild_create` to await that)."""
        g = dict(guild)
        g["channels"] = [dict(c, guild_id=g["id"]) for c in g.get("channels", [])]
        self.guilds[str(g["id"])] = g
        for ch in g["channels"]:
            self.add_channel(ch)
        for m in g.get("members", []):
            self.add_member(g["id"], m)
        self._emit("GUILD_CREATE", self._guild_create_payload(str(g["id"])))
        return g

    def add_member(self, guild_id: str | int, member: Mapping[str, Any]) -> dict[str, Any]:
        m = dict(member)
        self.add_user(m["user"])
        self.members[(str(guild_id), str(m["user"]["id"]))] = m
        return m

    def _bot_member(self, guild_id: str) -> dict[str, Any]:
        m = p.member(self.bot, permissions=p.BOT_PERMISSIONS)
        m.pop("permissions", None)
        return m

    def _guild_create_payload(self, guild_id: str) -> dict[str, Any]:
        g = dict(self.guilds[guild_id])
        members = [m for (gid, _), m in self.members.items() if gid == guild_id]
        members = [{k: v for k, v in m.items() if k != "permissions"} for m in members]
        if not any(m["user"]["id"] == self.bot["id"] for m in members):
            members.append(self._bot_member(guild_id))
        g["members"] = members
        g["member_count"] = len(members)
        g["channels"] = [c for c in self.channels.values() if c.get("guild_id") == guild_id and c["type"] not in
                         (10, 11, 12)]
        g["threads"] = [c for c in self.channels.values() if c.get("guild_id") == guild_id and c["type"] in
                        (10, 11, 12)]
        g["unavailable"] = False
        return g

    def refuse_dms(self, user_id: str | int) -> None:
        """From now on, messages to ``user_id``'s DM channel get 403 code 50007 (the user closed their DMs)."""
        self.refused_dm_users.add(str(user_id))

    def allow_dms(self, user_id: str | int) -> None:
        self.refused_dm_users.discard(str(user_id))

    def deny_send(self, channel_id: str | int) -> None:
        """From now on, the bot's POSTs of messages to the channel get 403 code 50013 (Missing Permissions), as
        when it lacks Send Messages there. Interaction responses still work (they are webhooks, as on Discord)."""
        self.denied_channels.add(str(channel_id))

    def allow_send(self, channel_id: str | int) -> None:
        self.denied_channels.discard(str(channel_id))

    def deny_threads(self, channel_id: str | int) -> None:
        """From now on, the bot's thread creations in the channel get 403 code 50013 (Missing Permissions), as
        when it lacks Create Public Threads there."""
        self.denied_threads.add(str(channel_id))

    def fail_sends(self, channel_id: str | int, n: int = 1, *, status: int = 500, created: bool = False) -> None:
        """The next ``n`` message POSTs to the channel fail with a server error ``status`` (500, 502, 503 or 504),
        or are refused as invalid (400, code 50035, as Discord refuses a body it will never accept).

        ``created``: the message is created anyway and only the answer is lost (as when a proxy times out), so a
        resend with the same enforced nonce gets that message back. discord.py itself retries 500, 502 and 504
        (sleeping 1 s, 3 s, ...) but raises ``DiscordServerError`` on a 503 at once."""
        if status not in (400, 500, 502, 503, 504) or (status == 400 and created):
            raise ValueError(f"unsupported failure status {status}")
        self.failing_sends.setdefault(str(channel_id), []).extend([(status, created)] * n)

    def hold_sends(self, channel_id: str | int, n: int = 1) -> None:
        """The next ``n`` message POSTs to the channel get no answer until :meth:`release_sends` (as when the
        request is slow to reach Discord); :attr:`held_sends` counts those waiting. Released, each is handled as
        usual then (so a :meth:`fail_sends` made meanwhile applies to it)."""
        self.holding_sends[str(channel_id)] = self.holding_sends.get(str(channel_id), 0) + n

    def release_sends(self, channel_id: str | int) -> None:
        """Let the held message POSTs to the channel go on, and hold no more of them."""
        self.holding_sends.pop(str(channel_id), None)
        release = self._releases.pop(str(channel_id), None)
        if release is not None:
            release.set()

    async def _hold(self, cid: str) -> None:
        """Wait until the channel's sends are released, if this POST is one of those to hold."""
        if not self.holding_sends.get(cid):
            return
        self.holding_sends[cid] -= 1
        release = self._releases.setdefault(cid, asyncio.Event())
        self.held_sends[cid] = self.held_sends.get(cid, 0) + 1
        self._notify()
        try:
            await release.wait()
        finally:
            self.held_sends[cid] -= 1

    # ---------------------------------------------------------------------------------------------- queries

    def messages(self, channel_id: str | int, *, include_ephemeral: bool = True,
                 include_deleted: bool = False) -> list[FakeMessage]:
        """Messages the bot created in a channel (or thread, or DM), oldest first, in their current state."""
        cid = str(channel_id)
        return [m for m in self._messages.values()
                if m.channel_id == cid and m.source != "dispatched" and (include_ephemeral or not m.ephemeral)
                and (include_deleted or not m.deleted)]

    def message(self, message_id: str | int) -> FakeMessage | None:
        return self._messages.get(str(message_id))

    def all_messages(self) -> list[FakeMessage]:
        return [m for m in self._messages.values() if m.source != "dispatched"]

    def dm_channel_id(self, user_id: str | int) -> str | None:
        return self.dm_channel_of.get(str(user_id))

    def dms(self, user_id: str | int) -> list[FakeMessage]:
        """Messages delivered to ``user_id``'s DMs (refused ones are not delivered; see :attr:`requests`)."""
        cid = self.dm_channel_id(user_id)
        return self.messages(cid) if cid else []

    def interaction(self, interaction_id: str | int) -> InteractionRecord:
        return self.interactions[str(interaction_id)]

    def interaction_responses(self, interaction_id: str | int) -> list[CallbackRecord]:
        """Every callback the bot POSTed for the interaction (accepted or not; see ``.status``)."""
        return list(self.interactions[str(interaction_id)].responses)

    def original_response(self, interaction_id: str | int) -> FakeMessage | None:
        rec = self.interactions[str(interaction_id)]
        return self._messages.get(rec.original_message_id) if rec.original_message_id else None

    def followups(self, interaction_id: str | int) -> list[FakeMessage]:
        rec = self.interactions[str(interaction_id)]
        return [self._messages[i] for i in rec.followup_ids]

    def commands(self, guild_id: str | int | None = None) -> list[dict[str, Any]]:
        """The commands last synced globally (``guild_id=None``) or to a guild."""
        return list(self.commands_by_scope.get(str(guild_id) if guild_id is not None else None, []))

    def command(self, name: str, guild_id: str | int | None = None, type: int = 1) -> dict[str, Any] | None:
        return next((c for c in self.commands(guild_id) if c["name"] == name and c.get("type", 1) == type), None)

    def requests_to(self, method: str, path_pattern: str) -> list[RecordedRequest]:
        """Requests whose method matches and whose path fully matches the regex ``path_pattern``."""
        rx = re.compile(path_pattern)
        return [r for r in self.requests if r.method == method.upper() and rx.fullmatch(r.path)]

    # ---------------------------------------------------------------------------------------------- waiting

    def _notify(self) -> None:
        ev, self._changed = self._changed, asyncio.Event()
        ev.set()

    async def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0) -> T:
        """Waits until ``predicate()`` is truthy (re-checked after every request and gateway event) and returns it."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout}s")
            ev = self._changed
            try:
                await asyncio.wait_for(ev.wait(), timeout=min(remaining, 0.25))
            except TimeoutError:
                pass

    async def wait_for_response(self, interaction_id: str | int, timeout: float = 5.0) -> CallbackRecord:
        """Waits for the first callback (accepted or not) to the interaction."""
        rec = self.interactions[str(interaction_id)]
        return await self.wait_for(lambda: rec.responses[0] if rec.responses else None, timeout)

    async def wait_for_message(self, channel_id: str | int, predicate: Callable[[FakeMessage], bool] | None = None,
                               timeout: float = 5.0, *, after: int = 0) -> FakeMessage:
        """Waits for a message in the channel (the ``after``-th onward) matching ``predicate``; returns the first."""
        def find() -> FakeMessage | None:
            return next((m for m in self.messages(channel_id)[after:] if predicate is None or predicate(m)), None)
        return await self.wait_for(find, timeout)

    async def wait_until_connected(self, timeout: float = 10.0) -> Session:
        """Waits until a client has identified (READY sent) and returns its session."""
        sessions = await self.wait_for(self._ready_sessions, timeout)
        return sessions[-1]

    async def wait_for_shard(self, shard_id: int, shard_count: int, timeout: float = 10.0) -> Session:
        """Waits until a session for shard ``[shard_id, shard_count]`` is connected (READY sent) and returns it
        (the newest, if there are several)."""
        try:
            sessions = await self.wait_for(lambda: self.sessions_for_shard(shard_id, shard_count), timeout)
        except TimeoutError:
            raise TimeoutError(f"no session for shard [{shard_id}, {shard_count}] within {timeout}s; connected: "
                               f"{self._describe_sessions()}") from None
        return sessions[-1]

    async def wait_for_shard_closed(self, shard_id: int, shard_count: int, timeout: float = 10.0) -> None:
        """Waits until no connected session holds shard ``[shard_id, shard_count]`` (its client closed or died)."""
        await self.wait_for(lambda: not self.sessions_for_shard(shard_id, shard_count), timeout)

    # ---------------------------------------------------------------------------------------------- gateway API

    def _ready_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.connected]

    def connected_sessions(self) -> list[Session]:
        """The sessions whose websocket is open, oldest first (``.shard_id``/``.shard_count`` say their shard)."""
        return self._ready_sessions()

    def connected_shards(self) -> list[tuple[int, int]]:
        """``(shard_id, shard_count)`` of every connected session, oldest first (a shard twice if held twice)."""
        return [(s.shard_id, s.shard_count) for s in self._ready_sessions()]

    def sessions_for_shard(self, shard_id: int, shard_count: int) -> list[Session]:
        """The connected sessions that identified as shard ``[shard_id, shard_count]``, oldest first."""
        return [s for s in self._ready_sessions() if (s.shard_id, s.shard_count) == (shard_id, shard_count)]

    def sessions_owning(self, guild_id: str | int | None) -> list[Session]:
        """The connected sessions that get ``guild_id``'s events (None: DMs, shard 0), oldest first."""
        return [s for s in self._ready_sessions() if s.owns(guild_id)]

    def _describe_sessions(self) -> str:
        return ", ".join(f"{s.id} [{s.shard_id}, {s.shard_count}]" for s in self._ready_sessions()) or "none"

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _emit(self, event: str, data: dict[str, Any]) -> None:
        """Sends a gateway event in the background to the sessions owning its guild, if any is connected (like
        Discord, which does not keep events for shards nobody holds)."""
        if self.sessions_owning(event_guild(event, data)):
            self._spawn(self.dispatch(event, data, timeout=0, must_deliver=False))

    async def _recipients(self, event: str, data: Mapping[str, Any], timeout: float,
                          must_deliver: bool) -> list[Session]:
        """The connected sessions owning the event's guild, waiting up to ``timeout`` for one."""
        gid = event_guild(event, data)
        try:
            return await self.wait_for(lambda: self.sessions_owning(gid), timeout)
        except TimeoutError:
            if must_deliver:
                where = f"guild {gid}" if gid is not None else "a DM (shard 0)"
                raise TimeoutError(f"{event} for {where} not delivered: no connected session owns its shard within "
                                   f"{timeout}s (connected: {self._describe_sessions()})") from None
            return []

    async def dispatch(self, event: str, data: dict[str, Any], *, timeout: float = 10.0,
                       must_deliver: bool = True) -> int:
        """Sends a DISPATCH (op 0) event to every connected session owning the event's guild (its shard; DMs:
        shard 0), as Discord does. Waits up to ``timeout`` for such a session; if none comes, raises
        ``TimeoutError`` (and sends nothing), or with ``must_deliver=False`` delivers to nobody (``timeout=0``:
        decide now). An INTERACTION_CREATE sent is registered, delivered or not (its 3-second clock starts now),
        and its record's ``delivered_to`` lists the sessions. Returns the last sequence number used (0: none)."""
        sessions = await self._recipients(event, data, timeout, must_deliver)
        if event == "INTERACTION_CREATE":
            self._register_interaction(data).delivered_to = [s.id for s in sessions]
        seq = 0
        for s in sessions:
            seq = await s.send_dispatch(event, data)
        self._notify()
        return seq

    async def interact(self, payload: dict[str, Any], *, timeout: float = 10.0,
                       must_deliver: bool = True) -> InteractionRecord:
        """Dispatches INTERACTION_CREATE to the session(s) of its guild's shard and returns the interaction's
        record. ``must_deliver=False, timeout=0``: send it now as Discord would, delivered or not (see
        :attr:`InteractionRecord.delivered`)."""
        await self.dispatch("INTERACTION_CREATE", payload, timeout=timeout, must_deliver=must_deliver)
        return self.interactions[str(payload["id"])]

    async def dispatch_guild_create(self, guild_id: str | int) -> None:
        await self.dispatch("GUILD_CREATE", self._guild_create_payload(str(guild_id)))

    def _open_connections(self, shard: tuple[int, int] | None) -> list[GatewayConnection]:
        """Open connections, of the sessions holding ``shard`` only if it is given."""
        return [c for c in self.gateway_connections if not c.closed and (
            shard is None or (c.session is not None and (c.session.shard_id, c.session.shard_count) == shard))]

    async def request_reconnect(self, shard: tuple[int, int] | None = None) -> None:
        """Sends op 7 RECONNECT to every connection (or those of ``shard``); discord.py then reconnects and
        RESUMEs."""
        for conn in self._open_connections(shard):
            await conn.send({"op": 7, "d": None, "s": None, "t": None})

    async def close_gateway(self, code: int = 4000, shard: tuple[int, int] | None = None) -> None:
        """Closes every gateway connection (or those of ``shard``) with ``code`` (4000: discord.py reconnects and
        RESUMEs)."""
        for conn in self._open_connections(shard):
            await conn.ws.close(code=code)

    def slash(self, name: str, options: Any = None, **kwargs: Any) -> dict[str, Any]:
        """:func:`payloads.slash` with this application's id, and the command id (and guild id, for guild
        commands) from what the bot synced, so it matches how Discord would send it."""
        kwargs.setdefault("application_id", self.application_id)
        self._fill_command(name, kwargs)
        return p.slash(name, options, **kwargs)

    def autocomplete(self, name: str, focused_option: str, value: Any = "", **kwargs: Any) -> dict[str, Any]:
        kwargs.setdefault("application_id", self.application_id)
        self._fill_command(name, kwargs)
        return p.autocomplete(name, focused_option, value, **kwargs)

    def component(self, custom_id: str, **kwargs: Any) -> dict[str, Any]:
        kwargs.setdefault("application_id", self.application_id)
        return p.component(custom_id, **kwargs)

    def modal_submit(self, custom_id: str, fields: Mapping[str, str], **kwargs: Any) -> dict[str, Any]:
        kwargs.setdefault("application_id", self.application_id)
        return p.modal_submit(custom_id, fields, **kwargs)

    def _fill_command(self, name: str, kwargs: dict[str, Any]) -> None:
        if "command_id" in kwargs:
            return
        guild = kwargs.get("guild")
        gid = (guild["id"] if isinstance(guild, Mapping) else str(guild)) if guild is not None else None
        cmd = self.command(name, gid) if gid is not None else None
        if cmd is not None:
            kwargs["command_id"] = cmd["id"]
            kwargs.setdefault("command_guild_id", gid)
            return
        cmd = self.command(name)
        if cmd is not None:
            kwargs["command_id"] = cmd["id"]

    def _register_interaction(self, data: dict[str, Any]) -> InteractionRecord:
        iid, token = str(data["id"]), str(data["token"])
        rec = InteractionRecord(id=iid, token=token, payload=data, dispatched_at=time.monotonic())
        self.interactions[iid] = rec
        self._by_token[token] = iid
        # learn what the interaction mentions, as Discord knows it
        ch = data.get("channel")
        if isinstance(ch, Mapping) and str(ch.get("id")) not in self.channels:
            self.add_channel(ch)
        if data.get("member"):
            self.add_user(data["member"]["user"])
            if data.get("guild_id") and (str(data["guild_id"]), str(data["member"]["user"]["id"])) not in self.members:
                self.add_member(data["guild_id"], data["member"])
        if data.get("user"):
            self.add_user(data["user"])
        for u in ((data.get("data") or {}).get("resolved") or {}).get("users", {}).values():
            self.add_user(u)
        msg = data.get("message")
        if isinstance(msg, Mapping) and str(msg["id"]) not in self._messages:
            self._messages[str(msg["id"])] = FakeMessage(payload=dict(msg), source="dispatched")
        return rec

    # ---------------------------------------------------------------------------------------------- gateway server

    async def _ws_handler(self, request: web.Request) -> web.StreamResponse:
        if self.gateway_down:  # an outage: the websocket upgrade is refused, as by a failing load balancer
            self.gateway_refusals += 1
            return web.Response(status=503, text="gateway unavailable")
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        compress = request.query.get("compress")
        conn = GatewayConnection(ws=ws, compress=compress, encoding=request.query.get("encoding", "json"),
                                 version=request.query.get("v"))
        if compress == "zlib-stream":
            conn.compressor = zlib.compressobj()
        # zstd-stream (discord.py uses it when a zstd module is installed): answer with plain text frames, which
        # discord.py accepts whatever compression it asked for.
        self.gateway_connections.append(conn)
        self._notify()
        try:
            if conn.encoding != "json":
                await ws.close(code=4002, message=b"only json encoding is faked")
                return ws
            await conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    frame = json.loads(msg.data)
                elif msg.type == WSMsgType.BINARY:
                    frame = json.loads(zlib.decompress(msg.data))
                else:
                    break
                conn.received.append(frame)
                await self._on_gateway_frame(conn, frame)
                self._notify()
        finally:
            conn.closed = True
            conn.close_code = ws.close_code
            self._notify()
        return ws

    async def _on_gateway_frame(self, conn: GatewayConnection, frame: dict[str, Any]) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == 1:
            await conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(conn, d or {})
        elif op == 6:
            await self._resume(conn, d or {})
        elif op == 8:
            await self._request_members(conn, d or {})
        # op 3 (presence), op 4 (voice state) and others are accepted and ignored

    async def _identify(self, conn: GatewayConnection, d: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        if self.token is not None and d.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(d.get("intents") or 0)
        if self.allowed_intents is not None and intents & PRIVILEGED_INTENTS & ~self.allowed_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = d.get("shard")
        if shard is not None and not _valid_shard(shard):
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        session = Session(id=p.snowflake(), intents=intents, shard=list(shard) if shard else None, connection=conn)
        self._note_overlap(session)
        conn.session = session
        self.sessions[session.id] = session
        owned = [gid for gid in self.guilds if session.owns(gid)]
        ready = {
            "v": 10,
            "user": self.bot,
            "guilds": [{"id": gid, "unavailable": True} for gid in owned],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": session.shard or [0, 1],
            "application": {"id": self.application_id, "flags": self.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["us-east"],
            "auth_session_id_hash": "fake",
        }
        await session.send_dispatch("READY", ready)
        for gid in owned:
            await session.send_dispatch("GUILD_CREATE", self._guild_create_payload(gid))

    def _note_overlap(self, session: Session) -> None:
        """Records a session identifying for a shard that connected sessions already hold."""
        others = self.sessions_for_shard(session.shard_id, session.shard_count)
        if others:
            self.shard_overlaps.append(ShardOverlap((session.shard_id, session.shard_count), session.id,
                                                    [o.id for o in others]))

    async def _resume(self, conn: GatewayConnection, d: dict[str, Any]) -> None:
        session = self.sessions.get(str(d.get("session_id")))
        if session is None or (self.token is not None and d.get("token") != self.token):
            await conn.send({"op": 9, "d": False, "s": None, "t": None})
            return
        session.connection = conn
        conn.session = session
        last = int(d.get("seq") or 0)
        for frame in session.events:
            if frame["s"] > last:
                await conn.send(frame)
        await session.send_dispatch("RESUMED", {})

    async def _request_members(self, conn: GatewayConnection, d: dict[str, Any]) -> None:
        if conn.session is None:
            return
        gid = str(d.get("guild_id"))
        members = [{k: v for k, v in m.items() if k != "permissions"}
                   for (g, _), m in self.members.items() if g == gid]
        if gid in self.guilds and not any(m["user"]["id"] == self.bot["id"] for m in members):
            members.append(self._bot_member(gid))
        if d.get("user_ids"):
            wanted = {str(u) for u in d["user_ids"]}
            members = [m for m in members if m["user"]["id"] in wanted]
        elif d.get("query"):
            q = str(d["query"]).lower()
            members = [m for m in members if m["user"]["username"].lower().startswith(q)]
        chunk: dict[str, Any] = {"guild_id": gid, "members": members, "chunk_index": 0, "chunk_count": 1,
                                 "not_found": []}
        if d.get("nonce"):
            chunk["nonce"] = d["nonce"]
        await conn.session.send_dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # ---------------------------------------------------------------------------------------------- HTTP plumbing

    def _json(self, body: Any, status: int = 200) -> web.Response:
        # discord.py only parses JSON when the content-type is exactly "application/json" (no charset)
        return web.Response(body=json.dumps(body).encode(), status=status, content_type="application/json")

    def _error_body(self, kind: str, detail: str | None = None, errors: Any = None) -> tuple[int, dict[str, Any]]:
        status, code, message = ERRORS[kind]
        body: dict[str, Any] = {"message": message, "code": code}
        if errors is not None:
            body["errors"] = errors
        elif detail and kind == "invalid_form_body":
            body["errors"] = {"_errors": [{"code": "FAKE_VALIDATION", "message": detail}]}
        return status, body

    def _violate(self, ctx: _Ctx | None, problems: Sequence[_Problem]) -> HTTPError:
        """Records the problems as violations and returns the error (of the first) to raise."""
        first = problems[0]
        status, code, _ = ERRORS[first.kind]
        for pr in problems:
            self.violations.append(Violation(pr.rule, pr.detail, ctx.record.method if ctx else "",
                                             ctx.record.path if ctx else "", status, code))
        return HTTPError(first.kind, "; ".join(pr.detail for pr in problems))

    async def _read_body(self, request: web.Request) -> tuple[Any, list[FakeFile]]:
        files: list[FakeFile] = []
        ctype = request.content_type
        if ctype.startswith("multipart/"):
            body: Any = None
            indexed: dict[int, FakeFile] = {}
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = getattr(part, "name", None) or ""
                data = await part.read(decode=False)  # type: ignore[union-attr]
                if name == "payload_json":
                    body = json.loads(data)
                else:
                    m = re.fullmatch(r"files\[(\d+)\]|file(\d*)", name)
                    index = int(next(g for g in m.groups() if g)) if m and any(m.groups()) else len(indexed)
                    indexed[index] = FakeFile(filename=getattr(part, "filename", None) or name, data=bytes(data),
                                              content_type=part.headers.get("Content-Type"), index=index)
            return body, [indexed[k] for k in sorted(indexed)]
        raw = await request.read()
        if not raw:
            return None, files
        try:
            return json.loads(raw), files
        except ValueError:
            return raw.decode(errors="replace"), files

    async def _api_handler(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        record = RecordedRequest(method=request.method, path=path, query=dict(request.query), json=body, files=files,
                                 at=time.monotonic())
        self.requests.append(record)
        ctx = _Ctx(request, record)
        try:
            response = await self._route(ctx, path)
        except HTTPError as e:
            status, err = self._error_body(e.kind, e.detail, e.errors)
            response = self._json(err, status)
            record.response = err
        record.status = response.status
        self._notify()
        return response

    async def _route(self, ctx: _Ctx, path: str) -> web.StreamResponse:
        method = ctx.record.method
        for m, rx, handler in self._routes:
            match = rx.fullmatch(path)
            if match and m == method:
                needs_auth = not (path.startswith("/webhooks/") or path.startswith("/interactions/"))
                if needs_auth and self.token is not None and ctx.request.headers.get("Authorization") != \
                        f"Bot {self.token}":
                    raise HTTPError("unauthorized")
                result = await handler(ctx, **match.groupdict())
                if result is None:
                    return web.Response(status=204)
                if isinstance(result, web.StreamResponse):
                    return result
                ctx.record.response = result
                return self._json(result)
        self.unknown_routes.append((method, path))
        raise HTTPError("not_found")

    async def _fallback_handler(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        self.unknown_routes.append((request.method, path))
        self.requests.append(RecordedRequest(request.method, path, dict(request.query), None, [], time.monotonic(),
                                             404))
        status, body = self._error_body("not_found")
        return self._json(body, status)

    async def _attachment_handler(self, request: web.Request) -> web.StreamResponse:
        f = self._files.get(request.match_info["attachment_id"])
        if f is None:
            return web.Response(status=404)
        return web.Response(body=f.data, content_type=f.content_type or "application/octet-stream")

    def _add_routes(self) -> None:
        snow = r"(?P<{}>\d+)"
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self._h_me),
            ("GET", f"/users/{snow.format('user_id')}", self._h_get_user),
            ("POST", "/users/@me/channels", self._h_create_dm),
            ("GET", "/oauth2/applications/@me", self._h_app_info),
            ("GET", "/applications/@me", self._h_app_info),
            ("GET", "/gateway", self._h_gateway),
            ("GET", "/gateway/bot", self._h_gateway_bot),
            ("GET", f"/applications/{snow.format('app')}/commands", self._h_get_commands),
            ("PUT", f"/applications/{snow.format('app')}/commands", self._h_put_commands),
            ("POST", f"/applications/{snow.format('app')}/commands", self._h_post_command),
            ("GET", f"/applications/{snow.format('app')}/commands/{snow.format('cmd')}", self._h_get_command),
            ("GET", f"/applications/{snow.format('app')}/guilds/{snow.format('guild')}/commands",
             self._h_get_commands),
            ("PUT", f"/applications/{snow.format('app')}/guilds/{snow.format('guild')}/commands",
             self._h_put_commands),
            ("POST", f"/applications/{snow.format('app')}/guilds/{snow.format('guild')}/commands",
             self._h_post_command),
            ("GET", f"/applications/{snow.format('app')}/guilds/{snow.format('guild')}/commands/{snow.format('cmd')}",
             self._h_get_command),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._h_callback),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._h_followup),
            ("GET", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
             self._h_webhook_get),
            ("PATCH", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
             self._h_webhook_edit),
            ("DELETE", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
             self._h_webhook_delete),
            ("GET", f"/channels/{snow.format('cid')}", self._h_get_channel),
            ("PATCH", f"/channels/{snow.format('cid')}", self._h_edit_channel),
            ("DELETE", f"/channels/{snow.format('cid')}", self._h_delete_channel),
            ("POST", f"/channels/{snow.format('cid')}/typing", self._h_no_content),
            ("GET", f"/channels/{snow.format('cid')}/messages", self._h_history),
            ("POST", f"/channels/{snow.format('cid')}/messages", self._h_send),
            ("GET", f"/channels/{snow.format('cid')}/messages/{snow.format('mid')}", self._h_get_message),
            ("PATCH", f"/channels/{snow.format('cid')}/messages/{snow.format('mid')}", self._h_edit_message),
            ("DELETE", f"/channels/{snow.format('cid')}/messages/{snow.format('mid')}", self._h_delete_message),
            ("PUT", f"/channels/{snow.format('cid')}/messages/{snow.format('mid')}/reactions/[^/]+/@me",
             self._h_no_content),
            ("DELETE", f"/channels/{snow.format('cid')}/messages/{snow.format('mid')}/reactions/[^/]+/[^/]+",
             self._h_no_content),
            ("POST", f"/channels/{snow.format('cid')}/threads", self._h_create_thread),
            ("POST", f"/channels/{snow.format('cid')}/messages/{snow.format('mid')}/threads",
             self._h_create_thread),
            ("PUT", f"/channels/{snow.format('cid')}/thread-members/(?P<uid>@me|\\d+)", self._h_thread_member_add),
            ("DELETE", f"/channels/{snow.format('cid')}/thread-members/(?P<uid>@me|\\d+)",
             self._h_thread_member_remove),
            ("GET", f"/channels/{snow.format('cid')}/thread-members", self._h_thread_members),
            ("GET", f"/guilds/{snow.format('gid')}", self._h_get_guild),
            ("GET", f"/guilds/{snow.format('gid')}/channels", self._h_guild_channels),
            ("GET", f"/guilds/{snow.format('gid')}/roles", self._h_guild_roles),
            ("GET", f"/guilds/{snow.format('gid')}/members", self._h_guild_members),
            ("GET", f"/guilds/{snow.format('gid')}/members/{snow.format('uid')}", self._h_guild_member),
        ]
        self._routes = [(m, re.compile(rx), h) for m, rx, h in table]

    # ---------------------------------------------------------------------------------------------- REST: basics

    async def _h_me(self, ctx: _Ctx) -> Any:
        return self.bot

    async def _h_get_user(self, ctx: _Ctx, user_id: str) -> Any:
        if user_id not in self.users:
            raise HTTPError("unknown_user")
        return self.users[user_id]

    async def _h_app_info(self, ctx: _Ctx) -> Any:
        return {
            "id": self.application_id,
            "name": self.bot["username"],
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": False,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": self.application_flags,
            "owner": self.owner,
            "team": None,
            "bot": self.bot,
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "tags": [],
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        }

    async def _h_gateway(self, ctx: _Ctx) -> Any:
        return {"url": self.gateway_url}

    async def _h_gateway_bot(self, ctx: _Ctx) -> Any:
        return {"url": self.gateway_url, "shards": self.recommended_shards,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}

    async def _h_no_content(self, ctx: _Ctx, **_: str) -> Any:
        return None

    # ---------------------------------------------------------------------------------------------- REST: commands

    def _check_app(self, app: str) -> None:
        if app != self.application_id:
            raise HTTPError("not_found")

    def _scope(self, guild: str | None) -> str | None:
        if guild is not None and guild not in self.guilds:
            raise HTTPError("unknown_guild")
        return guild

    def _store_command(self, scope: str | None, data: Mapping[str, Any],
                       existing: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        old = next((c for c in existing if c["name"] == data["name"] and c.get("type", 1) == data.get("type", 1)),
                   None)
        cmd = dict(data)
        cmd.setdefault("type", 1)
        cmd.setdefault("options", [])
        cmd.setdefault("description", "")
        cmd.setdefault("default_member_permissions", None)
        cmd.setdefault("nsfw", False)
        cmd.update(id=old["id"] if old else p.snowflake(), application_id=self.application_id, version=p.snowflake())
        if scope is not None:
            cmd["guild_id"] = scope
        return cmd

    async def _h_put_commands(self, ctx: _Ctx, app: str, guild: str | None = None) -> Any:
        self._check_app(app)
        scope = self._scope(guild)
        problems = check_commands(ctx.json)
        if problems:
            raise self._violate(ctx, problems)
        existing = self.commands_by_scope.get(scope, [])
        self.commands_by_scope[scope] = [self._store_command(scope, c, existing) for c in ctx.json]
        return self.commands_by_scope[scope]

    async def _h_post_command(self, ctx: _Ctx, app: str, guild: str | None = None) -> Any:
        self._check_app(app)
        scope = self._scope(guild)
        problems = check_commands([ctx.body])
        if problems:
            raise self._violate(ctx, problems)
        existing = self.commands_by_scope.get(scope, [])
        cmd = self._store_command(scope, ctx.body, existing)
        self.commands_by_scope[scope] = [c for c in existing if c["id"] != cmd["id"]] + [cmd]
        return cmd

    async def _h_get_commands(self, ctx: _Ctx, app: str, guild: str | None = None) -> Any:
        self._check_app(app)
        return self.commands_by_scope.get(self._scope(guild), [])

    async def _h_get_command(self, ctx: _Ctx, app: str, cmd: str, guild: str | None = None) -> Any:
        self._check_app(app)
        found = next((c for c in self.commands_by_scope.get(self._scope(guild), []) if c["id"] == cmd), None)
        if found is None:
            raise HTTPError("unknown_command")
        return found

    # ---------------------------------------------------------------------------------------------- messages

    def _attachments(self, channel_id: str, body: Mapping[str, Any], files: Sequence[FakeFile],
                     keep: Sequence[tuple[dict[str, Any], FakeFile]] = ()) -> tuple[list[dict[str, Any]],
                                                                                    list[FakeFile]]:
        """New attachment list from the body's ``attachments`` and uploaded ``files`` (``files[n]`` fields);
        ``keep`` are the current attachments (edits keep those whose id the body lists)."""
        by_index = {f.index if f.index is not None else i: f for i, f in enumerate(files)}
        listed = body.get("attachments")
        out: list[tuple[dict[str, Any], FakeFile]] = []
        if isinstance(listed, list):
            current = {a["id"]: (a, f) for a, f in keep}
            for entry in listed:
                eid = str(entry.get("id"))
                if eid in current:
                    out.append(current[eid])
                    continue
                try:
                    f = by_index[int(entry.get("id"))]
                except (KeyError, TypeError, ValueError):
                    continue
                if entry.get("description") is not None:
                    f.description = entry["description"]
                if entry.get("filename"):
                    f.filename = entry["filename"]
                out.append((self._store_file(channel_id, f), f))
            listed_files = {id(f) for _, f in out}
            out += [(self._store_file(channel_id, f), f) for f in files if id(f) not in listed_files]
        else:
            out = list(keep) + [(self._store_file(channel_id, f), f) for f in files]
        return [a for a, _ in out], [f for _, f in out]

    def _store_file(self, channel_id: str, f: FakeFile) -> dict[str, Any]:
        aid = p.snowflake()
        self._files[aid] = f
        return _file_attachment(aid, f, f"{self.http_url}/attachments/{channel_id}/{aid}/{f.filename}")

    def _new_message(self, channel_id: str, body: Mapping[str, Any], files: Sequence[FakeFile], *,
                     source: str, interaction: InteractionRecord | None = None, flags: int | None = None
                     ) -> FakeMessage:
        ch = self.channels.get(channel_id, {})
        attachments, kept_files = self._attachments(channel_id, body, files)
        payload: dict[str, Any] = {
            "id": p.snowflake(),
            "type": 0,
            "channel_id": channel_id,
            "author": self.bot,
            "content": body.get("content") or "",
            "timestamp": p.iso_now(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": [dict(e, type=e.get("type", "rich")) for e in body.get("embeds") or []],
            "pinned": False,
            "flags": int(body.get("flags") or 0) if flags is None else flags,
            "components": list(body.get("components") or []),
        }
        if ch.get("guild_id"):
            payload["guild_id"] = ch["guild_id"]
        if body.get("message_reference"):
            payload["type"] = 19
            payload["message_reference"] = body["message_reference"]
        if body.get("poll"):
            payload["poll"] = body["poll"]
        if interaction is not None:
            ip = interaction.payload
            iuser = (ip.get("member") or {}).get("user") or ip.get("user")
            payload["webhook_id"] = self.application_id
            payload["application_id"] = self.application_id
            payload["interaction_metadata"] = {
                "id": interaction.id, "type": interaction.type, "user": iuser,
                "authorizing_integration_owners": ip.get("authorizing_integration_owners", {}),
            }
            if interaction.type == 2 and source == "interaction":
                payload["type"] = 20
                payload["interaction"] = {"id": interaction.id, "type": 2, "name": ip["data"]["name"], "user": iuser}
        msg = FakeMessage(payload=payload, files=kept_files, source=source,
                          interaction_id=interaction.id if interaction else None)
        self._messages[msg.id] = msg
        if ch:
            ch["last_message_id"] = msg.id
        if self.echo_messages and not msg.ephemeral:
            self._emit("MESSAGE_CREATE", dict(payload))
        return msg

    def _edit(self, msg: FakeMessage, body: Mapping[str, Any], files: Sequence[FakeFile]) -> FakeMessage:
        msg.history.append(json.loads(json.dumps(msg.payload)))
        new = dict(msg.payload)
        for key in ("content", "embeds", "components", "allowed_mentions", "poll"):
            if key in body:
                new[key] = body[key] if body[key] is not None else ([] if key in ("embeds", "components") else "")
        if "flags" in body and body["flags"] is not None:
            # only SUPPRESS_EMBEDS / components v2 can be changed; ephemeral stays as it was
            new["flags"] = (int(body["flags"]) & ~(EPHEMERAL | LOADING)) | (msg.flags & EPHEMERAL)
        new["flags"] = int(new.get("flags") or 0) & ~LOADING
        if "attachments" in body or files:
            keep = list(zip(msg.payload.get("attachments") or [], msg.files, strict=False))
            new["attachments"], msg.files = self._attachments(msg.channel_id, body, files, keep)
        new["edited_timestamp"] = p.iso_now()
        msg.payload = new
        return msg

    def _channel(self, cid: str) -> dict[str, Any]:
        ch = self.channels.get(cid)
        if ch is None:
            raise HTTPError("unknown_channel")
        return ch

    def _visible_message(self, cid: str, mid: str) -> FakeMessage:
        msg = self._messages.get(mid)
        if msg is None or msg.deleted or msg.channel_id != cid or msg.ephemeral:
            raise HTTPError("unknown_message")
        return msg

    def _check_body(self, ctx: _Ctx, body: Mapping[str, Any], *, creating: bool) -> None:
        problems = check_message(body, ctx.files, creating=creating, size_limit=self.attachment_size_limit)
        if problems:
            raise self._violate(ctx, problems)

    async def _h_send(self, ctx: _Ctx, cid: str) -> Any:
        await self._hold(cid)
        ch = self._channel(cid)
        if ch.get("type") == 1:
            recipient = next((str(r["id"]) for r in ch.get("recipients") or []), None)
            if recipient in self.refused_dm_users:
                raise HTTPError("cannot_dm")
        if ch.get("type") in (4, 2, 13):
            raise HTTPError("wrong_channel_type")
        self._check_body(ctx, ctx.body, creating=True)  # a rule broken is recorded whatever happens next
        if cid in self.denied_channels:
            raise HTTPError("missing_permissions")
        failure = self.failing_sends.get(cid, [])[:1]
        if failure:
            self.failing_sends[cid].pop(0)
        status, created = failure[0] if failure else (0, False)
        if status == 400:
            raise HTTPError("invalid_form_body", "refused by FakeDiscord.fail_sends")
        if status and not created:
            raise HTTPError(f"server_error_{status}")
        body = ctx.body
        nonce = body.get("nonce")
        key = (cid, str(nonce))
        if nonce is not None and body.get("enforce_nonce"):
            seen = self._nonces.get(key)
            if seen is not None and time.monotonic() - seen[1] <= self.nonce_window:
                earlier = self._messages[seen[0]]
                if earlier.deleted:
                    raise HTTPError("unknown_message")
                if status:
                    raise HTTPError(f"server_error_{status}")
                return earlier.payload  # Discord's documented answer: the message created with that nonce, again
        msg = self._new_message(cid, body, ctx.files, source="channel")
        if nonce is not None:
            msg.payload["nonce"] = nonce
            self._nonces[key] = (msg.id, time.monotonic())
        if status:
            raise HTTPError(f"server_error_{status}")  # created, but the answer is lost
        return msg.payload

    async def _h_history(self, ctx: _Ctx, cid: str) -> Any:
        self._channel(cid)
        limit = int(ctx.query.get("limit", 50))
        msgs = [m.payload for m in self._messages.values()
                if m.channel_id == cid and not m.deleted and not m.ephemeral]
        return list(reversed(msgs))[:limit]

    async def _h_get_message(self, ctx: _Ctx, cid: str, mid: str) -> Any:
        return self._visible_message(cid, mid).payload

    async def _h_edit_message(self, ctx: _Ctx, cid: str, mid: str) -> Any:
        msg = self._visible_message(cid, mid)
        if msg.payload["author"]["id"] != self.bot["id"] and set(ctx.body) - {"flags"}:
            raise HTTPError("not_author")
        self._check_body(ctx, ctx.body, creating=False)
        return self._edit(msg, ctx.body, ctx.files).payload

    async def _h_delete_message(self, ctx: _Ctx, cid: str, mid: str) -> Any:
        self._visible_message(cid, mid).deleted = True
        return None

    # ---------------------------------------------------------------------------------------------- channels

    async def _h_get_channel(self, ctx: _Ctx, cid: str) -> Any:
        return self._channel(cid)

    async def _h_edit_channel(self, ctx: _Ctx, cid: str) -> Any:
        ch = self._channel(cid)
        body = ctx.body
        for key in ("name", "topic", "rate_limit_per_user", "position", "nsfw", "parent_id"):
            if key in body:
                ch[key] = body[key]
        if "thread_metadata" in ch:
            for key in ("archived", "locked", "invitable", "auto_archive_duration"):
                if key in body:
                    ch["thread_metadata"][key] = body[key]
        if len(ch.get("name") or "") > 100:
            raise self._violate(ctx, [_Problem("channel_name_too_long", f"name of {len(ch['name'])} chars")])
        event = "THREAD_UPDATE" if ch.get("type") in (10, 11, 12) else "CHANNEL_UPDATE"
        if ch.get("guild_id"):
            self._emit(event, dict(ch))
        return ch

    async def _h_delete_channel(self, ctx: _Ctx, cid: str) -> Any:
        ch = self.channels.pop(cid, None)
        if ch is None:
            raise HTTPError("unknown_channel")
        if ch.get("guild_id"):
            event = "THREAD_DELETE" if ch.get("type") in (10, 11, 12) else "CHANNEL_DELETE"
            self._emit(event, {k: ch[k] for k in ("id", "guild_id", "parent_id", "type") if k in ch})
        return ch

    async def _h_create_dm(self, ctx: _Ctx) -> Any:
        uid = str(ctx.body.get("recipient_id"))
        if uid not in self.users:
            raise HTTPError("invalid_recipient")
        cid = self.dm_channel_of.get(uid)
        if cid is None:
            ch = self.add_channel(p.dm_channel(self.users[uid]))
            cid = ch["id"]
        return self.channels[cid]

    async def _h_create_thread(self, ctx: _Ctx, cid: str, mid: str | None = None) -> Any:
        parent = self._channel(cid)
        if parent.get("type") not in (0, 5, 15, 16):
            raise HTTPError("wrong_channel_type")
        if cid in self.denied_threads:
            raise HTTPError("missing_permissions")
        body = ctx.body
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            raise self._violate(ctx, [_Problem("thread_name_too_long", f"thread name of {len(name)} chars (1-100)")])
        if mid is not None:
            self._visible_message(cid, mid)
            private = False
        else:
            private = int(body.get("type") or 12) == 12
        thread = p.thread_channel(parent, name, owner_id=self.bot["id"], private=private, id=mid,
                                  auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
                                  invitable=bool(body.get("invitable", True)))
        thread["rate_limit_per_user"] = body.get("rate_limit_per_user") or 0
        self.add_channel(thread)
        self.thread_members[thread["id"]] = {self.bot["id"]}
        if mid is not None:
            self._messages[mid].payload["thread"] = thread
        self._emit("THREAD_CREATE", dict(thread, newly_created=True))
        return thread

    def _thread(self, cid: str) -> dict[str, Any]:
        ch = self._channel(cid)
        if ch.get("type") not in (10, 11, 12):
            raise HTTPError("wrong_channel_type")
        return ch

    async def _h_thread_member_add(self, ctx: _Ctx, cid: str, uid: str) -> Any:
        self._thread(cid)
        uid = self.bot["id"] if uid == "@me" else uid
        if uid not in self.users:
            raise HTTPError("unknown_user")
        self.thread_members.setdefault(cid, set()).add(uid)
        return None

    async def _h_thread_member_remove(self, ctx: _Ctx, cid: str, uid: str) -> Any:
        self._thread(cid)
        self.thread_members.setdefault(cid, set()).discard(self.bot["id"] if uid == "@me" else uid)
        return None

    async def _h_thread_members(self, ctx: _Ctx, cid: str) -> Any:
        self._thread(cid)
        return [{"id": cid, "user_id": u, "join_timestamp": p.iso_now(), "flags": 0}
                for u in sorted(self.thread_members.get(cid, set()))]

    # ---------------------------------------------------------------------------------------------- guilds

    def _guild(self, gid: str) -> dict[str, Any]:
        if gid not in self.guilds:
            raise HTTPError("unknown_guild")
        return self.guilds[gid]

    async def _h_get_guild(self, ctx: _Ctx, gid: str) -> Any:
        g = {k: v for k, v in self._guild(gid).items() if k not in ("channels", "members", "threads", "presences",
                                                                     "voice_states")}
        g["approximate_member_count"] = sum(1 for (mg, _) in self.members if mg == gid)
        g["approximate_presence_count"] = 0
        return g

    async def _h_guild_channels(self, ctx: _Ctx, gid: str) -> Any:
        self._guild(gid)
        return [c for c in self.channels.values() if c.get("guild_id") == gid and c["type"] not in (10, 11, 12)]

    async def _h_guild_roles(self, ctx: _Ctx, gid: str) -> Any:
        return self._guild(gid).get("roles", [])

    async def _h_guild_members(self, ctx: _Ctx, gid: str) -> Any:
        self._guild(gid)
        after = int(ctx.query.get("after", 0))
        limit = int(ctx.query.get("limit", 1))
        ms = sorted(((int(u), m) for (g, u), m in self.members.items() if g == gid), key=lambda t: t[0])
        return [{k: v for k, v in m.items() if k != "permissions"} for u, m in ms if u > after][:limit]

    async def _h_guild_member(self, ctx: _Ctx, gid: str, uid: str) -> Any:
        self._guild(gid)
        m = self.members.get((gid, uid))
        if m is None:
            if uid == self.bot["id"]:
                return dict(self._bot_member(gid))
            raise HTTPError("unknown_member")
        return {k: v for k, v in m.items() if k != "permissions"}

    # ---------------------------------------------------------------------------------------------- interactions

    async def _h_callback(self, ctx: _Ctx, iid: str, token: str) -> Any:
        rec = self.interactions.get(iid)
        body = ctx.body
        ctype = int(body.get("type") or 0)
        data = body.get("data") or {}
        if rec is None or rec.token != token:
            raise self._violate(ctx, [_Problem("unknown_interaction", f"callback for unknown interaction {iid}",
                                               kind="unknown_interaction")])
        cb = CallbackRecord(type=ctype, data=data, files=list(ctx.files), elapsed=time.monotonic() - rec.dispatched_at)
        rec.responses.append(cb)
        try:
            result = self._callback(ctx, rec, cb)
        except HTTPError as e:
            cb.status = ERRORS[e.kind][0]
            raise
        cb.status = 200
        return result

    def _callback(self, ctx: _Ctx, rec: InteractionRecord, cb: CallbackRecord) -> Any:
        ctype, data = cb.type, cb.data
        if rec.acknowledged:
            raise self._violate(ctx, [_Problem("double_response", f"second initial response (type {ctype}) to "
                                               f"interaction {rec.id}, already answered with type {rec.ack_type}",
                                               kind="already_acknowledged")])
        if cb.elapsed > self.interaction_deadline:
            raise self._violate(ctx, [_Problem("late_response", f"initial response (type {ctype}) {cb.elapsed:.2f}s "
                                               f"after dispatch (limit {self.interaction_deadline}s)",
                                               kind="unknown_interaction")])
        itype = rec.type
        if ctype in (4, 5):
            valid = itype in (2, 3, 5)
        elif ctype in (6, 7):
            valid = itype == 3 or (itype == 5 and "message" in rec.payload)
        elif ctype == 8:
            valid = itype == 4
        elif ctype == 9:
            valid = itype in (2, 3)
        else:
            valid = False
        if not valid:
            raise self._violate(ctx, [_Problem("invalid_response_type", f"response type {ctype} to an interaction "
                                                                        f"of type {itype}")])
        problems: list[_Problem] = []
        if ctype in (4, 7):
            problems = check_message(data, ctx.files, creating=ctype == 4, size_limit=self.attachment_size_limit)
        elif ctype == 8:
            problems = check_choices(data)
        elif ctype == 9:
            problems = check_modal(data)
        if problems:
            raise self._violate(ctx, problems)

        rec.ack_type = ctype
        channel_id = str(rec.payload.get("channel_id") or (rec.payload.get("channel") or {}).get("id"))
        interaction_info: dict[str, Any] = {"id": rec.id, "type": itype}
        resource: dict[str, Any] | None = {"type": ctype}
        if ctype == 4:
            msg = self._new_message(channel_id, data, ctx.files, source="interaction", interaction=rec)
            rec.original_message_id = msg.id
            resource = {"type": 4, "message": msg.payload}
        elif ctype == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            msg = self._new_message(channel_id, {}, [], source="interaction", interaction=rec, flags=flags)
            rec.original_message_id = msg.id
            resource = {"type": 5, "message": msg.payload}
        elif ctype in (6, 7):
            mid = str(rec.payload["message"]["id"])
            rec.original_message_id = mid
            if ctype == 7:
                msg = self._edit(self._messages[mid], data, ctx.files)
                resource = {"type": 7, "message": msg.payload}
        elif ctype == 8:
            resource = None
        if rec.original_message_id:
            m = self._messages[rec.original_message_id]
            interaction_info.update(response_message_id=m.id, response_message_loading=m.loading,
                                    response_message_ephemeral=m.ephemeral)
        out: dict[str, Any] = {"interaction": interaction_info}
        if resource is not None:
            out["resource"] = resource
        return out

    def _webhook_interaction(self, ctx: _Ctx, app: str, token: str) -> InteractionRecord:
        iid = self._by_token.get(token)
        if app != self.application_id or iid is None:
            raise HTTPError("unknown_webhook")
        rec = self.interactions[iid]
        if time.monotonic() - rec.dispatched_at > self.token_lifetime:
            raise self._violate(ctx, [_Problem("expired_token", f"interaction token used after "
                                               f"{self.token_lifetime}s", kind="invalid_webhook_token")])
        if not rec.acknowledged:
            raise self._violate(ctx, [_Problem("webhook_before_response", f"{ctx.record.method} on interaction "
                                               f"{rec.id}'s webhook before any initial response",
                                               kind="unknown_webhook")])
        return rec

    async def _h_followup(self, ctx: _Ctx, app: str, token: str) -> Any:
        rec = self._webhook_interaction(ctx, app, token)
        if rec.ack_type in (8, 9):
            raise self._violate(ctx, [_Problem("followup_without_message", f"followup after a type {rec.ack_type} "
                                               "response", kind="unknown_webhook")])
        self._check_body(ctx, ctx.body, creating=True)
        original = self._messages.get(rec.original_message_id or "")
        if rec.ack_type == 5 and original is not None and original.loading and not rec._followed_up_defer:
            # Discord: the first followup after a "thinking" defer replaces the loading message (and keeps the
            # defer's ephemerality)
            rec._followed_up_defer = True
            msg = self._edit(original, ctx.body, ctx.files)
            msg.payload["flags"] = (int(ctx.body.get("flags") or 0) & ~(EPHEMERAL | LOADING)) | (
                original.flags & EPHEMERAL)
        else:
            channel_id = str(rec.payload.get("channel_id") or rec.payload["channel"]["id"])
            msg = self._new_message(channel_id, ctx.body, ctx.files, source="followup", interaction=rec)
        rec.followup_ids.append(msg.id)
        if not _truthy(ctx.query.get("wait")):
            return None
        return msg.payload

    def _webhook_message(self, rec: InteractionRecord, mid: str) -> FakeMessage:
        if mid == "@original":
            if rec.original_message_id is None:
                raise HTTPError("unknown_message")
            mid = rec.original_message_id
        if mid != rec.original_message_id and mid not in rec.followup_ids:
            raise HTTPError("unknown_message")
        msg = self._messages.get(mid)
        if msg is None or msg.deleted:
            raise HTTPError("unknown_message")
        return msg

    async def _h_webhook_get(self, ctx: _Ctx, app: str, token: str, mid: str) -> Any:
        rec = self._webhook_interaction(ctx, app, token)
        return self._webhook_message(rec, mid).payload

    async def _h_webhook_edit(self, ctx: _Ctx, app: str, token: str, mid: str) -> Any:
        rec = self._webhook_interaction(ctx, app, token)
        msg = self._webhook_message(rec, mid)
        self._check_body(ctx, ctx.body, creating=False)
        if msg.loading:
            rec._followed_up_defer = True
        return self._edit(msg, ctx.body, ctx.files).payload

    async def _h_webhook_delete(self, ctx: _Ctx, app: str, token: str, mid: str) -> Any:
        rec = self._webhook_interaction(ctx, app, token)
        self._webhook_message(rec, mid).deleted = True
        return None
