// The page: one WebSocket to the server, which checks every move with the engine.
// The board is the SVG the server draws; its routes and cities carry ids and data-* to hook.
"use strict";

const params = new URLSearchParams(location.search);
let matchId = params.get("match");
let seat = params.has("seat") ? Number(params.get("seat")) : null;
const watching = params.has("watch");
let socket = null;
let last = null; // the latest update
let selected = null; // {route} or {city} asked for
let shownSeat = null; // whose paths the final board highlights
let shownTicket = null; // the ticket whose path is shown (pinned by a tap)
let zoom = null; // the map's scale; null: the whole map fits
const TAP_ZOOM = 2; // the scale at which route and city hit shapes are at least 40 px
const MARK_MS = 6000; // how long the last move of a seat stays marked on the map
const marks = {}; // seat -> {route, city, until}
const $ = (id) => document.getElementById(id);
const MAX_NAME = Number(document.body.dataset.maxName); // the server writes its limit in
const coarse = window.matchMedia("(pointer: coarse)");
const narrow = window.matchMedia("(max-width: 999px)"); // the map on top, the page scrolls

function tokenKey(match, s) { return `ttr-token:${match}:${s}`; }
function myName() { return localStorage.getItem("ttr-name") || null; }
// A person who comes by an invite link or by the lobby's "Sit" is asked the name the others
// will see (instead of "Player 2") once seated; "sit" in the address marks the lobby's links.
let askName = params.has("invite") || params.has("sit");
let nameDue = false;

// A "continue on another device" link carries its seat's token after "#": this browser keeps
// it (a fragment never reaches the server) and the address drops it at once.
(() => {
  const carried = new URLSearchParams(location.hash.slice(1)).get("token");
  if (!carried) return;
  if (matchId !== null && seat !== null) localStorage.setItem(tokenKey(matchId, seat), carried);
  history.replaceState(null, "", location.pathname + location.search);
})();

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.onopen = () => {
    if (matchId === null && seat === null && !watching) send({ type: "play" }); // sit down
    else join(seat);
  };
  socket.onmessage = (e) => receive(JSON.parse(e.data));
  socket.onclose = () => {
    setStatus(t("disconnected; reconnecting…"), "connecting");
    setTimeout(connect, 1000);
  };
}

function send(doc) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(doc));
  else setStatus(t("disconnected; reconnecting…"), "connecting"); // said, never silently dropped
}

function join(s, focusTurn = false) {
  // focusTurn: the seat's turn heading takes the focus when the position arrives (a hand-over)
  if (focusTurn) pendingFocus = { selector: "#turn-title", within: null };
  const token = matchId !== null && s !== null ? localStorage.getItem(tokenKey(matchId, s)) : null;
  const invite = token === null && s !== null && s === seat ? params.get("invite") : null;
  // a name asked for on arrival is sent once answered
  const name = s === null || askName ? null : window.Together ? Together.nameFor(matchId, s, myName()) : myName();
  const doc = { type: "join", match: matchId, seat: s, token: token, name: name };
  if (invite) doc.invite = invite; // an invite link: its first holder takes the seat
  send(doc);
}

function receive(msg) {
  if (window.Together && Together.receive(msg)) return;
  if (msg.type === "error") return showError(msg);
  if (msg.type === "joined") {
    matchId = msg.match;
    seat = msg.seat;
    if (seat !== null && msg.token) localStorage.setItem(tokenKey(matchId, seat), msg.token);
    if (seat !== null && window.Together) Together.noteSince(matchId); // for My games
    const url = new URL(location.href);
    url.searchParams.set("match", matchId);
    url.searchParams.delete("watch");
    url.searchParams.delete("invite"); // used: the seat's token is this browser's now
    url.searchParams.delete("sit");
    if (seat === null) url.searchParams.delete("seat"); else url.searchParams.set("seat", seat);
    history.replaceState(null, "", url);
    showWhere();
    eventLog.length = 0; // the update that follows replays them as this seat sees them
    $("events").replaceChildren();
    replaying = true; // ...and they are not news to read out
    for (const k of Object.keys(lastMoves)) delete lastMoves[k];
    if (window.Together) Together.joined(msg);
    nameDue = askName && seat !== null; // asked once the page is drawn, on arrival only
    askName = false; // a refused seat (watching) is never asked
    return;
  }
  if (msg.type === "created") {
    const at = msg.seat === null ? "" : `&seat=${msg.seat}`; // the first person's seat
    location.href = `/?match=${encodeURIComponent(msg.match)}${at}`;
    return;
  }
  if (msg.type === "options") return showOptions(msg);
  if (msg.type === "rematch") return rematchMade(msg);
  if (msg.type === "update") return update(msg);
}

// The header: the match, and the seat by its player's name (the one typed in the lobby or
// chosen at the table; "Player 2" for a seat nobody named), known once the position arrives.
function showWhere() {
  if (matchId === null) return;
  $("where").textContent = seat === null ? t("match {match}, watching", { match: matchId })
    : last && !sharedEnd() ? t("match {match}, {name}", { match: matchId, name: playerName(seat) })
      : t("match {match}", { match: matchId });
}

// What the server's own refusals (not the rules') say to a player, by their code.
function serverWords(code) {
  return ({
    unknown_match: t("This match is not on the server any more: start a new game."),
    seat_taken: t("That seat is taken, in another browser: you watch here. If it is yours, use “Continue on another device” in that browser to play here."),
    bot_seat: t("That seat is played by a bot."),
    bad_invite: t("That invite link is not one of this match's: you watch instead."),
    invite_used: t("That invite link was opened already, in another browser, which holds the seat: you watch here. To play here, use “Continue on another device” in that browser."),
    invite_only: t("That seat is for the invited player: you watch instead."),
    too_many_tabs: t("Too many tabs are open at this seat or watching: you watch instead."),
    too_fast: t("Too many moves at once: wait a moment."),
    too_many_matches: t("The server is full: try again in a few minutes."),
    not_saved: t("The server could not save that move; try again."),
    spectator: t("You are watching: sit at a seat to play."),
    bot_failed: t("A bot failed; a random bot plays its seat from now on."),
    internal: t("The server could not handle that."),
    not_over: t("A rematch is made once the game is over."),
    bad_name: t("A name is at most {n} characters.", { n: MAX_NAME }),
  })[code];
}

function showError(msg) {
  const box = $("error");
  box.textContent = (msg.words && msg.words[I18N.lang]) || serverWords(msg.code) || msg.text || msg.message;
  box.title = msg.rule ? t("rule {rule}", { rule: msg.rule }) : ""; // the rule's number only on hover
  box.dataset.code = msg.code;
  box.hidden = false;
  // On a phone the panel is under the map: a refusal of the button just pressed (Keep with no
  // ticket ticked, far down the list) would be above the screen's top edge, said to a screen
  // reader only. Scrolled to, never moving the focus.
  box.scrollIntoView({ block: "nearest" });
  if (msg.code === "unknown_match") { // gone or never here: nothing of it stays playable
    last = null;
    $("board").replaceChildren();
    $("turn").hidden = true;
    $("where").textContent = t("no match {match} here", { match: matchId });
    setStatus(t("start a new game"), "unknown");
    $("new-game").focus();
    return;
  }
  const refusedSeat = ["seat_taken", "bot_seat", "no_seat", "too_many_tabs", "bad_invite", "invite_used", "invite_only"].includes(msg.code);
  if (refusedSeat && seat !== null) { // watch instead (once: a full match refuses that too)
    seat = null;
    join(null);
  }
}

function clearError() { $("error").hidden = true; $("error").textContent = ""; }

