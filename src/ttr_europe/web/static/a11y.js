// The table for everyone: accessible names on the map's routes and cities, the focus kept
// where the person is across updates, keyboard shortcuts, the live region that reads out what
// happens, the colour symbols, the legend and city names readable on a small screen.
"use strict";

// One symbol per card colour, as the board pictures draw them (ttr_europe.colours.SYMBOLS).
const SYMBOLS = {
  red: "◆", orange: "▲", yellow: "★", green: "♣", blue: "●", pink: "♥", white: "○",
  black: "■", gray: "✱", loco: "✚",
};
const MIN_LABEL_PX = 9.5; // city names are never drawn smaller than this on the screen

function colourName(kind) {
  return ({
    red: t("red"), orange: t("orange"), yellow: t("yellow"), green: t("green"), blue: t("blue"),
    pink: t("pink"), white: t("white"), black: t("black"), gray: t("gray"), loco: t("locomotive"),
  })[kind] || kind;
}

// The names the map prints for its cities, by id ("Zurich" -> "Zürich").
function cityNames(svg) {
  const names = {};
  for (const g of svg.querySelectorAll("g.city")) {
    const text = g.querySelector("text:not(.halo):not(.owner)");
    names[g.dataset.city] = text ? text.textContent : g.dataset.city;
  }
  return names;
}

function ownerOf(g) {
  const cls = [...g.classList].find((c) => /^seat-\d+$/.test(c));
  return cls ? Number(cls.slice(5)) : null;
}

// A route in words: its cities, and for a track of a double route whose two tracks share a
// colour (Dieppe–London, both gray) which track it is, "Dieppe–London (first track)": the same
// words in the list of routes one can claim, the map's names and the live region.
function routeName(g, names) {
  const cities = `${names[g.dataset.a] || g.dataset.a}–${names[g.dataset.b] || g.dataset.b}`;
  const twin = g.dataset.twin && g.ownerSVGElement.querySelector(`g.route[data-route="${CSS.escape(g.dataset.twin)}"]`);
  if (!twin || twin.dataset.colour !== g.dataset.colour) return cities;
  return g.dataset.track === "1" ? t("{route} (first track)", { route: cities }) : t("{route} (second track)", { route: cities });
}

// A route named by its id, as the events and the tunnel give it, in the words of routeName;
// the track of a double route of two colours says its colour ("Berlin–Frankfurt (red)").
function routeWords(id) {
  const svg = document.querySelector("#board svg");
  const g = svg && svg.querySelector(`g.route[data-route="${CSS.escape(id)}"]`);
  if (!g) return id;
  const name = routeName(g, cityNames(svg));
  const twin = g.dataset.twin && svg.querySelector(`g.route[data-route="${CSS.escape(g.dataset.twin)}"]`);
  return twin && twin.dataset.colour !== g.dataset.colour ? `${name} (${colourName(g.dataset.colour)})` : name;
}

// A city named by its id, as the events and the scores give it, in the map's spelling
// ("Munchen" -> "München"), as the map's names and the list of cities say it.
function cityWords(id) {
  const svg = document.querySelector("#board svg");
  return (svg && cityNames(svg)[id]) || id;
}

// "Paris–Wien, 3, orange, tunnel, claimed by Ann"
function routeLabel(g, names, who) {
  const parts = [routeName(g, names), g.dataset.length, colourName(g.dataset.colour)];
  if (g.classList.contains("tunnel")) parts.push(t("tunnel"));
  const ferry = Number(g.dataset.ferry || 0);
  if (ferry) parts.push(tn("ferry with {n} locomotive", "ferry with {n} locomotives", ferry));
  const owner = ownerOf(g);
  if (owner !== null) parts.push(t("claimed by {name}", { name: who(owner) }));
  return parts.join(", ");
}

function cityLabel(g, names, who) {
  const station = [...g.classList].find((c) => c.startsWith("station-seat-"));
  const name = names[g.dataset.city];
  if (!station) return name;
  return t("{city}, train station of {name}", { city: name, name: who(Number(station.slice(13))) });
}

// Names and roles on the map; the routes a seat can claim and the cities where it can build
// take the focus (Tab), and Enter or Space on one asks for its payments.
function labelBoard(svg, moves, who) {
  const names = cityNames(svg);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", t("map"));
  for (const el of svg.querySelectorAll("title")) el.remove(); // the labels below say it, translated
  // one text per name, its halo drawn under it (paint-order), so a name is not read twice
  for (const el of svg.querySelectorAll("g.city text.halo")) el.remove();
  for (const el of svg.querySelectorAll("text, g.space, g.legend, g.route-hits, g.highlight, g.station")) el.setAttribute("aria-hidden", "true");
  const live = [];
  for (const g of svg.querySelectorAll("g.route")) {
    g.setAttribute("aria-label", routeLabel(g, names, who));
    if (moves && moves.claims[g.dataset.route]) live.push(g);
  }
  for (const g of svg.querySelectorAll("g.city")) {
    g.setAttribute("aria-label", cityLabel(g, names, who));
    if (moves && moves.stations[g.dataset.city]) live.push(g);
  }
  // One stop for Tab on the map (a roving tabindex): the arrow keys go from one usable route
  // or city to the next, so the rest of the page stays a few Tabs away.
  for (const g of svg.querySelectorAll("g.route, g.city")) {
    g.setAttribute("role", live.includes(g) ? "button" : "img");
    g.removeAttribute("tabindex");
  }
  live.forEach((g, i) => g.setAttribute("tabindex", i === 0 ? "0" : "-1"));
  return names;
}

