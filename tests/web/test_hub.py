"""The browser protocol without a network: seats, tokens, updates and refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("starlette")

from ttr_europe import observe, score
from ttr_europe.actions import ClaimRoute
from ttr_europe.notation import parse_action
from ttr_europe.players import RandomBot
from ttr_europe.rules import legal_actions
from ttr_europe.table.match import Match
from ttr_europe.testing import finished, scenario
from ttr_europe.web.hub import (
    BURST,
    COSTS,
    JOIN_GRACE,
    PERSON_IDLE,
    RATE,
    Client,
    Hub,
    in_words,
    moves,
)


def _send(hub: Hub, client: Client, doc: Any) -> list[tuple[Client, dict[str, Any]]]:
    return hub.receive(client, doc if isinstance(doc, str) else json.dumps(doc))


def _only(out: list[tuple[Client, dict[str, Any]]], client: Client) -> dict[str, Any]:
    assert [c for c, _ in out] == [client]
    return out[0][1]


def two_people() -> Match:
    return Match.new("europe", "base", 3, 11, ["person", "person", "greedy"])


def test_a_tab_joins_a_seat_and_sees_only_that_seats_secrets() -> None:
    hub = Hub(two_people)
    a, b = Client(), Client()
    out = _send(hub, a, {"type": "join", "seat": 0})
    joined, update = (doc for _, doc in out)
    assert joined["seat"] == 0 and joined["match"] == hub.latest.id and len(joined["token"]) > 10
    match = hub.latest.match
    assert update["view"] == observe(match.state, 0).to_json()
    assert update["view"]["players"][1]["hand"] is None
    assert update["moves"]["keep"]  # seat 0 chooses its first tickets
    assert "<svg" in update["board"] and 'class="sidebar"' not in update["board"]
    update_b = _send(hub, b, {"type": "join", "seat": 1})[1][1]
    assert update_b["moves"] is None and update_b["view"]["players"][0]["offer"] is None
    assert update_b["seats"][0] == {
        "seat": 0, "name": "person", "person": True, "taken": True, "open": False,
        "invited": False, "online": 1, "player": "Player 1", "stations_left": 3,
    }  # fmt: skip
    assert update_b["seats"][2]["player"] == "Greedy bot"


def test_a_move_updates_every_tab_with_its_own_events() -> None:
    hub = Hub(two_people)
    a, b, watcher = Client(), Client(), Client()
    _send(hub, a, {"type": "join", "seat": 0})
    _send(hub, b, {"type": "join", "seat": 1})
    _send(hub, watcher, {"type": "join"})
    offer = observe(hub.latest.match.state, 0).players[0].offer
    assert offer is not None
    out = _send(hub, a, {"type": "act", "action": "keep " + ", ".join(offer)})
    assert [c for c, _ in out] == [a, b, watcher]
    by = {id(c): doc for c, doc in out}
    kept_a = [e["event"] for e in by[id(a)]["events"] if e["event"]["type"] == "tickets_kept"]
    kept_b = [e["event"] for e in by[id(b)]["events"] if e["event"]["type"] == "tickets_kept"]
    assert kept_a[-1]["kept"] == sorted(offer) or set(kept_a[-1]["kept"]) == set(offer)
    assert kept_b[-1]["kept"] is None and kept_b[-1]["kept_count"] == len(offer)
    assert by[id(b)]["moves"]["keep"]  # now seat 1 chooses
    assert by[id(a)]["moves"] is None
    # Each tab is sent only the events it has not seen.
    again = _send(hub, b, {"type": "act", "action": by[id(b)]["moves"]["keep"][0]["action"]})
    first_seq = {id(c): doc["events"][0]["seq"] for c, doc in again}
    assert first_seq[id(a)] == by[id(a)]["seq"] + 1


def test_options_list_the_payments_the_engine_allows() -> None:
    state = scenario(hands={0: "3red+2loco"}, players=2)
    hub = Hub(lambda: Match(state, ["person", "greedy"]))
    a = Client()
    _send(hub, a, {"type": "join", "seat": 0})
    answer = _only(_send(hub, a, {"type": "options", "route": "Bruxelles-Paris-red"}), a)
    expected = {
        str(x) for x in legal_actions(state)
        if isinstance(x, ClaimRoute) and x.route == "Bruxelles-Paris-red"
    }  # fmt: skip
    assert {o["action"] for o in answer["actions"]} == expected
    assert len(expected) == 3  # 2 red, 1 red and 1 locomotive, 2 locomotives
    answer = _only(_send(hub, a, {"type": "options", "route": "Petrograd-Stockholm"}), a)
    assert answer["actions"] == []  # eight spaces: five cards cannot pay
    answer = _only(_send(hub, a, {"type": "options", "city": "Paris"}), a)
    assert [o["action"] for o in answer["actions"]] == [
        "station Paris with 1red", "station Paris with 1loco"
    ]  # fmt: skip


def test_moves_summarise_the_legal_actions() -> None:
    state = scenario(hands={0: "2blue"}, row="red blue loco green white")
    summary = moves(legal_actions(state))
    assert summary["draw"] == [0, 1, 2, 3, 4]
    assert summary["blind"] and summary["tickets"] and not summary["pass"]
    claims: dict[str, int] = {}
    for action in legal_actions(state):
        if isinstance(action, ClaimRoute):
            claims[action.route] = claims.get(action.route, 0) + 1
    assert summary["claims"] == claims
    assert summary["stations"] == {c.id: 1 for c in state.map.cities}  # one blue card each


REFUSED = [
    ("not json", "not_json"),
    ("[1, 2]", "bad_message"),
    ('{"type": 5}', "bad_message"),
    ('{"type": "dance"}', "bad_message"),
    ('{"type": "act", "action": 42}', "bad_message"),
    ('{"type": "act", "action": "blind", "extra": 1}', "bad_message"),
    ('{"type": "act", "action": "claim Atlantis-Paris with 2red"}', "unreadable"),
    ('{"type": "act", "action": "blind"}', "unreadable"),  # tickets come first (R9)
    ('{"type": "act", "action": {"type": "draw_blind"}}', "bad_message"),
    ('{"type": "act", "seat": 1, "action": "blind"}', "not_your_seat"),
    ('{"type": "act", "seat": true, "action": "blind"}', "bad_message"),
    ('{"type": "join", "seat": "0"}', "bad_message"),
    ('{"type": "join", "seat": 2}', "bot_seat"),
    ('{"type": "join", "seat": 7}', "no_seat"),
    ('{"type": "join", "match": "99"}', "unknown_match"),
    ('{"type": "options", "route": "Atlantis"}', "bad_message"),
    ('{"type": "options"}', "bad_message"),
    ("[" * 8000 + "]" * 8000, "not_json"),
    ('{"type": "ping", "x": "' + "a" * 20_000 + '"}', "too_large"),
    # half a character (a lone surrogate) has no UTF-8: never hashed, stored or looked up
    ('{"type": "join", "match": "\\ud800"}', "not_json"),
    ('{"type": "join", "seat": 1, "token": "a\\udfff"}', "not_json"),
    ('{"type": "mine", "games": [{"match": "\\ud800", "seat": 0, "token": "x"}]}', "not_json"),
]


@pytest.mark.parametrize(("text", "code"), REFUSED)
def test_a_refused_message_is_a_json_error_and_changes_nothing(text: str, code: str) -> None:
    hub = Hub(two_people)
    a = Client()
    _send(hub, a, {"type": "join", "seat": 0})
    match = hub.latest.match
    before = (match.state, match.seq, dict(hub.latest.seating.tokens), len(hub.matches))
    answer = _only(hub.receive(a, text), a)
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert isinstance(answer["message"], str) and answer["message"]
    assert (match.state, match.seq, dict(hub.latest.seating.tokens), len(hub.matches)) == before
    assert (a.hosted, a.seat) == (hub.latest, 0)
    assert _only(_send(hub, a, {"type": "ping"}), a) == {"type": "pong"}


def test_binary_frames_and_unjoined_or_watching_tabs_are_refused() -> None:
    hub = Hub(two_people)
    stranger, watcher = Client(), Client()
    assert _only(hub.receive(stranger, b"\x00\x01"), stranger)["code"] == "bad_message"
    act = {"type": "act", "action": "blind"}
    assert _only(_send(hub, stranger, act), stranger)["code"] == "not_joined"
    _send(hub, watcher, {"type": "join", "seat": None})
    assert _only(_send(hub, watcher, act), watcher)["code"] == "spectator"


def test_a_seat_belongs_to_its_token() -> None:
    hub = Hub(two_people)
    a, thief, again = Client(), Client(), Client()
    token = _send(hub, a, {"type": "join", "seat": 0})[0][1]["token"]
    refused = _only(_send(hub, thief, {"type": "join", "seat": 0}), thief)
    assert refused["code"] == "seat_taken"
    wrong = {"type": "join", "seat": 0, "token": "guess"}
    assert _only(_send(hub, thief, wrong), thief)["code"] == "seat_taken"
    assert thief.hosted is None
    hub.leave(a)  # the tab closed
    out = _send(hub, again, {"type": "join", "seat": 0, "token": token})
    assert out[0][1] == {"type": "joined", "match": hub.latest.id, "seat": 0, "token": token}
    assert out[1][1]["moves"]["keep"]  # back at its seat, mid-choice


def test_wrong_turn_and_after_the_game() -> None:
    hub = Hub(two_people)
    a, b = Client(), Client()
    _send(hub, a, {"type": "join", "seat": 0})
    _send(hub, b, {"type": "join", "seat": 1})
    answer = _only(_send(hub, b, {"type": "act", "action": "tickets"}), b)
    assert (answer["code"], answer["rule"]) == ("not_your_turn", "R12")
    over = finished({"Berlin-Wien": 0}, players=2)
    hub = Hub(lambda: Match(over, ["person", "greedy"]))
    a = Client()
    token = _send(hub, a, {"type": "join", "seat": 0})[0][1]["token"]
    update = _send(hub, again := Client(), {"type": "join", "seat": 0, "token": token})[1][1]
    assert update["finished"] and update["moves"] is None
    assert update["scoreboard"]["players"][0]["total"] == score(over).players[0].total
    assert update["highlights"][0][0]["routes"] == ["Berlin-Wien"]
    answer = _only(_send(hub, again, {"type": "act", "action": "blind"}), again)
    assert answer["code"] == "game_over" and answer["rule"] == "R46"


def test_new_matches_are_bounded_by_archiving_idle_ones() -> None:
    now = [1000.0]
    hub = Hub(two_people, max_matches=2, now=lambda: now[0], clock=lambda: now[0])
    a = Client()
    first = hub.latest.id
    _send(hub, a, {"type": "join", "seat": 0})
    created = _only(_send(hub, a, {"type": "new"}), a)
    second = created["match"]
    assert created == {"type": "created", "match": second, "seat": 0}
    assert list(hub.matches) == [first, second]
    idle = Client()
    # match 2 waits JOIN_GRACE for its tab; match 1 has a person connected
    assert _only(_send(hub, idle, {"type": "new"}), idle)["code"] == "too_many_matches"
    now[0] += JOIN_GRACE
    third = _only(_send(hub, idle, {"type": "new"}), idle)["match"]
    assert list(hub.matches) == [first, third]  # the second had no tab: archived
    assert hub.store.exists(second) and second not in hub.store.live()
    b = Client()
    _send(hub, b, {"type": "join", "match": third})
    now[0] += 3600
    assert _only(_send(hub, c := Client(), {"type": "new"}), c)["code"] == "too_many_matches"


def test_nobody_has_moves_once_the_game_is_over_not_even_a_watcher() -> None:
    over = finished({"Berlin-Wien": 0}, players=2)
    hub = Hub(lambda: Match(over, ["person", "greedy"]))
    for fields in ({"seat": 0}, {}):
        update = _send(hub, Client(), {"type": "join", **fields})[1][1]
        assert update["finished"] and update["current"] is None
        assert update["moves"] is None, fields


class _BrokenBot:
    def choose(self, view: object, legal: object, rng: object) -> object:
        raise RuntimeError("out of order")


def test_a_bot_that_fails_after_a_move_is_reported_to_every_tab_and_a_stand_in_plays_on() -> None:
    hub = Hub(lambda: Match.new("usa", "base", 2, 3, ["person", _BrokenBot()], first_player=0))
    a, watcher = Client(), Client()
    _send(hub, a, {"type": "join", "seat": 0})
    _send(hub, watcher, {"type": "join"})
    out = _send(hub, a, {"type": "act", "action": "keep all"})
    match = hub.latest.match
    assert match.actions[0] == parse_action(match.states[0], "keep all")  # the move stands
    assert len(match.actions) == 2 and match.current == 0  # the stand-in moved for seat 1
    assert isinstance(match.seats[1].bot, RandomBot) and match.seats[1].name.startswith("random")
    updates = {id(c): doc for c, doc in out if doc["type"] == "update"}
    assert updates.keys() == {id(a), id(watcher)}
    assert all(doc["seq"] == match.seq for doc in updates.values())
    assert updates[id(a)]["moves"] is not None  # seat 0 is to act again
    errors = [(c, doc) for c, doc in out if doc["type"] == "error"]
    assert [c for c, _ in errors] == [a, watcher]
    assert all(doc["code"] == "bot_failed" and "Player 2" in doc["message"]
               and "a random bot plays for Player 2" in doc["message"]
               for _, doc in errors)  # fmt: skip


class _TellingBot:
    """A bot whose failure says its secrets: its offer and its hand, from its view."""

    def choose(self, view: Any, legal: object, rng: object) -> object:
        raise RuntimeError(f"SECRET offer {'|'.join(view.me.offer)} hand {view.me.hand}")


def test_why_a_bot_failed_reaches_no_tab_but_the_server_s_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Its stand-in plays on with the same offer and hand: a reason made from the bot's view
    would hand them to the other seats and the watchers."""
    hub = Hub(lambda: Match.new("usa", "base", 2, 3, ["person", _TellingBot()], first_player=0))
    a, watcher = Client(), Client()
    sent = _send(hub, a, {"type": "join", "seat": 0}) + _send(hub, watcher, {"type": "join"})
    with caplog.at_level("WARNING", logger="ttr_europe.web"):
        sent += _send(hub, a, {"type": "act", "action": "keep all"})
    match = hub.latest.match
    assert isinstance(match.seats[1].bot, RandomBot) and not match.finished  # it plays on
    assert any(doc.get("code") == "bot_failed" for _, doc in sent)
    assert not [doc for _, doc in sent if "SECRET" in json.dumps(doc)]
    offer = "|".join(observe(match.states[1], 1).players[1].offer or ())
    assert f"SECRET offer {offer}" in caplog.text  # the operator still reads why


