// The lobby: make a match (map, variant, seats: people on this device, invited friends, bots),
// get its invite links, see "my games" and the public matches with free seats, sit or watch.
// Its words are the page's catalogs' (i18n.js's t()), in the language kept or asked for.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 5000; // the lobby's list is asked for again this often
  const MAX_NAME = Number(document.body.dataset.maxName); // the server writes its limit in
  let socket = null;
  let choices = null;
  let lastLobby = null; // the latest "lobby" answer, shown again after a change of language

  function el(tag, props, ...children) {
    const node = Object.assign(document.createElement(tag), props || {});
    node.append(...children);
    return node;
  }

  function send(doc) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(doc));
    else document.body.dataset.state = "connecting";
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws`);
    socket.onopen = () => {
      document.body.dataset.state = "lobby";
      $("status").textContent = "";
      send({ type: "lobby" });
      Together.askMine();
    };
    socket.onmessage = (e) => receive(JSON.parse(e.data));
    socket.onclose = () => {
      document.body.dataset.state = "connecting";
      setTimeout(connect, 1000);
    };
  }

  function receive(msg) {
    if (Together.receive(msg)) return;
    if (msg.type === "lobby") return showLobby(msg);
    if (msg.type === "created") return made(msg);
    if (msg.type === "error") {
      const words = {
        too_many_new: t("Too many matches were made here in the last minute: try again in a minute."),
        bad_settings: t("Those settings do not make a match."),
        too_many_matches: t("The server is full: try again in a few minutes."),
        bad_name: t("A name is at most {n} characters.", { n: MAX_NAME }),
      }[msg.code];
      $("create-error").textContent = words || msg.text || msg.message;
      $("create-error").title = words ? msg.message : ""; // the server's detail on hover
      $("create-error").dataset.code = msg.code;
      $("create-button").disabled = false;
    }
  }

  // ------------------------------------------------------------------ making a match

  const KINDS = () => [
    ["here", t("A person on this device")],
    ["invite", t("A friend, by invite link")],
    ["open", t("Anyone from the lobby")],
    ...choices.bots.map((b) => [b, seatKind(b) || b]),
  ];

  function fill(select, options, keep) {
    const old = keep ? select.value : null;
    select.replaceChildren(...options.map(([value, text]) => el("option", { value, textContent: text })));
    if (old !== null && options.some(([v]) => v === old)) select.value = old;
  }

  function board() { return choices.maps.find((m) => m.id === $("map").value); }
  function variant() { return board().variants.find((v) => v.id === $("variant").value); }

  function seatRow(i) {
    const kind = el("select", { className: "seat-kind" });
    kind.setAttribute("aria-label", t("Who plays as Player {n}", { n: i + 1 }));
    fill(kind, KINDS());
    kind.value = i === 0 ? "here" : i === 1 ? "invite" : choices.bots[0];
    const name = el("input", { className: "seat-name", maxLength: MAX_NAME, placeholder: t("name"), autocomplete: "off" });
    name.setAttribute("aria-label", t("Name of player {n}", { n: i + 1 }));
    if (i === 0) name.value = localStorage.getItem("ttr-name") || "";
    const sync = () => { name.hidden = kind.value !== "here"; syncPublic(); };
    kind.onchange = sync;
    sync();
    const li = el("li", {}, el("span", { textContent: t("Player {n}", { n: i + 1 }) }), kind, name);
    li.dataset.seat = i;
    return li;
  }

  // Listed in the lobby by default only when a stranger can sit there: a match with a seat for
  // anyone from the lobby is listed (the server refuses it unlisted, so the box stays ticked);
  // one whose seats are all this device's, invited friends' or bots' is not, unless the person
  // ticks the box to let strangers watch it (the lobby then offers them only Watch).
  let listChosen = null; // the person's own tick for a match without a free seat, once given

  function syncPublic() {
    const box = $("public");
    const free = [...$("seats-list").querySelectorAll(".seat-kind")].some((k) => k.value === "open");
    box.disabled = free;
    box.checked = free || !!listChosen;
    const words = free ? "List it in the lobby, so that anyone may take a free seat" : "List it in the lobby, so that anyone may watch";
    const label = $("public-label");
    label.dataset.i18n = words; // said again in a language chosen later
    label.textContent = free ? t("List it in the lobby, so that anyone may take a free seat") : t("List it in the lobby, so that anyone may watch");
  }

  function syncForm() {
    fill($("variant"), board().variants.map((v) => [v.id, named(v.name)]), true);
    const v = variant();
    const counts = [];
    for (let n = v.min; n <= v.max; n++) counts.push([String(n), String(n)]);
    fill($("players"), counts, true);
    const n = Number($("players").value);
    const list = $("seats-list");
    while (list.children.length > n) list.lastChild.remove();
    while (list.children.length < n) list.append(seatRow(list.children.length));
    syncPublic();
  }

  function setUp() {
    fill($("map"), choices.maps.map((m) => [m.id, named(m.name)]));
    $("map").onchange = syncForm;
    $("variant").onchange = syncForm;
    $("players").onchange = syncForm;
    $("players").value = "3";
    syncForm();
    $("players").value = "3";
    syncForm();
  }

  function create(e) {
    e.preventDefault();
    $("create-error").textContent = "";
    const seats = [...$("seats-list").children].map((li) => {
      const kind = li.querySelector(".seat-kind").value;
      const name = li.querySelector(".seat-name").value.trim();
      return kind === "here" && name ? { kind, name } : { kind };
    });
    $("create-button").disabled = true;
    send({ type: "create", map: $("map").value, variant: $("variant").value, seats, public: $("public").checked });
  }

  // The match is made: this device keeps its seats' tokens and the invite links, shown here
  // to copy and again on the match's page until each is used.
  function made(msg) {
    $("create-button").disabled = false;
    for (const [s, token] of Object.entries(msg.tokens || {})) localStorage.setItem(`ttr-token:${msg.match}:${s}`, token);
    Together.noteSince(msg.match);
    if (Object.keys(msg.invites || {}).length) localStorage.setItem(`ttr-invites:${msg.match}`, JSON.stringify(msg.invites));
    const names = [...$("seats-list").children].map((li, i) => li.querySelector(".seat-name").value.trim() || t("Player {n}", { n: i + 1 }));
    const here = [...$("seats-list").children].filter((li) => li.querySelector(".seat-kind").value === "here");
    const mine = here.length === 1 ? here[0].querySelector(".seat-name").value.trim() : "";
    if (mine) localStorage.setItem("ttr-name", mine); // the name this browser goes by
    const rows = Together.inviteRows(msg.match, Object.keys(msg.invites || {}).map((s) => ({ seat: Number(s), player: names[Number(s)], person: true })));
    const go = msg.seat === null
      ? el("a", { className: "button", id: "go", href: `/?match=${encodeURIComponent(msg.match)}&watch`, textContent: t("Watch the match") })
      : el("a", { className: "button", id: "go", href: `/?match=${encodeURIComponent(msg.match)}&seat=${msg.seat}`, textContent: t("Go to the match") });
    const box = $("made");
    box.replaceChildren(el("h3", { textContent: t("Match {id} is ready", { id: msg.match }) }),
      ...(rows.length ? [el("p", { className: "hint", textContent: t("Send each link to the friend who is to sit there; the first to open it takes the seat.") }), ...rows] : []),
      el("p", {}, go));
    box.dataset.match = msg.match;
    box.hidden = false;
    Together.askMine();
    send({ type: "lobby" });
  }

  // ------------------------------------------------------------------ the lobby's list

  function showLobby(msg) {
    lastLobby = msg;
    if (!choices) { choices = msg.choices; setUp(); }
    const table = $("open-list");
    // the actions' column is named too (read aloud; an empty header is no header)
    const head = el("tr", {}, ...[t("Map"), t("Players"), t("Turn")].map((h) => el("th", { textContent: h })),
      el("th", {}, el("span", { className: "sr-only", textContent: t("Sit or watch") })));
    const rows = msg.matches.map((m) => {
      // a seat kept for an invited friend is theirs: said so, never offered
      const who = m.seats.map((s) => (s.invited ? t("{name} (invited)", { name: Together.seatName(s) })
        : s.person && !s.taken ? t("{name} (free)", { name: Together.seatName(s) }) : Together.seatName(s))).join(", ");
      const actions = el("td", { className: "actions" });
      for (const s of m.free) {
        actions.append(el("a", { className: "button sit", href: `/?match=${encodeURIComponent(m.match)}&seat=${s}&sit`, textContent: t("Sit as Player {n}", { n: s + 1 }) }));
      }
      actions.append(el("a", { className: "button quiet watch", href: `/?match=${encodeURIComponent(m.match)}&watch`, textContent: t("Watch") }));
      const tr = el("tr", {}, el("td", { textContent: `${named(m.map_name)} · ${named(m.variant_name)}` }), el("td", { textContent: who }),
        el("td", { className: "turn", textContent: Together.turnText(m) }), actions);
      tr.dataset.match = m.match;
      return tr;
    });
    table.replaceChildren(head, ...rows);
    if (!rows.length) table.append(el("tr", {}, el("td", { colSpan: 4, textContent: t("No public match is being played now: make one above.") })));
    document.body.dataset.lobby = String(msg.matches.length);
  }

  // The language: the header's choice, kept in the browser as on the game page. The form's
  // rows are made again in it, each seat keeping who plays it and the name typed.
  function fillLanguages() {
    const select = $("lang");
    select.replaceChildren(...Object.entries(I18N.languages).map(([code, name]) => el("option", { value: code, lang: code, textContent: name })));
    select.value = I18N.lang;
  }

  async function changeLanguage() {
    await chooseLanguage($("lang").value);
    fillLanguages();
    if (choices) {
      const kept = [...$("seats-list").children].map((li) => [li.querySelector(".seat-kind").value, li.querySelector(".seat-name").value]);
      $("seats-list").replaceChildren();
      syncForm();
      [...$("seats-list").children].forEach((li, i) => {
        if (!kept[i]) return;
        li.querySelector(".seat-kind").value = kept[i][0];
        li.querySelector(".seat-name").value = kept[i][1];
        li.querySelector(".seat-kind").onchange();
      });
    }
    if (lastLobby) showLobby(lastLobby);
    Together.askMine();
  }

  $("create-form").onsubmit = create;
  $("public").onchange = () => { if (!$("public").disabled) listChosen = $("public").checked; };
  $("lang").onchange = changeLanguage;
  Together.use(send);
  setInterval(() => send({ type: "lobby" }), POLL_MS);
  setInterval(() => send({ type: "ping" }), 30000);
  loadLanguage(null).catch(() => null).then(() => { fillLanguages(); connect(); });
})();