function setStatus(text, state) {
  $("status").textContent = text;
  document.body.dataset.state = state;
}

const cardName = (k) => colourName(k);
const shortName = (k) => (k === "loco" ? t("loco") : colourName(k)); // as in "2 red + 1 loco"

function cardText(cards) {
  const parts = Object.entries(cards || {}).filter(([, n]) => n > 0)
    .map(([k, n]) => t("{count} {card}", { count: n, card: shortName(k) }));
  return parts.length ? parts.join(" + ") : t("nothing");
}

function cardElement(kind, label, tag) {
  const el = document.createElement(tag || "span");
  el.className = `card card-${kind}`;
  el.dataset.kind = kind;
  const symbol = document.createElement("span");
  symbol.className = "sym";
  symbol.setAttribute("aria-hidden", "true");
  symbol.textContent = SYMBOLS[kind] || "";
  el.append(symbol, label);
  el.title = cardName(kind);
  return el;
}

function playerName(i) {
  if (!last) return t("Player {n}", { n: i + 1 });
  const s = last.seats[i];
  return window.Together ? Together.said(s.player, i, s.person) : s.player;
}

// Whether several people play this match on this device (pass-and-play).
function sharedDevice() { return !!(window.Together && matchId !== null && Together.shared(matchId)); }

// The end of a game on a shared device is everyone's to read: no seat is "you" then, and
// nothing of the last person's own (the hand, "your tickets", the header's seat) is shown.
function sharedEnd() { return !!(last && last.finished && sharedDevice()); }

// Whether seat i is "you": the seat this page plays, but at a shared end ("Ann wins").
function isMe(i) { return i === seat && !sharedEnd(); }

function seatName(i) { return isMe(i) ? t("you") : playerName(i); }

// A seat's name in a table's cell: whole words ("Борис" never split), but a word too long for
// a phone's column (more than 8 letters: "onerror=f()>", 24 W's) breaks anywhere rather than
// widen the page.
function nameCell(text) {
  const span = document.createElement("span");
  span.textContent = text;
  if (/\S{9,}/.test(text)) span.className = "long-name";
  return span;
}
// Another person's seat with a tab open now: a mark of its own shape (never a card's symbol, so
// the colour-blind view's ● for blue is not read into it) and words for a screen reader and a
// pointer.
function onlineMark() {
  const mark = document.createElement("span");
  mark.className = "online";
  mark.title = t("at the table now");
  const shape = document.createElement("span");
  shape.setAttribute("aria-hidden", "true");
  shape.textContent = " ◉";
  const words = document.createElement("span");
  words.className = "sr-only";
  words.textContent = " " + t("at the table now"); // read on: "Ana at the table now"
  mark.append(shape, words);
  return mark;
}
// Who acts, for the map's names: "you" or the player's name.
const who = (i) => seatName(i);
// "You try" / "Ann tries": each language words both (its own verb forms, or a neutral one).
function says(i, you, other, params) {
  return isMe(i) ? t(you, params) : t(other, { name: playerName(i), ...(params || {}) });
}

let pendingFocus = null; // where the focus was when a move was sent: found again after it

function act(action) {
  clearError();
  const active = document.activeElement;
  pendingFocus = focusKey(active) || (active && active !== document.body ? { selector: "#turn-title", within: null } : null);
  send({ type: "act", action: action });
}

function title(msg, mine) {
  const view = msg.view;
  if (msg.finished) {
    const winners = msg.scoreboard.winners;
    const names = winners.map(seatName);
    if (winners.length > 1) return t("Game over: {names} share the win", { names: names.join(t(" and ")) });
    return isMe(winners[0]) ? t("Game over: you win!") : t("Game over: {name} wins", { name: names[0] });
  }
  if (!mine) {
    const s = msg.seats[msg.current]; // a friend invited who has not come yet: said as such
    if (s && s.invited) return t("Waiting for {name} to come by the invite link", { name: playerName(msg.current) });
    // a person's seat no one has taken yet: no one is playing it
    if (s && s.person && !s.taken) return t("Waiting for someone to take the free seat: {name}", { name: playerName(msg.current) });
    return t("{name} to play", { name: playerName(msg.current) });
  }
  switch (view.phase) {
    case "INITIAL_TICKETS": return t("Your turn: choose your starting tickets");
    case "SECOND_DRAW": return t("Take a second card (not a face-up locomotive)");
    case "TUNNEL": return tn("Tunnel: pay {n} more card or withdraw", "Tunnel: pay {n} more cards or withdraw", view.tunnel.extra);
    case "CHOOSE_TICKETS": return t("Choose the tickets to keep");
    default: return t("Your turn");
  }
}

function winnerText(msg) {
  const winners = msg.scoreboard.winners;
  const names = winners.map(seatName);
  if (winners.length > 1) return t("{names} share the win", { names: names.join(t(" and ")) });
  return isMe(winners[0]) ? t("you win!") : t("{name} wins", { name: names[0] });
}

let replaying = true; // the first update after a join replays old events: not read out

function update(msg) {
  // another person's turn on this device (on arrival too: nobody has played here yet)
  if (window.Together && Together.handoff(msg, replaying)) return;
  // the end of a game several people share is everyone's to read: first the step of a
  // hand-over clears what belongs to the last person (their log, what was read out to them)
  if (msg.finished && !(last && last.finished) && sharedDevice()) Together.clearPerson();
  const before = last;
  last = msg;
  noteMarks(msg.events);
  eventLog.push(...msg.events.filter(({ event }) => event.type !== "turn_started" && event.type !== "slot_refilled"));
  if (eventLog.length > 60) eventLog.splice(0, eventLog.length - 60);
  const focus = pendingFocus || focusKey(document.activeElement);
  pendingFocus = null;
  const mine = msg.moves !== null;
  const asked = mine && !(before && before.moves !== null && before.view.phase === msg.view.phase);
  if (asked) selected = null; // a new question: the payments of a route picked before it go
  render();
  restoreFocus(focus);
  // (after the page is live again: it is inert while "connecting", and focus cannot go there)
  if (nameDue) { nameDue = false; setTimeout(showNameAsk, 0); }
  // a new turn, a ticket offer or a tunnel: the question is brought into sight (not the second
  // card: the face-up row the first came from stays under the finger)
  if (asked && msg.view.phase !== "SECOND_DRAW") {
    inSight(!$("offer").hidden ? $("offer") : !$("tunnel").hidden ? $("tunnel") : $("turn"));
    // a keyboard's focus (the turn's heading after a hand-over) is never left under the map
    const focused = document.activeElement;
    if (focused && focused.closest("aside") && focused.matches(":focus-visible")) inSight(focused);
  }
  if (msg.finished && !(before && before.finished)) inSight($("final")); // the winner and scores
  if (!replaying) {
    for (const { seq: n, event } of msg.events) announce(describe(event, n)); // one's own moves too
    if (asked) announce($("turn-title").textContent);
  }
  replaying = false;
}

