"""K-fold cross-validation of the CRF tagger on MEDDOCAN train + dev (750 notes).

    .venv/bin/python benchmarks/crossval.py [--folds 5] [--seed 0] [--iterations 200] [--augment N --layouts]
        [--work runs/crossval] [--out benchmarks/results/crossval.json] [--resume]

Why: the shipped model's choices (the plausibility checks, the rules accepted into the shipped set) were tuned on
MEDDOCAN dev alone, 250 notes; a figure tuned and reported on the same 250 notes says little about its spread.  Here
every note of train + dev is held out once: each fold's CRF is trained on the other folds with the project's own
training (:func:`anonimed.train.train_model`, what ``anonimed train --model crf`` runs) and scored on its held-out notes
with the project's scorer in three variants, so that each rule-acceptance decision is re-checked on every fold:

- ``crf``: the model folder's spans alone (``load_model_dir(..., plain=True)``: tagger, pattern spans, boundaries,
  propagation);
- ``crf+checks``: the same through the plausibility checks (:mod:`anonimed.detect.plausible`);
- ``crf+checks+rules``: with the checks and the shipped rules (:func:`anonimed.rules.with_rules`), combined as
  :func:`anonimed.models.load_model_dir` does when a model folder names rules.

Folds are deterministic: the note ids sorted, shuffled by ``random.Random(seed)``, dealt round-robin.  Each fold's
training notes are linked (copied where links fail) as BRAT under ``WORK/folds/``; its model is written to
``WORK/fold-N/model`` (a complete folder appears only once training has finished), and ``--resume`` keeps a fold's model
when it was trained on the same plan with the same settings, so that a run may be stopped and resumed.  Scoring is
always redone (it is quick, and the rules may have changed since).

Writes the JSON (per fold; mean, standard deviation and pooled counts per variant) atomically and prints a Markdown
table for BENCHMARKS.md.  Progress goes to stderr; no note text is logged.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import random
import shlex
import shutil
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from anonimed.detect.base import Detector
from anonimed.detect.composed import ComposedText
from anonimed.detect.crf import CrfSettings
from anonimed.detect.features import FeatureConfig
from anonimed.detect.plausible import PlausibleSpans
from anonimed.document import Document
from anonimed.evaluate import Counts, score
from anonimed.formats.textio import write_text_atomic
from anonimed.models import load_model_dir
from anonimed.rules import with_rules
from anonimed.train import TrainOptions, train_model
from anonimed.train.data import find_gazetteers, official_sentence_counts, portable_path, read_annotated

ROOT = Path(__file__).resolve().parents[1]
# The shared data folder: $ANONIMED_SHARED, else ../shared beside the repository (as benchmarks/quality.py).
SHARED = Path(os.environ.get("ANONIMED_SHARED", ROOT.parent / "shared"))
MEDDOCAN = SHARED / "data" / "meddocan"
SPLITS = ("train", "dev")
VARIANTS = ("crf", "crf+checks", "crf+checks+rules")
# The figures averaged over folds: (section of the scorer's report, key).
FIGURES = (
    ("subtask1", "precision"),
    ("subtask1", "recall"),
    ("subtask1", "f1"),
    ("subtask1", "leak"),
    ("subtask2_merged", "f1"),
    ("characters", "recall"),
    ("characters", "precision"),
)
MODEL = "model"
FOLD_FILE = "fold.json"

log = logging.getLogger("crossval")


@dataclass(frozen=True)
class FoldSettings:
    """How each fold's CRF is trained: what ``anonimed train --model crf`` takes, plus the iteration count."""

    iterations: int = CrfSettings().max_iterations
    seed: int = 0
    augment: int = 0
    layouts: bool = False

    def options(self, gazetteers: Path | None = None) -> TrainOptions:
        """The training options, as ``anonimed train --model crf`` builds them (pattern hints on, no clusters);
        ``gazetteers``: the folder augmentation draws from (the fold folders lie under the work folder, where
        training could not find it above them)."""
        return TrainOptions(
            kind="crf",
            features=FeatureConfig(hints=True, clusters=False),
            crf=CrfSettings(max_iterations=self.iterations),
            seed=self.seed,
            augment=self.augment,
            layouts=self.layouts,
            gazetteer_dir=gazetteers,
        )