def test_a_bot_that_fails_before_anyone_joins_is_replaced_and_the_match_is_created() -> None:
    hub = Hub(lambda: Match.new("usa", "base", 2, 3, [_BrokenBot(), "person"], first_player=0))
    match = hub.latest.match
    assert isinstance(match.seats[0].bot, RandomBot)
    assert match.current == 1 and len(match.actions) == 1  # the stand-in kept its tickets


def test_tabs_per_seat_and_watchers_are_bounded_and_a_full_match_changes_nothing() -> None:
    from ttr_europe.web.hub import MAX_TABS_PER_SEAT, MAX_WATCHERS

    now = [0.0]
    hub = Hub(two_people, clock=lambda: now[0])
    hosted = hub.latest
    for _ in range(MAX_WATCHERS):
        _send(hub, Client(), {"type": "join"})
    refused = _only(_send(hub, late := Client(), {"type": "join"}), late)
    assert refused["code"] == "too_many_tabs" and late.hosted is None
    owner = Client()
    token = _send(hub, owner, {"type": "join", "seat": 0})[0][1]["token"]  # watchers never
    for _ in range(MAX_TABS_PER_SEAT - 1):  # keep a person from their seat
        assert _send(hub, Client(), {"type": "join", "seat": 0, "token": token})[0][1]["seat"] == 0
    again = {"type": "join", "seat": 0, "token": token}
    assert _only(_send(hub, extra := Client(), again), extra)["code"] == "too_many_tabs"
    now[0] += 10  # its credits back
    assert _send(hub, owner, again)[0][1]["type"] == "joined"  # a tab already there may rejoin
    assert len(hosted.tabs.clients) == MAX_WATCHERS + MAX_TABS_PER_SEAT


