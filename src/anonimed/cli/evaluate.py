"""`anonimed evaluate` (placeholder until its issue lands)."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("evaluate", help="(not available yet)")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    raise NotImplementedError("anonimed evaluate is not available yet")
