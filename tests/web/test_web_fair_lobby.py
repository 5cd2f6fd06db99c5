"""Limits on new matches are each address's before they are the server's, through real
sockets: a flood of fresh connections from one loopback address (127.0.0.2; Linux routes the
whole of 127.0.0.0/8 to the loopback device, so a client may bind any of them and the server
sees each as a distinct address) cannot make a person's ``create`` or ``new`` from another
(127.0.0.3) fail. A client's ``X-Forwarded-For`` is believed only from the proxies the
operator names (``forwarded_allow_ips``, ``--forwarded-allow-ips``): by default no one, so a
client on 127.0.0.1 cannot name a fresh address on each socket."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from webserver import free_port, run_async, serve_process, serving

pytest.importorskip("websockets")

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

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


async def _ask(
    url: str, address: str, doc: dict[str, Any], forwarded_for: str | None = None
) -> dict[str, Any]:
    """One message from a fresh connection from ``address`` (claiming to forward for
    ``forwarded_for``); its answer."""
    headers = None if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
    async with connect(
        url, max_size=None, local_addr=(address, 0), additional_headers=headers
    ) as ws:
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


async def _spoofing_flood_then_person(url: str, spoofer: str) -> tuple[list[str], str]:
    """From ``spoofer``, fresh sockets each claiming to forward for a new address, one
    ``create`` each (the attack); then a person's ``create`` from 127.0.0.3."""
    doc = {"type": "create", "seats": SEATS}
    flood = [await _ask(url, spoofer, doc, f"198.51.100.{n + 1}")
             for n in range(lobby.MAX_NEW_PER_ADDRESS + 3)]  # fmt: skip
    person = await _ask(url, "127.0.0.3", doc)
    return [a.get("code", a["type"]) for a in flood], person.get("code", person["type"])


def _one_address_worth(flood: list[str]) -> bool:
    """The flood was counted as one address: its share made, the rest refused."""
    refused = len(flood) - lobby.MAX_NEW_PER_ADDRESS
    return flood == ["created"] * lobby.MAX_NEW_PER_ADDRESS + ["too_many_new"] * refused


def test_a_forwarded_for_header_names_no_one_by_default() -> None:
    """A client on 127.0.0.1 (Uvicorn's own default believed it) claiming a new address on
    each socket is still one address: its eleventh match in a minute is refused."""
    with serving(deal) as server:
        flood, person = run_async(_spoofing_flood_then_person(server.ws, "127.0.0.1"))
        makers = {h.listing.maker for h in server.hub.matches.values()} - {None}
    assert _one_address_worth(flood)  # was 13 created: each socket an address of its own
    assert person == "created"
    assert makers == {"127.0.0.1", "127.0.0.3"}


async def _forwarded_from(url: str) -> list[dict[str, Any]]:
    doc = {"type": "create", "seats": SEATS}
    return [await _ask(url, "127.0.0.2", doc, "198.51.100.7"),  # the named proxy
            await _ask(url, "127.0.0.1", doc, "198.51.100.8")]  # fmt: skip


def test_a_forwarded_for_header_names_the_client_only_from_a_named_proxy() -> None:
    with serving(deal, forwarded_allow_ips="127.0.0.2") as server:
        answers = run_async(_forwarded_from(server.ws))
        makers = {h.listing.maker for h in server.hub.matches.values()} - {None}
    assert [a["type"] for a in answers] == ["created", "created"]
    assert makers == {"198.51.100.7", "127.0.0.1"}  # the proxy's client; the other as it is


@pytest.mark.slow
def test_serve_believes_forwarded_for_only_when_told(tmp_path: Path) -> None:
    """``ttr-europe serve`` as the attack ran it (the header from 127.0.0.1), without and with
    ``--forwarded-allow-ips``."""
    for options, one_address in (((), True), (("--forwarded-allow-ips", "127.0.0.1"), False)):
        port = free_port()
        db = str(tmp_path / f"m{port}.db")
        with serve_process(port, "--db", db, *options):
            url = f"ws://127.0.0.1:{port}/ws"
            flood, person = run_async(_spoofing_flood_then_person(url, "127.0.0.1"))
        assert person == "created"
        assert _one_address_worth(flood) is one_address
        assert one_address or flood == ["created"] * len(flood)  # believed: 13 addresses


async def _one_address_takes_every_socket(url: str, most: int) -> tuple[list[str], str, str]:
    """``most + 2`` sockets held open from 127.0.0.2, then a person from 127.0.0.3; then one of
    127.0.0.2's closes and it may open one more. What each was answered."""
    held: list[Any] = []
    opened: list[str] = []
    try:
        for _ in range(most + 2):
            try:
                held.append(await connect(url, local_addr=("127.0.0.2", 0)))
                opened.append("open")
            except InvalidStatus as refused:
                opened.append(str(refused.response.status_code))
        person = await _ask(url, "127.0.0.3", {"type": "ping"})
        await held.pop().close()
        again: dict[str, Any] = {"type": "refused"}
        for _ in range(40):  # the server forgets the closed socket as soon as its task ends
            try:
                again = await _ask(url, "127.0.0.2", {"type": "ping"})
                break
            except InvalidStatus:
                await asyncio.sleep(0.05)
    finally:
        for ws in held:
            await ws.close()
    return opened, person["type"], again["type"]


def test_one_address_cannot_hold_every_websocket() -> None:
    """The server's WebSockets are shared out by address: one address holding its share of
    open sockets is refused more (HTTP 403 before the handshake), and a person from another
    address is still served; a socket it closes gives its place back."""
    with serving(deal, max_sockets=6, max_per_address=4) as server:
        opened, person, again = run_async(_one_address_takes_every_socket(server.ws, 4))
    assert opened == ["open"] * 4 + ["403", "403"]  # was six open: every socket of the server
    assert person == "pong"
    assert again == "pong"


def _half_open(port: int, address: str) -> socket.socket:
    """A connection from ``address`` that has begun a request and sends no more of it."""
    s = socket.socket()
    s.bind((address, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET / HTTP/1.1\r\n")
    return s


def _answer(s: socket.socket, wait: float = 10) -> bytes:
    """What the server answers first: b"" once it has closed the connection."""
    s.settimeout(wait)
    try:
        return s.recv(64)
    except ConnectionResetError:
        return b""
    except TimeoutError:
        return b"(no answer yet)"


def test_one_address_cannot_hold_every_connection() -> None:
    """Half-open HTTP connections from one address (127.0.0.2), more than the server takes,
    fill only its share: the ones beyond it are closed at once, and a person from 127.0.0.3
    still gets the page, not 503. A connection it closes gives its place back."""
    with serving(deal, max_connections=6, connections_per_address=4) as server:
        port = int(server.host.rsplit(":", 1)[1])
        flood = [_half_open(port, "127.0.0.2") for _ in range(7)]
        try:
            assert [_answer(s, 2) for s in flood[4:]] == [b""] * 3
            person = urllib.request.urlopen(server.url, timeout=10)
            assert person.status == 200  # was 503: the flood held every connection
            person.close()
            flood[0].close()
            for _ in range(40):  # the server forgets the closed connection at once
                again = _half_open(port, "127.0.0.2")
                again.sendall(b"Host: x\r\n\r\n")
                answer = _answer(again)
                again.close()
                if answer.startswith(b"HTTP/1.1 200"):
                    break
                time.sleep(0.05)
            else:
                raise AssertionError("the address never got its place back")
        finally:
            for s in flood:
                s.close()
