"""`ttr-europe backup DB COPY`: a whole copy of a server's match database, even while it runs.

SQLite's online backup (``web.store.backup``) reads the database and its WAL as one consistent
snapshot, so the copy holds every move acknowledged before it began; copying the ``.db`` file
alone while a server runs would miss what still waits in the WAL. Needs no extra.
"""

from __future__ import annotations

import argparse

from .common import Command


def configure_backup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("db", help="the match database of `ttr-europe serve --db`")
    parser.add_argument("copy", help="the file to make (it must not exist)")


def run_backup(args: argparse.Namespace) -> int:
    from ..web.store import backup

    count = backup(args.db, args.copy)  # DataError (one line, status 2) for a bad file
    print(f"{args.copy}: {count} match(es) copied from {args.db}")
    return 0


COMMAND = Command("backup", "Copy a serve match database, even while the server runs.",
                  configure_backup, run_backup)  # fmt: skip
