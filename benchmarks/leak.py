"""Verbatim leak after de-identification: how many identifying mentions still occur word for word in the output.

    .venv/bin/python benchmarks/leak.py [--model default|PATH] [--vote balanced|recall] [--gold-spans]

The model is loaded as ``anonimed deidentify`` loads it: the shipped one with its ``recall`` vote unless ``--vote``
says otherwise.

Each of the 250 MEDDOCAN dev notes is de-identified with realistic surrogates (the default operators) by the model
(or, with ``--gold-spans``, from its gold annotations, which checks the surrogates alone).  A gold mention counts
when its type identifies someone (names, streets, identifiers, contacts, hospitals and institutions, dates) and it
has 4 or more characters; it leaks when its exact text still occurs anywhere in that note's output (the issue's
measure).  Such an occurrence can also be a surrogate that happens to equal another mention (a year shifted onto
another year of the note): the mentions that occur *outside* every replacement are counted apart, as
``left_unreplaced``: those are the characters detection missed.  Writes benchmarks/results/leak.json (counts per
type, never the mentions' text).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from anonimed.deidentify import Deidentifier, load_model
from anonimed.document import Span
from anonimed.formats.brat import read_brat_dir
from anonimed.schema import group_of

ROOT = Path(__file__).resolve().parents[1]
# The shared data folder: $ANONIMED_SHARED, else ../shared beside the repository.
SHARED = Path(os.environ.get("ANONIMED_SHARED", ROOT.parent / "shared"))
MEDDOCAN = SHARED / "data" / "meddocan"
MIN_CHARACTERS = 4
IDENTIFYING_GROUPS = frozenset({"NAME", "CONTACT", "ID", "DATE"})
IDENTIFYING_TYPES = frozenset({"CALLE", "HOSPITAL", "INSTITUCION", "CENTRO_SALUD"})


def identifying(label: str) -> bool:
    return label in IDENTIFYING_TYPES or group_of(label) in IDENTIFYING_GROUPS


def _occurrences(text: str, needle: str) -> list[int]:
    starts, start = [], text.find(needle)
    while start >= 0:
        starts.append(start)
        start = text.find(needle, start + 1)
    return starts


def _inside_any(start: int, end: int, spans: Sequence[Span]) -> bool:
    return any(span.start < end and start < span.end for span in spans)


def left_in_place(start: int, end: int, replaced: Sequence[Span]) -> bool:
    """Whether a mention at ``start:end`` of the input was left as it was: no replacement touched any of its
    characters. Stricter than finding its text anywhere in the output, which also counts a short name that occurs
    elsewhere as a common word, or a surrogate that happens to equal it."""
    return not _inside_any(start, end, replaced)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="default", help="'default' or a model folder")
    parser.add_argument("--vote", help="an ensemble's vote setting (balanced, recall)")
    parser.add_argument("--gold-spans", action="store_true", help="replace the gold spans instead of detecting")
    parser.add_argument("--data", type=Path, default=MEDDOCAN)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "leak.json")
    arguments = parser.parse_args()
    if not (arguments.data / "dev" / "brat").is_dir():
        print(f"MEDDOCAN dev not found under {arguments.data}", file=sys.stderr)
        return 2
    gold = read_brat_dir(arguments.data / "dev" / "brat")
    # The model as 'anonimed deidentify' loads it: the shipped one with its recall vote unless --vote says otherwise.
    detector = None if arguments.gold_spans else load_model(arguments.model, arguments.vote)
    deidentifier = Deidentifier(detector, seed=13)
    mentions, leaked, unreplaced = Counter(), Counter(), Counter()
    started = time.perf_counter()
    for document in gold:
        result = (
            deidentifier.transform(document)
            if arguments.gold_spans
            else deidentifier.deidentify(document.text, document.id)
        )
        output = unicodedata.normalize("NFC", result.text)
        replaced = [r.output for r in result.replacements if r.output is not None]
        for span in document.spans:
            original = unicodedata.normalize("NFC", document.span_text(span)).strip()
            if not identifying(span.label) or len(original) < MIN_CHARACTERS:
                continue
            mentions[span.label] += 1
            if original in output:
                leaked[span.label] += 1
                if any(
                    not _inside_any(start, start + len(original), replaced) for start in _occurrences(output, original)
                ):
                    unreplaced[span.label] += 1
    seconds = time.perf_counter() - started
    total, total_leaked = sum(mentions.values()), sum(leaked.values())
    summary = {
        "date": date.today().isoformat(),
        "machine": f"{platform.machine()}, Python {platform.python_version()}",
        "command": "benchmarks/leak.py " + " ".join(sys.argv[1:]),
        "documents": len(gold),
        "mentions": total,
        "leaked": total_leaked,
        "share_leaked": total_leaked / total if total else 0.0,
        "left_unreplaced": sum(unreplaced.values()),
        "share_left_unreplaced": sum(unreplaced.values()) / total if total else 0.0,
        "per_type": {
            label: {"mentions": mentions[label], "leaked": leaked[label], "left_unreplaced": unreplaced[label]}
            for label in sorted(mentions)
        },
        "seconds": round(seconds, 1),
    }
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    arguments.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(
        f"{total_leaked} of {total} identifying mentions ({summary['share_leaked']:.2%}) occur verbatim in the output; "
        f"{summary['left_unreplaced']} ({summary['share_left_unreplaced']:.2%}) outside every replacement"
    )
    for label, counts in summary["per_type"].items():
        if counts["leaked"]:
            print(
                f"  {label}: {counts['leaked']} of {counts['mentions']} ({counts['left_unreplaced']} outside replacements)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
