"""The server's outer wall, as one ASGI middleware in front of everything else:

- the ``Host`` header must name this server (DNS rebinding: a foreign page whose name
  resolves to 127.0.0.1 must not reach the API), and a WebSocket's ``Origin``, when sent,
  must too (:func:`host_allowed`);
- request bodies are limited to :data:`MAX_BODY_BYTES`: a larger ``Content-Length`` is
  refused (413) before anything is read, and a body without one is counted chunk by chunk
  as the application reads it and cut off (413) once it is over;
- every HTTP answer (pages, API, static files, errors) carries ``nosniff``, a strict
  Content-Security-Policy and ``no-referrer`` (an answer that sets its own keeps it).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Request bodies above this are refused with 413 (a create-table body is ~80 bytes).
MAX_BODY_BYTES = 64 * 1024
#: Paths that take a larger body (a record file to check), with their own limit.
UPLOAD_LIMITS: dict[str, int] = {"/api/records/check": 2_000_000}
#: Host names always accepted: this machine's loopback names.
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})

#: Where a WebSocket's scope keeps the server's transport (uvicorn's), so that a client
#: that never reads can be dropped even though its close frame cannot be written.
TRANSPORT_KEY = "cardavia.transport"

#: No request may leave the machine: everything comes from this origin.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


def host_name(value: str) -> str:
    """The host name of a ``Host`` header value (no port, no brackets, lower case).

    >>> host_name("LocalHost:8000"), host_name("[::1]:80"), host_name("127.0.0.1")
    ('localhost', '::1', '127.0.0.1')
    """
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


def allowed_hosts(extra: Iterable[str] = ()) -> frozenset[str]:
    """The loopback names plus ``extra`` (``--allowed-host``, the ``--host`` served on)."""
    names = {host_name(h) for h in extra if h and h not in ("0.0.0.0", "::")}
    return LOOPBACK_HOSTS | frozenset(names)


def host_allowed(value: str | None, hosts: frozenset[str]) -> bool:
    """Whether a ``Host`` header value names this server.

    >>> host_allowed("127.0.0.1:8000", LOOPBACK_HOSTS), host_allowed("evil.example", LOOPBACK_HOSTS)
    (True, False)
    """
    return value is not None and host_name(value) in hosts


def origin_allowed(origin: str | None, hosts: frozenset[str]) -> bool:
    """Whether a WebSocket's ``Origin`` may connect: absent (not a browser), or a page of
    an allowed host.

    >>> origin_allowed(None, LOOPBACK_HOSTS), origin_allowed("http://evil.example", LOOPBACK_HOSTS)
    (True, False)
    >>> origin_allowed("http://localhost:8000", LOOPBACK_HOSTS)
    True
    """
    if origin is None:
        return True
    try:
        parts = urlsplit(origin)
        name = parts.hostname
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and name is not None and name.lower() in hosts


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


async def _answer(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyTooLarge(HTTPException):
    """Raised into the application when a streamed body goes over the limit (FastAPI
    passes HTTP exceptions through its body parsing: the answer is this 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request bodies are limited to {limit} bytes")


class Guard:
    """The ASGI middleware (see the module's docstring)."""

    def __init__(
        self, app: ASGIApp, hosts: frozenset[str] = LOOPBACK_HOSTS, max_body: int = MAX_BODY_BYTES
    ) -> None:
        self.app = app
        self.hosts = hosts
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if not host_allowed(_header(scope, b"host"), self.hosts):
            if kind == "http":
                await _answer(send, 421, "this server does not answer for that host name; "
                              "start it with --allowed-host NAME to allow it")
            else:  # refuse the handshake (403)
                await send({"type": "websocket.close", "code": 1008})
            return
        if kind == "websocket":
            if not origin_allowed(_header(scope, b"origin"), self.hosts):
                await send({"type": "websocket.close", "code": 1008})
                return
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            if transport is not None:
                scope[TRANSPORT_KEY] = transport
            await self.app(scope, receive, send)
            return
        await self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = UPLOAD_LIMITS.get(str(scope.get("path", "")), self.max_body)
        length = _header(scope, b"content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await _answer(send, 400, "the Content-Length header is not a number")
                return
            if declared > limit:
                await _answer(send, 413, f"request bodies are limited to {limit} bytes")
                return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        async def secured_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", ()))
                present = {bytes(k).lower() for k, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, limited_receive, secured_send)
        except BodyTooLarge:
            if not started:
                await _answer(send, 413, f"request bodies are limited to {limit} bytes")