// A hand-over on a shared device: nothing of the last person stays, in the page or in its
// state: their view and hand, tickets, choices, routes they could claim (the list and the map's
// outlines), the log, the players' last moves and what was read out to them.
function forget() {
  last = null;
  selected = null;
  shownTicket = null;
  shownSeat = null;
  pendingFocus = null;
  focusOptions = false;
  turnFrom = Infinity;
  eventLog.length = 0;
  for (const store of [lastMoves, marks]) for (const k of Object.keys(store)) delete store[k];
  for (const id of ["board", "legend", "row", "hand", "my-tickets", "offer-list", "options-list", "pay-list", "tunnel-text",
    "claim-list", "build-list", "players", "events", "announce", "error", "scoreboard", "final-details"]) $(id).replaceChildren();
  for (const id of ["turn-title", "options-title", "claim-title", "build-title", "last-round", "winner", "pile", "name-ask-hint"]) $(id).textContent = "";
  for (const id of ["hand-box", "tickets-box", "offer", "options", "tunnel", "error", "claim-box", "build-box", "final", "last-round", "name-ask"]) $(id).hidden = true;
  $("error").removeAttribute("title"); // a refusal's rule, said to the last person
  delete $("error").dataset.code;
  const moved = $("move-seat");
  if (moved) moved.remove();
}

// "My games" says a seat of this match was taken (an invited friend has come): the page says so
// at once, not at the next move.
function seatsNow(row) {
  if (!last || row.match !== matchId || !row.seats) return;
  let changed = false;
  for (const s of row.seats) {
    const here = last.seats[s.seat];
    if (here && here.invited && !s.invited) { here.invited = false; here.taken = true; changed = true; }
  }
  if (!changed) return;
  const focus = focusKey(document.activeElement);
  render();
  restoreFocus(focus);
}

// The whole page from the latest update (again after a change of language).
function render() {
  const msg = last;
  if (!msg) return;
  const view = msg.view;
  const me = seat !== null && !sharedEnd() ? view.players[seat] : null;
  // the header's name is the one this browser goes by: on a shared device each seat keeps the
  // name it was given in the lobby, so the field is not offered there
  $("name-box").hidden = sharedDevice();
  showWhere();
  // board
  const board = $("board");
  const scroll = [board.scrollLeft, board.scrollTop];
  board.innerHTML = msg.board;
  hookBoard(msg.moves);
  applyZoom();
  [board.scrollLeft, board.scrollTop] = scroll;
  // turn
  const mine = msg.moves !== null;
  $("turn-title").textContent = sentence(title(msg, mine));
  setStatus(msg.finished ? t("game over") : mine ? t("your turn") : t("waiting"), msg.finished ? "over" : mine ? "turn" : "waiting");
  document.body.dataset.seq = msg.seq;
  const lastRound = $("last-round");
  lastRound.hidden = msg.finished || view.final_turns < 0;
  lastRound.textContent = lastRoundText(view.final_turns);
  const moves = msg.moves || { draw: [], blind: false, tickets: false, withdraw: false, pass: false, keep: [], pay: [], claims: {}, stations: {} };
  $("buttons").hidden = msg.finished; // nothing to draw once the game is over
  $("blind").disabled = !moves.blind;
  $("tickets").disabled = !moves.tickets;
  $("withdraw").hidden = !moves.withdraw;
  $("pass").hidden = !moves.pass;
  // face-up row
  const row = $("row");
  row.replaceChildren();
  view.row.forEach((kind, slot) => {
    if (kind === null) return;
    const b = cardElement(kind, cardName(kind), "button");
    b.type = "button";
    b.dataset.slot = slot;
    b.setAttribute("aria-keyshortcuts", String(slot + 1));
    b.disabled = !moves.draw.includes(slot);
    b.onclick = () => act(`draw ${slot + 1}`);
    row.appendChild(b);
  });
  const discarded = view.discard ? Object.values(view.discard).reduce((a, b) => a + b, 0) : 0;
  $("pile").textContent = t("{cards} in the pile, {discarded} discarded, {tickets} left", {
    cards: tn("{n} card", "{n} cards", view.pile_size), discarded: discarded,
    tickets: tn("{n} ticket", "{n} tickets", view.ticket_deck_size),
  });
  // hand and tickets
  $("hand-box").hidden = !me;
  $("tickets-box").hidden = !me;
  if (me) {
    const hand = $("hand");
    hand.replaceChildren();
    for (const [kind, n] of Object.entries(me.hand || {})) if (n > 0) hand.appendChild(cardElement(kind, t("{count} {card}", { count: n, card: cardName(kind) }), "li"));
    showTickets(msg.tickets);
  }
  showOffer(msg.offer, moves);
  showTunnel(view, moves);
  showClaimable(moves);
  if (!mine || !selected) hideOptions();
  else send({ type: "options", ...selected });
  showPlayers(msg);
  showEvents();
  showFinal(msg);
  showSeatChoice(msg);
  if (window.Together) Together.update(msg);
}

// The turns still owed count the turn being played (R46): on the last one, none come after.
function lastRoundText(owed) {
  const after = owed - 1;
  return after > 0 ? tn("Last round: {n} turn left after this one", "Last round: {n} turns left after this one", after)
    : t("Last round: this is the last turn");
}

// The routes the seat can claim and the cities where it can build, as buttons: a claim is
// two presses (the route, then its payment) with a keyboard, a finger or a screen reader.
function showClaimable(moves) {
  const svg = $("board").querySelector("svg");
  const names = svg ? cityNames(svg) : {};
  const routes = Object.keys(moves.claims || {});
  $("claim-box").hidden = !routes.length;
  $("claim-title").textContent = tn("{n} route you can claim", "{n} routes you can claim", routes.length);
  const list = $("claim-list");
  list.replaceChildren();
  const length = (r) => { const g = svg && svg.querySelector(`g.route[data-route="${CSS.escape(r)}"]`); return g ? Number(g.dataset.length) : 0; };
  routes.sort((a, b) => length(b) - length(a) || a.localeCompare(b));
  for (const r of routes) {
    const g = svg && svg.querySelector(`g.route[data-route="${CSS.escape(r)}"]`);
    if (!g) continue;
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "claim";
    b.dataset.claim = r;
    const sym = document.createElement("span");
    sym.className = `legend-swatch card-${g.dataset.colour}`;
    sym.setAttribute("aria-hidden", "true");
    sym.textContent = SYMBOLS[g.dataset.colour] || "";
    b.append(sym, `${routeLabel(g, names, who)} (${tn("{n} point", "{n} points", Number(g.dataset.points))})`);
    b.onclick = () => ask({ route: r }, g, true);
    li.appendChild(b);
    list.appendChild(li);
  }
  const cities = Object.keys(moves.stations || {});
  $("build-box").hidden = !cities.length;
  $("build-title").textContent = tn("{n} city where you can build a train station", "{n} cities where you can build a train station", cities.length);
  const built = $("build-list");
  built.replaceChildren();
  cities.sort((a, b) => (names[a] || a).localeCompare(names[b] || b));
  for (const c of cities) {
    const g = svg && svg.querySelector(`g.city[data-city="${CSS.escape(c)}"]`);
    if (!g) continue;
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "build";
    b.dataset.build = c;
    b.textContent = names[c] || c;
    b.onclick = () => ask({ city: c }, g, true);
    li.appendChild(b);
    built.appendChild(li);
  }
}

// ------------------------------------------------------------------ the map: zoom and taps

function natural() {
  const svg = $("board").querySelector("svg");
  return svg ? [Number(svg.getAttribute("width")), Number(svg.getAttribute("height"))] : [1, 1];
}

function fitZoom() {
  const board = $("board");
  const [w, h] = natural();
  return Math.min(board.clientWidth / w, board.clientHeight / h);
}

function scale() { return zoom === null ? fitZoom() : zoom; }

