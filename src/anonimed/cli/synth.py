"""``anonimed synth OUT_DIR [--notes N] [--styles ...] [--seed S] [--data DIR]``: invented, annotated training notes
in the styles of ``benchmarks/styles`` (``anonimed.train.synthetic``), written as BRAT ``.txt`` + ``.ann``."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from anonimed.formats.brat import write_brat
from anonimed.train.synthetic import ALL_STYLES, DEFAULT_DATA_DIR, generate


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "synth",
        help="write invented, annotated training notes in other note styles (BRAT)",
        description="Generates seeded, annotated notes in the styles of benchmarks/styles (narrative, Catalan, "
        "radiology, primary care, headers) from the shared data folder's lists; the notes are for training only.",
    )
    parser.add_argument("out_dir", metavar="OUT_DIR", help="folder to write NAME.txt + NAME.ann into")
    parser.add_argument("--notes", type=int, default=600, help="how many notes, spread evenly over the styles (600)")
    parser.add_argument("--styles", nargs="+", choices=ALL_STYLES, default=list(ALL_STYLES), help="styles to write")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0): the same seed, the same notes")
    parser.add_argument(
        "--data", default=str(DEFAULT_DATA_DIR), help=f"the shared data folder (default {DEFAULT_DATA_DIR})"
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    data = Path(arguments.data)
    if not data.is_dir():
        print(f"anonimed synth: error: shared data folder not found: {data} (give it with --data)", file=sys.stderr)
        return 2
    if arguments.notes < 1:
        print("anonimed synth: error: --notes must be at least 1", file=sys.stderr)
        return 2
    documents = generate(arguments.notes, data, seed=arguments.seed, styles=arguments.styles)
    out = Path(arguments.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    notes: Counter[str] = Counter()
    mentions: Counter[str] = Counter()
    for document in documents:
        write_brat(document, out)
        notes[document.metadata["style"]] += 1
        mentions[document.metadata["style"]] += len(document.spans)
    per_style = ", ".join(f"{style} {notes[style]} ({mentions[style]} mentions)" for style in arguments.styles)
    print(f"{len(documents)} notes, {sum(mentions.values())} mentions written to {out}: {per_style}", file=sys.stderr)
    return 0