def assign_folds(ids: Sequence[str], folds: int, seed: int) -> list[list[str]]:
    """The ids dealt into ``folds`` folds: sorted (so the input order does not matter), shuffled with ``seed``, dealt
    round-robin (so fold sizes differ by one at most); each fold sorted."""
    if folds < 2:
        raise ValueError(f"cross-validation needs at least 2 folds, got {folds}")
    if len(set(ids)) != len(ids):
        raise ValueError("document ids are not unique")
    if len(ids) < folds:
        raise ValueError(f"{len(ids)} documents cannot fill {folds} folds")
    order = sorted(ids)
    random.Random(seed).shuffle(order)
    return [sorted(order[fold::folds]) for fold in range(folds)]


def read_sources(sources: Sequence[Path]) -> tuple[dict[str, Path], list[Document], dict[str, int]]:
    """Every annotated note of the BRAT folders ``sources``: where each id's files lie, the documents and the official
    sentence counts where MEDDOCAN keeps them (``sentences/`` beside ``brat/``)."""
    paths: dict[str, Path] = {}
    documents: list[Document] = []
    sentence_counts: dict[str, int] = {}
    for source in sources:
        notes = read_annotated(source)
        for document in notes:
            if document.id in paths:
                raise ValueError(f"document id {document.id} is in {paths[document.id]} and {source}")
            paths[document.id] = Path(source).resolve()
        documents += notes
        sentence_counts.update(official_sentence_counts(source, notes) or {})
    return paths, documents, sentence_counts


def link_folds(folds: list[list[str]], paths: dict[str, Path], work: Path) -> list[Path]:
    """``WORK/folds/fold-N/``: each fold's notes as BRAT (symbolic links, copies where links fail), rebuilt every run
    so that it always matches the plan; the training of a fold reads the other folds' folders."""
    root = work / "folds"
    if root.exists():
        shutil.rmtree(root)
    folders = []
    for number, ids in enumerate(folds):
        folder = root / f"fold-{number}"
        folder.mkdir(parents=True)
        for document_id in ids:
            for suffix in (".txt", ".ann"):
                source = paths[document_id] / f"{document_id}{suffix}"
                try:
                    (folder / source.name).symlink_to(source)
                except OSError:
                    shutil.copy2(source, folder / source.name)
        folders.append(folder)
    return folders


def train_fold(
    number: int,
    held_out: list[str],
    folders: list[Path],
    work: Path,
    settings: FoldSettings,
    resume: bool,
    gazetteers: Path | None = None,
) -> tuple[Path, float, bool]:
    """The fold's model folder, its training seconds and whether it was kept from an earlier run.

    Training writes ``fold-N/model.partial`` and renames it to ``fold-N/model`` when done, so an interrupted run leaves
    no folder that looks complete; ``fold.json`` records the held-out ids and settings the model was trained with, and
    ``--resume`` keeps a model only when they match the current plan."""
    fold_dir = work / f"fold-{number}"
    model_dir = fold_dir / MODEL
    plan = {"held_out": held_out, "settings": asdict(settings)}
    if resume and (model_dir / "model.json").is_file():
        recorded = json.loads((fold_dir / FOLD_FILE).read_text(encoding="utf-8"))
        if recorded != plan:
            raise ValueError(
                f"{fold_dir} was trained on another plan or with other settings: give another --work or drop --resume"
            )
        info = json.loads((model_dir / "model.json").read_text(encoding="utf-8"))
        log.info("fold %d: model kept from an earlier run", number)
        return model_dir, float(info["training"]["seconds"]), True
    partial = fold_dir / f"{MODEL}.partial"
    for stale in (partial, model_dir):
        if stale.exists():
            shutil.rmtree(stale)
    fold_dir.mkdir(parents=True, exist_ok=True)
    train_dirs = [folder for other, folder in enumerate(folders) if other != number]
    log.info("fold %d: training on %d folders, %d notes held out", number, len(train_dirs), len(held_out))
    info = train_model(train_dirs, partial, options=settings.options(gazetteers))
    write_text_atomic(fold_dir / FOLD_FILE, json.dumps(plan, indent=1) + "\n")
    partial.rename(model_dir)
    return model_dir, float(info.training["seconds"]), False