// On a narrow screen the map sits above the panel: it is no taller than the whole map needs
// at the screen's width (at most 56% of the height), leaving the rest to the panel. The legend
// is drawn above it and, as the page scrolls, goes up out of sight with the header while the
// map stays at the screen's top (the area sticks with its legend above the screen's edge).
function sizeBoardArea() {
  const area = $("board-area");
  if (!narrow.matches) { area.style.height = area.style.top = ""; return; }
  const [w, h] = natural();
  const board = $("board");
  const legend = $("legend").getBoundingClientRect().height; // with its padding under it
  const wanted = $("board-tools").getBoundingClientRect().height + 4 + (board.clientWidth * h) / w + 2;
  const map = Math.round(Math.min(window.innerHeight * 0.56, wanted));
  area.style.height = `${map + legend}px`;
  area.style.top = `${-legend}px`;
  document.documentElement.style.setProperty("--map-height", `${map}px`);
}

function applyZoom() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  sizeBoardArea();
  const z = scale();
  const [w, h] = natural();
  svg.style.width = `${w * z}px`;
  svg.style.height = `${h * z}px`;
  fitLabels(svg, z); // names at least 9 px tall on screen; fewer of them on a small map
  fitSymbols(svg, z); // the colour-blind view's symbols too
  $("board").dataset.zoom = z.toFixed(3);
}

function zoomAt(z, clientX, clientY) {
  const board = $("board");
  const box = board.getBoundingClientRect();
  const fit = fitZoom();
  const old = scale();
  const next = Math.min(6, Math.max(fit, z));
  const x = clientX === undefined ? box.width / 2 : clientX - box.left;
  const y = clientY === undefined ? box.height / 2 : clientY - box.top;
  const svg = board.querySelector("svg");
  const at = svg ? svg.getBoundingClientRect() : box;
  const ux = (clientX === undefined ? box.left + x : clientX) - at.left; // the point on the map
  const uy = (clientY === undefined ? box.top + y : clientY) - at.top;
  zoom = next <= fit + 1e-6 ? null : next;
  applyZoom();
  board.scrollLeft = (ux / old) * next - x;
  board.scrollTop = (uy / old) * next - y;
}

function hookBoard(moves) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  labelBoard(svg, moves, who);
  showLegend(svg);
  for (const g of svg.querySelectorAll("g.route")) {
    if (moves && moves.claims[g.dataset.route]) g.classList.add("claimable");
  }
  // Cities where a station can go are ringed only when that tells something: not when every
  // free city can take one (tap any city to build there).
  const cities = [...svg.querySelectorAll("g.city")];
  const buildable = cities.filter((g) => moves && moves.stations[g.dataset.city]);
  const free = cities.filter((g) => ![...g.classList].some((c) => c.startsWith("station-seat-")));
  if (buildable.length < free.length) for (const g of buildable) g.classList.add("buildable");
  showMarks();
  if (last && last.finished) highlight(shownSeat === null ? defaultShown() : shownSeat);
  else if (shownTicket) showTicket(shownTicket);
}

let dragged = false; // a pan or a pinch is not a tap
const pointers = new Map();
let pinch = null;

function onBoardClick(e) {
  if (dragged) { dragged = false; return; }
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  if (coarse.matches && scale() < TAP_ZOOM - 1e-6) { // a finger needs a bigger map to aim at
    zoomAt(TAP_ZOOM, e.clientX, e.clientY);
    return;
  }
  // Where the finger or the pointer came down, not where the browser's touch adjustment moved
  // the click to (it may snap to a neighbouring route's space).
  const [x, y] = downAt && Math.hypot(downAt[0] - e.clientX, downAt[1] - e.clientY) < 40 ? downAt : [e.clientX, e.clientY];
  const under = document.elementFromPoint(x, y);
  const city = under && under.closest("#board g.city");
  if (city) return ask({ city: city.dataset.city }, city);
  const space = under && under.closest("#board g.route"); // a visible space is its own route's
  const g = space || nearestRoute(svg, x, y);
  if (g) ask({ route: g.dataset.route }, g);
}

// The route whose centre line passes nearest the point, within its hit line's reach: between
// the spaces of a double route, or in the gap between two spaces, the nearer line wins.
function nearestRoute(svg, clientX, clientY) {
  const at = new DOMPoint(clientX, clientY).matrixTransform(svg.getScreenCTM().inverse());
  let best = null;
  let bestDistance = Infinity;
  for (const hit of svg.querySelectorAll(".route-hits .hit")) {
    const reach = Number(hit.getAttribute("stroke-width")) / 2;
    const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((a) => Number(hit.getAttribute(a)));
    const d = segmentDistance(at.x, at.y, [x1, y1], [x2, y2]);
    if (d <= reach && d < bestDistance) { bestDistance = d; best = hit.dataset.route; }
  }
  return best === null ? null : svg.querySelector(`g.route[data-route="${CSS.escape(best)}"]`);
}

function segmentDistance(px, py, [ax, ay], [bx, by]) {
  const dx = bx - ax, dy = by - ay;
  const along = dx || dy ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy))) : 0;
  return Math.hypot(px - ax - along * dx, py - ay - along * dy);
}

let downAt = null; // where the last pointer came down, in client pixels
function onPointerDown(e) {
  downAt = [e.clientX, e.clientY];
  if (pointers.size === 0) dragged = false; // a new gesture: a tap unless it becomes a pinch
  pointers.set(e.pointerId, [e.clientX, e.clientY]);
  if (pointers.size === 2) {
    const [a, b] = [...pointers.values()];
    pinch = { distance: Math.hypot(a[0] - b[0], a[1] - b[1]), zoom: scale() };
  }
}

function onPointerMove(e) {
  if (!pointers.has(e.pointerId)) return;
  pointers.set(e.pointerId, [e.clientX, e.clientY]);
  if (pinch && pointers.size === 2) {
    const [a, b] = [...pointers.values()];
    const distance = Math.hypot(a[0] - b[0], a[1] - b[1]);
    zoomAt(pinch.zoom * distance / pinch.distance, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
    dragged = true;
  }
}

function onPointerUp(e) {
  pointers.delete(e.pointerId);
  if (pointers.size < 2) pinch = null;
}

let focusOptions = false; // a keyboard asked: its payments take the focus when they come

function ask(target, el, fromKeys) {
  clearError();
  for (const g of document.querySelectorAll("#board .selected")) g.classList.remove("selected");
  el.classList.add("selected");
  selected = target;
  focusOptions = !!fromKeys;
  $("options").hidden = false;
  $("options-title").textContent = el.getAttribute("aria-label") || target.route || target.city;
  const list = $("options-list");
  list.replaceChildren();
  if (last && last.moves) send({ type: "options", ...target });
  else list.textContent = last && last.finished ? t("The game is over.") : t("Not your turn.");
  inSight($("turn"));
}

// Under the map on a narrow screen, what asks something of the player (a tap's payments, a
// new turn, a ticket offer) is scrolled into sight when it is not wholly there: its top just
// under the map (the page's scroll-padding), as much of it as the screen holds.
function inSight(el) {
  if (!narrow.matches || el.hidden) return;
  const box = el.getBoundingClientRect();
  const foot = $("board-area").getBoundingClientRect().bottom;
  if (box.top < foot - 1 || box.bottom > window.innerHeight + 1) el.scrollIntoView({ block: "start" });
}

function showOptions(msg) {
  if (!selected || msg.route !== (selected.route ?? null) || msg.city !== (selected.city ?? null)) return;
  const list = $("options-list");
  list.replaceChildren();
  if (!msg.actions.length) {
    list.textContent = msg.route ? t("You cannot claim this route now.") : t("You cannot build a station here now.");
    inSight($("options"));
    return;
  }
  for (const option of msg.actions) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "pay-option";
    b.dataset.action = option.action;
    b.textContent = msg.route ? t("Claim with {cards}", { cards: cardText(option.payment) }) : t("Build with {cards}", { cards: cardText(option.payment) });
    b.onclick = () => { act(option.action); selected = null; hideOptions(); };
    list.appendChild(b);
  }
  if (focusOptions) { focusOptions = false; list.querySelector("button").focus(); }
  inSight($("options"));
}

