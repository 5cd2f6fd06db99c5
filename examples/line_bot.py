"""A bot in its own process: JSON lines on stdin/stdout (docs/protocol.md), stdlib only.

It claims the route that takes the most cards, else draws. Play it from the command line:
``ttr-europe tournament --bots "cmd:python examples/line_bot.py,greedy" --games 4``.
"""

import json
import random
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def cards(move):  # "claim Paris-Wien with 3red+1loco" takes 4 cards
    paid = move["move"].rsplit(" with ", 1)[1].split("+")
    return sum(int(p.rstrip("abcdefghijklmnopqrstuvwxyz")) for p in paid)


def choose(legal, rng):
    claims = [m for m in legal if m["move"].startswith("claim ")]
    if claims:
        return max(claims, key=cards)
    draws = [m for m in legal if m["move"] == "blind" or m["move"].startswith("draw ")]
    return rng.choice(draws) if draws else legal[0]  # else the fewest tickets, or pay


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            send({"type": "hello", "protocol": 1, "name": "line-bot", "version": "1.0"})
        elif message["type"] == "move":
            send({"type": "move", "code": choose(message["legal"], rng)["code"]})
        elif message["type"] == "quit":
            break


if __name__ == "__main__":
    main()
