"""The Starlette application: the page, the lobby (``/lobby``), their static files and the
WebSocket at ``/ws``.

Every message goes through ``Hub.answer`` on the server's one event loop, so the engine is
never entered by two messages at once; a bot's decision runs in a thread meanwhile (a slow bot
delays its own match only). What the hub answers is queued at once for each tab it
is meant for, and each tab has its own writer: a tab sees documents in the order the hub made
them, and a tab that does not read (a stalled or hostile one) never holds up another tab's
messages; once ``MAX_PENDING`` documents wait for it, its connection is closed (a tab that
reconnects gets the whole position). A message the hub cannot handle for a reason it did not
foresee still gets a JSON error, and the connection and the server carry on.

Fairness: a tab's next message is read only once everything queued for it has been sent, so a
prompt reader may send any number of messages back to back (its answers never pile up), and a
tab whose answers wait more than ``SEND_TIMEOUT`` seconds is let go as a non-reader. Each tab
has its turn on the event loop after every message, so no tab is served twice while another
waits. A tab out of message credits (``Hub.credit_wait``) is not read until it regains one, so
a flood waits in the network rather than being inflated and refused frame by frame. A tab
silent for ``IDLE_TIMEOUT`` seconds is closed (the page pings well within it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection
from importlib.resources import files
from pathlib import Path
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from ..i18n import LANGUAGES, catalog_json, negotiate
from ..table.match import Match
from . import hub as hub_module
from .guard import Guard, address_of
from .hub import Client, Hub, error

STATIC = Path(str(files("ttr_europe.web") / "static"))
WS_MAX_BYTES = 4 * hub_module.MAX_MESSAGE_CHARS  # the largest message the hub reads, in UTF-8:
# a frame beyond it closes its connection (code 1009), inflating no more than that
MAX_PENDING = 8  # documents waiting for a tab that does not read before it is let go
SEND_TIMEOUT = 20.0  # seconds a tab's answers may wait to be sent before it is let go
IDLE_TIMEOUT = 120.0  # seconds a connection may stay silent (the page pings every 30)
MAX_SOCKETS = 1000  # WebSockets served at once; the next are refused (work in total is bounded)
MAX_SOCKETS_PER_ADDRESS = 50  # of them from one address: one client cannot hold them all
IDLE_CLOSE = 4000  # the close code of an idle or non-reading connection
log = logging.getLogger("ttr_europe.web")


@attrs.frozen
class Outbox:
    """What waits to be sent to one tab, in the order the hub made it, and its writer."""

    queue: asyncio.Queue[str]
    writer: asyncio.Future[None]


async def write(websocket: WebSocket, queue: asyncio.Queue[str]) -> None:
    """Send a tab its documents one after another; only this task writes to its socket."""
    while True:
        await websocket.send_text(await queue.get())
        queue.task_done()


async def pace(hub: Hub, client: Client) -> None:
    """Wait until ``client`` holds a message's credit: a tab out of credits has its next frame
    left unread (the network holds the rest back), not inflated, decoded and refused."""
    wait = hub.credit_wait(client)
    if wait:
        await asyncio.sleep(wait)


MAX_NAME_MARK = "{{max_name}}"  # in a page, where the server writes ``hub.MAX_NAME``


def page(name: str) -> str:
    """A page of ``static/`` with the server's limits written into it: the name fields'
    ``maxlength`` and the ``data-max-name`` its script reads come from ``hub.MAX_NAME``, the
    limit the server holds names to, so the page cannot offer more than the server takes."""
    text = (STATIC / name).read_text(encoding="utf-8")
    return text.replace(MAX_NAME_MARK, str(hub_module.MAX_NAME))


async def _index(request: Any) -> Response:
    return HTMLResponse(page("index.html"))


async def _lobby(request: Any) -> Response:
    return HTMLResponse(page("lobby.html"))


def _moved(to: str) -> Callable[[Any], Awaitable[Response]]:
    """The page's file asked for by its static path: sent to the page, which has the server's
    limits written in (the file's own text holds only their marks)."""

    async def moved(request: Any) -> Response:
        query = request.url.query
        return RedirectResponse(f"{to}?{query}" if query else to, status_code=301)

    return moved


async def _catalog(request: Any) -> Response:
    """A language's catalog (``/i18n/pt.json``), or the one ``Accept-Language`` prefers
    (``/i18n.json``): the page speaks the server's catalogs."""
    lang = request.path_params.get("lang")
    if lang is None:
        lang = negotiate(request.headers.get("accept-language"))
    if lang not in LANGUAGES:
        return JSONResponse({"error": f"no language {lang!r}"}, status_code=404)
    headers = {"Vary": "Accept-Language", "Cache-Control": "no-cache"}
    return JSONResponse(catalog_json(lang), headers=headers)


class Quota:
    """What each address holds of something the server has a fixed amount of (connections,
    WebSockets), at most ``most`` each, so that one client cannot hold it all."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.held: dict[str | None, int] = {}

    def take(self, address: str | None) -> bool:
        """Count one more for ``address``; False (nothing counted) when it holds ``most``."""
        if self.held.get(address, 0) >= self.most:
            return False
        self.held[address] = self.held.get(address, 0) + 1
        return True

    def give_back(self, address: str | None) -> None:
        self.held[address] -= 1
        if not self.held[address]:
            del self.held[address]


def create_app(
    make_match: Callable[[], Match],
    *,
    hub: Hub | None = None,
    send_timeout: float = SEND_TIMEOUT,
    idle_timeout: float = IDLE_TIMEOUT,
    max_sockets: int = MAX_SOCKETS,
    max_per_address: int = MAX_SOCKETS_PER_ADDRESS,
    local: bool = False,
    origins: Collection[str] = (),
) -> Starlette:
    """The web application; ``make_match`` deals each new match (seats, map, seed); ``hub``
    (by default one on a throwaway database) holds the matches. ``local``: it is served on the
    loopback alone, and answers loopback names only; ``origins``: sites besides its own whose
    pages may open its WebSocket (``guard``)."""
    the_hub = hub if hub is not None else Hub(make_match)

    outboxes: dict[Client, Outbox] = {}
    per_address = Quota(max_per_address)  # open WebSockets by the address they come from

    def post(target: Client, doc: dict[str, Any]) -> None:
        """Queue a document for a tab; a tab too far behind is let go (it may come back)."""
        box = outboxes.get(target)
        if box is None:
            return
        if box.queue.qsize() >= MAX_PENDING:
            the_hub.leave(target)
            del outboxes[target]
            box.writer.cancel()  # ends that tab's connection
            return
        box.queue.put_nowait(the_hub.encode(doc))

    the_hub.deliver = post  # what bots did after the tab that asked for it went

    async def read(websocket: WebSocket, client: Client) -> None:
        while True:
            await pace(the_hub, client)
            try:
                async with asyncio.timeout(idle_timeout):  # a deadline, no task per message
                    message = await websocket.receive()
            except TimeoutError:
                await websocket.close(IDLE_CLOSE, "idle")
                return
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            payload = text if text is not None else message.get("bytes", b"")
            try:
                outgoing = await the_hub.answer(client, payload)  # once the database has it
            except Exception:  # a fault of ours: answer, log, keep serving
                log.exception("message not handled")
                outgoing = [(client, error("internal", "the server could not handle that"))]
            for target, doc in outgoing:
                post(target, doc)
            box = outboxes.get(client)
            if box is None:  # let go while its answers were queued
                return
            try:  # read on once this tab has its answers: flow control, not a drop
                async with asyncio.timeout(send_timeout):
                    await box.queue.join()
            except TimeoutError:
                return  # a tab that does not read: let go
            await asyncio.sleep(0)  # every other tab has its turn before this one again

    async def socket(websocket: WebSocket) -> None:
        # its address as Uvicorn gives it (behind a proxy it trusts, the forwarded one): the
        # sockets, then the hub's limits on new matches, are each address's before the server's
        peer = websocket.client
        address = None if peer is None else address_of(peer.host)
        if len(outboxes) >= max_sockets or not per_address.take(address):
            await websocket.close(1013)  # before the handshake: HTTP 403, try again later
            return
        try:
            await serve(websocket, address)
        finally:
            per_address.give_back(address)

    async def serve(websocket: WebSocket, address: str | None) -> None:
        await websocket.accept()
        client = Client(address=address)
        queue: asyncio.Queue[str] = asyncio.Queue()
        writer = asyncio.ensure_future(write(websocket, queue))
        reader = asyncio.ensure_future(read(websocket, client))
        outboxes[client] = Outbox(queue, writer)
        try:
            await asyncio.wait((reader, writer), return_when=asyncio.FIRST_COMPLETED)
        finally:
            reader.cancel()
            writer.cancel()
            the_hub.disconnect(client)
            outboxes.pop(client, None)
        for task in (reader, writer):  # a closed connection ends either one: nothing to report
            if task.done() and not task.cancelled():
                task.exception()

    app = Starlette(
        routes=[
            Route("/", _index),
            Route("/i18n.json", _catalog),
            Route("/i18n/{lang}.json", _catalog),
            Route("/lobby", _lobby),
            Route("/static/index.html", _moved("/")),
            Route("/static/lobby.html", _moved("/lobby")),
            WebSocketRoute("/ws", socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )
    app.add_middleware(Guard, local=local, origins=origins)
    app.state.hub = the_hub
    return app
