// The page: one WebSocket to the server, which checks every move with the engine.
// The board is the SVG the server draws; its routes and cities carry ids and data-* to hook.
"use strict";

const params = new URLSearchParams(location.search);
let matchId = params.get("match");
let seat = params.has("seat") ? Number(params.get("seat")) : null;
let socket = null;
let last = null; // the latest update
let selected = null; // {route} or {city} asked for
let shownSeat = null; // whose paths the final board highlights
const $ = (id) => document.getElementById(id);

function tokenKey(match, s) { return `ttr-token:${match}:${s}`; }

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.onopen = () => join(seat);
  socket.onmessage = (e) => receive(JSON.parse(e.data));
  socket.onclose = () => {
    setStatus("disconnected; reconnecting…", "connecting");
    setTimeout(connect, 1000);
  };
}

function send(doc) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(doc));
}

function join(s) {
  const token = matchId !== null && s !== null ? localStorage.getItem(tokenKey(matchId, s)) : null;
  send({ type: "join", match: matchId, seat: s, token: token });
}

function receive(msg) {
  if (msg.type === "error") return showError(msg);
  if (msg.type === "joined") {
    matchId = msg.match;
    seat = msg.seat;
    if (seat !== null && msg.token) localStorage.setItem(tokenKey(matchId, seat), msg.token);
    const url = new URL(location.href);
    url.searchParams.set("match", matchId);
    if (seat === null) url.searchParams.delete("seat"); else url.searchParams.set("seat", seat);
    history.replaceState(null, "", url);
    $("where").textContent = `match ${matchId}` + (seat === null ? ", watching" : `, seat ${seat}`);
    $("events").replaceChildren(); // the update that follows replays them as this seat sees them
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
  box.textContent = msg.message + (msg.rule ? ` (rule ${msg.rule})` : "");
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
  const refusedSeat = ["seat_taken", "bot_seat", "no_seat", "too_many_tabs"].includes(msg.code);
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

function cardText(cards) {
  const parts = Object.entries(cards || {}).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
  return parts.length ? parts.join(" + ") : "nothing";
}

function cardElement(kind, label, tag) {
  const el = document.createElement(tag || "span");
  el.className = `card card-${kind}`;
  el.dataset.kind = kind;
  el.textContent = label;
  return el;
}

function seatName(i) {
  if (!last) return `seat ${i}`;
  const s = last.seats[i];
  return i === seat ? "you" : `seat ${i} (${s.person ? "person" : s.name})`;
}

function act(action) {
  clearError();
  send({ type: "act", action: action });
}

function update(msg) {
  last = msg;
  const view = msg.view;
  const me = seat !== null ? view.players[seat] : null;
  // board
  $("board").innerHTML = msg.board;
  hookBoard(msg.moves);
  // turn
  const mine = msg.moves !== null;
  let title;
  if (msg.finished) title = "Game over";
  else if (mine) title = view.phase === "INITIAL_TICKETS" ? "Your turn: choose your tickets" : "Your turn";
  else title = `${seatName(msg.current)} to play`;
  $("turn-title").textContent = title;
  setStatus(msg.finished ? "game over" : mine ? "your turn" : "waiting", msg.finished ? "over" : mine ? "turn" : "waiting");
  document.body.dataset.seq = msg.seq;
  const moves = msg.moves || { draw: [], blind: false, tickets: false, withdraw: false, pass: false, keep: [], pay: [], claims: {}, stations: {} };
  $("blind").disabled = !moves.blind;
  $("tickets").disabled = !moves.tickets;
  $("withdraw").hidden = !moves.withdraw;
  $("pass").hidden = !moves.pass;
  // face-up row
  const row = $("row");
  row.replaceChildren();
  view.row.forEach((kind, slot) => {
    if (kind === null) return;
    const b = cardElement(kind, kind, "button");
    b.type = "button";
    b.dataset.slot = slot;
    b.disabled = !moves.draw.includes(slot);
    b.onclick = () => act(`draw ${slot + 1}`);
    row.appendChild(b);
  });
  $("pile").textContent = `${view.pile_size} cards in the pile, ${view.discard ? Object.values(view.discard).reduce((a, b) => a + b, 0) : 0} discarded, ${view.ticket_deck_size} tickets left`;
  // hand and tickets
  $("hand-box").hidden = !me;
  $("tickets-box").hidden = !me;
  if (me) {
    const hand = $("hand");
    hand.replaceChildren();
    for (const [kind, n] of Object.entries(me.hand || {})) if (n > 0) hand.appendChild(cardElement(kind, String(n)));
    const list = $("my-tickets");
    list.replaceChildren();
    for (const t of me.tickets || []) {
      const li = document.createElement("li");
      li.textContent = t;
      li.dataset.ticket = t;
      list.appendChild(li);
    }
  }
  showOffer(me, moves);
  showTunnel(view, moves);
  if (!mine) hideOptions();
  else if (selected) send({ type: "options", ...selected });
  showPlayers(msg);
  showEvents(msg.events);
  showFinal(msg);
  showSeatChoice(msg);
}

function hookBoard(moves) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  for (const g of svg.querySelectorAll("g.route")) {
    const id = g.dataset.route;
    if (moves && moves.claims[id]) g.classList.add("claimable");
    g.addEventListener("click", () => ask({ route: id }, g));
  }
  for (const g of svg.querySelectorAll("g.city")) {
    const id = g.dataset.city;
    if (moves && moves.stations[id]) g.classList.add("buildable");
    g.addEventListener("click", () => ask({ city: id }, g));
  }
  if (last && last.finished) highlight(shownSeat === null ? defaultShown() : shownSeat);
}

function ask(target, el) {
  clearError();
  for (const g of document.querySelectorAll("#board .selected")) g.classList.remove("selected");
  el.classList.add("selected");
  selected = target;
  const title = el.querySelector("title");
  $("options").hidden = false;
  $("options-title").textContent = title ? title.textContent : target.route || target.city;
  const list = $("options-list");
  list.replaceChildren();
  if (last && last.moves) send({ type: "options", ...target });
  else list.textContent = last && last.finished ? "The game is over." : "Not your turn.";
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

function showOffer(me, moves) {
  const box = $("offer");
  const offer = me && me.offer ? me.offer : [];
  box.hidden = !(moves.keep.length && offer.length);
  if (box.hidden) return;
  const list = $("offer-list");
  list.replaceChildren();
  for (const t of offer) {
    const li = document.createElement("li");
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = true;
    box.value = t;
    label.append(box, " " + t);
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

function showPlayers(msg) {
  const table = $("players");
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of ["", "points", "trains", "cards", "tickets", "stations"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  for (const p of msg.view.players) {
    const tr = table.insertRow();
    tr.dataset.seat = p.seat;
    if (p.seat === msg.current) tr.classList.add("to-act");
    const name = tr.insertCell();
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = seatColour(p.seat);
    name.append(sw, seatName(p.seat) + (msg.seats[p.seat].person && p.seat !== seat && msg.seats[p.seat].online ? " ●" : ""));
    for (const v of [p.score, p.trains, p.hand_size, p.ticket_count, p.stations.length]) tr.insertCell().textContent = v;
  }
}

function seatColour(i) {
  const key = document.querySelector(`#board .seat-key.seat-${i} rect`);
  return key ? key.getAttribute("fill") : "#888";
}

function describe(e) {
  const who = (s) => seatName(s);
  switch (e.type) {
    case "face_up_taken": return `${who(e.seat)} took a face-up ${e.card} (slot ${e.slot + 1})`;
    case "blind_drawn": return `${who(e.seat)} drew from the pile${e.card ? `: ${e.card}` : ""}`;
    case "slot_refilled": return `slot ${e.slot + 1} refilled with ${e.card}`;
    case "row_reset": return `three locomotives face up: the row was discarded (${e.discarded.join(", ")}) and dealt anew`;
    case "reshuffled": return `the discard (${e.cards} cards) was shuffled into a new pile`;
    case "tunnel_revealed": return `${who(e.seat)} tries tunnel ${e.route} with ${cardText(e.laid)}: revealed ${e.revealed.map((k) => k || "nothing").join(", ")}, ${e.extra} more due`;
    case "tunnel_paid": return `${who(e.seat)} paid ${cardText(e.payment)} more for tunnel ${e.route}`;
    case "tunnel_withdrawn": return `${who(e.seat)} withdrew from tunnel ${e.route}`;
    case "route_claimed": return `${who(e.seat)} claimed ${e.route} with ${cardText(e.payment)} (+${e.points}, ${e.trains_left} trains left)`;
    case "station_built": return `${who(e.seat)} built a station in ${e.city} with ${cardText(e.payment)}`;
    case "tickets_drawn": return `${who(e.seat)} drew ${e.count} tickets${e.tickets ? ": " + e.tickets.join(", ") : ""}`;
    case "tickets_kept": return `${who(e.seat)} kept ${e.kept_count} tickets${e.kept ? ": " + e.kept.join(", ") : ""} and returned ${e.returned_count}`;
    case "passed": return `${who(e.seat)} passed`;
    case "last_round": return `${who(e.seat)} has ${e.trains} trains left: the last round begins`;
    case "turn_started": return `${who(e.seat)} to play`;
    case "game_over": return `game over: ${e.scoreboard.winners.map(who).join(" and ")} won`;
    case "undone": return `${who(e.seat)} took back ${e.actions} moves`;
    default: return e.type;
  }
}

function showEvents(events) {
  const list = $("events");
  for (const { seq, event } of events) {
    if (event.type === "turn_started") continue;
    const li = document.createElement("li");
    li.value = seq;
    li.dataset.type = event.type;
    li.textContent = describe(event);
    list.prepend(li);
  }
  while (list.children.length > 300) list.lastChild.remove();
}

function defaultShown() {
  if (!last || !last.scoreboard) return null;
  return seat !== null ? seat : last.scoreboard.winners[0];
}

function showFinal(msg) {
  $("final").hidden = !msg.finished;
  if (!msg.finished) return;
  const table = $("scoreboard");
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of ["", "routes", "tickets", "stations", "bonus", "total", "rank"]) {
    const th = document.createElement("th");
    th.textContent = h;
    if (h === "bonus") th.title = msg.scoreboard.bonus_name;
    head.appendChild(th);
  }
  for (const p of msg.scoreboard.players) {
    const tr = table.insertRow();
    tr.className = "scored";
    tr.dataset.seat = p.seat;
    tr.insertCell().textContent = seatName(p.seat);
    const cells = [p.route_points, p.ticket_points, p.station_points, p.bonus, p.total, p.rank];
    const names = ["routes", "tickets", "stations", "bonus", "total", "rank"];
    cells.forEach((v, i) => { const td = tr.insertCell(); td.textContent = v; td.dataset.field = names[i]; });
    tr.onclick = () => highlight(p.seat);
  }
  highlight(shownSeat === null ? defaultShown() : shownSeat);
}

function highlight(s) {
  shownSeat = s;
  const svg = $("board").querySelector("svg");
  if (!svg || !last || !last.highlights || s === null) return;
  for (const el of svg.querySelectorAll(".hl-longest, .hl-ticket, .hl-end")) el.classList.remove("hl-longest", "hl-ticket", "hl-end");
  for (const tr of document.querySelectorAll("#scoreboard tr")) tr.classList.toggle("shown", tr.dataset.seat === String(s));
  last.highlights[s].forEach((h, i) => {
    const longest = h.label.startsWith("longest");
    for (const r of h.routes) {
      const g = svg.querySelector(`g.route[data-route="${CSS.escape(r)}"]`);
      if (g) g.classList.add(longest ? "hl-longest" : "hl-ticket");
    }
    for (const c of h.cities) {
      const g = svg.querySelector(`g.city[data-city="${CSS.escape(c)}"]`);
      if (g) g.classList.add("hl-end");
    }
  });
}

function showSeatChoice(msg) {
  const box = $("seat-choice");
  box.replaceChildren();
  if (seat !== null) return;
  for (const s of msg.seats) {
    if (!s.person || s.taken) continue;
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `Sit at seat ${s.seat}`;
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
setInterval(() => send({ type: "ping" }), 30000); // the server closes connections silent for 120 s
connect();
