"""The ``anonimed`` command: a thin layer over the Python API, one module a subcommand."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from anonimed import __version__
from anonimed.detect.base import Detector


def add_encoding_options(parser: argparse.ArgumentParser) -> None:
    """``--encoding`` and ``--errors``: how input notes are decoded (strict UTF-8 unless asked otherwise)."""
    parser.add_argument("--encoding", default="utf-8", help="the notes' text encoding (default: utf-8)")
    parser.add_argument(
        "--errors",
        choices=("strict", "replace"),
        default="strict",
        help="strict (default): a byte that does not decode fails the note; replace: it becomes U+FFFD",
    )


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """``--model`` and ``--vote``: which detector runs."""
    parser.add_argument("--model", default=None, help="a model name or model folder (default: the shipped model)")
    parser.add_argument(
        "--vote",
        default=None,
        help="an ensemble's vote setting: balanced or recall (misses less, flags more); the default model predicts "
        "with balanced and de-identifies with recall",
    )


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """``--rules`` and ``--rules-win``: rules added to the model (see docs/rules.md)."""
    parser.add_argument(
        "--rules",
        action="append",
        default=None,
        metavar="RULES",
        help="add these rules to the model: a rule file, a folder of them or 'default' (the shipped set); repeatable. "
        "The rules add spans where the model found nothing",
    )
    parser.add_argument(
        "--rules-win",
        action="store_true",
        help="where a rule's span overlaps the model's, keep the rule's (to fix what the model gets wrong)",
    )


def with_rules_options(detector: Detector, arguments: argparse.Namespace) -> Detector:
    """The detector with the rules of ``--rules`` added, if any."""
    if not getattr(arguments, "rules", None):
        if getattr(arguments, "rules_win", False):
            raise ValueError("--rules-win needs --rules")
        return detector
    from anonimed.rules import with_rules

    return with_rules(detector, arguments.rules, prefer="rules" if arguments.rules_win else "model")


# Imported after the shared options above, which the subcommand modules use.
from anonimed.cli import convert, corpus, deidentify, embed, evaluate, predict, review, rules, serve, train

COMMANDS = (predict, deidentify, evaluate, convert, train, embed, serve, review, rules, corpus)


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
