// Follow a game from `ttr-europe replay game.json --json` (JSON lines on standard input) with
// the documents alone, as a front end in JavaScript would: the face-up row and the route owners
// are kept from the events and checked against every view, then the final scoreboard is shown.
// Usage: ttr-europe replay game.json --json | node examples/replay_view.js MAP.json
"use strict";
const fs = require("node:fs");

const map = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const name = Object.fromEntries(map.cities.map((c) => [c.id, c.name])); // ids are ASCII
const lines = fs.readFileSync(0, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const board = lines.pop(); // the last line is the scoreboard document
const player = (seat) => `Player ${seat + 1}`; // seats count from 0
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

let row = lines[0].view.row; // slot 0 first, null an empty slot
const owners = {};
for (const { position, action, events, view } of lines) {
  for (const e of events) {
    if (e.type === "face_up_taken") row[e.slot] = null;
    else if (e.type === "slot_refilled") row[e.slot] = e.card;
    else if (e.type === "row_reset") row = row.map(() => null);
    else if (e.type === "route_claimed") owners[e.route] = e.seat;
  }
  const seen = {};
  for (const p of view.players) for (const r of p.routes) seen[r] = p.seat;
  if (!same(row, view.row) || !same(Object.entries(owners).sort(), Object.entries(seen).sort())) {
    console.error(`position ${position}: the events disagree with the view`);
    process.exit(1);
  }
  const last = view.final_turns >= 0 ? `, last round: ${view.final_turns} turns owed` : "";
  // null: the deal, or another seat's ticket choice (its events say how many it kept)
  const move = position === 0 ? "the deal" : action === null ? "tickets kept" : action.type;
  const turn = view.phase === "GAME_OVER" ? "nobody to act" : `${player(view.current)} to act`;
  console.log(`${position} ${move}: ${view.phase}, ${turn}${last}`);
}
for (const p of board.players) {
  const made = p.tickets.filter((t) => t.completed).map((t) => `${t.ticket} +${t.points}`);
  const missed = p.tickets.filter((t) => !t.completed).map((t) => `${t.ticket} ${t.points}`);
  const stations = p.stations.map((s) => `${name[s.city]} borrows ${s.route ?? "nothing"}`);
  console.log(
    `${player(p.seat)}: ${p.total} = routes ${p.route_points} + tickets ${p.ticket_points}` +
      ` + stations ${p.station_points} + bonus ${p.bonus}; rank ${p.rank}` +
      `; longest path ${p.longest_path.length}; made [${made.join(", ")}]` +
      `; missed [${missed.join(", ")}]; stations [${stations.join("; ")}]`,
  );
}
// decided_by[i] says what puts ranking[i] ahead of ranking[i + 1]; null: they share the rank
const order = board.ranking.map(
  (seat, i) => player(seat) + (i < board.decided_by.length ? ` (${board.decided_by[i] ?? "tied"})` : ""),
);
console.log(`ranking: ${order.join(", ")}`);
