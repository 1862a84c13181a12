"""The ``anonimed`` command: a thin layer over the Python API, one module a subcommand."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from anonimed import __version__
from anonimed.cli import convert, corpus, deidentify, embed, evaluate, predict, review, rules, serve, synth, train
from anonimed.cli.options import add_encoding_options, add_model_options, add_rules_options

# The shared options, importable from here as before (the subcommands import them from anonimed.cli.options).
__all__ = [
    "COMMANDS",
    "add_encoding_options",
    "add_model_options",
    "add_rules_options",
    "build_parser",
    "main",
]


COMMANDS = (predict, deidentify, evaluate, convert, train, embed, serve, review, rules, corpus, synth)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="anonimed", description="De-identify Spanish and Catalan clinical text.")
    parser.add_argument("--version", action="version", version=f"anonimed {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details to stderr")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if arguments.verbose else logging.WARNING, format="%(message)s")
    try:
        return int(arguments.run(arguments) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (OSError, ValueError) as error:
        print(f"anonimed {arguments.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