function hideOptions() {
  // the focus never falls to the page's top: the turn's heading holds it until the update
  if ($("options").contains(document.activeElement)) $("turn-title").focus({ preventScroll: true });
  $("options").hidden = true;
  for (const g of document.querySelectorAll("#board .selected")) g.classList.remove("selected");
}

// ------------------------------------------------------------------ tickets

// A ticket as the map spells its cities ("Zürich – Brindisi"); ids are plain ASCII.
function ticketName(id) { return (last && last.ticket_names && last.ticket_names[id]) || id.replace("-", " – "); }
function ticketLabel(t) { return ticketName(t.ticket); }

function showTickets(tickets) {
  const list = $("my-tickets");
  list.replaceChildren();
  for (const tk of tickets || []) {
    const li = document.createElement("li");
    li.dataset.ticket = tk.ticket;
    const over = last && last.finished; // an open ticket at the end has failed
    li.className = tk.done ? "done" : over ? "failed" : "open";
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = tk.done ? "✓" : over ? "✗" : "○";
    mark.title = tk.done ? t("done: your routes join these cities") : over ? t("failed") : t("open");
    mark.setAttribute("aria-label", mark.title);
    mark.setAttribute("role", "img");
    const name = document.createElement("span");
    name.textContent = ticketLabel(tk);
    const points = document.createElement("span");
    points.className = "points";
    const worth = tn("{n} point", "{n} points", tk.points); // read with its unit
    points.textContent = tk.done || !over ? worth : `−${worth}`; // what it scored
    li.append(mark, name);
    if (tk.long) li.append(longBadge());
    li.append(points);
    li.onmouseenter = () => showTicket(tk);
    li.onmouseleave = () => showTicket(shownTicket);
    li.tabIndex = 0;
    li.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); li.onclick(); } };
    li.onclick = () => { shownTicket = shownTicket && shownTicket.ticket === tk.ticket ? null : tk; showTicket(shownTicket); };
    list.appendChild(li);
  }
}

function longBadge() {
  const b = document.createElement("span");
  b.className = "long";
  b.textContent = t("long");
  return b;
}

function clearHighlights() {
  for (const el of document.querySelectorAll("#board .hl-longest, #board .hl-ticket, #board .hl-end")) el.classList.remove("hl-longest", "hl-ticket", "hl-end");
}

function mark(routes, cities, cls) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  for (const r of routes) {
    const g = svg.querySelector(`g.route[data-route="${CSS.escape(r)}"]`);
    if (g) g.classList.add(cls);
  }
  for (const c of cities) {
    const g = svg.querySelector(`g.city[data-city="${CSS.escape(c)}"]`);
    if (g) g.classList.add("hl-end");
  }
}

// A ticket on the map: its two cities, and the path of routes when it is done.
function showTicket(tk) {
  if (last && last.finished) return;
  clearHighlights();
  for (const li of document.querySelectorAll("#my-tickets li")) li.classList.toggle("shown", !!tk && li.dataset.ticket === tk.ticket);
  if (tk) mark(tk.routes, tk.cities, "hl-ticket");
}

function showOffer(offer, moves) {
  const box = $("offer");
  box.hidden = !(moves.keep.length && offer.length);
  if (box.hidden) return;
  const list = $("offer-list");
  list.replaceChildren();
  for (const tk of offer) {
    const li = document.createElement("li");
    li.dataset.ticket = tk.ticket;
    const label = document.createElement("label");
    const check = document.createElement("input");
    check.type = "checkbox";
    check.checked = true;
    check.value = tk.ticket;
    const name = document.createElement("span");
    name.textContent = ticketLabel(tk);
    const points = document.createElement("span");
    points.className = "points";
    points.textContent = tn("{n} point", "{n} points", tk.points);
    label.append(check, name);
    if (tk.long) label.append(longBadge());
    label.append(points);
    li.appendChild(label);
    list.appendChild(li);
  }
}

function showTunnel(view, moves) {
  const box = $("tunnel");
  box.hidden = !view.tunnel;
  if (!view.tunnel) return;
  const tunnel = view.tunnel;
  $("tunnel-text").textContent = t("{route}: {laid} laid; revealed {revealed}; {extra} more due.", {
    route: routeWords(tunnel.route), laid: cardText(tunnel.laid), extra: tunnel.extra,
    revealed: tunnel.revealed.map((k) => (k ? shortName(k) : t("nothing"))).join(", "),
  });
  const list = $("pay-list");
  list.replaceChildren();
  for (const option of moves.pay) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "pay-tunnel";
    b.dataset.action = option.action; // the focus is found again by it
    b.textContent = t("Pay {cards}", { cards: cardText(option.payment) });
    b.onclick = () => act(option.action);
    list.appendChild(b);
  }
  if (!moves.pay.length && moves.withdraw) { // only Withdraw is left: say why
    const why = document.createElement("p");
    why.id = "tunnel-why";
    why.textContent = t("You cannot pay: you hold too few cards of the colour laid, or locomotives. Withdraw: the cards you laid come back to your hand.");
    list.appendChild(why);
  }
}

// ------------------------------------------------------------------ players, moves, events

function seatColour(i) {
  const key = document.querySelector(`#board .seat-key.seat-${i} rect`);
  return key ? key.getAttribute("fill") : ["#2d00a5", "#875a5a", "#5a5a69", "#2d003c", "#2d3c5a"][i % 5];
}

// A seat's colour with its number in white, as its pieces on the map carry it: where two seat
// colours come close (a colour-blind eye, a dim screen) the number tells whose row is whose.
function swatch(i) {
  const sw = document.createElement("span");
  sw.className = "swatch";
  sw.style.background = seatColour(i);
  sw.dataset.n = String(i + 1); // drawn by the style sheet: a mark, not part of the name's text
  sw.setAttribute("aria-hidden", "true"); // the name beside it says whose
  return sw;
}

function showPlayers(msg) {
  const table = $("players");
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const h of [t("player"), t("points"), t("trains"), t("cards"), t("tickets"), t("stations left")]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = h;
    head.appendChild(th);
  }
  for (const p of msg.view.players) {
    const tr = table.insertRow();
    tr.dataset.seat = p.seat;
    if (p.seat === msg.current) tr.classList.add("to-act");
    const name = tr.insertCell();
    const s = msg.seats[p.seat];
    name.append(swatch(p.seat), nameCell(playerName(p.seat) + (isMe(p.seat) ? t(" (you)") : "")));
    if (s.person && p.seat !== seat && s.online) name.append(onlineMark());
    const left = s.stations_left;
    for (const v of [p.score, p.trains, p.hand_size, p.ticket_count, left]) tr.insertCell().textContent = v;
    const lastMove = lastMoves[p.seat] ? short(lastMoves[p.seat].event, lastMoves[p.seat].seq) : null;
    if (lastMove) {
      const row = table.insertRow();
      row.dataset.lastOf = p.seat;
      const cell = row.insertCell();
      cell.colSpan = 6;
      cell.className = "last";
      cell.textContent = t("last: {move}", { move: lastMove });
    }
  }
}

const lastMoves = {}; // seat -> its last move (an event), told in a few words
const eventLog = []; // the events shown under "What happened", oldest first

let turnFrom = Infinity; // the number of the event that started the turn being played

