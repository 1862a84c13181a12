"""Precision and recall of the pattern recognizers against MEDDOCAN gold spans, per type and per recognizer.

    .venv/bin/python benchmarks/patterns_report.py [--sets train dev] [--errors LABEL]

Exact: same type and offsets.  Overlap: same type and at least one character in common (each gold span and each
predicted span counted once).  Per type it scores ``PatternDetector.detect`` (overlaps resolved); per recognizer it
scores its own matches (only precision: a recognizer is meant to find part of a type), all of them and those that
survive the overlap resolution (attributed by offsets and score).  Prints Markdown tables and
the speed (tokens a second, tokenizer excluded).  ``--errors LABEL`` also prints the misses and false alarms of
that type with some context, to tune the patterns.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter, defaultdict
from pathlib import Path

from anonimed.detect.patterns import PatternDetector, recognizer_labels
from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat_dir
from anonimed.text.tokenize import tokenize

# The shared data folder: $ANONIMED_SHARED, else ../shared beside the repository.
SHARED = Path(os.environ.get("ANONIMED_SHARED", Path(__file__).resolve().parents[2] / "shared"))
MEDDOCAN = SHARED / "data" / "meddocan"


def _overlapping(span: Span, others: list[Span]) -> bool:
    return any(span.overlaps(o) and o.label == span.label for o in others)


def _ratio(numerator: int, denominator: int) -> str:
    return f"{numerator / denominator:.3f}" if denominator else "-"


def type_table(documents: list[Document], predicted: dict[str, list[Span]]) -> list[str]:
    counts: dict[str, Counter] = defaultdict(Counter)
    for document in documents:
        gold, found = document.spans, predicted[document.id]
        gold_keys = {s.key for s in gold}
        found_keys = {s.key for s in found}
        for span in gold:
            counts[span.label]["gold"] += 1
            counts[span.label]["gold_exact"] += span.key in found_keys
            counts[span.label]["gold_overlap"] += _overlapping(span, found)
        for span in found:
            counts[span.label]["found"] += 1
            counts[span.label]["found_exact"] += span.key in gold_keys
            counts[span.label]["found_overlap"] += _overlapping(span, gold)
    lines = [
        "| type | gold | found | P exact | R exact | P overlap | R overlap |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    labels = set(recognizer_labels().values())
    for label in sorted(labels):
        c = counts[label]
        lines.append(
            f"| {label} | {c['gold']} | {c['found']} | {_ratio(c['found_exact'], c['found'])} | "
            f"{_ratio(c['gold_exact'], c['gold'])} | {_ratio(c['found_overlap'], c['found'])} | "
            f"{_ratio(c['gold_overlap'], c['gold'])} |"
        )
    return lines


def recognizer_table(
    documents: list[Document], detector: PatternDetector, predicted: dict[str, list[Span]]
) -> list[str]:
    """Per recognizer: all its matches, and those the detector kept (what its score should reflect)."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for document in documents:
        gold_keys = {s.key for s in document.spans}
        kept = {(s.key, s.score) for s in predicted[document.id]}
        for name, span in detector.matches(document.text):
            counts[name]["found"] += 1
            counts[name]["exact"] += span.key in gold_keys
            counts[name]["overlap"] += _overlapping(span, document.spans)
            if (span.key, span.score) in kept:
                counts[name]["kept"] += 1
                counts[name]["kept_exact"] += span.key in gold_keys
    lines = [
        "| recognizer | label | found | P exact | P overlap | kept | P exact of kept |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, label in recognizer_labels().items():
        c = counts[name]
        lines.append(
            f"| {name} | {label} | {c['found']} | {_ratio(c['exact'], c['found'])} | "
            f"{_ratio(c['overlap'], c['found'])} | {c['kept']} | {_ratio(c['kept_exact'], c['kept'])} |"
        )
    return lines


def error_lines(documents: list[Document], predicted: dict[str, list[Span]], label: str) -> list[str]:
    def context(document: Document, span: Span) -> str:
        text = document.text
        return f"{text[max(0, span.start - 30) : span.start]!r} [[{text[span.start : span.end]}]] {text[span.end : span.end + 20]!r}"

    lines = []
    for document in documents:
        found = [s for s in predicted[document.id] if s.label == label]
        gold = [s for s in document.spans if s.label == label]
        found_keys, gold_keys = {s.key for s in found}, {s.key for s in gold}
        lines += [f"MISS  {context(document, s)}" for s in gold if s.key not in found_keys]
        lines += [f"FALSE {context(document, s)} {s.score}" for s in found if s.key not in gold_keys]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=["train", "dev"])
    parser.add_argument("--errors", metavar="LABEL", help="print the misses and false alarms of this type")
    args = parser.parse_args()
    documents = [d for name in args.sets for d in read_brat_dir(MEDDOCAN / name / "brat")]
    detector = PatternDetector()
    tokens = sum(len(tokenize(d.text)) for d in documents)
    started = time.process_time()
    predicted = {d.id: detector.detect(d) for d in documents}
    seconds = time.process_time() - started
    print(
        f"{len(documents)} documents ({' + '.join(args.sets)}), {tokens} tokens: "
        f"{seconds:.2f} s of CPU, {tokens / seconds:,.0f} tokens/s\n"
    )
    print("\n".join(type_table(documents, predicted)))
    print()
    print("\n".join(recognizer_table(documents, detector, predicted)))
    if args.errors:
        print()
        print("\n".join(error_lines(documents, predicted, args.errors)))


if __name__ == "__main__":
    main()