// The arrow keys on the map go by direction: to the nearest usable route or city that lies
// that way on the screen (within 60 degrees of it first, else anywhere on that side, a step
// off the line counting double); at the map's edge the focus stays.
const DIRECTIONS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
function centreOf(g) {
  const mark = g.classList.contains("city") ? g.querySelector("circle") || g : g;
  const b = mark.getBoundingClientRect();
  return [b.x + b.width / 2, b.y + b.height / 2];
}
function roveMap(svg, from, key) {
  const [dx, dy] = DIRECTIONS[key];
  const live = [...svg.querySelectorAll("g.route[tabindex], g.city[tabindex]")];
  if (!live.length) return;
  const [ox, oy] = centreOf(from);
  let best = null;
  for (const g of live) {
    if (g === from) continue;
    const [x, y] = centreOf(g);
    const along = (x - ox) * dx + (y - oy) * dy;
    const across = Math.abs((x - ox) * dy - (y - oy) * dx);
    if (along <= 0.5) continue;
    const score = [across > along * Math.sqrt(3) ? 1 : 0, along + 2 * across];
    if (!best || score[0] < best[0][0] || (score[0] === best[0][0] && score[1] < best[0][1])) best = [score, g];
  }
  const next = best ? best[1] : live.includes(from) ? from : live[0];
  for (const g of live) g.setAttribute("tabindex", g === next ? "0" : "-1");
  next.focus({ preventScroll: true });
  showInBoard(next);
}

// The map scrolls to show what the arrows reached, and only the map: on a phone the page
// holds the map at the screen's top, and scrolling the page too would carry it away.
function showInBoard(g) {
  const board = document.getElementById("board");
  const view = board.getBoundingClientRect();
  const box = g.getBoundingClientRect();
  const nearest = (lo, hi, from, to) => (lo < from ? lo - from : hi > to ? Math.min(hi - to, lo - from) : 0);
  board.scrollLeft += nearest(box.left, box.right, view.left, view.right);
  board.scrollTop += nearest(box.top, box.bottom, view.top, view.bottom);
}

// ------------------------------------------------------------------ focus kept across updates

// A selector that finds the focused control again once the page is drawn anew.
function focusKey(el) {
  if (!el || el === document.body) return null;
  for (const attr of ["data-route", "data-city", "data-slot", "data-action", "data-ticket", "data-claim", "data-build"]) {
    const value = el.getAttribute(attr);
    if (value !== null) {
      const box = el.closest("[id]");
      return { selector: `${box ? "#" + CSS.escape(box.id) + " " : ""}[${attr}="${CSS.escape(value)}"]`, within: box ? box.id : null };
    }
  }
  return el.id ? { selector: "#" + CSS.escape(el.id), within: null } : null;
}

function usable(el) {
  return el && !el.disabled && !el.closest("[hidden]") && el.getClientRects().length > 0;
}

// Focus the same control again; if it is gone or disabled, the next usable one in its box, or
// the turn's title (which says what to do next).
function restoreFocus(key) {
  if (!key) return;
  const el = document.querySelector(key.selector);
  if (usable(el)) { if (document.activeElement !== el) el.focus({ preventScroll: true }); return; }
  const box = key.within ? document.getElementById(key.within) : null;
  const next = box ? [...box.querySelectorAll("button, [tabindex='0'], input")].find(usable) : null;
  (next || document.getElementById("turn-title")).focus({ preventScroll: true });
}

// ------------------------------------------------------------------ the live region

function announce(text) {
  if (!text) return;
  const region = document.getElementById("announce");
  const line = document.createElement("p");
  line.textContent = text;
  region.appendChild(line);
  while (region.children.length > 6) region.firstChild.remove();
}

// ------------------------------------------------------------------ the legend and the labels

