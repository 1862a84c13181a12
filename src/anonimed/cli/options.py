"""Options that several subcommands share (``--encoding``/``--errors``, ``--model``/``--vote``, ``--rules``).

Apart from :mod:`anonimed.cli` so that a subcommand module can use them without importing the package that imports
every subcommand (an import cycle).
"""

from __future__ import annotations

import argparse

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
