"""The messages that make and share matches (``create``, ``lobby``, ``mine``, ``join`` with an
invite), without a network: each answer, and each bad input refused clearly, changing nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from oracle import found_seed
from ttr_europe.players import seat_rng
from ttr_europe.table.match import Match
from ttr_europe.views import observe
from ttr_europe.web import lobby
from ttr_europe.web.hub import Client, Hub
from ttr_europe.web.store import Store, sharing

pytest.importorskip("starlette")

Json = dict[str, Any]
HERE_INVITE_BOT = [{"kind": "here", "name": "Ann"}, {"kind": "invite"}, {"kind": "greedy"}]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _hub(store: Store | None = None, clock: Clock | None = None) -> Hub:
    deal = lambda: Match.new("europe", "base", 2, 1, ["person", "greedy"])  # noqa: E731
    return Hub(deal, store=store, clock=clock or Clock())


def _send(hub: Hub, client: Client, doc: Json) -> list[tuple[Client, Json]]:
    return hub.receive(client, json.dumps(doc))


def _one(hub: Hub, client: Client, doc: Json) -> Json:
    (target, answer), *_ = _send(hub, client, doc)
    assert target is client
    return answer


def _create(hub: Hub, client: Client, seats: list[Json] = HERE_INVITE_BOT, **more: Any) -> Json:
    answer = _one(hub, client, {"type": "create", "map": "europe", "seats": seats, **more})
    assert answer["type"] == "created", answer
    return answer


def _snapshot(hub: Hub) -> tuple[Any, ...]:
    return (
        hub.store.count(),
        {
            i: (h.match.seq, dict(h.seating.tokens), dict(h.seating.invites))
            for i, h in hub.matches.items()
        },
    )


def test_a_made_match_gives_its_makers_tokens_and_invites_and_keeps_them_hashed() -> None:
    hub = _hub()
    made = _create(hub, Client(), public=False)
    hosted = hub.matches[made["match"]]
    assert made["seat"] == 0 and set(made["tokens"]) == {"0"} and set(made["invites"]) == {"1"}
    assert [s.is_person for s in hosted.match.seats] == [True, True, False]
    assert hosted.seating.names == {0: "Ann"} and hosted.listing.public is False
    public, invites, opened = sharing(hub.store, made["match"])
    assert public is False and set(invites) == {1} and opened == frozenset()
    assert made["invites"]["1"] not in invites.values()  # the secret itself is not kept
    # the maker's device sits at its seat with its token; the friend with the invite
    joined = _one(hub, Client(), {"type": "join", "match": made["match"], "seat": 0,
                                  "token": made["tokens"]["0"]})  # fmt: skip
    assert joined["type"] == "joined" and joined["seat"] == 0
    friend = Client()
    joined = _one(hub, friend, {"type": "join", "match": made["match"], "seat": 1,
                                "invite": made["invites"]["1"]})  # fmt: skip
    assert joined["type"] == "joined" and joined["token"] and hosted.seating.tokens.keys() == {0, 1}
    # the token is the friend's from then on: back with it, the invite is not needed
    again = _one(hub, Client(), {"type": "join", "match": made["match"], "seat": 1,
                                 "token": joined["token"]})  # fmt: skip
    assert again["type"] == "joined"


@pytest.mark.parametrize(
    ("join", "code"),
    [
        ({"seat": 1}, "invite_only"),  # a private match's seat needs its invite
        ({"seat": 1, "invite": "forged-secret"}, "bad_invite"),
        ({"seat": 0, "invite": "forged-secret"}, "bad_invite"),
        ({"seat": 0}, "seat_taken"),  # the maker's seat is the maker's
        ({"seat": 2}, "bot_seat"),
        ({"seat": 7}, "no_seat"),
        ({"seat": 1, "invite": 5}, "bad_message"),
    ],
)
def test_joins_refused_change_nothing(join: Json, code: str) -> None:
    hub = _hub()
    made = _create(hub, Client(), public=False)
    before = _snapshot(hub)
    answer = _one(hub, Client(), {"type": "join", "match": made["match"], **join})
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert _snapshot(hub) == before


def test_a_used_invite_is_refused_and_a_public_seat_is_open_to_the_lobby() -> None:
    hub = _hub()
    made = _create(hub, Client(), public=False)
    link = {"type": "join", "match": made["match"], "seat": 1, "invite": made["invites"]["1"]}
    assert _one(hub, Client(), link)["type"] == "joined"
    before = _snapshot(hub)
    answer = _one(hub, Client(), link)
    assert answer["code"] == "invite_used" and "Player 2" in answer["message"]
    assert "opened already, in another browser" in answer["message"]
    assert _snapshot(hub) == before
    seats = [*HERE_INVITE_BOT, {"kind": "open"}]
    listed = _create(hub, Client(), seats)  # public: anyone may take the open seat, not seat 2
    before = _snapshot(hub)
    for seat in (1, 1):  # an invited seat is its friend's, public match or not, every time
        kept = _one(hub, Client(), {"type": "join", "match": listed["match"], "seat": seat})
        assert kept["code"] == "invite_only" and "kept for the friend" in kept["message"]
    assert _snapshot(hub) == before
    sat = _one(hub, Client(), {"type": "join", "match": listed["match"], "seat": 3})
    assert sat["type"] == "joined"
    full = _one(hub, Client(), {"type": "join", "match": listed["match"], "seat": 3})
    assert full["code"] == "seat_taken"
    friend = {"type": "join", "match": listed["match"], "seat": 1,
              "invite": listed["invites"]["1"]}  # fmt: skip
    assert _one(hub, Client(), friend)["type"] == "joined"  # the friend's seat waited for them


def test_a_seat_open_to_anyone_needs_a_public_match() -> None:
    hub = _hub()
    before = _snapshot(hub)
    doc = {"type": "create", "seats": [{"kind": "here"}, {"kind": "open"}], "public": False}
    answer = _one(hub, Client(), doc)
    assert answer["code"] == "bad_settings" and "seat 2" in answer["message"]
    assert _snapshot(hub) == before


@pytest.mark.parametrize(
    ("create", "field"),
    [
        ({"map": "atlantis"}, '"map"'),
        ({"variant": "nope"}, "variant"),
        ({"seats": [{"kind": "here"}]}, '"seats"'),
        ({"seats": [{"kind": "here"}] * 6}, '"seats"'),
        ({"seats": [{"kind": "greedy"}, {"kind": "random"}]}, "person"),
        ({"seats": [{"kind": "here"}, {"kind": "cmd:rm -rf /"}]}, "seat 2"),
        ({"seats": [{"kind": "here"}, {"kind": "mcts"}]}, "seat 2"),
        ({"seats": [{"kind": "here", "age": 3}, {"kind": "greedy"}]}, "seat 1"),
        ({"seats": [{"kind": "here", "name": 7}, {"kind": "greedy"}]}, "name"),
        ({"public": "yes"}, '"public"'),
        ({"variant": "mega", "seats": [{"kind": "here"}] * 2 + [{"kind": "greedy"}]}, None),
    ],
)
def test_bad_settings_are_refused_and_make_nothing(create: Json, field: str | None) -> None:
    hub = _hub()
    before = _snapshot(hub)
    doc = {"type": "create", "map": "europe", "seats": HERE_INVITE_BOT, **create}
    answer = _one(hub, Client(), doc)
    if field is None:  # a legal variant: made
        assert answer["type"] == "created"
        return
    assert answer["type"] == "error" and answer["code"] == "bad_settings", answer
    assert field in answer["message"]
    assert _snapshot(hub) == before


def test_a_flood_of_creations_is_refused_until_the_window_passes() -> None:
    clock = Clock()
    hub = _hub(clock=clock)
    for _ in range(lobby.MAX_CREATES):
        _create(hub, Client())  # a tab each: every tab's own rate limit is not the point
    before = _snapshot(hub)
    answer = _one(hub, Client(), {"type": "create", "seats": HERE_INVITE_BOT})
    assert answer["code"] == "too_many_new" and "try again in 60 s" in answer["message"]
    assert _snapshot(hub) == before
    clock.now += lobby.CREATE_WINDOW
    _create(hub, Client())
    # one tab alone is held back sooner by its own limit
    tab = Client()
    codes = [_one(hub, tab, {"type": "create", "seats": HERE_INVITE_BOT}).get("code")
             for _ in range(lobby.MAX_NEW_PER_TAB + 1)]  # fmt: skip
    assert codes == [None] * lobby.MAX_NEW_PER_TAB + ["too_many_new"]


def test_the_lobby_lists_public_live_matches_with_free_seats_and_names() -> None:
    hub = _hub()
    maker = Client()
    seats = [{"kind": "here", "name": "Ann"}, {"kind": "invite"}, {"kind": "greedy"},
             {"kind": "greedy"}, {"kind": "open"}]  # fmt: skip
    listed = _create(hub, maker, seats)
    hidden = _create(hub, maker, public=False)
    rows = _one(hub, Client(), {"type": "lobby"})
    assert [r["match"] for r in rows["matches"]] == [listed["match"]]
    (row,) = rows["matches"]
    assert [s["player"] for s in row["seats"]] == ["Ann", "Player 2", "Greedy bot 1",
                                                   "Greedy bot 2", "Player 5"]  # fmt: skip
    # the invited friend's seat is never offered: only the open one is free
    assert [s["invited"] for s in row["seats"]] == [False, True, False, False, False]
    assert row["free"] == [4] and row["map"] == "europe" and row["players"] == 5
    assert row["current_name"] == row["seats"][row["current"]]["player"]
    assert {m["id"] for m in rows["choices"]["maps"]} == {"europe", "usa"}
    assert hidden["match"] not in json.dumps(rows)


def test_my_games_answer_for_held_seats_only_and_follow_every_move() -> None:
    hub = _hub()
    ann = Client()
    made = _create(hub, ann, [{"kind": "here"}, {"kind": "here"}])  # pass-and-play
    other = _create(hub, Client())
    held = [{"match": made["match"], "seat": s, "token": made["tokens"][str(s)]} for s in (0, 1)]
    forged = [{"match": other["match"], "seat": 0, "token": "not-the-token"},
              {"match": "no-such-match", "seat": 0, "token": "x"}]  # fmt: skip
    games = _one(hub, ann, {"type": "mine", "games": held + forged})
    assert games["type"] == "games"
    assert [(g["match"], g["seat"]) for g in games["games"]] == [(made["match"], 0),
                                                                 (made["match"], 1)]  # fmt: skip
    # a move in that match: the tab hears of it with its games
    player = Client()
    match = hub.matches[made["match"]].match
    seat = match.current
    _one(hub, player, {"type": "join", "match": made["match"], "seat": seat,
                       "token": made["tokens"][str(seat)]})  # fmt: skip
    offer = match.view(seat).players[seat].offer
    out = _send(hub, player, {"type": "act", "action": "keep " + ", ".join(offer)})
    told = [doc for c, doc in out if c is ann]
    assert [d["type"] for d in told] == ["games"]
    assert told[0]["games"][0]["current"] == match.current
    # bad "mine" messages are refused
    for bad in ({"games": "all"}, {"games": [{"match": "x"}]}, {"games": [held[0]] * 41},
                {"games": [{"match": 1, "seat": 0, "token": "t"}]}):  # fmt: skip
        assert _one(hub, ann, {"type": "mine", **bad})["code"] == "bad_message"
    # a closed tab follows nothing
    hub.disconnect(ann)
    assert made["match"] not in hub.followers


def test_a_made_match_comes_back_with_its_sharing_on_the_same_database(tmp_path: Any) -> None:
    path = tmp_path / "m.db"
    hub = _hub(Store(path))
    made = _create(hub, Client(), public=False)
    hub.store.close()
    again = _hub(Store(path))
    hosted = again.matches[made["match"]]
    assert (
        hosted.listing.public is False
        and set(hosted.seating.invites) == {1}
        and set(hosted.seating.tokens) == {0}
    )
    link = {"type": "join", "match": made["match"], "seat": 1, "invite": made["invites"]["1"]}
    assert _one(again, Client(), link)["type"] == "joined"
    assert _one(again, Client(), link)["code"] == "invite_used"
    again.store.close()


def test_the_lobby_list_is_made_once_a_second_whoever_asks() -> None:
    clock = Clock()
    hub = _hub(clock=clock)
    _create(hub, Client())
    first = _one(hub, Client(), {"type": "lobby"})
    _create(hub, Client())
    again = _one(hub, Client(), {"type": "lobby"})
    assert again is first and len(again["matches"]) == 1  # the same list, and the same text
    assert hub.encode(again) is hub.encode(first)
    clock.now += lobby.LOBBY_FRESH
    assert len(_one(hub, Client(), {"type": "lobby"})["matches"]) == 2


def test_a_match_made_in_the_lobby_is_dealt_in_secret() -> None:
    hub = _hub()
    seeds = set()
    for _ in range(2):
        hosted = hub.matches[_create(hub, Client(), public=False)["match"]]
        seed = hosted.match.record().seed
        seeds.add(seed)
        assert seed.bit_length() > 32  # beyond any search of small or 31-bit seeds
        assert found_seed(observe(hosted.match.state, 0)) is None
        assert hosted.match._rngs[2].getstate() != seat_rng(seed, 2).getstate()  # the bot's own
    assert len(seeds) == 2


# ------------------------------------------------------------------ one client, everyone's lobby
# Addresses as the server sees them (``Client.address``, from the connection: see
# test_web_fair_lobby.py for real sockets from distinct loopback addresses).


def test_one_sockets_flood_of_creations_leaves_another_person_every_create() -> None:
    """The attack as found: one socket sent ``create`` at its credits' rate (one every 1.5 s)
    and filled the server-wide window: another person got ``too_many_new`` six times in a row
    while 24 junk public matches filled the lobby. Now the flood meets its own limits first,
    holds at most ``MAX_HELD_PER_ADDRESS`` matches, and its junk expires."""
    clock = Clock()
    hub = Hub(lambda: Match.new("europe", "base", 2, 1, ["person", "greedy"]), clock=clock,
              now=clock)  # fmt: skip
    flood, person = Client(address="10.0.0.1"), Client(address="10.0.0.2")
    mine: list[str] = []
    flooded: list[str | None] = []
    for i in range(80):  # two minutes
        clock.now += 1.5
        flooded.append(_one(hub, flood, {"type": "create", "seats": HERE_INVITE_BOT}).get("code"))
        if i % 13 == 0:  # the person, every 20 s or so
            mine.append(_create(hub, person)["match"])
    assert set(flooded) == {None, "too_many_new"}
    assert flooded.count(None) <= 3 * lobby.MAX_NEW_PER_TAB  # its own limit, per minute
    listed = [r["match"] for r in _one(hub, Client(), {"type": "lobby"})["matches"]]
    assert set(mine) <= set(listed)
    assert len(set(listed) - set(mine)) <= lobby.MAX_HELD_PER_ADDRESS
    # nobody ever sat at the flood's matches: once they have waited UNPLAYED_TTL with no tab,
    # they leave memory and the lobby (kept in the database, as every match)
    clock.now += lobby.UNPLAYED_TTL + lobby.LOBBY_FRESH
    assert _one(hub, Client(), {"type": "lobby"})["matches"] == []
    assert not any(h.listing.maker == flood.dealer for h in hub.matches.values())
    assert hub.store.count() == 1 + len(mine) + flooded.count(None)


def test_fresh_sockets_from_one_address_cannot_hold_every_match_slot() -> None:
    """The attack as found: a socket opened every 4 s from one address dealt a match (``new``)
    and sat at it, and kept all 64 match slots full: another person's ``new`` and ``create``
    were refused 7 times of 16. Now one address holds at most ``MAX_HELD_PER_ADDRESS``."""
    clock = Clock()
    hub = Hub(lambda: Match.new("europe", "base", 2, 1, ["person", "greedy"]), clock=clock,
              now=clock)  # fmt: skip
    flood: list[Client] = []
    answers: list[str] = []
    for i in range(80):
        clock.now += 4
        tab = Client(address="10.0.0.1")  # a fresh socket: fresh credits, the same address
        flood.append(tab)
        made = _one(hub, tab, {"type": "new"})
        if made["type"] == "created":
            _one(hub, tab, {"type": "join", "match": made["match"], "seat": made["seat"]})
        if i % 5 == 0:  # another person, from another address: a tab each time
            kind = "new" if i % 10 == 0 else "create"
            doc = {"type": kind} if kind == "new" else {"type": kind, "seats": HERE_INVITE_BOT}
            answers.append(_one(hub, Client(address="10.0.0.2"), doc)["type"])
    assert answers == ["created"] * 16
    held = [h for h in hub.matches.values() if h.listing.maker == "10.0.0.1"]
    assert len(held) == lobby.MAX_HELD_PER_ADDRESS


def test_a_rematch_seats_the_same_people_with_the_same_settings() -> None:
    played = Match.new("europe", "base", 3, 276, ["random", "random", "random"])
    played.advance()
    assert played.finished
    hub = Hub(lambda: Match(played.state, ["person", "person", "greedy"]), clock=Clock())
    ann, bob, cleo = Client(), Client(), Client()
    ann_token = _send(hub, ann, {"type": "join", "seat": 0, "name": "Ann"})[0][1]["token"]
    bob_token = _send(hub, bob, {"type": "join", "seat": 1})[0][1]["token"]
    _send(hub, cleo, {"type": "join"})  # watching
    old = hub.latest
    out = _send(hub, ann, {"type": "rematch"})
    told = {id(c): doc for c, doc in out}
    again = told[id(ann)]["rematch"]
    assert {id(ann), id(bob), id(cleo)} == set(told)  # every tab of the match hears of it
    assert all(d["type"] == "rematch" and d["rematch"] == again for d in told.values())
    made = hub.matches[again]
    assert not made.match.finished and made.match.state.map.id == "europe"
    assert [s.is_person for s in made.match.seats] == [True, True, False]
    assert made.seating.names == {0: "Ann"} and made.listing.public is False
    # each person sits again with the token their browser holds; nobody else can
    for seat, token in ((0, ann_token), (1, bob_token)):
        joined = _one(hub, Client(), {"type": "join", "match": again, "seat": seat,
                                      "token": token})  # fmt: skip
        assert joined["type"] == "joined", joined
    assert _one(hub, Client(), {"type": "join", "match": again, "seat": 1})["code"] == "seat_taken"
    # asked again (by Bob), it is the same rematch; the finished match's update names it
    assert _send(hub, bob, {"type": "rematch"})[0][1]["rematch"] == again
    update = _send(hub, Client(), {"type": "join", "match": old.id})[1][1]
    assert update["rematch"] == again
    # during a game there is no rematch: the refusal changes nothing
    before = _snapshot(hub)
    fresh = Client()
    _send(hub, fresh, {"type": "join", "match": again, "seat": 0, "token": ann_token})
    assert _one(hub, fresh, {"type": "rematch"})["code"] == "not_over"
    assert _snapshot(hub) == before


@pytest.mark.parametrize("public", [False, True])
def test_the_latest_match_a_stranger_is_sent_to_is_never_one_made_in_the_lobby(
    public: bool,
) -> None:
    """`join` without a match (``/?watch``) and `play` (``/``) go to the server's own latest
    match, never to the one someone just made in the lobby: a private match's id is its
    privacy, and a friends' match is not a stranger's table. After a restart too."""
    store = Store(":memory:")
    hub = _hub(store)
    own = hub.latest.id
    friends = _create(hub, Client(address="ann"), [{"kind": "invite"}, {"kind": "invite"}],
                      public=public)["match"]  # fmt: skip
    for where in (hub, _hub(store)):  # the same server, then another on its database
        watched = _one(where, Client(address="eve"), {"type": "join", "match": None})
        played = _one(where, Client(address="eve"), {"type": "play"})
        assert watched["type"] == "joined" and played["type"] == "created"
        assert friends not in (watched["match"], played["match"])  # was the friends' match
        assert own in (watched["match"], played["match"])


def test_a_name_over_the_limit_is_refused_by_its_seat_never_cut() -> None:
    """A 10,000-character name (a client that is not the page: its fields stop at 24) is
    refused, saying the limit and the seat, in ``create`` and in ``join``; nothing is made or
    renamed. A name of exactly the limit, right-to-left or markup, is kept as written."""
    hub = _hub()
    before = _snapshot(hub)
    long = [{"kind": "here", "name": "Ann"}, {"kind": "here", "name": "x" * 10_000}]
    answer = _one(hub, Client(), {"type": "create", "map": "europe", "seats": long})
    assert answer["code"] == "bad_name", answer
    assert "seat 2" in answer["message"] and "at most 24 characters, not 10000" in answer["message"]
    assert _snapshot(hub) == before
    kept = ["<img src=x onerror=f()>", "שלום עליכם", "y" * 24]
    made = _create(hub, Client(), [{"kind": "here", "name": n} for n in kept])
    hosted = hub.matches[made["match"]]
    assert hosted.seating.names == dict(enumerate(kept))
    refused = _one(hub, Client(), {"type": "join", "match": made["match"], "seat": 0,
                                   "token": made["tokens"]["0"], "name": "z" * 25})  # fmt: skip
    assert refused["code"] == "bad_name" and "not 25" in refused["message"]
    assert hosted.seating.names[0] == kept[0]


def test_my_games_follow_a_kept_match_only_with_its_seats_token() -> None:
    """A match out of memory (kept in the database) is answered for as one in memory is: the
    seat's token, checked against the stored hash, never any token at all."""
    hub = _hub()
    made = _create(hub, Client(), [{"kind": "here"}, {"kind": "greedy"}])
    match_id = made["match"]
    hub._archive(hub.matches[match_id], 2000.0)
    assert match_id not in hub.matches and hub.store.exists(match_id)
    real = {"match": match_id, "seat": 0, "token": made["tokens"]["0"]}
    forged = [{**real, "token": "not-the-token"}, {**real, "seat": 1},
              {**real, "seat": 10**30}, {**real, "seat": -(10**30)}]  # fmt: skip
    stranger = Client()
    assert _one(hub, stranger, {"type": "mine", "games": forged})["games"] == []
    assert match_id not in hub.followers  # the stranger hears nothing of its moves
    games = _one(hub, Client(), {"type": "mine", "games": [real]})["games"]
    assert games == [{"match": match_id, "kept": True, "seat": 0}]


