"""Limits on new matches are each address's before they are the server's, through real
sockets: a flood of fresh connections from one loopback address (127.0.0.2; Linux routes the
whole of 127.0.0.0/8 to the loopback device, so a client may bind any of them and the server
sees each as a distinct address) cannot make a person's ``create`` or ``new`` from another
(127.0.0.3) fail."""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest
from webserver import run_async, serving

pytest.importorskip("websockets")

from websockets.asyncio.client import connect

from ttr_europe.table.match import Match
from ttr_europe.web import lobby

SEATS = [{"kind": "here"}, {"kind": "invite"}, {"kind": "greedy"}]


def _loopback_addresses_bind() -> bool:
    try:
        with socket.socket() as s:
            s.bind(("127.0.0.2", 0))
    except OSError:
        return False
    return True


pytestmark = pytest.mark.skipif(
    not _loopback_addresses_bind(), reason="this system binds 127.0.0.1 alone of 127.0.0.0/8"
)


def deal() -> Match:
    return Match.new("europe", "base", 2, 3, ["person", "greedy"])


async def _ask(url: str, address: str, doc: dict[str, Any]) -> dict[str, Any]:
    """One message from a fresh connection from ``address``; its answer."""
    async with connect(url, max_size=None, local_addr=(address, 0)) as ws:
        await ws.send(json.dumps(doc))
        answer: dict[str, Any] = json.loads(await ws.recv())
        return answer


async def _flood_then_person(url: str) -> tuple[list[str], list[str], dict[str, Any]]:
    flood = [await _ask(url, "127.0.0.2", {"type": "create", "seats": SEATS})
             for _ in range(lobby.MAX_CREATES + 2)]  # fmt: skip
    person = [await _ask(url, "127.0.0.3", {"type": "create", "seats": SEATS}),
              await _ask(url, "127.0.0.3", {"type": "new"})]  # fmt: skip
    listed = await _ask(url, "127.0.0.4", {"type": "lobby"})
    return ([a.get("code", a["type"]) for a in flood], [a.get("code", a["type"]) for a in person],
            listed)  # fmt: skip


def test_fresh_sockets_from_one_address_leave_another_address_its_create_and_new() -> None:
    with serving(deal) as server:
        flood, person, listed = run_async(_flood_then_person(server.ws))
        assert person == ["created", "created"]  # was too_many_new: the flood filled the window
        makers = {
            h.listing.maker for h in server.hub.matches.values() if h.listing.maker is not None
        }
    assert flood == ["created"] * lobby.MAX_NEW_PER_ADDRESS + ["too_many_new"] * (
        lobby.MAX_CREATES + 2 - lobby.MAX_NEW_PER_ADDRESS
    )
    assert makers == {"127.0.0.2", "127.0.0.3"}  # each address as the server saw it
    assert len(listed["matches"]) == lobby.MAX_HELD_PER_ADDRESS + 1  # its share, and the person's
