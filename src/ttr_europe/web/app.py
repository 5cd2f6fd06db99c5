"""The Starlette application: the page, its static files and the WebSocket at ``/ws``.

Every message goes through ``Hub.receive`` on the server's one event loop, so the engine is
never entered by two messages at once. A message the hub cannot handle for a reason it did not
foresee still gets a JSON error, and the connection and the server carry on.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..match import Match
from .hub import Client, Hub, error

STATIC = Path(str(files("ttr_europe.web") / "static"))
WS_MAX_BYTES = 1 << 20  # frames larger than this close the connection (code 1009)
log = logging.getLogger("ttr_europe.web")


def create_app(make_match: Callable[[], Match], *, hub: Hub | None = None) -> Starlette:
    """The web application; ``make_match`` deals each new match (seats, map, seed)."""
    the_hub = hub if hub is not None else Hub(make_match)

    async def index(request: Any) -> Response:
        return FileResponse(STATIC / "index.html")

    sockets: dict[Client, WebSocket] = {}

    async def send(target: Client, doc: dict[str, Any]) -> None:
        socket = sockets.get(target)
        if socket is None:
            return
        try:
            await socket.send_text(json.dumps(doc))
        except Exception:  # that tab has gone; its own loop forgets it
            the_hub.leave(target)

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        client = Client()
        sockets[client] = websocket
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                payload = text if text is not None else message.get("bytes", b"")
                try:
                    outgoing = the_hub.receive(client, payload)
                except Exception:  # a fault of ours: answer, log, keep serving
                    log.exception("message not handled")
                    outgoing = [(client, error("internal", "the server could not handle that"))]
                for target, doc in outgoing:
                    await send(target, doc)
        except WebSocketDisconnect:
            pass
        finally:
            the_hub.leave(client)
            del sockets[client]

    app = Starlette(
        routes=[
            Route("/", index),
            WebSocketRoute("/ws", socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )
    app.state.hub = the_hub
    return app