function noteMarks(events) {
  const now = Date.now();
  for (const { seq: n, event: e } of events) {
    if (e.type === "turn_started") turnFrom = n;
    if (e.type === "route_claimed") marks[e.seat] = { route: e.route, until: now + MARK_MS };
    else if (e.type === "station_built") marks[e.seat] = { city: e.city, until: now + MARK_MS };
    if (short(e, n) && e.seat !== undefined) lastMoves[e.seat] = { seq: n, event: e };
  }
}

// The card of a blind draw, said only to its drawer during the turn that drew it: afterwards,
// and to everyone else, it is "drawn from the pile" (the next person at a shared device, too).
function drawnCard(e, n) {
  const live = last && !last.finished && e.seat === seat && last.current === seat && n >= turnFrom;
  return live ? e.card : null;
}

function showMarks() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const now = Date.now();
  for (const el of svg.querySelectorAll(".last-move")) el.classList.remove("last-move");
  let next = Infinity;
  for (const m of Object.values(marks)) {
    if (m.until <= now) continue;
    next = Math.min(next, m.until);
    const sel = m.route ? `g.route[data-route="${CSS.escape(m.route)}"]` : `g.city[data-city="${CSS.escape(m.city)}"]`;
    const g = svg.querySelector(sel);
    if (g) g.classList.add("last-move");
  }
  if (next < Infinity) setTimeout(showMarks, next - now + 20);
}

// What a seat's last move was, in a few words (the players table).
function short(e, n) {
  switch (e.type) {
    case "face_up_taken": return t("took a face-up {card}", { card: cardName(e.card) });
    case "blind_drawn": return drawnCard(e, n) ? t("drew from the pile: {card}", { card: cardName(e.card) }) : t("drew from the pile");
    case "route_claimed": return t("claimed {route} (+{points})", { route: routeWords(e.route), points: e.points });
    case "station_built": return t("built a station in {city}", { city: cityWords(e.city) });
    case "tickets_kept": return tn("kept {n} ticket", "kept {n} tickets", e.kept_count);
    case "tunnel_withdrawn": return t("withdrew from the tunnel {route}", { route: routeWords(e.route) });
    case "passed": return t("passed");
    default: return null;
  }
}

function describe(e, n) {
  const s = e.seat;
  const revealed = () => e.revealed.map((k) => (k ? cardName(k) : t("nothing"))).join(", ");
  switch (e.type) {
    case "face_up_taken": return says(s, "You took a face-up {card}", "{name} took a face-up {card}", { card: cardName(e.card) });
    case "blind_drawn": return drawnCard(e, n)
      ? says(s, "You drew from the pile: {card}", "{name} drew from the pile: {card}", { card: cardName(e.card) })
      : says(s, "You drew from the pile", "{name} drew from the pile");
    case "row_reset": return t("Three locomotives face up: the row was discarded ({cards}) and dealt anew", { cards: e.discarded.map(cardName).join(", ") });
    case "reshuffled": return tn("The discard ({n} card) was shuffled into a new pile", "The discard ({n} cards) was shuffled into a new pile", e.cards);
    case "tunnel_revealed": return says(s, "You try the tunnel {route} with {cards}: revealed {revealed}, {extra} more due",
      "{name} tries the tunnel {route} with {cards}: revealed {revealed}, {extra} more due",
      { route: routeWords(e.route), cards: cardText(e.laid), revealed: revealed(), extra: e.extra });
    case "tunnel_paid": return says(s, "You paid {cards} more for the tunnel {route}", "{name} paid {cards} more for the tunnel {route}", { cards: cardText(e.payment), route: routeWords(e.route) });
    case "tunnel_withdrawn": return says(s, "You withdrew from the tunnel {route}", "{name} withdrew from the tunnel {route}", { route: routeWords(e.route) });
    case "route_claimed": return says(s, "You claimed {route} with {cards} ({points}, {trains} left)", "{name} claimed {route} with {cards} ({points}, {trains} left)", {
      route: routeWords(e.route), cards: cardText(e.payment), points: "+" + tn("{n} point", "{n} points", e.points),
      trains: tn("{n} train", "{n} trains", e.trains_left),
    });
    case "station_built": return says(s, "You built a station in {city} with {cards}", "{name} built a station in {city} with {cards}", { city: cityWords(e.city), cards: cardText(e.payment) });
    // which tickets a seat drew and kept is said to that seat alone (at a shared end, nobody)
    case "tickets_drawn": {
      const count = tn("{n} ticket", "{n} tickets", e.count);
      return e.tickets && isMe(s) ? says(s, "You drew {count}: {tickets}", "{name} drew {count}: {tickets}", { count: count, tickets: e.tickets.map(ticketName).join(", ") })
        : says(s, "You drew {count}", "{name} drew {count}", { count: count });
    }
    case "tickets_kept": {
      const params = { kept: tn("{n} ticket", "{n} tickets", e.kept_count), returned: e.returned_count, tickets: e.kept ? e.kept.map(ticketName).join(", ") : "" };
      return e.kept && isMe(s) ? says(s, "You kept {kept}: {tickets} and returned {returned}", "{name} kept {kept}: {tickets} and returned {returned}", params)
        : says(s, "You kept {kept} and returned {returned}", "{name} kept {kept} and returned {returned}", params);
    }
    case "passed": return says(s, "You passed", "{name} passed");
    case "last_round": return says(s, "You have {trains} left: the last round begins", "{name} has {trains} left: the last round begins", { trains: tn("{n} train", "{n} trains", e.trains) });
    case "game_over": { // the heading's words, which agree with one winner or several
      const winners = e.scoreboard.winners;
      if (winners.length > 1) return t("Game over: {names} share the win", { names: winners.map(seatName).join(t(" and ")) });
      return isMe(winners[0]) ? t("Game over: you win!") : t("Game over: {name} wins", { name: playerName(winners[0]) });
    }
    case "undone": return says(s, "You took back {moves}", "{name} took back {moves}", { moves: tn("{n} move", "{n} moves", e.actions) });
    default: return null;
  }
}

function showEvents() {
  const list = $("events");
  list.replaceChildren();
  for (const { seq, event } of eventLog) {
    const text = describe(event, seq);
    if (!text) continue;
    const li = document.createElement("li");
    li.value = seq;
    li.dataset.type = event.type;
    li.textContent = text;
    list.prepend(li);
  }
  while (list.children.length > 60) list.lastChild.remove();
}

// ------------------------------------------------------------------ the end

function defaultShown() {
  if (!last || !last.scoreboard) return null;
  return seat !== null && !sharedEnd() ? seat : last.scoreboard.winners[0]; // a shared end: the winner's
}

// The same table again: every seat this browser holds in the finished match holds the same
// seat in the rematch (the server kept their tokens), and its invite links are kept.
function adoptRematch(id, invites) {
  for (let s = 0; last && s < last.seats.length; s++) {
    const token = localStorage.getItem(tokenKey(matchId, s));
    if (token && !localStorage.getItem(tokenKey(id, s))) localStorage.setItem(tokenKey(id, s), token);
  }
  if (invites && Object.keys(invites).length) localStorage.setItem(`ttr-invites:${id}`, JSON.stringify(invites));
}

function rematchLink(id) {
  return `/?match=${encodeURIComponent(id)}${seat === null ? "&watch" : `&seat=${seat}`}`;
}

// A rematch was made: whoever asked goes there; everyone else at the table is offered it.
function rematchMade(msg) {
  if (msg.match !== matchId) return;
  adoptRematch(msg.rematch, msg.invites);
  if (last) last.rematch = msg.rematch;
  if (msg.invites) { location.href = rematchLink(msg.rematch); return; } // the one who asked
  showRematch(msg.rematch);
  announce(t("A rematch is ready: the same players and settings, a new deal."));
}