def test_a_move_draws_the_board_once_per_seat_whatever_the_number_of_tabs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import ttr_europe.web.hub as hub_module

    hub = Hub(two_people)
    a = Client()
    _send(hub, a, {"type": "join", "seat": 0})
    for _ in range(10):
        _send(hub, Client(), {"type": "join"})
    drawn: list[object] = []
    real = hub_module.render_svg
    monkeypatch.setattr(hub_module, "render_svg", lambda *a, **k: drawn.append(a) or real(*a, **k))
    offer = observe(hub.latest.match.state, 0).players[0].offer
    assert offer is not None
    out = _send(hub, a, {"type": "act", "action": "keep " + ", ".join(offer)})
    assert len(out) == 11 and len(drawn) == 2  # seat 0's board and the watchers' board
    boards = {doc["board"] for c, doc in out if c is not a}
    assert len(boards) == 1


def test_a_new_match_archives_an_idle_match_nobody_plays_before_one_a_person_left() -> None:
    now = [1000.0]
    hub = Hub(two_people, max_matches=2, now=lambda: now[0])
    a, b = Client(), Client()
    first = hub.latest.id
    _send(hub, a, {"type": "join", "seat": 0})  # a person sits at match 1, then closes the tab
    hub.leave(a)
    second = _only(_send(hub, b, {"type": "new"}), b)["match"]  # nobody ever sits there
    now[0] += JOIN_GRACE
    third = _only(_send(hub, c := Client(), {"type": "new"}), c)["match"]
    assert list(hub.matches) == [first, third]  # match 1 waits for its person to come back
    assert second not in hub.matches
    over = Hub(lambda: Match(finished({"Berlin-Wien": 0}, players=2), ["person", "greedy"]),
               max_matches=2, now=lambda: now[0])  # fmt: skip
    ended = over.latest.id
    _send(over, a, {"type": "join", "seat": 0})
    over.leave(a)
    now[0] += PERSON_IDLE
    _send(over, Client(), {"type": "new"})
    third = _only(_send(over, e := Client(), {"type": "new"}), e)["match"]
    assert ended not in over.matches and third in over.matches  # a finished match goes first


