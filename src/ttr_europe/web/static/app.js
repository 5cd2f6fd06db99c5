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
const coarse = window.matchMedia("(pointer: coarse)");

function tokenKey(match, s) { return `ttr-token:${match}:${s}`; }
function myName() { return localStorage.getItem("ttr-name") || null; }

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.onopen = () => {
    if (matchId === null && seat === null && !watching) send({ type: "play" }); // sit down
    else join(seat);
  };
  socket.onmessage = (e) => receive(JSON.parse(e.data));
  socket.onclose = () => {
    setStatus("disconnected; reconnecting…", "connecting");
    setTimeout(connect, 1000);
  };
}

function send(doc) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(doc));
  else setStatus("disconnected; reconnecting…", "connecting"); // said, never silently dropped
}

function join(s) {
  const token = matchId !== null && s !== null ? localStorage.getItem(tokenKey(matchId, s)) : null;
  const invite = token === null && s !== null && s === seat ? params.get("invite") : null;
  const name = s === null ? null : window.Together ? Together.nameFor(matchId, s, myName()) : myName();
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
    const url = new URL(location.href);
    url.searchParams.set("match", matchId);
    url.searchParams.delete("watch");
    url.searchParams.delete("invite"); // used: the seat's token is this browser's now
    if (seat === null) url.searchParams.delete("seat"); else url.searchParams.set("seat", seat);
    history.replaceState(null, "", url);
    $("where").textContent = `match ${matchId}` + (seat === null ? ", watching" : `, Player ${seat + 1}`);
    $("events").replaceChildren(); // the update that follows replays them as this seat sees them
    for (const k of Object.keys(lastMoves)) delete lastMoves[k];
    if (window.Together) Together.joined(msg);
    return;
  }
  if (msg.type === "created") {
    const at = msg.seat === null ? "" : `&seat=${msg.seat}`; // the first person's seat
    location.href = `/?match=${encodeURIComponent(msg.match)}${at}`;
    return;
  }
  if (msg.type === "options") return showOptions(msg);
  if (msg.type === "update") return update(msg);
}

function showError(msg) {
  const box = $("error");
  box.textContent = msg.code === "unknown_match"
    ? "This match is not on the server any more: start a new game."
    : msg.text || msg.message;
  box.title = msg.rule ? `rule ${msg.rule}` : ""; // the rule's number only on hover
  box.dataset.code = msg.code;
  box.hidden = false;
  if (msg.code === "unknown_match") { // gone or never here: nothing of it stays playable
    last = null;
    $("board").replaceChildren();
    $("turn").hidden = true;
    $("where").textContent = `no match ${matchId} here`;
    setStatus("start a new game", "unknown");
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

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const cardName = (k) => (k === "loco" ? "locomotive" : k);

function cardText(cards) {
  const parts = Object.entries(cards || {}).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
  return parts.length ? parts.join(" + ") : "nothing";
}

function cardElement(kind, label, tag) {
  const el = document.createElement(tag || "span");
  el.className = `card card-${kind}`;
  el.dataset.kind = kind;
  el.textContent = label;
  el.title = cardName(kind);
  return el;
}

function playerName(i) {
  if (!last) return `seat ${i}`;
  return last.seats[i].player;
}

function seatName(i) { return i === seat ? "you" : playerName(i); }
// "you try" / "Ann tries": the subject with its verb agreeing
function says(i, you, other) { return i === seat ? `You ${you}` : `${playerName(i)} ${other}`; }

function act(action) {
  clearError();
  send({ type: "act", action: action });
}

function title(msg, mine) {
  const view = msg.view;
  if (msg.finished) {
    const winners = msg.scoreboard.winners;
    const names = winners.map((w) => (w === seat ? "you" : playerName(w)));
    if (winners.length > 1) return `Game over: ${names.join(" and ")} share the win`;
    return winners[0] === seat ? "Game over: you win!" : `Game over: ${names[0]} wins`;
  }
  if (!mine) return `${playerName(msg.current)} to play`;
  switch (view.phase) {
    case "INITIAL_TICKETS": return "Your turn: choose your starting tickets";
    case "SECOND_DRAW": return "Take a second card (not a face-up locomotive)";
    case "TUNNEL": return `Tunnel: pay ${plural(view.tunnel.extra, "more card")} or withdraw`;
    case "CHOOSE_TICKETS": return "Choose the tickets to keep";
    default: return "Your turn";
  }
}

function update(msg) {
  if (window.Together && Together.handoff(msg)) return; // another person's turn on this device
  last = msg;
  const view = msg.view;
  const me = seat !== null ? view.players[seat] : null;
  noteMarks(msg.events);
  // board
  const board = $("board");
  const scroll = [board.scrollLeft, board.scrollTop];
  board.innerHTML = msg.board;
  hookBoard(msg.moves);
  applyZoom();
  [board.scrollLeft, board.scrollTop] = scroll;
  // turn
  const mine = msg.moves !== null;
  $("turn-title").textContent = title(msg, mine);
  setStatus(msg.finished ? "game over" : mine ? "your turn" : "waiting", msg.finished ? "over" : mine ? "turn" : "waiting");
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
    b.disabled = !moves.draw.includes(slot);
    b.onclick = () => act(`draw ${slot + 1}`);
    row.appendChild(b);
  });
  const discarded = view.discard ? Object.values(view.discard).reduce((a, b) => a + b, 0) : 0;
  $("pile").textContent = `${plural(view.pile_size, "card")} in the pile, ${discarded} discarded, ${plural(view.ticket_deck_size, "ticket")} left`;
  // hand and tickets
  $("hand-box").hidden = !me;
  $("tickets-box").hidden = !me;
  if (me) {
    const hand = $("hand");
    hand.replaceChildren();
    for (const [kind, n] of Object.entries(me.hand || {})) if (n > 0) hand.appendChild(cardElement(kind, `${n} ${cardName(kind)}`));
    showTickets(msg.tickets);
  }
  showOffer(msg.offer, moves);
  showTunnel(view, moves);
  if (!mine) hideOptions();
  else if (selected) send({ type: "options", ...selected });
  showPlayers(msg);
  showEvents(msg.events);
  showFinal(msg);
  showSeatChoice(msg);
  if (window.Together) Together.update(msg);
}

