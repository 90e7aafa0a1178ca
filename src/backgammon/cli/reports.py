"""``backgammon reports``: the chat messages players reported, for whoever runs the site.

:mod:`backgammon.cli` registers it::

    subcommand("reports", SUMMARY, *ARGUMENTS)(reports_command)

It reads the database the server uses (``BACKGAMMON_DATABASE_URL``, else the default SQLite
file, as ``backgammon serve`` finds it; or ``--database-url``) and prints each report: when and
by whom it was made, the message's match, channel, time and writer, and a copy of its text.
"""

from __future__ import annotations

import argparse
import json

from ..errors import BackgammonError
from .arguments import Argument, arg

SUMMARY = "List the chat messages that players reported, with a copy of each (for site admins)."

ARGUMENTS: tuple[Argument, ...] = (
    arg("--database-url", metavar="URL",
        help="the server's database (default: $BACKGAMMON_DATABASE_URL, else its SQLite file)"),
    arg("--match", metavar="ID", help="only the reports of this match"),
    arg("--json", action="store_true", help="print the reports as JSON"),
)


def reports_command(args: argparse.Namespace) -> int:
    """Print the reports; the exit status."""
    try:
        from ..server import Settings
        from ..server.chat.reports import read_reports, report_text
    except ImportError as exc:
        raise BackgammonError(
            f"Reading the reports needs the server extra: pip install -e '.[server]' ({exc})."
        ) from exc
    reports = read_reports(args.database_url or Settings.from_env().database_url, args.match)
    if args.json:
        print(json.dumps(reports, indent=2, ensure_ascii=False))
    elif not reports:
        print("No message has been reported.")
    else:
        print("\n\n".join(report_text(report) for report in reports))
    return 0