def test_a_new_match_names_its_first_person_seat_for_the_page_to_take() -> None:
    hub = Hub(lambda: Match.new("usa", "base", 3, 1, ["greedy", "person", "person"]))
    assert _only(_send(hub, a := Client(), {"type": "new"}), a)["seat"] == 1
    hub = Hub(lambda: Match.new("usa", "base", 2, 1, ["greedy", "random"]))
    assert _only(_send(hub, a, {"type": "new"}), a)["seat"] is None  # only bots: watch


def test_a_tab_that_floods_the_server_is_slowed_down_and_changes_nothing() -> None:
    """Each tab has BURST credits refilled at RATE a second; ``new`` costs more than a ping.
    A refused message is not handled (no match is dealt) and the tab may go on later."""
    now = [0.0]
    hub = Hub(two_people, clock=lambda: now[0])
    a, b = Client(), Client()
    answers = [_only(_send(hub, a, {"type": "ping"}), a)["type"] for _ in range(int(BURST))]
    assert answers == ["pong"] * int(BURST)
    refused = _only(_send(hub, a, {"type": "ping"}), a)
    assert refused["code"] == "too_fast" and f"wait {1 / RATE:.2f} s" in refused["message"]
    assert _only(_send(hub, b, {"type": "ping"}), b)["type"] == "pong"  # others are served
    matches = len(hub.matches)
    now[0] += 10 / RATE  # ten credits back: not enough for a new match
    assert _only(_send(hub, a, {"type": "new"}), a)["code"] == "too_fast"
    assert len(hub.matches) == matches
    now[0] += (1 + COSTS["new"]) / RATE
    assert _only(_send(hub, a, {"type": "new"}), a)["type"] == "created"
    assert len(hub.matches) == matches + 1
    now[0] += 3600  # credits never exceed the burst
    sent = [_only(_send(hub, a, "not json"), a)["code"] for _ in range(int(BURST) + 1)]
    assert sent.count("too_fast") == 1 and sent[-1] == "too_fast"