// The turns still owed count the turn being played (R46): on the last one, none come after.
function lastRoundText(owed) {
  const after = owed - 1;
  return after > 0 ? `Last round: ${plural(after, "turn")} left after this one` : "Last round: this is the last turn";
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

// On a narrow screen the map sits above the panel: its area is no taller than the whole map
// needs at the screen's width (at most 56% of the height), leaving the rest to the panel.
function sizeBoardArea() {
  const area = $("board-area");
  if (!matchMedia("(max-width: 999px)").matches) { area.style.height = ""; return; }
  const [w, h] = natural();
  const board = $("board");
  const tools = $("board-tools").getBoundingClientRect().height;
  const wanted = tools + 4 + (board.clientWidth * h) / w + 2;
  area.style.height = `${Math.round(Math.min(window.innerHeight * 0.56, wanted))}px`;
}

function applyZoom() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  sizeBoardArea();
  const z = scale();
  const [w, h] = natural();
  svg.style.width = `${w * z}px`;
  svg.style.height = `${h * z}px`;
  // names stay readable when the map is small, and keep their drawn size when it is large
  svg.style.setProperty("--label-size", `${Math.min(15, Math.max(11, 12 / z))}px`);
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

function ask(target, el) {
  clearError();
  for (const g of document.querySelectorAll("#board .selected")) g.classList.remove("selected");
  el.classList.add("selected");
  selected = target;
  const tip = el.querySelector("title");
  $("options").hidden = false;
  $("options-title").textContent = tip ? tip.textContent : target.route || target.city;
  const list = $("options-list");
  list.replaceChildren();
  if (last && last.moves) send({ type: "options", ...target });
  else list.textContent = last && last.finished ? "The game is over." : "Not your turn.";
  if (matchMedia("(max-width: 999px)").matches) $("turn").scrollIntoView({ block: "nearest" });
}

function showOptions(msg) {
  if (!selected || msg.route !== (selected.route ?? null) || msg.city !== (selected.city ?? null)) return;
  const list = $("options-list");
  list.replaceChildren();
  if (!msg.actions.length) {
    list.textContent = msg.route ? "You cannot claim this route now." : "You cannot build a station here now.";
    return;
  }
  for (const option of msg.actions) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "pay-option";
    b.dataset.action = option.action;
    b.textContent = `${msg.route ? "Claim" : "Build"} with ${cardText(option.payment)}`;
    b.onclick = () => { selected = null; hideOptions(); act(option.action); };
    list.appendChild(b);
  }
}

