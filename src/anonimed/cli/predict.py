"""`anonimed predict` (placeholder until its issue lands)."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("predict", help="(not available yet)")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    raise NotImplementedError("anonimed predict is not available yet")