def variants(model_dir: Path) -> dict[str, Detector]:
    """The three detectors of a fold's model folder, each reading notes composed (NFC) as ``load_detector`` does."""
    plain = load_model_dir(model_dir, plain=True)
    checked = PlausibleSpans(plain)
    # As load_model_dir combines a folder that names rules: the rules' spans go through the checks too.
    ruled = PlausibleSpans(with_rules(checked, "default"))
    return {"crf": ComposedText(plain), "crf+checks": ComposedText(checked), "crf+checks+rules": ComposedText(ruled)}


def score_variant(detector: Detector, gold: list[Document], sentence_counts: dict[str, int]) -> dict[str, Any]:
    """The scorer's figures of ``detector`` on ``gold`` (the notes are given without their spans)."""
    started = time.perf_counter()
    predicted = {document.id: detector.detect(Document(document.id, document.text)) for document in gold}
    seconds = time.perf_counter() - started
    report = score(gold, predicted, sentence_counts).to_dict()
    figures = {key: report[key] for key in ("subtask1", "subtask2_strict", "subtask2_merged", "characters")}
    return {**figures, "sentences": report["sentences"], "seconds": round(seconds, 1)}


def summarise(folds: list[dict[str, Any]]) -> dict[str, Any]:
    """Per variant: mean and sample standard deviation over folds of each figure, and the figures of the counts
    pooled over folds (every note scored once: the cross-validated estimate)."""
    summary: dict[str, Any] = {}
    for variant in VARIANTS:
        results = [fold["variants"][variant] for fold in folds]
        entry: dict[str, Any] = {"mean": {}, "sd": {}, "pooled": {}}
        for section, key in FIGURES:
            values = [result[section][key] for result in results]
            name = f"{section}.{key}"
            entry["mean"][name] = statistics.fmean(values)
            entry["sd"][name] = statistics.stdev(values) if len(values) > 1 else 0.0
        for section in ("subtask1", "subtask2_strict", "subtask2_merged", "characters"):
            pooled = sum((Counts(r[section]["tp"], r[section]["fp"], r[section]["fn"]) for r in results), Counts())
            entry["pooled"][section] = pooled.to_dict()
        sentences = sum(result["sentences"] for result in results)
        entry["pooled"]["subtask1"]["leak"] = entry["pooled"]["subtask1"]["fn"] / sentences if sentences else 0.0
        summary[variant] = entry
    return summary