function hideOptions() {
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
  for (const t of tickets || []) {
    const li = document.createElement("li");
    li.dataset.ticket = t.ticket;
    const over = last && last.finished; // an open ticket at the end has failed
    li.className = t.done ? "done" : over ? "failed" : "open";
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = t.done ? "✓" : over ? "✗" : "○";
    mark.title = t.done ? "done: your routes join these cities" : over ? "failed" : "open";
    const name = document.createElement("span");
    name.textContent = ticketLabel(t);
    const points = document.createElement("span");
    points.className = "points";
    points.textContent = t.done || !over ? `${t.points}` : `−${t.points}`; // what it scored
    li.append(mark, name);
    if (t.long) li.append(longBadge());
    li.append(points);
    li.onmouseenter = () => showTicket(t);
    li.onmouseleave = () => showTicket(shownTicket);
    li.onclick = () => { shownTicket = shownTicket && shownTicket.ticket === t.ticket ? null : t; showTicket(shownTicket); };
    list.appendChild(li);
  }
}

function longBadge() {
  const b = document.createElement("span");
  b.className = "long";
  b.textContent = "long";
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
function showTicket(t) {
  if (last && last.finished) return;
  clearHighlights();
  for (const li of document.querySelectorAll("#my-tickets li")) li.classList.toggle("shown", !!t && li.dataset.ticket === t.ticket);
  if (t) mark(t.routes, t.cities, "hl-ticket");
}

function showOffer(offer, moves) {
  const box = $("offer");
  box.hidden = !(moves.keep.length && offer.length);
  if (box.hidden) return;
  const list = $("offer-list");
  list.replaceChildren();
  for (const t of offer) {
    const li = document.createElement("li");
    li.dataset.ticket = t.ticket;
    const label = document.createElement("label");
    const check = document.createElement("input");
    check.type = "checkbox";
    check.checked = true;
    check.value = t.ticket;
    const name = document.createElement("span");
    name.textContent = ticketLabel(t);
    const points = document.createElement("span");
    points.className = "points";
    points.textContent = plural(t.points, "point");
    label.append(check, name);
    if (t.long) label.append(longBadge());
    label.append(points);
    li.appendChild(label);
    list.appendChild(li);
  }
}

function showTunnel(view, moves) {
  const box = $("tunnel");
  box.hidden = !view.tunnel;
  if (!view.tunnel) return;
  const t = view.tunnel;
  $("tunnel-text").textContent = `${t.route}: ${cardText(t.laid)} laid; revealed ${t.revealed.map((k) => k || "nothing").join(", ")}; ${t.extra} more due.`;
  const list = $("pay-list");
  list.replaceChildren();
  for (const option of moves.pay) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "pay-tunnel";
    b.textContent = `Pay ${cardText(option.payment)}`;
    b.onclick = () => act(option.action);
    list.appendChild(b);
  }
}

// ------------------------------------------------------------------ players, moves, events

function seatColour(i) {
  const key = document.querySelector(`#board .seat-key.seat-${i} rect`);
  return key ? key.getAttribute("fill") : ["#00c8d7", "#6a1b9a", "#808000", "#795548", "#000075"][i % 5];
}

function swatch(i) {
  const sw = document.createElement("span");
  sw.className = "swatch";
  sw.style.background = seatColour(i);
  return sw;
}

