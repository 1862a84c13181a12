"""Where the ``fast`` model's time goes, stage by stage, on the 250 MEDDOCAN dev notes (issue 21's profile).

    .venv/bin/python benchmarks/speed_stages.py [--notes DIR] [--repeat 3] [--out benchmarks/results/speed-stages.json]

Each stage runs alone over every note, in one process, the model loaded and warmed first; the stages take turns, and
the figure is the fastest of ``--repeat`` passes of each, in milliseconds a note:

- ``tokenize``: the tokenizer (:func:`anonimed.text.tokenize.tokenize`);
- ``pattern hints``: the pattern recognizers whose spans become the CRF's ``pt=`` features;
- ``features``: the CRF's feature strings (:meth:`FeatureExtractor.features`);
- ``crfsuite``: python-crfsuite's own work, handing the features over and decoding (``Tagger.set`` + ``tag``);
- ``marginals``: the confidence of the tokens tagged as PHI;
- ``rules``: the shipped rules alone (:func:`anonimed.rules.load_rules`);
- ``whole``: the ``fast`` model as ``predict`` runs it (its CRF member, boundary rules, propagation, plausibility
  checks and rules); the stages above are parts of it, and the rest of it (resolver, boundaries, propagation,
  checks) is ``whole`` minus their sum.

With Presidio's notes a second from the last same-run comparison (``peers-presidio.json``), it also says how many
milliseconds a note the 8x target leaves, and how much of them the C library and the tokenizer alone take.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path

from anonimed.detect.crf import CrfDetector
from anonimed.detect.features import hints_for
from anonimed.document import Document
from anonimed.models import DEFAULT_MODEL_DIR, FAST_MEMBER, build_detector, load_detector, pattern_detector
from anonimed.models.folder import read_model_info
from anonimed.rules import load_rules
from anonimed.text.tokenize import tokenize

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ANONIMED_SHARED", ROOT.parent / "shared"))
DEV = SHARED / "data" / "meddocan" / "dev" / "brat"
RESULTS = ROOT / "benchmarks" / "results"
PRESIDIO_RESULT = RESULTS / "peers-presidio.json"
TARGET = 8  # issue 21: the fast model at 8x Presidio's notes a second


def crf_detector() -> CrfDetector:
    """The CRF tagger of the shipped model's CRF member on its own, with its pattern hints (no resolver, no checks)."""
    folder = DEFAULT_MODEL_DIR / FAST_MEMBER
    info = read_model_info(folder)
    tagger = build_detector(replace(info, resolver=None), folder / info.model_file, pattern_detector())
    if not isinstance(tagger, CrfDetector):
        raise RuntimeError(f"{folder}: the shipped member is a {info.kind} model, not a CRF")
    return tagger


def fastest(stages: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """The fastest of ``repeat`` passes of each stage, the stages taking turns pass by pass: a shared machine's speed
    drifts, and a drift then touches every stage alike."""
    best = dict.fromkeys(stages, float("inf"))
    for _ in range(repeat):
        for name, run in stages.items():
            started = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - started)
    return best


def presidio_notes_per_second() -> float | None:
    if not PRESIDIO_RESULT.is_file():
        return None
    rows = json.loads(PRESIDIO_RESULT.read_text(encoding="utf-8"))["rows"]
    return next((row["documents_per_second"] for row in rows if row["system"] == "presidio"), None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=Path, default=DEV, help="a folder of .txt notes (default: MEDDOCAN dev)")
    parser.add_argument("--repeat", type=int, default=3, help="passes per stage; the fastest counts")
    parser.add_argument("--out", type=Path, default=RESULTS / "speed-stages.json")
    args = parser.parse_args()
    paths = sorted(args.notes.glob("*.txt"))
    if not paths:
        parser.error(f"{args.notes}: no .txt notes (is ../shared/data beside the repository?)")
    texts = [path.read_text(encoding="utf-8") for path in paths]
    documents = [Document(path.stem, text) for path, text in zip(paths, texts, strict=True)]

    crf, rules, fast = crf_detector(), load_rules("default"), load_detector("fast")
    fast.detect(documents[0])  # loads what is loaded lazily
    tokens = [tokenize(text) for text in texts]
    hints = [hints_for(crf.hint_detector, document) for document in documents]
    features = [crf.extractor.features(text, t, h) for text, t, h in zip(texts, tokens, hints, strict=True)]
    tagger = crf._tagger  # the crfsuite tagger itself: its own cost, apart from ours

    def set_and_tag() -> None:
        for sequence in features:
            tagger.set(sequence)
            tagger.tag()

    def tag_with_marginals() -> None:
        for sequence in features:
            crf.tag(sequence)

    seconds = fastest(
        {
            "tokenize": lambda: [tokenize(text) for text in texts],
            "pattern hints": lambda: [hints_for(crf.hint_detector, d) for d in documents],
            "features": lambda: [crf.extractor.features(x, t, h) for x, t, h in zip(texts, tokens, hints, strict=True)],
            "crfsuite": set_and_tag,
            "crfsuite and marginals": tag_with_marginals,
            "rules": lambda: [rules.detect(d) for d in documents],
            "whole": lambda: [fast.detect(d) for d in documents],
        },
        args.repeat,
    )
    seconds["marginals"] = max(0.0, seconds.pop("crfsuite and marginals") - seconds["crfsuite"])
    parts = ("tokenize", "pattern hints", "features", "crfsuite", "marginals", "rules")
    seconds["rest"] = max(0.0, seconds["whole"] - sum(seconds[part] for part in parts))
    per_note = {stage: round(1000 * value / len(texts), 2) for stage, value in seconds.items()}

    presidio = presidio_notes_per_second()
    budget = round(1000 / (TARGET * presidio), 2) if presidio else None
    result = {
        "date": date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, python {platform.python_version()}",
        "command": "benchmarks/speed_stages.py",
        "notes": len(texts),
        "milliseconds_per_note": per_note,
        "fast_notes_per_second": round(len(texts) / seconds["whole"], 1),
        "presidio_notes_per_second": presidio,
        "budget_ms_per_note_at_8x": budget,
        "floor_ms_per_note": round(per_note["tokenize"] + per_note["crfsuite"], 2),
    }
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print("| stage | ms a note |\n| --- | ---: |")
    for stage in (*parts, "rest", "whole"):
        print(f"| {stage} | {per_note[stage]} |")
    if budget is not None:
        print(
            f"\nPresidio {presidio} notes/s: 8x leaves {budget} ms a note; the tokenizer and crfsuite alone take "
            f"{result['floor_ms_per_note']} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
