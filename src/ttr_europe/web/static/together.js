// Playing together, on the game page and in the lobby: "my games" (every seat this browser
// holds, whose turn it is in each, a badge and the page title when it is yours anywhere), the
// invite links of a match this browser made, pass-and-play (a screen that hands the device to
// the next person, with nothing of the last person's hand left in the page), and the screen
// that says the server is not reachable (nothing can be clicked until it is back). Its words
// are the page's catalogs', through i18n.js's t(); the parts made before a catalog is loaded
// carry data-i18n, so that translatePage() says them in the language chosen, then and later.
"use strict";
(() => {
  const TOKEN = /^ttr-token:(.+):(\d+)$/;
  // the page's own title, in English: the map's title (a name of the map data) on the game
  // page, the lobby's a data-i18n message; said in the language chosen
  const titleText = document.title;
  const baseTitle = () => named(titleText);
  let games = []; // the latest "games" answer
  let sendDoc = (doc) => window.send && window.send(doc);

  // A seat's name as the page says it: the server's names for seats nobody named ("Player 2",
  // "Greedy bot 1") in the page's language; a name a person chose, as they wrote it.
  // A name with right-to-left letters is isolated (FSI ... PDI), so that the words around it
  // ("I am X: show my turn", "match 4k, X") keep their order.
  function said(name, seat, person) {
    if (person && name === `Player ${seat + 1}`) return t("Player {n}", { n: seat + 1 });
    const bot = !person && /^(\S+) bot( \d+)?$/.exec(name || "");
    const kind = bot && seatKind(bot[1]);
    if (kind) return kind + (bot[2] || "");
    return RTL.test(name || "") ? `\u2068${name}\u2069` : name; // another bot keeps the server's name
  }
  const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
  const seatName = (s) => said(s.player, s.seat, s.person);

  function el(tag, props, ...children) {
    const node = Object.assign(document.createElement(tag), props || {});
    node.append(...children);
    return node;
  }

  // Every (match, seat, token) this browser holds, from the tokens the server gave it.
  function heldSeats() {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      const m = TOKEN.exec(key);
      if (m) out.push({ match: m[1], seat: Number(m[2]), token: localStorage.getItem(key) });
    }
    return out.slice(-40); // the server answers for at most 40
  }

  function localSeats(match) {
    return heldSeats().filter((h) => h.match === match).map((h) => h.seat);
  }

  function invitesOf(match) {
    try { return JSON.parse(localStorage.getItem(`ttr-invites:${match}`) || "{}"); } catch { return {}; }
  }

  function inviteLink(match, seat, secret) {
    const url = new URL("/", location.href);
    url.search = new URLSearchParams({ match, seat: String(seat), invite: secret }).toString();
    return url.href;
  }

  // ------------------------------------------------------------------ my games

  function askMine() { sendDoc({ type: "mine", games: heldSeats() }); }

  // One row per match: the seats held in it, and whether one of them is to play.
  function byMatch(list) {
    const rows = new Map();
    for (const g of list) {
      const row = rows.get(g.match) || { ...g, mine: [] };
      row.mine.push(g.seat);
      rows.set(g.match, row);
    }
    for (const row of rows.values()) row.yourTurn = !row.kept && !row.finished && row.mine.includes(row.current);
    return [...rows.values()];
  }

  // Whose turn a lobby or "my games" row is, by name.
  function currentName(row) {
    const s = (row.seats || []).find((x) => x.seat === row.current);
    return s ? seatName(s) : row.current_name;
  }

  // When this browser first held a seat of a match ("since 14:05", or with its day when not
  // today), kept beside its tokens: two matches on one map with the same people told apart.
  function noteSince(match) {
    const key = `ttr-since:${match}`;
    if (!localStorage.getItem(key)) localStorage.setItem(key, String(Date.now()));
  }

  function since(match) {
    const at = Number(localStorage.getItem(`ttr-since:${match}`));
    if (!at) return "";
    const when = new Date(at);
    const today = when.toDateString() === new Date().toDateString();
    const format = today ? { hour: "2-digit", minute: "2-digit" } : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
    return t("since {time}", { time: new Intl.DateTimeFormat(I18N.lang, format).format(when) });
  }

  // Whose turn a row is, in words: "Bob to play", or for a friend invited who has not come
  // yet, "Waiting for Player 2 to come by the invite link", or for a person's seat no one has
  // taken, "Waiting for someone to take the free seat: Player 3".
  function turnText(row) {
    const s = (row.seats || []).find((x) => x.seat === row.current);
    if (s && s.invited) return t("Waiting for {name} to come by the invite link", { name: seatName(s) });
    if (s && s.person && !s.taken) return t("Waiting for someone to take the free seat: {name}", { name: seatName(s) });
    return t("{name} to play", { name: currentName(row) });
  }

  function gameLine(row, here) {
    const seat = row.yourTurn ? row.current : row.mine[0];
    const link = el("a", { href: `/?match=${encodeURIComponent(row.match)}&seat=${seat}`, className: "game-link" });
    link.dataset.match = row.match;
    // who else plays (the people and bots besides this browser's seats), when, and the match's
    // id as the page's header names it
    const others = row.kept ? [] : row.seats.filter((s) => !row.mine.includes(s.seat)).map(seatName);
    const who = others.length ? t("with {names}", { names: others.join(", ") }) : "";
    const what = row.kept ? t("kept; open it to see") : row.finished ? t("game over")
      : row.yourTurn ? t("your turn") : turnText(row);
    const when = [since(row.match), row.kept ? "" : t("match {match}", { match: row.match })].filter(Boolean).join(" · ");
    link.append(el("span", { className: "game-map", textContent: row.kept ? row.match : `${named(row.map_name)} · ${named(row.variant_name)}` }),
      el("span", { className: "game-who", textContent: who }),
      el("span", { className: "game-when", textContent: when }),
      el("span", { className: row.yourTurn ? "game-turn yours" : "game-turn", textContent: what }));
    const li = el("li", {}, link);
    li.dataset.match = row.match;
    if (row.yourTurn) li.classList.add("your-turn");
    if (row.match === here) { li.classList.add("here"); link.setAttribute("aria-current", "page"); }
    return li;
  }

  function showGames(msg) {
    games = byMatch(msg.games);
    const mine = games.filter((g) => g.yourTurn).length;
    document.title = mine ? `(${mine}) ${t("Your turn")} · ${baseTitle()}` : baseTitle();
    document.body.dataset.myTurns = String(mine);
    const badge = document.getElementById("my-games-badge");
    if (badge) { badge.textContent = String(mine); badge.hidden = !mine; }
    const here = new URLSearchParams(location.search).get("match");
    const shown = games.find((g) => g.match === here && !g.kept);
    if (shown && document.querySelector("main aside")) showInvites(shown.match, shown.seats, shown.finished);
    if (shown && typeof seatsNow === "function") seatsNow(shown); // eslint-disable-line no-undef
    for (const list of document.querySelectorAll(".my-games-list")) {
      list.replaceChildren(...games.map((g) => gameLine(g, here)));
      if (!games.length) list.append(el("li", { className: "none", textContent: t("No games yet.") }));
    }
  }

  // The header's "My games" button and its list, on the game page.
  function gamesMenu() {
    const header = document.querySelector("header");
    if (!header || document.getElementById("my-games")) return;
    const badge = el("span", { id: "my-games-badge", className: "badge", hidden: true });
    const label = el("span", { textContent: t("My games") });
    label.dataset.i18n = "My games";
    const button = el("button", { id: "my-games-button", type: "button" }, label, badge);
    const list = el("ol", { className: "my-games-list" });
    const panel = el("div", { id: "my-games-panel", hidden: true }, list);
    button.setAttribute("aria-expanded", "false");
    // the panel hangs under the button, inside the screen at any width (together.css)
    const place = () => {
      if (panel.hidden) return;
      const bottom = button.getBoundingClientRect().bottom;
      panel.style.top = `${Math.round(bottom + 4)}px`;
      panel.style.maxHeight = `${Math.max(120, Math.round(window.innerHeight - bottom - 12))}px`;
    };
    button.onclick = () => {
      panel.hidden = !panel.hidden;
      button.setAttribute("aria-expanded", String(!panel.hidden));
      place();
      if (!panel.hidden) askMine();
    };
    window.addEventListener("resize", place);
    const lobby = el("a", { id: "lobby-link", href: "/lobby", textContent: t("Lobby") });
    lobby.dataset.i18n = "Lobby";
    // on the lobby itself the link is marked as the page shown, as "My games" marks its match
    if (location.pathname === "/lobby") lobby.setAttribute("aria-current", "page");
    header.append(el("nav", { id: "my-games" }, lobby, button, panel));
  }

  // ------------------------------------------------------------------ invites

  function copyButton(input) {
    const b = el("button", { type: "button", className: "copy", textContent: t("Copy") });
    b.onclick = async () => {
      try { await navigator.clipboard.writeText(input.value); } catch { input.select(); document.execCommand("copy"); }
      b.textContent = t("Copied");
      setTimeout(() => { b.textContent = t("Copy"); }, 2000);
    };
    return b;
  }

  // Invite links of the free seats of a match this browser made (rows: {seat, player}).
  function inviteRows(match, seats) {
    const secrets = invitesOf(match);
    return seats.filter((s) => secrets[s.seat]).map((s) => {
      const input = el("input", { type: "text", readOnly: true, value: inviteLink(match, s.seat, secrets[s.seat]), className: "invite-link" });
      input.setAttribute("aria-label", t("Invite link for {name}", { name: seatName(s) }));
      input.onfocus = () => input.select();
      const row = el("div", { className: "invite" }, el("span", { className: "invite-who", textContent: seatName(s) }), input, copyButton(input));
      row.dataset.seat = s.seat;
      return row;
    });
  }

  function showInvites(match, seats, finished) {
    let box = document.getElementById("invites");
    const free = seats.filter((s) => s.person && !s.taken);
    const rows = finished ? [] : inviteRows(match, free);
    if (!rows.length) { if (box) box.remove(); return; }
    if (!box) {
      box = el("section", { id: "invites" });
      const aside = document.querySelector("aside");
      aside.insertBefore(box, aside.firstChild.nextSibling);
    }
    // an h2: the box comes before the turn's own h2, under the page's h1
    box.replaceChildren(el("h2", { textContent: t("Invite friends") }),
      el("p", { className: "hint", textContent: t("Send each link to the person who is to sit there; the first to open it takes the seat.") }), ...rows);
  }

  // ------------------------------------------------------------------ pass-and-play

  const PRIVATE = ["hand", "my-tickets", "offer-list", "options-list", "pay-list", "tunnel-text", "events", "error", "announce"];

  // The one step that clears what belongs to the person who just had the device, at each
  // hand-over and at the end of a game several people share: nothing of their hand, tickets,
  // offer, options, private events or what was read out to them stays anywhere in the page
  // (its text, hidden parts, the live region, labels and titles, the document's title); the
  // address and the browser's storage hold nothing of theirs either (only the seats' tokens).
  function clearPerson() {
    if (typeof forget === "function") forget(); // eslint-disable-line no-undef
    // the page's own choices of the last person (a route asked about, a ticket shown) go too
    if (typeof selected !== "undefined") selected = null; // eslint-disable-line no-undef
    if (typeof shownTicket !== "undefined") shownTicket = null; // eslint-disable-line no-undef
    for (const id of PRIVATE) { const node = document.getElementById(id); if (node) node.replaceChildren(); }
    for (const id of ["hand-box", "tickets-box", "offer", "options", "tunnel", "error"]) {
      const node = document.getElementById(id);
      if (node) node.hidden = true;
    }
    document.title = baseTitle(); // "My games" says it again from the server's answer
  }

  function cover() {
    let box = document.getElementById("handoff");
    if (!box) {
      box = el("div", { id: "handoff", hidden: true });
      box.setAttribute("role", "dialog");
      box.setAttribute("aria-modal", "true");
      document.body.append(box);
    }
    return box;
  }

  // Whether this update is another person's turn on this device: then the page shows only a
  // screen handing the device over, and the next person takes their seat by a tap.
  // ``arrived``: the first position since this page took its seat, so nobody has played here
  // yet (a game whose first player is another person on this device, a page reloaded).
  function handoff(msg, arrived) {
    const box = cover();
    const local = localSeats(msg.match);
    const next = msg.current;
    if (msg.finished || msg.seat === null || next === msg.seat || !local.includes(next)) {
      box.hidden = true;
      document.body.classList.remove("handing-off");
      syncInert();
      return false;
    }
    clearPerson();
    const name = seatName(msg.seats[next]);
    const words = arrived ? t("It is {name}'s turn. Only {name} should look at the screen now.", { name })
      : t("{last} has played. Only {name} should look at the screen now.", { last: seatName(msg.seats[msg.seat]), name });
    // the header says nothing of the last person's seat or turn, nor a stale "connecting…"
    const where = document.getElementById("where");
    if (where) where.textContent = t("match {match}", { match: msg.match });
    const field = document.getElementById("name-box"); // each seat keeps its lobby name
    if (field) field.hidden = true;
    const status = document.getElementById("status");
    if (status) status.textContent = t("{name} to play", { name });
    const go = el("button", { type: "button", id: "handoff-go", textContent: t("I am {name}: show my turn", { name }) });
    // the next person's turn heading takes the focus (and is read), not the page's top
    go.onclick = () => { go.disabled = true; pending = next; window.join(next, true); };
    box.replaceChildren(el("div", { className: "handoff-card" },
      el("h2", { id: "handoff-title", textContent: t("Hand the device to {name}", { name }) }),
      el("p", { textContent: words }),
      go));
    box.dataset.seat = String(next);
    box.setAttribute("aria-labelledby", "handoff-title");
    box.hidden = false;
    document.body.classList.add("handing-off");
    document.body.dataset.seq = String(msg.seq);
    document.body.dataset.state = "handoff";
    syncInert();
    go.focus(); // the one thing to do now, for a keyboard or a screen reader too
    return true;
  }

  // The name a join sends: none when several people share this device (each seat keeps the
  // name given when the match was made), else the one this browser goes by.
  function nameFor(match, seat, name) { return shared(match) ? null : name; }

  // Whether several people play this match on this device (pass-and-play).
  function shared(match) { return localSeats(match).length > 1; }

  // ------------------------------------------------------------------ offline

  function offline() {
    if (document.getElementById("offline")) return;
    const box = el("div", { id: "offline", role: "alert" },
      el("div", { className: "offline-card" },
        el("h2", { textContent: t("Not connected") }),
        el("p", { textContent: t("The server cannot be reached; trying again. Nothing can be played until it is back.") })));
    const [title, text] = box.querySelectorAll("h2, p");
    title.dataset.i18n = "Not connected";
    text.dataset.i18n = "The server cannot be reached; trying again. Nothing can be played until it is back.";
    document.body.append(box);
    new MutationObserver(syncInert).observe(document.body, { attributes: true, attributeFilter: ["data-state"] });
    syncInert();
  }

  // While the server is down only the offline screen, and while the device is handed over only
  // the hand-over screen, takes input: the rest of the page is inert (no click, no Tab stop).
  function syncInert() {
    const down = document.body.dataset.state === "connecting";
    const handing = document.body.classList.contains("handing-off");
    const offlineBox = document.getElementById("offline");
    if (offlineBox) offlineBox.hidden = !down;
    for (const part of document.body.children) {
      if (part.id === "offline" || part.tagName === "SCRIPT") continue;
      part.inert = down || (handing && part.id !== "handoff");
    }
  }

  // A hand-over asked too soon after the last (each join sends the whole position, and the
  // server paces them): asked again once the server says it may be.
  let pending = null;
  function receive(msg) {
    if (msg.type === "games") { showGames(msg); return true; }
    if (msg.type === "joined") pending = null;
    if (msg.type === "error" && msg.code === "too_fast" && pending !== null) {
      const wait = Number((/wait ([\d.]+) s/.exec(msg.message) || [0, 1])[1]);
      const seat = pending;
      setTimeout(() => { if (pending === seat) window.join(seat); }, wait * 1000 + 100);
      return true;
    }
    return false;
  }

  function joined() { askMine(); }

  // "Continue on another device": a link that holds this seat's token, so its person plays on
  // from another browser (the link is the seat: for oneself alone, never for a friend).
  function showMoveSeat(msg) {
    let box = document.getElementById("move-seat");
    const token = msg.seat === null ? null : localStorage.getItem(`ttr-token:${msg.match}:${msg.seat}`);
    if (!token || msg.finished) { if (box) box.remove(); return; }
    const url = new URL("/", location.href);
    url.search = new URLSearchParams({ match: msg.match, seat: String(msg.seat) }).toString();
    url.hash = new URLSearchParams({ token }).toString();
    if (box && box.dataset.href === url.href && box.dataset.lang === I18N.lang) return; // as it was: open or closed
    if (!box) {
      box = el("details", { id: "move-seat" });
      document.querySelector("aside").append(box);
    }
    const input = el("input", { type: "text", readOnly: true, value: url.href, className: "move-link" });
    input.setAttribute("aria-label", t("Continue on another device"));
    input.onfocus = () => input.select();
    const summary = el("summary", { textContent: t("Continue on another device") });
    box.replaceChildren(summary,
      el("p", { className: "hint", textContent: t("Open this link on your other device to play this seat there. Keep it to yourself: it is your seat.") }),
      el("div", { className: "invite" }, input, copyButton(input)));
    box.dataset.href = url.href;
    box.dataset.lang = I18N.lang; // made again in a newly chosen language
  }

  function update(msg) { showInvites(msg.match, msg.seats, msg.finished); showMoveSeat(msg); }

  window.Together = {
    said, seatName, currentName, turnText, receive, joined, update, handoff, clearPerson, nameFor, shared, heldSeats, inviteRows, invitesOf, showGames, askMine, gameLine, byMatch, offline, noteSince,
    use(send) { sendDoc = send; },
  };
  document.addEventListener("DOMContentLoaded", () => { gamesMenu(); offline(); });
  if (document.readyState !== "loading") { gamesMenu(); offline(); }
})();