function showRematch(id) {
  $("rematch").hidden = seat === null || !!id;
  $("rematch").disabled = false;
  const go = $("rematch-go");
  go.hidden = !id;
  if (id) go.href = rematchLink(id);
}

function showFinal(msg) {
  $("final").hidden = !msg.finished;
  if (!msg.finished) return;
  if (msg.rematch) adoptRematch(msg.rematch);
  showRematch(msg.rematch || null);
  const board = msg.scoreboard;
  $("winner").textContent = winnerText(msg);
  const table = $("scoreboard");
  table.replaceChildren();
  table.createCaption().textContent = t("Final scores");
  const head = table.createTHead().insertRow();
  for (const [key, h] of [["player", t("player")], ["routes", t("routes")], ["tickets", t("tickets")], ["stations", t("stations")], ["bonus", t("bonus")], ["total", t("total")], ["rank", t("rank")]]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = h;
    if (key === "bonus") th.title = bonusName(board.bonus_name);
    head.appendChild(th);
  }
  const body = table.createTBody();
  const details = $("final-details");
  details.replaceChildren();
  for (const p of board.players) {
    const tr = body.insertRow();
    tr.className = "scored";
    tr.dataset.seat = p.seat;
    tr.insertCell().append(swatch(p.seat), nameCell(playerName(p.seat)));
    const cells = [p.route_points, p.ticket_points, p.station_points, p.bonus, p.total, p.rank];
    const names = ["routes", "tickets", "stations", "bonus", "total", "rank"];
    cells.forEach((v, i) => { const td = tr.insertCell(); td.textContent = v; td.dataset.field = names[i]; });
    tr.onclick = () => highlight(p.seat);
    tr.tabIndex = 0;
    tr.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); highlight(p.seat); } };
    details.appendChild(seatDetail(p, board));
  }
  const ties = tieBreaks(board);
  let tie = $("tie-break");
  if (!tie) { tie = document.createElement("p"); tie.id = "tie-break"; $("winner").after(tie); }
  tie.textContent = ties.join(" ");
  tie.hidden = !ties.length;
  highlight(shownSeat === null ? defaultShown() : shownSeat);
}

// The bonus of the longest path, by the name the map gives it.
function bonusName(name) {
  return ({ "European Express": t("European Express"), "Longest Continuous Path": t("Longest Continuous Path") })[name] || name;
}

// Equal totals, and what ranked them (R49, R50): "Ann and Bob have 80 points each: the
// tie-break puts Ann ahead on completed tickets (5 to 3)." or "... and share rank 1."
function tieBreaks(board) {
  const bySeat = Object.fromEntries(board.players.map((p) => [p.seat, p]));
  const figure = {
    completed_tickets: (p) => p.tickets.filter((tk) => tk.completed).length,
    fewest_stations: (p) => p.stations.length,
    bonus_card: (p) => (p.bonus > 0 ? t("the bonus") : t("no bonus")),
    longest_path: (p) => p.longest_path.length,
  };
  const words = {
    completed_tickets: t("completed tickets"), fewest_stations: t("fewer stations built"),
    bonus_card: bonusName(board.bonus_name), longest_path: t("the longer longest path"),
  };
  const out = [];
  board.ranking.slice(0, -1).forEach((a, i) => {
    const b = board.ranking[i + 1];
    const [pa, pb] = [bySeat[a], bySeat[b]];
    if (pa.total !== pb.total) return;
    const names = { a: playerName(a), b: playerName(b) };
    const by = board.decided_by[i];
    if (by === null) {
      out.push(tn("{a} and {b} have {n} point each and share rank {rank}.", "{a} and {b} have {n} points each and share rank {rank}.", pa.total, { ...names, rank: pa.rank }));
      return;
    }
    const f = figure[by] || (() => "");
    out.push(tn("{a} and {b} have {n} point each: the tie-break puts {a} ahead on {what} ({first} to {second}).",
      "{a} and {b} have {n} points each: the tie-break puts {a} ahead on {what} ({first} to {second}).",
      pa.total, { ...names, what: words[by] || by, first: f(pa), second: f(pb) }));
  });
  return out;
}

// One seat's story: each ticket done or failed with its points, the longest path, the stations.
function seatDetail(p, board) {
  const box = document.createElement("div");
  box.className = "seat-detail";
  box.dataset.seat = p.seat;
  const h = document.createElement("h4");
  h.append(swatch(p.seat), t("{name}: {points}, rank {rank}", { name: playerName(p.seat), points: tn("{n} point", "{n} points", p.total), rank: p.rank }));
  const list = document.createElement("ul");
  for (const tk of p.tickets) {
    const li = document.createElement("li");
    li.className = tk.completed ? "done" : "failed";
    li.dataset.ticket = tk.ticket;
    const m = document.createElement("span");
    m.className = "mark";
    m.setAttribute("aria-hidden", "true");
    m.textContent = tk.completed ? "✓" : "✗";
    const pts = document.createElement("span");
    pts.className = "points";
    pts.textContent = tk.points > 0 ? `+${tk.points}` : `${tk.points}`;
    li.append(m, tk.completed ? t("{ticket} done", { ticket: ticketName(tk.ticket) }) : t("{ticket} failed", { ticket: ticketName(tk.ticket) }), pts);
    list.appendChild(li);
  }
  if (!p.tickets.length) list.append(Object.assign(document.createElement("li"), { textContent: t("no tickets") }));
  const longest = document.createElement("p");
  longest.className = "longest";
  const bonus = p.bonus ? ` (${bonusName(board.bonus_name)}, +${p.bonus})` : "";
  longest.textContent = t("Longest path: {trains}", { trains: tn("{n} train", "{n} trains", p.longest_path.length) }) + bonus;
  box.append(h, list, longest);
  for (const st of p.stations) {
    const line = document.createElement("p");
    line.className = "station";
    line.textContent = st.route ? t("Station in {city} borrowed {route}", { city: cityWords(st.city), route: routeWords(st.route) }) : t("Station in {city} borrowed nothing", { city: cityWords(st.city) });
    box.appendChild(line);
  }
  const unbuilt = last.seats[p.seat].stations_left;
  if (unbuilt) box.append(Object.assign(document.createElement("p"), { textContent: tn("{n} station not built (+{points})", "{n} stations not built (+{points})", unbuilt, { points: p.station_points }) }));
  box.onclick = () => highlight(p.seat);
  return box;
}

function highlight(s) {
  shownSeat = s;
  const svg = $("board").querySelector("svg");
  if (!svg || !last || !last.highlights || s === null) return;
  clearHighlights();
  for (const el of document.querySelectorAll("#scoreboard tr, .seat-detail")) el.classList.toggle("shown", el.dataset.seat === String(s));
  for (const h of last.highlights[s]) mark(h.routes, h.cities, h.label.startsWith("longest") ? "hl-longest" : "hl-ticket");
}

function showSeatChoice(msg) {
  const box = $("seat-choice");
  box.replaceChildren();
  if (seat !== null) return;
  for (const s of msg.seats) {
    if (!s.open) continue;
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = t("Sit as Player {n}", { n: s.seat + 1 });
    b.onclick = () => join(s.seat);
    box.appendChild(b);
  }
}

