"""Figures per style on the styles development set (benchmarks/styles): how the models do on notes as people write them.

    .venv/bin/python benchmarks/styles_eval.py [--systems default default+rules rules fast] [--out FILE]

For each system and each style (narrativa, catala, radiologia, primaria, cabeceras) and all notes together:

- character recall and precision, type ignored (the share of gold PHI characters under a predicted span, and of
  predicted characters that are PHI): what de-identification needs;
- subtask 1 strict F1 (type and offsets, docs/evaluation.md);
- spans that cross a line break (a header value running into the next key);
- verbatim survival after ``deidentify`` with the default surrogates: the share of identifying gold mentions (names,
  streets, centres, identifiers, contacts, dates; 4 characters or more) whose exact text still occurs in the
  de-identified note; and, stricter, the share left in place (no replacement touched any of their characters),
  which does not count a short name found elsewhere as a common word, nor a surrogate that happens to equal it.

Systems: ``default`` (the shipped model as it ships: its vote's spans made plausible, and the shipped rules where it
found nothing; predict's ``balanced`` vote, deidentify's ``recall`` vote), ``default-plain`` (the same vote without
the plausibility checks and the rules: what they add), ``rules`` (the shipped rules alone), ```fast``, or the path of
a model folder (a candidate, before it replaces a shipped model).
The set was written by the project and the shipped rules were written looking at it: it is a development set, and
its figures are optimistic for the rules; the held-out sets of each style are scored by others.
Writes benchmarks/results/styles.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections import defaultdict
from datetime import date
from pathlib import Path
from typing import Any

from anonimed.deidentify import Deidentifier, load_model
from anonimed.detect.base import Detector
from anonimed.detect.composed import ComposedText
from anonimed.document import Document
from anonimed.evaluate.counts import Counts
from anonimed.evaluate.matching import character_counts, set_counts
from anonimed.formats.brat import read_brat_dir
from anonimed.models import DEFAULT_MODEL_DIR, load_detector, load_model_dir
from anonimed.rules import load_rules
from leak import MIN_CHARACTERS, identifying, left_in_place  # the leak benchmark's measure, on this set

ROOT = Path(__file__).resolve().parents[1]
STYLES_DIR = ROOT / "benchmarks" / "styles"
SYSTEMS = ("default", "default-plain", "rules", "fast")


def detectors(system: str) -> tuple[Detector, Detector]:
    """The system's detector for predict figures and the one de-identification runs."""
    if system == "rules":
        rules = load_rules("default")
        return rules, rules
    if system == "default-plain":
        return (
            ComposedText(load_model_dir(DEFAULT_MODEL_DIR, "balanced", plain=True)),
            ComposedText(load_model_dir(DEFAULT_MODEL_DIR, "recall", plain=True)),
        )
    return load_detector(system), load_model(system)


def measure(system: str, notes: list[Document]) -> dict[str, Any]:
    predict, deidentify_model = detectors(system)
    deidentifier = Deidentifier(model=deidentify_model, seed=0)
    by_style: dict[str, dict[str, Any]] = defaultdict(
        lambda: {
            "characters": Counts(),
            "strict": Counts(),
            "crossing": 0,
            "mentions": 0,
            "survived": 0,
            "in_place": 0,
            "notes": 0,
        }
    )
    started = time.perf_counter()
    for note in notes:
        style = note.id.split("-")[0]
        spans = predict.detect(Document(note.id, note.text))
        for key in (style, "all"):
            row = by_style[key]
            row["notes"] += 1
            row["characters"] += character_counts(
                {(s.start, s.end) for s in note.spans}, {(s.start, s.end) for s in spans}
            )
            row["strict"] += set_counts({s.key for s in note.spans}, {s.key for s in spans})
            row["crossing"] += sum("\n" in note.text[s.start : s.end] for s in spans)
        result = deidentifier.deidentify(note.text)
        replaced = [r.input for r in result.replacements]
        mentions = [s for s in note.spans if identifying(s.label) and len(s) >= MIN_CHARACTERS]
        survived = sum(note.span_text(mention) in result.text for mention in mentions)
        in_place = sum(left_in_place(mention.start, mention.end, replaced) for mention in mentions)
        for key in (style, "all"):
            by_style[key]["mentions"] += len(mentions)
            by_style[key]["survived"] += survived
            by_style[key]["in_place"] += in_place
    seconds = time.perf_counter() - started
    return {
        "system": system,
        "seconds": round(seconds, 1),
        "styles": {style: _figures(row) for style, row in sorted(by_style.items())},
    }


def _figures(row: dict[str, Any]) -> dict[str, Any]:
    characters: Counts = row["characters"]
    strict: Counts = row["strict"]
    return {
        "notes": row["notes"],
        "character_recall": round(characters.recall, 4),
        "character_precision": round(characters.precision, 4),
        "strict_f1": round(strict.f1, 4),
        "spans_across_lines": row["crossing"],
        "identifying_mentions": row["mentions"],
        "survived_verbatim": row["survived"],
        "survival": round(row["survived"] / row["mentions"], 4) if row["mentions"] else 0.0,
        "left_in_place": row["in_place"],
        "share_left_in_place": round(row["in_place"] / row["mentions"], 4) if row["mentions"] else 0.0,
    }


def table(results: list[dict[str, Any]]) -> str:
    lines = [
        "| system | style | notes | char R | char P | strict F1 | spans across lines | survive verbatim | left in place |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for result in results:
        for style, f in result["styles"].items():
            lines.append(
                f"| {result['system']} | {style} | {f['notes']} | {f['character_recall']:.3f} | "
                f"{f['character_precision']:.3f} | {f['strict_f1']:.3f} | {f['spans_across_lines']} | "
                f"{f['survived_verbatim']}/{f['identifying_mentions']} ({f['survival']:.1%}) | "
                f"{f['left_in_place']} ({f['share_left_in_place']:.1%}) |"
            )
    return "\n".join(lines)


def _set_name(folder: Path) -> str:
    """The measured set as the results name it: its path from the repository root, or its folder's name."""
    resolved = folder.resolve()
    return resolved.relative_to(ROOT).as_posix() if resolved.is_relative_to(ROOT) else resolved.name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--systems",
        nargs="+",
        default=["default", "default-plain", "rules"],
        help=f"{', '.join(SYSTEMS)}, or a model folder (e.g. a candidate before it ships)",
    )
    parser.add_argument(
        "--styles",
        type=Path,
        default=STYLES_DIR,
        help="the annotated notes (BRAT): benchmarks/styles (development, the default) or benchmarks/styles-holdout",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "styles.json")
    arguments = parser.parse_args()
    unknown = [s for s in arguments.systems if s not in SYSTEMS and not (Path(s) / "model.json").is_file()]
    if unknown:
        parser.error(f"not a system nor a model folder: {', '.join(unknown)} (systems: {', '.join(SYSTEMS)})")
    notes = read_brat_dir(arguments.styles)
    if not notes:
        raise SystemExit(f"{arguments.styles}: no annotated note; build the set with benchmarks/styles/build.py")
    results = [measure(system, notes) for system in arguments.systems]
    print(table(results))
    arguments.out.write_text(
        json.dumps(
            {
                "date": date.today().isoformat(),
                "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
                "set": _set_name(arguments.styles),
                "notes": len(notes),
                "results": results,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
