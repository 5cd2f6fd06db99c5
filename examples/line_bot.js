// The bot of examples/line_bot.py in JavaScript (Node.js, no packages): JSON lines on
// stdin/stdout (docs/protocol.md). It claims the route that takes the most cards, else draws.
// Play it: ttr-europe tournament --bots "cmd:node examples/line_bot.js,greedy" --games 4
'use strict';
const readline = require('readline');

function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function cards(move) { // "claim Paris-Wien with 3red+1loco" takes 4 cards
  const paid = move.move.split(' with ').pop().split('+');
  return paid.reduce((sum, part) => sum + parseInt(part, 10), 0);
}

function choose(legal) {
  const claims = legal.filter((m) => m.move.startsWith('claim '));
  if (claims.length > 0) return claims.reduce((a, b) => (cards(b) > cards(a) ? b : a));
  const draws = legal.filter((m) => m.move === 'blind' || m.move.startsWith('draw '));
  if (draws.length > 0) return draws[Math.floor(Math.random() * draws.length)];
  return legal[0]; // else the fewest tickets, or pay
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.type === 'hello') {
    send({ type: 'hello', protocol: 1, name: 'line-bot-js', version: '1.0' });
  } else if (message.type === 'move') {
    send({ type: 'move', code: choose(message.legal).code });
  } else if (message.type === 'quit') {
    process.exit(0);
  }
});