def _play_until_turn(hub: Hub, match_id: str, tab: Client, seat: int, clock: Clock) -> None:
    """Play the first legal move at ``tab``'s seat (the bots answer) until ``seat`` is to act."""
    match = hub.matches[match_id].match
    for _ in range(40):
        if match.state.current == seat:
            return
        clock.now += 1.5  # within the match's move rate
        action = match.legal(tab.seat)[0]  # type: ignore[arg-type]
        answer = _one(hub, tab, {"type": "act", "action": str(action)})
        assert answer["type"] == "update", answer
    raise AssertionError(f"seat {seat} never came to act")


def test_a_listed_seat_whose_player_left_is_freed_after_a_while_on_its_turn(
    tmp_path: Any,
) -> None:
    """A stranger who takes a listed match's open seat and goes holds it up no longer than
    ``SEAT_AWAY``: then the lobby offers the seat again and anyone may take it. The maker's
    seats (a device passed round holds them with no tab at them) and an invited friend's are
    kept, as is a seat with a tab at it; a restart forgets none of this."""
    clock = Clock()
    deal = lambda: Match.new("europe", "base", 3, 1, ["person", "person", "greedy"])  # noqa: E731
    hub = Hub(deal, store=Store(tmp_path / "m.db"), clock=clock, now=clock)
    ann = Client(address="ann")
    seats = [{"kind": "here", "name": "Ann"}, {"kind": "open"}, {"kind": "greedy"}]
    made = _create(hub, ann, seats)
    match_id = made["match"]
    assert sharing(hub.store, match_id)[2] == {1}  # the open seat, kept with the match
    hub.store.close()  # a restart: the match comes back knowing its open seat
    hub = Hub(deal, store=Store(tmp_path / "m.db"), clock=clock, now=clock)
    assert hub.matches[match_id].listing.open == {1}
    _send(hub, ann, {"type": "join", "match": match_id, "seat": 0, "token": made["tokens"]["0"]})
    squatter = Client(address="squatter")
    taken = _one(hub, squatter, {"type": "join", "match": match_id, "seat": 1, "name": "Ann"})
    assert taken["type"] == "joined"
    hub.disconnect(squatter)
    _play_until_turn(hub, match_id, ann, 1, clock)

    def free() -> list[int]:
        clock.now += lobby.LOBBY_FRESH
        rows = _one(hub, Client(), {"type": "lobby"})["matches"]
        return next(r["free"] for r in rows if r["match"] == match_id)

    assert free() == []  # the lobby sees the match wait on an empty seat: from now
    clock.now += lobby.SEAT_AWAY - lobby.LOBBY_FRESH - 1
    assert free() == []  # not yet
    clock.now += 1
    assert free() == [1]
    hosted = hub.matches[match_id]
    assert 1 not in hosted.seating.tokens and 1 not in hosted.seating.names
    assert hub.store.token_hash(match_id, 1) is None  # forgotten in the database too
    newcomer = Client(address="newcomer")
    assert _one(hub, newcomer, {"type": "join", "match": match_id, "seat": 1})["type"] == "joined"
    again = _one(hub, Client(address="squatter"), {"type": "join", "match": match_id, "seat": 1,
                                                   "token": taken["token"]})  # fmt: skip
    assert again["code"] == "seat_taken"
    # a seat with a tab at it is never freed, however long its player thinks
    clock.now += 10 * lobby.SEAT_AWAY
    assert free() == [] and 1 in hosted.seating.tokens

    # an invited friend who left keeps the seat (the invite names them), and so does a
    # device passed round: its seats have no tab while another of them plays
    for kind in ("invite", "here"):
        other = _create(hub, ann, [{"kind": "here"}, {"kind": kind}, {"kind": "greedy"}])
        other_id = other["match"]
        if kind == "invite":
            bea = Client(address="bea")
            _send(hub, bea, {"type": "join", "match": other_id, "seat": 1,
                             "invite": other["invites"]["1"]})  # fmt: skip
            hub.disconnect(bea)
        host = Client(address="ann")
        _send(hub, host, {"type": "join", "match": other_id, "seat": 0,
                          "token": other["tokens"]["0"]})  # fmt: skip
        _play_until_turn(hub, other_id, host, 1, clock)
        clock.now += 10 * lobby.SEAT_AWAY
        free()
        clock.now += 10 * lobby.SEAT_AWAY
        free()
        assert 1 in hub.matches[other_id].seating.tokens, kind