def test_an_update_is_turned_into_text_once_per_position_and_reads_back_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import ttr_europe.web.hub as hub_module

    hub = Hub(two_people)
    tabs = [Client() for _ in range(5)]
    drawn: list[object] = []
    real = hub_module.render_svg
    monkeypatch.setattr(hub_module, "render_svg", lambda *a, **k: drawn.append(a) or real(*a, **k))
    docs = [doc for tab in tabs for _, doc in _send(hub, tab, {"type": "join"})]
    assert len(drawn) == 1  # five joins at one position: one drawing
    texts = [hub.encode(doc) for doc in docs]
    assert [json.loads(t) for t in texts] == docs
    assert hub.latest.shown.texts.keys() == {None}
    seated = Client()
    token = _send(hub, seated, {"type": "join", "seat": 0})[0][1]["token"]
    assert token
    offer = observe(hub.latest.match.state, 0).players[0].offer
    assert offer is not None
    out = _send(hub, seated, {"type": "act", "action": "keep " + ", ".join(offer)})
    for _, doc in out:  # a new position: new text, still the same document
        assert json.loads(hub.encode(doc)) == doc
    stale = docs[0]  # an update of an older position is still encoded faithfully
    assert json.loads(hub.encode(stale)) == stale


def test_play_seats_a_person_in_the_latest_match_until_someone_sits_there() -> None:
    hub = Hub(lambda: Match.new("usa", "base", 3, 1, ["greedy", "person", "person"]))
    a, b, c = Client(), Client(), Client()
    first = hub.latest.id
    assert _only(_send(hub, a, {"type": "play"}), a) == {"type": "created", "match": first,
                                                         "seat": 1}  # fmt: skip
    _send(hub, a, {"type": "join", "match": first, "seat": 1})
    # Match 1 now has a person: the next person to open the page gets a new match of their own.
    created = _only(_send(hub, b, {"type": "play"}), b)
    second = created["match"]
    assert second != first and created == {"type": "created", "match": second, "seat": 1}
    # b has not joined yet, but its seat is its own: c is sent to a third match
    _send(hub, c, {"type": "join", "match": second})  # watching takes no seat
    third = _only(_send(hub, c, {"type": "play"}), c)
    assert third["match"] not in (first, second) and third["seat"] == 1
    bots = Hub(lambda: Match.new("usa", "base", 2, 1, ["greedy", "random"]))
    for tab in (Client(), Client()):  # nothing to sit at: all watch the one match, none dealt
        assert _only(_send(bots, tab, {"type": "play"}), tab) == {
            "type": "created", "match": bots.latest.id, "seat": None
        }  # fmt: skip


