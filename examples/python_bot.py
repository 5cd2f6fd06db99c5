"""A Python bot (a class with ``choose``, docs/bots.md) played as a program of the line
protocol (docs/protocol.md), so that it can sit in a sandboxed tournament.

    ttr-europe tournament --games 4 --bots \
        "cmd:/path/to/venv/bin/python examples/python_bot.py mybots.py CityLover,greedy"

``mybots.py`` is the file that holds the class (a word naming a file is shown to the sandbox);
the interpreter must have ``ttr_europe`` installed. An optional third word seeds the bot's
generator (``-`` or none: the system's randomness, as a program is never told the seed). Any
further word is a folder put first on the module path (and, named, shown to the sandbox): the
``src`` folder of ``ttr_europe`` where the interpreter's environment lacks it, as in the
sandbox an editable install (``pip install -e``) or a ``PYTHONPATH`` does.
"""

import importlib.util
import json
import random
import sys

sys.path[:0] = sys.argv[4:]  # before the engine is imported: where to find it

from ttr_europe.actions import parse  # noqa: E402
from ttr_europe.jsonio import view_from_json  # noqa: E402


def load(path, name):
    """The bot built from class (or factory) ``name`` of the Python file at ``path``."""
    spec = importlib.util.spec_from_file_location("bot_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)()


def main(path, name, seed=None):
    bot = load(path, name)
    rng = random.Random(seed)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            send({"type": "hello", "protocol": 1, "name": getattr(bot, "name", name)})
        elif message["type"] == "move":
            legal = [parse(entry["move"]) for entry in message["legal"]]
            action = bot.choose(view_from_json(message["view"]), legal, rng)
            send({"type": "move", "code": message["legal"][legal.index(action)]["code"]})
        elif message["type"] == "quit":
            break


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    seed = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] != "-" else None
    main(sys.argv[1], sys.argv[2], None if seed is None else int(seed))
