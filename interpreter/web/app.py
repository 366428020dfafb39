"""The web application of `snowrules serve`: the page, its JSON over HTTP and a websocket.

Every request of a seat carries that seat's token (HTTP: `Authorization: Bearer TOKEN`; the
websocket: a first message `{"token": TOKEN}`), and the token alone says whose view is sent and
for whom an answer counts: there is no seat number a page could change to read another's view.
The page reads the token from its link's fragment (`/#TOKEN`), which a browser never sends to a
server, so it appears in no request line or access log. Bodies and websocket messages are
bounded in size, requests and messages in rate (a clear JSON error, never a traceback), and
every response carries a Content-Security-Policy that lets the page run only its own script.

Routes: `GET /` the page; `GET /static/{table.js,table.css}`; `GET /api/state` (`?since=N`: the
account from line N; a watch also takes `step` and `reader`); `POST /api/answer` with
`{"index": I}` (and `"seat": S` when a player holds several seats); `WS /ws`. A watching page
sends `{"step": S, "reader": R}`, or `{"follow": true, "reader": R}` for the newest step of a game
whose log is still being written.
"""
from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

from snowrules.web.table import AnswerError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

ASSETS = {"table.js": "text/javascript; charset=utf-8", "table.css": "text/css; charset=utf-8"}
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = [(b"content-security-policy", POLICY.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY"), (b"cache-control", b"no-store")]


@dataclass(frozen=True)
class Limits:
    """How much a client may send: bytes in a body or a websocket message, requests (per client
    address) and messages (per websocket) a second with a burst, websockets open per seat, and
    seconds a new websocket has to send its token."""

    body_bytes: int = 2048
    message_bytes: int = 2048
    requests_per_second: float = 20.0
    request_burst: int = 40
    messages_per_second: float = 10.0
    message_burst: int = 20
    sockets_per_seat: int = 4
    token_seconds: float = 10.0


class Bucket:
    """A token bucket: `take` is True while the rate (with its burst) is kept."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.level, self.last = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.last) * self.rate)
        self.last = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


class Refused(Exception):
    """A request refused with an HTTP status and a message for the person."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def asset(name: str) -> bytes:
    return resources.files("snowrules.web").joinpath("static", name).read_bytes()


class Guard:
    """ASGI middleware: security headers on every response, and each client address's request
    rate (websocket handshakes included) kept under the limit."""

    def __init__(self, app, limits: Limits, clock: Callable[[], float]):
        self.app, self.limits, self.clock = app, limits, clock
        self.buckets: dict[str, Bucket] = {}

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        client = (scope.get("client") or ("?", 0))[0]
        bucket = self.buckets.get(client)
        if bucket is None:
            if len(self.buckets) > 1000:  # forget the clients of long ago rather than grow
                self.buckets.clear()
            bucket = self.buckets[client] = Bucket(self.limits.requests_per_second, self.limits.request_burst,
                                                   self.clock)
        if not bucket.take():
            if scope["type"] == "websocket":
                return await send({"type": "websocket.close", "code": 1008})
            message = f"too many requests: at most {self.limits.requests_per_second:g} a second; wait a moment"
            return await JSONResponse({"error": message}, 429, headers={"retry-after": "1"})(
                {**scope, "type": "http"}, receive, self._with_headers(send))
        if scope["type"] == "http":
            return await self.app(scope, receive, self._with_headers(send))
        return await self.app(scope, receive, send)

    @staticmethod
    def _with_headers(send):
        async def sending(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)
        return sending


@dataclass(eq=False)
class Connection:
    socket: WebSocket
    reader: object
    sent: int = 0               # account lines this page has
    step: int = 0               # a watch: the step and reader shown
    shown: object = None
    bucket: Bucket | None = None


def create_app(room, limits: Limits = Limits(), clock: Callable[[], float] = time.monotonic) -> Starlette:
    """The application serving one `Table` (a live game) or one `Watch` (a saved game)."""
    connections: list[Connection] = []
    watching = room.kind == "watch"
    telling = asyncio.Lock()   # one page is told one state at a time: its account's lines in order, once

    def reader_of(request: Request):
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        reader = room.player_of(token.strip()) if scheme.lower() == "bearer" else None
        if reader is None:
            raise Refused(401, "this request has no valid seat token: open the join link that "
                          "`snowrules serve` printed (it ends with #TOKEN)")
        return reader

    async def body_of(request: Request) -> dict:
        declared = request.headers.get("content-length")
        if declared is not None and (not (declared.isascii() and declared.isdigit())
                                     or int(declared) > limits.body_bytes):
            raise Refused(413, f"the request body is over {limits.body_bytes} bytes")
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > limits.body_bytes:
                raise Refused(413, f"the request body is over {limits.body_bytes} bytes")
        return parsed(data)

    def snapshot(reader, since: int, step=None, shown=None) -> dict:
        if watching:
            return room.snapshot(step, shown, since)
        return room.snapshot(reader, since)

    async def page(_request: Request) -> Response:
        return Response(asset("table.html"), media_type="text/html; charset=utf-8")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            raise Refused(404, f"no file {name!r} here")
        return Response(asset(name), media_type=ASSETS[name])

    async def state(request: Request) -> Response:
        reader = reader_of(request)
        query = request.query_params
        since = number(query.get("since", "0"), "since")
        if watching:
            step = number(query.get("step", "0"), "step")
            shown = None if query.get("reader", "") in ("", "all") else number(query["reader"], "reader")
            try:
                data = await run_in_threadpool(room.snapshot, step, shown, since)
            except ValueError as error:
                raise Refused(400, str(error)) from None
        else:
            data = await run_in_threadpool(room.snapshot, reader, since)
        return JSONResponse(data)

    async def answer(request: Request) -> Response:
        reader = reader_of(request)
        if watching:
            raise Refused(400, "a saved game is watched, not played: there is nothing to answer")
        body = await body_of(request)
        try:
            await run_in_threadpool(room.answer, reader, body.get("index"), body.get("seat"))
        except AnswerError as error:
            raise Refused(409, str(error)) from None
        await broadcast()
        if room.failure is not None:      # the rules failed on the way: every page was told
            raise Refused(409, room.failure)
        return JSONResponse({"ok": True})

    async def broadcast() -> None:
        """Each open page of the table is sent its seat's new state."""
        async with telling:
            for connection in list(connections):
                data = await run_in_threadpool(room.snapshot, connection.reader, connection.sent)
                connection.sent = data["account_start"] + len(data["account"])
                try:
                    await connection.socket.send_json(data)
                except Exception:  # noqa: BLE001 - a page gone meanwhile: its own loop removes it
                    continue

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        connection = None
        try:
            try:
                first = await asyncio.wait_for(receive(websocket), limits.token_seconds)
            except TimeoutError:
                return await refuse(websocket, "no token came: send {\"token\": ...} first", 1008)
            reader = room.player_of(first.get("token"))
            if reader is None:
                return await refuse(websocket, "this link's token is not one of this table's: open the join "
                                    "link that `snowrules serve` printed", 1008)
            if sum(c.reader == reader for c in connections) >= limits.sockets_per_seat:
                return await refuse(websocket, f"this seat has {limits.sockets_per_seat} pages open already: "
                                    "close one", 1008)
            connection = Connection(websocket, reader, bucket=Bucket(limits.messages_per_second,
                                                                     limits.message_burst, clock))
            connections.append(connection)
            await send_state(connection)
            while True:
                try:
                    message = await receive(websocket, connection.bucket)
                except Refused as error:
                    if error.status == 413:
                        return await refuse(websocket, error.message, 1009)
                    await websocket.send_json({"error": error.message})
                    continue
                await act(connection, message)
        except WebSocketDisconnect:
            return None
        except Refused as error:
            return await refuse(websocket, error.message, 1008)
        except Exception as error:  # noqa: BLE001 - the last guard of a page's connection
            internal(error)
            return await refuse(websocket, INTERNAL, 1011)
        finally:
            if connection in connections:
                connections.remove(connection)

    async def act(connection: Connection, message: dict) -> None:
        if watching:
            step, shown = message.get("step", connection.step), message.get("reader", connection.shown)
            if message.get("follow") is True:    # the page is at the last step: the game's newest step
                try:
                    await run_in_threadpool(room.follow)
                except ValueError as error:
                    return await connection.socket.send_json({"error": str(error)})
                step = len(room.steps) - 1
            same = shown == connection.shown and step.__class__ is int and step >= connection.step
            try:
                data = await run_in_threadpool(room.snapshot, step, shown, connection.sent if same else 0)
            except ValueError as error:
                return await connection.socket.send_json({"error": str(error)})
            connection.step, connection.shown = step, shown
            connection.sent = data["account_start"] + len(data["account"])
            return await connection.socket.send_json(data)
        choice = message.get("answer")
        if not isinstance(choice, dict):
            return await connection.socket.send_json({"error": "send {\"answer\": {\"index\": I}}"})
        try:
            await run_in_threadpool(room.answer, connection.reader, choice.get("index"), choice.get("seat"))
        except AnswerError as error:
            return await connection.socket.send_json({"error": str(error)})
        await broadcast()

    async def send_state(connection: Connection) -> None:
        async with telling:
            data = await run_in_threadpool(snapshot, connection.reader, 0, connection.step, connection.shown)
            connection.sent = data["account_start"] + len(data["account"])
            await connection.socket.send_json(data)

    async def receive(websocket: WebSocket, bucket: Bucket | None = None) -> dict:
        """The next message, bounded in size, then in rate (every message counts, a malformed
        one too), then parsed: a Refused when it is not a small JSON object."""
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text, data = message.get("text"), message.get("bytes")
        if len(text.encode("utf-8") if text is not None else data or b"") > limits.message_bytes:
            raise Refused(413, f"a message is at most {limits.message_bytes} bytes")
        if bucket is not None and not bucket.take():
            raise Refused(429, f"too many messages: at most {limits.messages_per_second:g} a second; wait a moment")
        if text is None:
            raise Refused(400, "send text messages (JSON), not binary ones")
        return parsed(text)

    def guarded(endpoint):
        """The endpoint, its refusals answered as JSON and a failure as one clear line: on the
        page and on the server's terminal, never a traceback."""
        async def answering(request: Request) -> Response:
            try:
                return await endpoint(request)
            except Refused as error:
                return JSONResponse({"error": error.message}, error.status)
            except Exception as error:  # noqa: BLE001 - the last guard of a request
                internal(error)
                return JSONResponse({"error": INTERNAL}, 500)
        return answering

    routes = [Route(path, guarded(endpoint), methods=methods) for path, endpoint, methods in (
        ("/", page, ["GET"]), ("/static/{name}", static, ["GET"]), ("/api/state", state, ["GET"]),
        ("/api/answer", answer, ["POST"]))] + [WebSocketRoute("/ws", socket)]
    app = Starlette(routes=routes)
    app.add_middleware(Guard, limits=limits, clock=clock)
    return app


INTERNAL = "internal error in snowrules (a bug, not your answer); the server said what on its terminal"


def internal(error: Exception) -> None:
    print(f"snowrules serve: internal error: {type(error).__name__}: {error}", file=sys.stderr, flush=True)


async def refuse(websocket: WebSocket, message: str, code: int) -> None:
    """Say why, then close (a page already gone is simply left)."""
    try:
        await websocket.send_json({"error": message})
        await websocket.close(code)
    except Exception:  # noqa: BLE001 - nobody left to tell
        return


def parsed(data: str | bytes) -> dict:
    """A small JSON object (a Refused for anything else: not JSON, too deep, not an object)."""
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        raise Refused(400, "not JSON: send one JSON object") from None
    if not isinstance(value, dict):
        raise Refused(400, "send one JSON object")
    return value


def number(text: str, name: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise Refused(400, f"{name} must be a whole number, not {text[:20]!r}")
    return int(text)
