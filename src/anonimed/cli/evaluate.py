"""``anonimed evaluate GOLD_DIR PRED_DIR [--sentences DIR] [--scheme meddocan|coarse] [--json FILE] [--plots DIR]``:
the MEDDOCAN scores."""

from __future__ import annotations

import argparse
import json

from anonimed.evaluate import evaluate_dirs
from anonimed.formats.textio import write_text_atomic
from anonimed.schema import SCHEMES


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "evaluate",
        help="score BRAT predictions against gold annotations (MEDDOCAN subtasks 1 and 2, leak, per type)",
        description="Scores PRED_DIR/NAME.ann against GOLD_DIR/NAME.txt + NAME.ann for every gold document, as the "
        "MEDDOCAN organisers do. Every gold document needs a prediction file.",
    )
    parser.add_argument("gold_dir", metavar="GOLD_DIR")
    parser.add_argument("pred_dir", metavar="PRED_DIR")
    parser.add_argument(
        "--sentences",
        metavar="DIR",
        help="official sentence files NAME.ann for the leak (default: the 'sentences' folder beside GOLD_DIR, if any; "
        "documents without one are counted by anonimed's sentence splitter)",
    )
    parser.add_argument(
        "--scheme",
        choices=SCHEMES,
        default="meddocan",
        help="meddocan (default): the 29 types; coarse: the six classes NAME, DIR, LOC, NUM, FECHA, INST of "
        "radiology-report de-identification (gold files may use them; section headers, CAB, are not PHI)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write every figure as JSON to FILE")
    parser.add_argument("--plots", metavar="DIR", help="also write PNG plots (per-type F1, confusion matrix) to DIR")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    report = evaluate_dirs(arguments.gold_dir, arguments.pred_dir, arguments.sentences, arguments.scheme)
    print(report.to_text(), end="")
    if arguments.json:
        write_text_atomic(arguments.json, json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")
        print(f"JSON written to {arguments.json}")
    if arguments.plots:
        from anonimed.evaluate.plots import (
            write_plots,  # deferred: matplotlib is slow to import, and only --plots needs it
        )

        for path in write_plots(report, arguments.plots):
            print(f"plot written to {path}")
    return 0
