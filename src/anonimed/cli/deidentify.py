"""`anonimed deidentify` (placeholder until its issue lands)."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("deidentify", help="(not available yet)")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    raise NotImplementedError("anonimed deidentify is not available yet")