def test_many_tabs_asking_to_play_at_once_each_get_a_seat_of_their_own() -> None:
    """The race as found: 50 tabs send ``play`` before any of them joins; all were sent to
    the same seat, and 49 then refused ``seat_taken``."""
    hub = Hub(lambda: Match.new("usa", "base", 2, 1, ["person", "greedy"]))
    tabs = [Client() for _ in range(50)]
    created = [_only(_send(hub, t, {"type": "play"}), t) for t in tabs]
    assert len({(c["match"], c["seat"]) for c in created}) == 50
    for tab, c in zip(tabs, created, strict=True):
        joined = _send(hub, tab, {"type": "join", "match": c["match"], "seat": c["seat"]})[0][1]
        assert joined["type"] == "joined" and joined["seat"] == c["seat"], joined


def test_updates_carry_the_seats_tickets_with_points_and_done_marks() -> None:
    state = scenario(
        hands={0: "2red"}, tickets={0: ["Zurich-Brindisi", "Brest-Petrograd"]},
        owners={"Venezia-Zurich": 0, "Roma-Venezia": 0, "Brindisi-Roma": 0},
    )  # fmt: skip
    hub = Hub(lambda: Match(state, ["person", "greedy"]))
    a, watcher = Client(), Client()
    update = _send(hub, a, {"type": "join", "seat": 0, "name": "  Ann\x1b  Lee "})[1][1]
    assert update["tickets"] == [
        {"ticket": "Zurich-Brindisi", "points": 6, "long": False, "done": True,
         "routes": ["Venezia-Zurich", "Roma-Venezia", "Brindisi-Roma"],
         "cities": ["Zurich", "Brindisi"]},
        {"ticket": "Brest-Petrograd", "points": 20, "long": True, "done": False, "routes": [],
         "cities": ["Brest", "Petrograd"]},
    ]  # fmt: skip
    assert update["seats"][0]["player"] == "Ann Lee"  # printable, spaces tidied
    seen = _send(hub, watcher, {"type": "join"})[1][1]
    assert seen["tickets"] == [] and seen["offer"] == []  # a watcher sees nobody's tickets
    assert seen["seats"][0]["player"] == "Ann Lee"
    answer = _only(_send(hub, a, {"type": "join", "seat": 0, "name": 5}), a)
    assert answer["code"] == "bad_message"