function showLegend(svg) {
  const legend = document.getElementById("legend");
  legend.replaceChildren();
  const kinds = ["red", "orange", "yellow", "green", "blue", "pink", "white", "black", "gray", "loco"];
  for (const kind of kinds) {
    const li = document.createElement("li");
    const sw = document.createElement("span");
    sw.className = `legend-swatch card-${kind}`;
    sw.setAttribute("aria-hidden", "true");
    sw.textContent = SYMBOLS[kind];
    li.append(sw, kind === "gray" ? t("gray (any one colour)") : colourName(kind));
    legend.appendChild(li);
  }
  const extra = [];
  if (svg && svg.querySelector("g.route.tunnel")) extra.push(["tunnel", t("tunnel: dashed border")]);
  if (svg && svg.querySelector("g.route.ferry")) extra.push(["ferry", t("ferry: a locomotive card per ✚")]);
  for (const [cls, text] of extra) {
    const li = document.createElement("li");
    const sw = document.createElement("span");
    sw.className = `legend-swatch legend-${cls}`;
    sw.setAttribute("aria-hidden", "true");
    if (cls === "ferry") sw.textContent = SYMBOLS.loco; // as the ferry's spaces carry it
    li.append(sw, text);
    legend.appendChild(li);
  }
}

// The colour-blind view's symbols and owners' numbers at least MIN_SYMBOL_PX tall on the screen
// at every zoom, the whole map included: where a symbol grows past its space, only every k-th
// space of a route keeps one (the middle one always), so no two overlap. A ferry's locomotive
// marks (text.loco) are rules, how many locomotive cards it takes: they grow with the others
// and are never thinned; on a ferry the colour symbols kept are counted from its last one.
const MIN_SYMBOL_PX = 9.5;
function fitSymbols(svg, z) {
  const size = Math.max(7.5, MIN_SYMBOL_PX / z); // in the map's units
  svg.style.setProperty("--sym-size", `${size}px`);
  for (const route of svg.querySelectorAll("g.route")) {
    const spaces = [...route.querySelectorAll("g.space")].filter((g) => g.querySelector("text"));
    if (!spaces.length) continue;
    const rect = spaces[0].querySelector("rect");
    const pitch = Number(rect ? rect.getAttribute("width") : 10) + 2;
    const every = Math.max(1, Math.ceil((size * 1.15) / pitch));
    const locos = spaces.map((g, i) => (g.querySelector("text.loco") ? i : -1)).filter((i) => i >= 0);
    const anchor = locos.length ? locos[locos.length - 1] : Math.floor((spaces.length - 1) / 2);
    spaces.forEach((g, i) => {
      const shown = locos.includes(i) || (!locos.some((l) => Math.abs(i - l) < every) && (i - anchor) % every === 0);
      g.classList.toggle("sym-off", !shown);
    });
  }
}

// City names at least MIN_LABEL_PX tall on the screen: when the map is small, names that
// would overlap another (bigger cities first) are left out; zoomed in, every name shows.
function fitLabels(svg, z) {
  const size = Math.max(11, MIN_LABEL_PX / z); // in the map's units
  svg.style.setProperty("--label-size", `${size}px`);
  const placed = [];
  // a name at the map's edge is moved inside it, not cut by the edge (Erzurum, Edinburgh)
  const view = svg.viewBox.baseVal;
  const [edgeLeft, edgeRight] = view && view.width ? [view.x, view.x + view.width] : [0, Number(svg.getAttribute("width"))];
  const cities = [...svg.querySelectorAll("g.city")];
  const rank = (g) => (g.classList.contains("big") ? 0 : 1) - (g.querySelectorAll("text:not(.owner)").length ? 0 : 1);
  cities.sort((a, b) => rank(a) - rank(b));
  for (const g of cities) {
    const texts = g.querySelectorAll("text:not(.owner)");
    if (!texts.length) continue;
    const label = texts[texts.length - 1];
    if (label.dataset.x === undefined) label.dataset.x = label.getAttribute("x"); // as drawn
    const x = Number(label.dataset.x);
    const y = Number(label.getAttribute("y"));
    const width = label.textContent.length * size * 0.58;
    const anchor = label.getAttribute("text-anchor") || "start";
    const drawn = anchor === "middle" ? x - width / 2 : anchor === "end" ? x - width : x;
    const shift = drawn < edgeLeft ? edgeLeft + 1 - drawn : drawn + width > edgeRight ? edgeRight - 1 - drawn - width : 0;
    label.setAttribute("x", String(x + shift));
    const left = drawn + shift;
    const box = [left, y - size * 0.8, left + width, y + size * 0.2];
    const free = !placed.some((p) => box[0] < p[2] && p[0] < box[2] && box[1] < p[3] && p[1] < box[3]);
    g.classList.toggle("unlabelled", !free);
    if (free) placed.push(box);
  }
}

// ------------------------------------------------------------------ colour-blind view

const CB_KEY = "ttr-colour-blind";

function colourBlind(on) {
  document.body.classList.toggle("colour-blind", on);
  if (on) localStorage.setItem(CB_KEY, "1"); else localStorage.removeItem(CB_KEY);
}
