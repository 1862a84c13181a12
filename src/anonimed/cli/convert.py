"""``anonimed convert IN OUT --to FORMAT``: documents from one file format to another."""

from __future__ import annotations

import argparse
import sys

from anonimed.formats import FORMATS, convert


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "convert",
        help="convert annotated documents between brat, xml, conll, jsonl and plain text",
        description=(
            "Reads IN (a file or a folder) and writes OUT: a folder for brat, xml and plain (one file per document), "
            "a single file for jsonl and conll. A bad file or document is reported and the others are converted."
        ),
    )
    parser.add_argument("input", metavar="IN")
    parser.add_argument("output", metavar="OUT")
    parser.add_argument("--to", required=True, choices=sorted(FORMATS), help="the output format")
    parser.add_argument("--from", dest="source", choices=sorted(FORMATS), help="the input format (default: guessed)")
    parser.add_argument("--scheme", choices=("BIO", "BIOES"), default="BIOES", help="CoNLL tags (default: BIOES)")
    parser.add_argument(
        "--keep-unknown-labels",
        action="store_true",
        help="accept labels outside the MEDDOCAN scheme instead of rejecting the file",
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    summary = convert(
        arguments.input,
        arguments.output,
        arguments.to,
        scheme=arguments.scheme,
        source_format=arguments.source,
        check_labels=not arguments.keep_unknown_labels,
    )
    for where, problem in summary.failures.items():
        print(f"failed: {where}: {problem}", file=sys.stderr)
    print(summary.line())
    return 1 if summary.failures else 0