def run_crossval(
    sources: Sequence[Path],
    work: Path,
    folds: int = 5,
    settings: FoldSettings = FoldSettings(),
    fold_seed: int = 0,
    resume: bool = False,
    gazetteers: Path | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Cross-validate the CRF over the notes of the BRAT folders ``sources``; the results without date or machine.

    ``fold_seed`` deals the folds, ``settings.seed`` seeds the training (augmentation); ``gazetteers`` is the folder
    that ``settings.augment`` draws from (default: found above the first source); ``progress`` is called with each
    fold's results as soon as they are known."""
    if settings.augment and gazetteers is None:
        gazetteers = find_gazetteers(sources[0])
    paths, documents, sentence_counts = read_sources(sources)
    plan = assign_folds(list(paths), folds, fold_seed)
    folders = link_folds(plan, paths, work)
    by_id = {document.id: document for document in documents}
    log.info("%d notes in %d folds of %s notes", len(documents), folds, "/".join(str(len(f)) for f in plan))
    results = []
    for number, held_out in enumerate(plan):
        model_dir, seconds, kept = train_fold(number, held_out, folders, work, settings, resume, gazetteers)
        gold = [by_id[document_id] for document_id in held_out]
        fold: dict[str, Any] = {
            "fold": number,
            "held_out": len(held_out),
            "train_documents": len(documents) - len(held_out),
            "train_seconds": seconds,
            "model_kept": kept,
            "variants": {},
        }
        for variant, detector in variants(model_dir).items():
            fold["variants"][variant] = score_variant(detector, gold, sentence_counts)
            s1 = fold["variants"][variant]["subtask1"]
            log.info(
                "fold %d, %s: subtask 1 P/R/F1 %.4f/%.4f/%.4f",
                number,
                variant,
                *(s1[k] for k in ("precision", "recall", "f1")),
            )
        results.append(fold)
        if progress is not None:
            progress(fold)
    return {
        "sources": [portable_path(source) for source in sources],
        "documents": len(documents),
        "folds": folds,
        "fold_seed": fold_seed,
        "settings": asdict(settings),
        "gazetteers": portable_path(gazetteers) if gazetteers else None,
        "per_fold": results,
        "summary": summarise(results),
    }


def markdown(results: dict[str, Any]) -> str:
    """Fold rows and a mean ± sd row per variant: subtask 1 P/R/F1 and PHI characters covered."""
    lines = [
        "| fold | variant | notes | s1 P | s1 R | s1 F1 | PHI chars R | PHI chars P |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for fold in results["per_fold"]:
        for variant in VARIANTS:
            r = fold["variants"][variant]
            s1, characters = r["subtask1"], r["characters"]
            lines.append(
                f"| {fold['fold']} | {variant} | {fold['held_out']} | {s1['precision']:.4f} | {s1['recall']:.4f} "
                f"| {s1['f1']:.4f} | {characters['recall']:.4f} | {characters['precision']:.4f} |"
            )
    for variant in VARIANTS:
        mean, sd = results["summary"][variant]["mean"], results["summary"][variant]["sd"]
        cells = " | ".join(
            f"{mean[name]:.4f} ± {sd[name]:.4f}"
            for name in (
                "subtask1.precision",
                "subtask1.recall",
                "subtask1.f1",
                "characters.recall",
                "characters.precision",
            )
        )
        lines.append(f"| mean ± sd | {variant} | {results['documents']} | {cells} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folds", type=int, default=5, help="number of folds (default: 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the fold assignment and of training (default: 0)")
    parser.add_argument(
        "--iterations",
        type=int,
        default=CrfSettings().max_iterations,
        help=f"CRF training iterations (default: {CrfSettings().max_iterations}, as 'anonimed train')",
    )
    parser.add_argument("--augment", type=int, default=0, metavar="N", help="swapped-entity copies of each note")
    parser.add_argument("--layouts", action="store_true", help="augmented copies in other layouts (as anonimed train)")
    parser.add_argument("--gazetteers", type=Path, help="gazetteer folder for --augment (default: found above --data)")
    parser.add_argument(
        "--data", type=Path, default=MEDDOCAN, help="the MEDDOCAN folder (default: ../shared/data/meddocan)"
    )
    parser.add_argument("--work", type=Path, default=Path("runs/crossval"), help="models and fold links go here")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "crossval.json")
    parser.add_argument("--resume", action="store_true", help="keep the models of folds already trained on this plan")
    arguments = parser.parse_args()
    sources = [arguments.data / split / "brat" for split in SPLITS]
    missing = [source for source in sources if not source.is_dir()]
    if missing:
        print(
            f"MEDDOCAN not found: {', '.join(map(str, missing))} missing (set ANONIMED_SHARED to the shared folder "
            "or give --data)",
            file=sys.stderr,
        )
        return 2
    if arguments.layouts and not arguments.augment:
        parser.error("--layouts changes the augmented copies: give --augment N >= 1 with it")
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s: %(message)s")
    settings = FoldSettings(arguments.iterations, arguments.seed, arguments.augment, arguments.layouts)
    started = time.perf_counter()
    results = run_crossval(
        sources, arguments.work, arguments.folds, settings, arguments.seed, arguments.resume, arguments.gazetteers
    )
    machine = f"{platform.machine()}, {platform.processor() or 'cpu'}, {os.cpu_count()} cores, "
    machine += f"Python {platform.python_version()}"
    document = {
        "command": shlex.join(["python", "benchmarks/crossval.py", *sys.argv[1:]]),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine,
        "seconds": round(time.perf_counter() - started, 1),
        **results,
    }
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(arguments.out, json.dumps(document, indent=1) + "\n")
    print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