function showPlayers(msg) {
  const table = $("players");
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of ["", "points", "trains", "cards", "tickets", "stations left"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  for (const p of msg.view.players) {
    const tr = table.insertRow();
    tr.dataset.seat = p.seat;
    if (p.seat === msg.current) tr.classList.add("to-act");
    const name = tr.insertCell();
    const s = msg.seats[p.seat];
    const online = s.person && p.seat !== seat && s.online ? " ●" : "";
    name.append(swatch(p.seat), playerName(p.seat) + (p.seat === seat ? " (you)" : "") + online);
    const left = s.stations_left;
    for (const v of [p.score, p.trains, p.hand_size, p.ticket_count, left]) tr.insertCell().textContent = v;
    const lastMove = lastMoves[p.seat];
    if (lastMove) {
      const row = table.insertRow();
      row.dataset.lastOf = p.seat;
      const cell = row.insertCell();
      cell.colSpan = 6;
      cell.className = "last";
      cell.textContent = `last: ${lastMove}`;
    }
  }
}

const lastMoves = {}; // seat -> a short text of its last move

function noteMarks(events) {
  const now = Date.now();
  for (const { event: e } of events) {
    if (e.type === "route_claimed") marks[e.seat] = { route: e.route, until: now + MARK_MS };
    else if (e.type === "station_built") marks[e.seat] = { city: e.city, until: now + MARK_MS };
    const text = short(e);
    if (text && e.seat !== undefined) lastMoves[e.seat] = text;
  }
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
function short(e) {
  switch (e.type) {
    case "face_up_taken": return `took a face-up ${cardName(e.card)}`;
    case "blind_drawn": return e.card ? `drew a ${cardName(e.card)}` : "drew from the pile";
    case "route_claimed": return `claimed ${e.route} (+${e.points})`;
    case "station_built": return `built a station in ${e.city}`;
    case "tickets_kept": return `kept ${plural(e.kept_count, "ticket")}`;
    case "tunnel_withdrawn": return `withdrew from the tunnel ${e.route}`;
    case "passed": return "passed";
    default: return null;
  }
}

function describe(e) {
  const s = e.seat;
  switch (e.type) {
    case "face_up_taken": return `${says(s, "took", "took")} a face-up ${cardName(e.card)}`;
    case "blind_drawn": return `${says(s, "drew", "drew")} from the pile${e.card ? `: ${cardName(e.card)}` : ""}`;
    case "row_reset": return `Three locomotives face up: the row was discarded (${e.discarded.join(", ")}) and dealt anew`;
    case "reshuffled": return `The discard (${plural(e.cards, "card")}) was shuffled into a new pile`;
    case "tunnel_revealed": return `${says(s, "try", "tries")} the tunnel ${e.route} with ${cardText(e.laid)}: revealed ${e.revealed.map((k) => k || "nothing").join(", ")}, ${e.extra} more due`;
    case "tunnel_paid": return `${says(s, "paid", "paid")} ${cardText(e.payment)} more for the tunnel ${e.route}`;
    case "tunnel_withdrawn": return `${says(s, "withdrew", "withdrew")} from the tunnel ${e.route}`;
    case "route_claimed": return `${says(s, "claimed", "claimed")} ${e.route} with ${cardText(e.payment)} (+${plural(e.points, "point")}, ${plural(e.trains_left, "train")} left)`;
    case "station_built": return `${says(s, "built", "built")} a station in ${e.city} with ${cardText(e.payment)}`;
    case "tickets_drawn": return `${says(s, "drew", "drew")} ${plural(e.count, "ticket")}${e.tickets ? ": " + e.tickets.map(ticketName).join(", ") : ""}`;
    case "tickets_kept": return `${says(s, "kept", "kept")} ${plural(e.kept_count, "ticket")}${e.kept ? ": " + e.kept.map(ticketName).join(", ") : ""} and returned ${e.returned_count}`;
    case "passed": return `${says(s, "passed", "passed")}`;
    case "last_round": return `${s === seat ? "You have" : `${playerName(s)} has`} ${plural(e.trains, "train")} left: the last round begins`;
    case "game_over": return `Game over: ${e.scoreboard.winners.map(seatName).join(" and ")} won`;
    case "undone": return `${says(s, "took", "took")} back ${plural(e.actions, "move")}`;
    default: return null;
  }
}

function showEvents(events) {
  const list = $("events");
  for (const { seq, event } of events) {
    if (event.type === "turn_started" || event.type === "slot_refilled") continue; // not news
    const text = describe(event);
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
  return seat !== null ? seat : last.scoreboard.winners[0];
}

function showFinal(msg) {
  $("final").hidden = !msg.finished;
  if (!msg.finished) return;
  const board = msg.scoreboard;
  $("winner").textContent = title(msg, false).replace("Game over: ", "");
  const table = $("scoreboard");
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of ["", "routes", "tickets", "stations", "bonus", "total", "rank"]) {
    const th = document.createElement("th");
    th.textContent = h;
    if (h === "bonus") th.title = board.bonus_name;
    head.appendChild(th);
  }
  const details = $("final-details");
  details.replaceChildren();
  for (const p of board.players) {
    const tr = table.insertRow();
    tr.className = "scored";
    tr.dataset.seat = p.seat;
    tr.insertCell().append(swatch(p.seat), playerName(p.seat));
    const cells = [p.route_points, p.ticket_points, p.station_points, p.bonus, p.total, p.rank];
    const names = ["routes", "tickets", "stations", "bonus", "total", "rank"];
    cells.forEach((v, i) => { const td = tr.insertCell(); td.textContent = v; td.dataset.field = names[i]; });
    tr.onclick = () => highlight(p.seat);
    details.appendChild(seatDetail(p, board));
  }
  const ties = tieBreaks(board);
  let tie = $("tie-break");
  if (!tie) { tie = document.createElement("p"); tie.id = "tie-break"; $("winner").after(tie); }
  tie.textContent = ties.join(" ");
  tie.hidden = !ties.length;
  highlight(shownSeat === null ? defaultShown() : shownSeat);
}

// Equal totals, and what ranked them (R49, R50): "Ann and Bob have 80 points each: Ann ranks
// ahead on completed tickets (5 to 3)." or "... and share rank 1."
function tieBreaks(board) {
  const bySeat = Object.fromEntries(board.players.map((p) => [p.seat, p]));
  const figure = {
    completed_tickets: (p) => p.tickets.filter((t) => t.completed).length,
    fewest_stations: (p) => p.stations.length,
    bonus_card: (p) => (p.bonus > 0 ? "the bonus" : "no bonus"),
    longest_path: (p) => p.longest_path.length,
  };
  const words = {
    completed_tickets: "completed tickets", fewest_stations: "fewer stations built",
    bonus_card: board.bonus_name, longest_path: "the longer longest path",
  };
  const out = [];
  board.ranking.slice(0, -1).forEach((a, i) => {
    const b = board.ranking[i + 1];
    const [pa, pb] = [bySeat[a], bySeat[b]];
    if (pa.total !== pb.total) return;
    const both = `${playerName(a)} and ${playerName(b)} have ${plural(pa.total, "point")} each`;
    const by = board.decided_by[i];
    if (by === null) { out.push(`${both} and share rank ${pa.rank}.`); return; }
    const f = figure[by] || (() => "");
    out.push(`${both}: the tie-break puts ${playerName(a)} ahead on ${words[by] || by} (${f(pa)} to ${f(pb)}).`);
  });
  return out;
}

// One seat's story: each ticket done or failed with its points, the longest path, the stations.
function seatDetail(p, board) {
  const box = document.createElement("div");
  box.className = "seat-detail";
  box.dataset.seat = p.seat;
  const h = document.createElement("h4");
  h.append(swatch(p.seat), `${playerName(p.seat)}: ${plural(p.total, "point")}, rank ${p.rank}`);
  const list = document.createElement("ul");
  for (const t of p.tickets) {
    const li = document.createElement("li");
    li.className = t.completed ? "done" : "failed";
    li.dataset.ticket = t.ticket;
    const m = document.createElement("span");
    m.className = "mark";
    m.textContent = t.completed ? "✓" : "✗";
    const pts = document.createElement("span");
    pts.className = "points";
    pts.textContent = t.points > 0 ? `+${t.points}` : `${t.points}`;
    li.append(m, `${ticketName(t.ticket)} ${t.completed ? "done" : "failed"}`, pts);
    list.appendChild(li);
  }
  if (!p.tickets.length) list.append(Object.assign(document.createElement("li"), { textContent: "no tickets" }));
  const longest = document.createElement("p");
  longest.className = "longest";
  const bonus = p.bonus ? ` (${board.bonus_name}, +${p.bonus})` : "";
  longest.textContent = `Longest path: ${plural(p.longest_path.length, "train")}${bonus}`;
  box.append(h, list, longest);
  for (const st of p.stations) {
    const line = document.createElement("p");
    line.className = "station";
    line.textContent = st.route ? `Station in ${st.city} borrowed ${st.route}` : `Station in ${st.city} borrowed nothing`;
    box.appendChild(line);
  }
  const unbuilt = last.seats[p.seat].stations_left;
  if (unbuilt) box.append(Object.assign(document.createElement("p"), { textContent: `${plural(unbuilt, "station")} not built (+${p.station_points})` }));
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
    b.textContent = `Sit as Player ${s.seat + 1}`;
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
$("new-game").onclick = () => send({ type: "new" });
$("zoom-in").onclick = () => zoomAt(scale() * 1.5);
$("zoom-out").onclick = () => zoomAt(scale() / 1.5);
$("zoom-fit").onclick = () => { zoom = null; applyZoom(); };
$("name").value = myName() || "";
$("name").onchange = () => {
  const name = $("name").value.trim();
  if (name) localStorage.setItem("ttr-name", name); else localStorage.removeItem("ttr-name");
  if (seat !== null) join(seat); // the server takes the new name; the page is sent again
};
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
setInterval(() => send({ type: "ping" }), 30000); // the server closes connections silent for 120 s
connect();