def test_the_offer_carries_points_and_long_marks() -> None:
    hub = Hub(lambda: Match.new("europe", "base", 2, 3, ["person", "greedy"]))
    a = Client()
    update = _send(hub, a, {"type": "join", "seat": 0})[1][1]
    board = hub.latest.match.state.map
    offer = observe(hub.latest.match.state, 0).players[0].offer
    assert offer
    assert update["offer"] == [
        {"ticket": t, "points": board.ticket(t).points, "long": board.ticket(t).long} for t in offer
    ]
    assert sum(o["long"] for o in update["offer"]) == 1  # one long ticket in the first offer


def test_a_refused_move_is_said_in_players_words_with_the_rule_apart() -> None:
    hub = Hub(two_people)
    a = Client()
    _send(hub, a, {"type": "join", "seat": 0})
    keep_none = {"format": "ttr_europe/action", "version": 1, "type": "keep_tickets",
                 "tickets": []}  # fmt: skip
    answer = _only(_send(hub, a, {"type": "act", "action": keep_none}), a)
    assert answer["code"] == "illegal" and answer["rule"] == "R9"
    assert answer["text"] == "Keep at least 2 tickets."
    assert in_words("keep at most 1 long ticket(s)") == "Keep at most 1 long ticket."
    assert in_words("that route is already claimed") == "That route is already claimed."
    b = Client()
    _send(hub, b, {"type": "join", "seat": 1})
    assert _only(_send(hub, b, {"type": "act", "action": "blind"}), b)["text"] == (
        "It is not your turn."
    )


def test_a_new_name_is_sent_at_once_to_every_other_tab_of_the_match() -> None:
    hub = Hub(lambda: Match.new("europe", "base", 2, 3, ["person", "person"]))
    ann, bob, watcher = Client(), Client(), Client()
    _send(hub, ann, {"type": "join", "seat": 0, "name": "Ann"})
    bob_token = _send(hub, bob, {"type": "join", "seat": 1})[0][1]["token"]
    _send(hub, watcher, {"type": "join"})
    out = _send(hub, bob, {"type": "join", "seat": 1, "token": bob_token, "name": "Bob"})
    heard = {id(c): doc for c, doc in out if doc["type"] == "update"}
    assert set(heard) == {id(ann), id(bob), id(watcher)}
    assert all(doc["seats"][1]["player"] == "Bob" for doc in heard.values())
    # the same name again (Bob's second tab) redraws only the tab that asked
    tab = Client()
    again = _send(hub, tab, {"type": "join", "seat": 1, "token": bob_token, "name": "Bob"})
    assert [c for c, doc in again if doc["type"] == "update"] == [tab]


def test_a_refused_join_of_a_kept_match_costs_and_keeps_nobody_out() -> None:
    """A join naming a match kept in the database brings it back (its moves replayed) before
    its seat is judged: that costs the tab a join's credits, and the match comes back as
    last played, so a refused join (or a tab gone) does not hold it in memory, keeping the
    matches people want out for ``PERSON_IDLE``."""
    now = [1000.0]
    hub = Hub(two_people, max_matches=2, now=lambda: now[0], clock=lambda: now[0])
    first = hub.latest.id
    a = Client()
    _send(hub, a, {"type": "join", "seat": 0})  # a person played it, long ago
    hub.leave(a)
    now[0] += PERSON_IDLE
    b = Client()
    second = _only(_send(hub, b, {"type": "new"}), b)["match"]
    _send(hub, b, {"type": "join", "match": second, "seat": 0})  # a person plays it now
    hub.leave(b)
    third = _only(_send(hub, c := Client(), {"type": "new"}), c)["match"]
    assert list(hub.matches) == [second, third] and hub.store.exists(first)  # first is kept
    now[0] += JOIN_GRACE  # nobody came to the third
    stranger = Client()
    refused = _only(_send(hub, stranger, {"type": "join", "match": first, "seat": 99}), stranger)
    assert refused["code"] == "no_seat"
    assert stranger.credits <= BURST - COSTS["join"]  # the replay was paid for
    # the next person's match is dealt: the first goes back to the archive, not the second
    dealt = _only(_send(hub, d := Client(), {"type": "new"}), d)
    assert dealt["type"] == "created"
    assert second in hub.matches and first not in hub.matches
    # a stranger's join of a match that was never made costs nothing more than a message
    other = Client()
    unknown = _only(_send(hub, other, {"type": "join", "match": "nothing", "seat": 0}), other)
    assert unknown["code"] == "unknown_match" and other.credits > BURST - COSTS["join"]
