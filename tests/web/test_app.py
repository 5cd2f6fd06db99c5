"""The application (``web/app.py``) over a real WebSocket to the real server: a hostile message
gets a JSON error and leaves the game unchanged, the page and its files are served, a tab that
stalls or floods holds up no other (the server's own settings: web/test_server.py)."""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import time
from typing import Any

import pytest
from webserver import serving

from ttr_europe.table.match import Match
from ttr_europe.testing import finished
from ttr_europe.web import hub as hub_module
from ttr_europe.web.app import MAX_NAME_MARK

client = pytest.importorskip("websockets.sync.client")
exceptions = pytest.importorskip("websockets.exceptions")


def two_people() -> Match:
    return Match.new("europe", "base", 3, 5, ["person", "person", "greedy"])


def _ask(ws: Any, doc: Any) -> dict[str, Any]:
    ws.send(doc if isinstance(doc, str | bytes) else json.dumps(doc))
    answer: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return answer


def _join(ws: Any, **fields: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    ws.send(json.dumps({"type": "join", **fields}))
    joined = json.loads(ws.recv(timeout=10))
    update = json.loads(ws.recv(timeout=10))
    return joined, update


HOSTILE: list[tuple[str | bytes | dict[str, Any], str]] = [
    ("{not json", "not_json"),
    (b"\xff\x00binary", "bad_message"),
    ("x" * 60_000, "too_large"),  # a frame the server takes, holding more than a message
    ("[" * 10_000, "not_json"),
    ('"just a string"', "bad_message"),
    ({"type": "act", "action": ["blind"]}, "bad_message"),
    (
        {"type": "act", "action": {"format": "ttr_europe/action", "version": 1, "type": "x"}},
        "bad_message",
    ),
    ({"type": "act", "action": "keep Atlantis-Paris"}, "unreadable"),
    ({"type": "act", "seat": 1, "action": "tickets"}, "not_your_seat"),
    ({"type": "join", "seat": 1}, "seat_taken"),
    ({"type": "join", "seat": -1}, "no_seat"),
    ({"type": "options", "route": 3}, "bad_message"),
]


def test_hostile_messages_get_json_errors_and_change_nothing() -> None:
    with serving(two_people) as server:
        hosted = server.hub.latest
        with client.connect(server.ws) as a, client.connect(server.ws) as b:
            joined_a, update = _join(a, seat=0)
            _join(b, seat=1)
            # seat 0's tab hears seat 1 come (its "online" count), before anything it asks
            came = json.loads(a.recv(timeout=10))
            assert came["type"] == "update" and came["seats"][1]["online"] == 1
            match = hosted.match
            before = (match.state, match.seq, dict(hosted.seating.tokens))
            for message, code in HOSTILE:
                answer = _ask(a, message)
                assert answer["type"] == "error" and answer["code"] == code, (message, answer)
                assert (match.state, match.seq, dict(hosted.seating.tokens)) == before
                assert _ask(b, {"type": "ping"}) == {"type": "pong"}  # the other tab is served
            # seat 1 is not to act: refused with the rule, even as its own seat.
            answer = _ask(b, {"type": "act", "action": "tickets"})
            assert (answer["code"], answer["rule"]) == ("not_your_turn", "R12")
            # a frame above the server's limit closes that connection only
            with client.connect(server.ws) as c:
                c.send("y" * (2 << 20))
                with pytest.raises(exceptions.ConnectionClosed) as closed:
                    c.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            assert (match.state, match.seq) == before[:2]
            # the game goes on: seat 0 keeps its tickets, and both tabs hear of it
            offer = update["view"]["players"][0]["offer"]
            answer = _ask(a, {"type": "act", "action": "keep " + ", ".join(offer)})
            assert answer["type"] == "update" and answer["seq"] > before[1]
            seen_by_b = json.loads(b.recv(timeout=10))
            assert seen_by_b["type"] == "update" and seen_by_b["moves"]["keep"]
            assert joined_a["token"] not in json.dumps(seen_by_b)


def test_moves_after_the_game_are_refused() -> None:
    over = finished({"Berlin-Wien": 1}, players=2)
    with (
        serving(lambda: Match(over, ["person", "greedy"])) as server,
        client.connect(server.ws) as a,
    ):
        _, update = _join(a, seat=0)
        assert update["finished"] and update["scoreboard"]["winners"] == [1]
        for action in ("blind", "tickets", "pass"):
            answer = _ask(a, {"type": "act", "action": action})
            assert (answer["code"], answer["rule"]) == ("game_over", "R46")
        assert server.hub.latest.match.state is over


def test_the_page_and_its_files_are_served(tmp_path: Any) -> None:
    import urllib.request

    with serving(two_people) as server:
        page = urllib.request.urlopen(server.url, timeout=10).read().decode()
        assert '<script src="/static/app.js">' in page
        for name in ("app.js", "style.css"):
            with urllib.request.urlopen(server.url + "static/" + name, timeout=10) as r:
                assert r.status == 200 and len(r.read()) > 1000
        assert "http" not in page.replace(server.url, "")  # nothing loaded from elsewhere


@pytest.mark.parametrize("limit", [hub_module.MAX_NAME, 7, 40])
def test_the_pages_name_fields_take_the_servers_name_limit(
    monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    """One source of truth: the server writes ``MAX_NAME`` into the page and the lobby (the
    name fields' ``maxlength``, and ``data-max-name`` for the fields the scripts make and the
    words they say), so neither offers a name the server would refuse."""
    import urllib.request

    monkeypatch.setattr(hub_module, "MAX_NAME", limit)
    with serving(two_people) as server:
        index = urllib.request.urlopen(server.url, timeout=10).read().decode()
        lobby = urllib.request.urlopen(server.url + "lobby", timeout=10).read().decode()
    assert re.findall(r'<input id="(name|name-ask-input)"[^>]* maxlength="(\d+)"', index) == [
        ("name", str(limit)),
        ("name-ask-input", str(limit)),
    ]
    assert re.findall(r'maxlength="([^"]*)"', index + lobby) == [str(limit)] * 2
    assert re.findall(r'<body[^>]* data-max-name="([^"]*)"', index + lobby) == [str(limit)] * 2
    assert MAX_NAME_MARK not in index + lobby


def test_the_page_shows_no_hand_until_an_update_says_the_tab_has_a_seat() -> None:
    """A watcher's page showed an empty "Your hand" and "Your tickets" until its first update
    arrived (on a busy server, long enough to be seen, and for a test to see it): both start
    hidden, and an update with a seat shows them."""
    import urllib.request

    with serving(two_people) as server:
        page = urllib.request.urlopen(server.url, timeout=10).read().decode()
    for box in ("hand-box", "tickets-box"):
        assert re.search(rf'<[a-z]+ id="{box}" hidden>', page), box


def test_the_pages_files_asked_for_by_their_static_path_lead_to_the_pages() -> None:
    """``/static/index.html`` and ``/static/lobby.html`` (a bookmark, a guess) go to ``/`` and
    ``/lobby``, query kept: their files hold only the marks of the server's limits, and served
    raw the name fields would take no letter at all."""
    import urllib.request

    with serving(two_people) as server:
        for raw, page in (("index.html?match=abc", "?match=abc"), ("lobby.html", "lobby")):
            with urllib.request.urlopen(server.url + "static/" + raw, timeout=10) as r:
                text = r.read().decode()
                assert r.url == server.url + page
            assert MAX_NAME_MARK not in text
            assert f'data-max-name="{hub_module.MAX_NAME}"' in text


def test_a_person_whose_last_tab_closes_is_no_longer_shown_at_the_table() -> None:
    """Seat 1's only tab closes: seat 0's tab hears at once that no one sits there now (its
    ``online`` count 0), not at the next move; a second tab of seat 1 keeps it at the table."""
    with serving(two_people) as server, client.connect(server.ws) as a:
        _join(a, seat=0)
        with client.connect(server.ws) as b:
            token = _join(b, seat=1)[0]["token"]
            assert json.loads(a.recv(timeout=10))["seats"][1]["online"] == 1  # b came
            with client.connect(server.ws) as c:
                _join(c, seat=1, token=token)
            with pytest.raises(TimeoutError):  # c went, b is still there: nothing to hear
                a.recv(timeout=1)
        gone = json.loads(a.recv(timeout=10))
        assert gone["type"] == "update" and gone["seats"][1]["online"] == 0


def test_a_fault_of_the_server_is_a_json_error_and_it_carries_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with serving(two_people) as server, client.connect(server.ws) as a:
        _join(a, seat=0)

        def broken(*args: Any) -> Any:
            raise RuntimeError("a bug")

        monkeypatch.setattr(server.hub, "_on_options", broken)
        answer = _ask(a, {"type": "options", "city": "Paris"})
        assert answer["code"] == "internal" and "bug" not in answer["message"]
        assert _ask(a, {"type": "ping"}) == {"type": "pong"}


def _tab_that_never_reads(host: str) -> socket.socket:
    """A WebSocket that watches the latest match and then never reads a byte: a stalled or
    hostile tab (a small receive buffer, so the server's buffers fill soon)."""
    address, port = host.split(":")
    tab = socket.socket()
    tab.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    tab.connect((address, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    tab.sendall(
        f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while not answer.endswith(b"\r\n\r\n"):
        answer += tab.recv(1)
    assert answer.startswith(b"HTTP/1.1 101")
    payload, mask = json.dumps({"type": "join"}).encode(), os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    tab.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)  # a short masked text frame
    return tab


@pytest.mark.slow
def test_a_tab_that_stops_reading_does_not_stall_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hub_module, "MOVE_RATE", 1e9)  # as many moves as the buffers need, now
    people = ["person", "person"]  # drawing cards only, so the game cannot end meanwhile
    with serving(lambda: Match.new("europe", "base", 2, 3, people, first_player=0)) as server:
        hosted = server.hub.latest
        with (
            client.connect(server.ws) as a,
            client.connect(server.ws) as b,
            _tab_that_never_reads(server.host),
        ):
            tabs = [a, b]
            offers = [_join(tab, seat=seat)[1]["view"]["players"][seat]["offer"] for seat, tab
                      in enumerate(tabs)]  # fmt: skip
            assert json.loads(a.recv(timeout=10))["seats"][1]["online"] == 1  # b came
            while len(hosted.tabs.clients) < 3:  # the silent tab's join has arrived
                time.sleep(0.01)
            moves = 0
            while len(hosted.tabs.clients) == 3:  # about 110 kB of board a move: the buffers fill
                seat = hosted.match.current
                assert seat is not None and moves < 90
                action = "keep " + ", ".join(offers[seat]) if moves < 2 else "blind"
                answer = _ask(tabs[seat], {"type": "act", "action": action})
                assert answer["type"] == "update", answer  # never held up by the silent tab
                assert json.loads(tabs[1 - seat].recv(timeout=10))["seq"] == answer["seq"]
                moves += 1
            assert hosted.tabs.clients == [c for c in hosted.tabs.clients if c.seat is not None]


def test_a_prompt_reader_may_send_a_burst_of_messages_back_to_back() -> None:
    """The fault as found: 9 pings back to back, then reading, got no answer and a closed
    connection; every message within the rate limit gets its answer, in order."""
    with serving(two_people) as server, client.connect(server.ws) as a:
        for _ in range(30):
            a.send(json.dumps({"type": "ping"}))
        assert [json.loads(a.recv(timeout=10)) for _ in range(30)] == [{"type": "pong"}] * 30
        _, update = _join(a, seat=0)  # the connection is still served
        assert update["type"] == "update"


def test_a_tab_sending_faster_than_its_credits_is_read_at_their_pace_not_refused() -> None:
    """Past its burst a tab's frames wait unread until it regains a credit: a flood is held
    back by the network, frame by frame, and every message is answered, none refused
    (each refusal was a frame inflated, decoded and answered at the sender's pace)."""
    extra = 30
    count = int(hub_module.BURST) + extra
    with serving(two_people) as server, client.connect(server.ws) as a:
        started = time.monotonic()
        for _ in range(count):
            a.send(json.dumps({"type": "ping"}))
        answers = [json.loads(a.recv(timeout=20)) for _ in range(count)]
        assert answers == [{"type": "pong"}] * count
        # the last ``extra`` were read at RATE a second, after the burst
        assert time.monotonic() - started >= 0.9 * (extra - 1) / hub_module.RATE


def test_a_frame_larger_than_any_message_closes_its_connection_having_inflated_no_more() -> None:
    """``WS_MAX_BYTES`` is the longest message the hub reads (``MAX_MESSAGE_CHARS``, four
    bytes each at most): a compressed frame that inflates past it closes its connection
    (1009) as soon as it does, so a kilobyte on the wire cannot cost the server a megabyte."""
    from ttr_europe.web.app import WS_MAX_BYTES

    assert WS_MAX_BYTES == 4 * hub_module.MAX_MESSAGE_CHARS
    with serving(two_people) as server, client.connect(server.ws, compression="deflate") as a:
        wide = "\U0001d11e" * (hub_module.MAX_MESSAGE_CHARS - 30)  # four bytes each in UTF-8
        longest = json.dumps({"type": "ping", "x": wide}, ensure_ascii=False)
        assert len(longest) <= hub_module.MAX_MESSAGE_CHARS
        assert 3 * hub_module.MAX_MESSAGE_CHARS < len(longest.encode()) <= WS_MAX_BYTES
        answer = _ask(a, longest)  # the longest message is read whole, and answered
        assert answer["code"] == "bad_message" and "unknown field 'x'" in answer["message"]
        a.send(json.dumps({"type": "ping", "x": "a" * WS_MAX_BYTES}))  # a few hundred bytes sent
        with pytest.raises(exceptions.ConnectionClosed) as closed:
            a.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_tab_that_sends_but_never_reads_is_let_go() -> None:
    with serving(two_people, send_timeout=1.0, send_buffer=4096) as server:
        hosted = server.hub.latest
        tab = _tab_that_never_reads(server.host)  # its join's position (~120 kB) never read
        try:
            deadline = time.monotonic() + 15
            while not hosted.tabs.clients:
                assert time.monotonic() < deadline
                time.sleep(0.01)
            for _ in range(4):  # more of the position it will not read
                _send_frame(tab, {"type": "join"})
            while hosted.tabs.clients:
                assert time.monotonic() < deadline, "a tab that never reads stays connected"
                time.sleep(0.05)
            with client.connect(server.ws) as a:  # the others are served all along
                assert _ask(a, {"type": "ping"}) == {"type": "pong"}
        finally:
            tab.close()


def _send_frame(tab: socket.socket, doc: dict[str, Any]) -> None:
    payload, mask = json.dumps(doc).encode(), os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    tab.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)


def test_a_silent_connection_is_closed_and_a_pinging_one_is_not() -> None:
    with (
        serving(two_people, idle_timeout=0.6, header_timeout=0.3) as server,
        client.connect(server.ws) as silent,
        client.connect(server.ws) as pinging,
    ):
        for _ in range(8):  # 1.6 s: well past both timeouts
            assert _ask(pinging, {"type": "ping"}) == {"type": "pong"}
            time.sleep(0.2)
        with pytest.raises(exceptions.ConnectionClosed) as closed:
            silent.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4000
        assert _ask(pinging, {"type": "ping"}) == {"type": "pong"}


def test_websockets_beyond_the_limit_are_refused_and_the_others_served() -> None:
    with (
        serving(two_people, max_sockets=2) as server,
        client.connect(server.ws) as a,
        client.connect(server.ws) as b,
    ):
        with pytest.raises(exceptions.InvalidStatus):
            client.connect(server.ws).close()
        assert _ask(a, {"type": "ping"}) == {"type": "pong"}
        assert _ask(b, {"type": "ping"}) == {"type": "pong"}