$("blind").onclick = () => act("blind");
$("tickets").onclick = () => act("tickets");
$("withdraw").onclick = () => act("withdraw");
$("pass").onclick = () => act("pass");
$("keep").onclick = () => {
  const kept = [...document.querySelectorAll("#offer-list input:checked")].map((b) => b.value);
  act({ format: "ttr_europe/action", version: 1, type: "keep_tickets", tickets: kept });
};
// "New game" never leaves a match being played by surprise: it asks first (the match goes on,
// and My games keeps it); once the game is over it needs no question, and the rematch is there.
$("new-game").onclick = () => {
  const playing = last && !last.finished && seat !== null;
  if (playing && !window.confirm(t("Leave this match for a new game? It goes on without you, and My games keeps it."))) return;
  send({ type: "new" });
};
$("rematch").onclick = () => { $("rematch").disabled = true; send({ type: "rematch" }); };
$("skip").onclick = (e) => { e.preventDefault(); $("turn-title").focus(); }; // the address stays
$("zoom-in").onclick = () => zoomAt(scale() * 1.5);
$("zoom-out").onclick = () => zoomAt(scale() / 1.5);
$("zoom-fit").onclick = () => { zoom = null; applyZoom(); };
$("name").value = myName() || "";
function rename(name) {
  if (name) localStorage.setItem("ttr-name", name); else localStorage.removeItem("ttr-name");
  $("name").value = name;
  if (seat !== null) join(seat); // the server takes the new name and tells the other players
}
$("name").onchange = () => rename($("name").value.trim());

// The question asked on arrival: the name this browser goes by already filled in (else empty,
// the seat's own name shown as what the others see if it is skipped); the turn's heading next.
function showNameAsk() {
  $("name-ask-hint").textContent = t("The other players see this name instead of “{name}”. Skip to stay “{name}”.",
    { name: t("Player {n}", { n: seat + 1 }) });
  $("name-ask-input").value = myName() || "";
  $("name-ask").hidden = false;
  $("name-ask-input").focus();
}
function closeNameAsk() {
  $("name-ask").hidden = true;
  $("turn-title").focus();
}
$("name-ask-form").onsubmit = (e) => {
  e.preventDefault();
  const name = $("name-ask-input").value.trim();
  if (name) rename(name); // an empty answer is a skip
  closeNameAsk();
};
$("name-ask-skip").onclick = closeNameAsk;
const boardEl = $("board");
boardEl.addEventListener("click", onBoardClick);
boardEl.addEventListener("pointerdown", onPointerDown);
boardEl.addEventListener("pointermove", onPointerMove);
boardEl.addEventListener("pointerup", onPointerUp);
boardEl.addEventListener("pointercancel", onPointerUp);
boardEl.addEventListener("wheel", (e) => { // a trackpad's pinch, or ctrl and the wheel
  if (!e.ctrlKey) return;
  e.preventDefault();
  zoomAt(scale() * Math.exp(-e.deltaY / 200), e.clientX, e.clientY);
}, { passive: false });
window.addEventListener("resize", () => applyZoom());
// The board's box settles after the panel and legend are drawn: fit the whole map again then.
let boardSize = "";
new ResizeObserver(() => {
  const size = `${boardEl.clientWidth}x${boardEl.clientHeight}`;
  if (size === boardSize) return;
  boardSize = size;
  if (zoom === null) applyZoom();
}).observe(boardEl);
new ResizeObserver(() => sizeBoardArea()).observe($("legend")); // another language, colour-blind
// On a narrow screen the map stays at the top while the page scrolls: the focus going to one
// of its routes or buttons (M, the arrows, Shift+Tab from the panel) must not scroll the page
// back up to the header, as the page's scroll-padding for the panel under the map would.
let pageY = window.scrollY;
window.addEventListener("scroll", () => { pageY = window.scrollY; }, { passive: true });
$("board-area").addEventListener("focusin", (e) => {
  // (a keyboard's focus: a finger's or a mouse's never scrolls, and its click must land)
  if (!narrow.matches || window.scrollY === pageY || !e.target.matches(":focus-visible")) return;
  const tools = $("board-tools").getBoundingClientRect();
  const tall = $("board").getBoundingClientRect().bottom - tools.top;
  const top = Math.max(0, tools.top + window.scrollY - pageY); // where the map was (it sticks at 0)
  if (top + tall <= window.innerHeight + 1) window.scrollTo(0, pageY); // it was whole in sight: stay
});
// The panel is a Tab stop where it scrolls by itself (beside the map); under the map the page
// scrolls, and a stop around the whole panel would show no ring.
function panelStop() { document.querySelector("aside").tabIndex = narrow.matches ? -1 : 0; }
narrow.addEventListener("change", panelStop);
panelStop();
setInterval(() => send({ type: "ping" }), 30000); // the server closes connections silent for 120 s

// ------------------------------------------------------------------ language, keys, view

function fillLanguages() {
  const select = $("lang");
  select.replaceChildren();
  for (const [code, name] of Object.entries(I18N.languages)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    select.appendChild(option);
  }
  select.value = I18N.lang;
}

$("lang").onchange = async () => {
  const focus = focusKey(document.activeElement);
  await chooseLanguage($("lang").value);
  fillLanguages();
  render();
  restoreFocus(focus);
};
$("cb").checked = localStorage.getItem(CB_KEY) === "1";
colourBlind($("cb").checked);
$("cb").onchange = () => colourBlind($("cb").checked);

function toggleHelp(show) {
  const help = $("help");
  help.hidden = show === undefined ? !help.hidden : !show;
  $("help-button").setAttribute("aria-expanded", String(!help.hidden));
}
$("help-button").onclick = () => toggleHelp();

function press(id) { const b = $(id); if (b && !b.disabled && !b.hidden && !b.closest("[hidden]")) b.click(); }
function focusFirst(selector) {
  const el = [...document.querySelectorAll(selector)].find(usable);
  if (el) el.focus();
  return !!el;
}

// Enter or Space on a focused route or city of the map asks for its payments.
boardEl.addEventListener("keydown", (e) => {
  const g = e.target.closest && e.target.closest("g.route, g.city");
  if (!g) return;
  if (e.key in DIRECTIONS) { e.preventDefault(); roveMap(boardEl.querySelector("svg"), g, e.key); return; }
  if (e.key !== "Enter" && e.key !== " ") return;
  e.preventDefault();
  if (g.classList.contains("route")) ask({ route: g.dataset.route }, g, true); else ask({ city: g.dataset.city }, g, true);
});

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "Escape") { toggleHelp(false); return; }
  const tag = e.target.tagName;
  if (tag === "INPUT" && e.target.type !== "checkbox" || tag === "SELECT" || tag === "TEXTAREA") return;
  const key = e.key.toLowerCase();
  const slot = "12345".indexOf(key);
  if (slot >= 0) { const b = document.querySelector(`#row button[data-slot="${slot}"]`); if (b && !b.disabled) b.click(); }
  else if (key === "d") press("blind");
  else if (key === "t") press("tickets");
  else if (key === "k") press("keep");
  else if (key === "w") press("withdraw");
  else if (key === "x") press("pass");
  else if (key === "r") focusFirst("#claim-list button");
  else if (key === "s") { $("build-box").open = true; focusFirst("#build-list button"); }
  else if (key === "p") focusFirst("#options-list button, #pay-list button");
  else if (key === "m") { if (!focusFirst("#board g.route[tabindex='0'], #board g.city[tabindex='0']")) $("board").focus(); }
  else if (key === "+" || key === "=") zoomAt(scale() * 1.5);
  else if (key === "-") zoomAt(scale() / 1.5);
  else if (key === "0") { zoom = null; applyZoom(); }
  else if (key === "?" || key === "h") toggleHelp();
  else return;
  e.preventDefault();
});

loadLanguage(null).catch(() => null).then(() => { fillLanguages(); connect(); });
