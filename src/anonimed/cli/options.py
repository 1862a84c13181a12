"""Options that several subcommands share (``--encoding``/``--errors``, ``--model``/``--vote``, ``--rules``).

Apart from :mod:`anonimed.cli` so that a subcommand module can use them without importing the package that imports
every subcommand (an import cycle).
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from anonimed.parallel import DetectorSpec


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
        help="an ensemble's vote setting: balanced, recall (misses less, flags more) or, for the default model, "
        "styles (trusts its CRF, which learnt notes unlike MEDDOCAN's template; faster); the default model predicts "
        "with balanced and de-identifies with recall, as does any ensemble folder that has a recall vote",
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


# The default number of processes, where --jobs is not given (the cores available when it is not set either).
JOBS_VARIABLE = "ANONIMED_JOBS"


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """``--jobs`` and ``--quiet``: how a batch runs and what it says."""
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="processes that detect in parallel, each loading the model once (default: $ANONIMED_JOBS or the cores "
        "available, fewer for a handful of notes); the output is the same as with one",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar and no summary (failures still shown)")


def jobs_for(arguments: argparse.Namespace, notes: int) -> int:
    """The processes to detect ``notes`` notes with: ``--jobs`` if given, else ``$ANONIMED_JOBS`` or the cores, one
    per 8 notes at most (a process costs a model load)."""
    from anonimed.parallel import available_cores

    if arguments.jobs is not None:
        if arguments.jobs < 1:
            raise ValueError(f"--jobs must be 1 or more, got {arguments.jobs}")
        return max(1, min(arguments.jobs, notes))
    default = os.environ.get(JOBS_VARIABLE, "")
    if default and not (default.isdigit() and int(default) >= 1):
        raise ValueError(f"{JOBS_VARIABLE}={default!r}: give a number of processes, 1 or more")
    return max(1, min(int(default) if default else available_cores(), notes // 8))


def detector_spec(arguments: argparse.Namespace, for_deidentify: bool = False) -> DetectorSpec:
    """How to load the detector that ``--model``, ``--vote`` and ``--rules`` describe (in any process);
    ``for_deidentify``: an ensemble then votes as ``deidentify`` does (its ``recall`` vote where it has one) unless
    ``--vote`` says."""
    from anonimed.parallel import DetectorSpec

    if getattr(arguments, "rules_win", False) and not getattr(arguments, "rules", None):
        raise ValueError("--rules-win needs --rules")
    vote = arguments.vote
    if for_deidentify and vote is None:
        from anonimed.models import vote_for_deidentify

        vote = vote_for_deidentify(arguments.model)
    return DetectorSpec(
        arguments.model,
        vote,
        tuple(getattr(arguments, "rules", None) or ()),
        bool(getattr(arguments, "rules_win", False)),
    )
