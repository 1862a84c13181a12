"""Simulated corpus building: MEDDOCAN's gold plays the annotator, a CRF trained on the built corpus is scored on dev.

Start from a small labelled sample of train; the pool is the rest of train made sparse with clinical case reports
(which carry no header PHI).  The case reports have no gold, yet MEDDOCAN's guidelines would mark their patients'
ages, sexes and relatives: a stand-in annotator (``case_report_annotator``, the shipped model by default) labels
them once, so that a selected case report teaches what an annotator would have marked in it.  With no annotator a
selected case report counts as annotated with no PHI, which teaches the CRF that those mentions are not PHI and
penalises whichever strategy picks case reports for the mentions it finds there.  Each round adds ``batch`` notes
chosen by a strategy:

* ``seed``: the top of the seed score (:mod:`anonimed.corpus.ranking`), ``F1_i`` recomputed on what is labelled so
  far, ``N_i`` and ``p_i`` from the rules' mentions in what is left of the pool;
* ``uncertainty``: the top of :func:`anonimed.corpus.uncertainty.uncertainty_scores` by the CRF trained on what is
  labelled so far (its token marginals);
* ``random``: a uniform sample (several seeds).

Every round spends the same budget, the top ``batch`` of the ranking (the elbow is what ``corpus rank`` proposes to
an annotator; here the strategies are compared at equal numbers of notes).  A ranking with fewer than ``batch``
positive scores is completed at random and the point records how many notes were.  At each point a CRF (the same
settings for every strategy) is trained on the labelled notes and scored on dev with the MEDDOCAN scorer.  Each point
is written to the results file as soon as it is done and is not recomputed on a rerun.
"""

from __future__ import annotations

import gzip
import json
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from anonimed.corpus.ranking import Ranking, mention_counts, rank, seed_scores
from anonimed.corpus.uncertainty import CrfMarginals, uncertainty_scores
from anonimed.detect.base import Detector
from anonimed.detect.crf import CrfDetector, CrfSettings, train_crf
from anonimed.detect.features import FeatureConfig, FeatureExtractor
from anonimed.document import Document, Span
from anonimed.evaluate import score
from anonimed.formats.textio import write_text_atomic

log = logging.getLogger(__name__)

CASE_REPORT_PREFIX = "case:"


@dataclass(frozen=True)
class SimulationSettings:
    seed_size: int = 20
    batch: int = 20
    budget: int = 200
    case_reports: int = 1500
    random_runs: int = 3
    sample_seed: int = 0
    # The model that labels the case reports of the pool (a name or folder for load_detector); None: no labels.
    case_report_annotator: str | None = "default"
    crf: CrfSettings = field(default_factory=lambda: CrfSettings(max_iterations=50))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def sizes(self) -> list[int]:
        return list(range(self.seed_size, self.budget + 1, self.batch))


def read_case_reports(path: str | Path, count: int, seed: int) -> list[Document]:
    """``count`` case reports drawn at random (``seed``) from the JSON Lines file of clinical cases, unannotated."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines if line.strip()]
    chosen = random.Random(seed).sample(records, min(count, len(records)))
    return [Document(CASE_REPORT_PREFIX + record["id"], record["text"]) for record in chosen]


def annotate_case_reports(case_reports: Sequence[Document], annotator: str | None, cache_dir: Path) -> list[Document]:
    """The case reports with the spans of ``annotator`` (a model name or folder), kept in ``cache_dir`` as BRAT so
    that a resumed simulation does not label them again; unchanged when ``annotator`` is None."""
    if annotator is None:
        return list(case_reports)
    from anonimed.formats.brat import read_brat, write_brat
    from anonimed.models import load_detector

    detector: Detector | None = None
    labelled = []
    for document in case_reports:
        stem = document.id.removeprefix(CASE_REPORT_PREFIX)
        if (cache_dir / f"{stem}.ann").is_file():
            spans = read_brat(cache_dir / f"{stem}.txt").spans
        else:
            detector = detector or load_detector(annotator)
            spans = detector.detect(document)
            write_brat(Document(stem, document.text, list(spans)), cache_dir)
        labelled.append(document.with_spans(spans))
    log.info("%d case reports labelled by %s: %d spans", len(labelled), annotator, sum(len(d.spans) for d in labelled))
    return labelled


def strict_f1_by_type(labelled: Sequence[Document], predicted: Mapping[str, Sequence[Span]]) -> dict[str, float]:
    """The strict (type and offsets) F1 of ``predicted`` spans per type on the labelled notes."""
    report = score(labelled, {document.id: list(predicted[document.id]) for document in labelled})
    return {label: counts.f1 for label, counts in report.per_type.items()}


# A strategy: (random seed, labelled notes, pool, model file of this point) -> the ids to add, how many at random.
Picker = Callable[[int, list[Document], list[Document], Path], tuple[list[str], int]]


class Simulation:
    """The simulated loop over one train sample, pool and dev set; :meth:`run` adds a strategy's points."""

    def __init__(
        self,
        train: Sequence[Document],
        dev: Sequence[Document],
        case_reports: Sequence[Document],
        rules: Detector | None,
        settings: SimulationSettings,
        results_path: Path,
        work_dir: Path,
    ) -> None:
        self.settings = settings
        self.dev = list(dev)
        self.results_path = results_path
        self.work_dir = work_dir
        self.extractor = FeatureExtractor(FeatureConfig())
        from anonimed.models import pattern_detector

        self.hints = pattern_detector()
        ordered = sorted(train, key=lambda document: document.id)
        self.seed_sample = random.Random(settings.sample_seed).sample(ordered, settings.seed_size)
        chosen = {document.id for document in self.seed_sample}
        self.pool = [document for document in ordered if document.id not in chosen] + list(case_reports)
        self.rules = rules
        self._rule_spans: dict[str, list[Span]] = {}
        self.results = self._load_results()

    def _load_results(self) -> dict[str, Any]:
        if self.results_path.is_file():
            results = json.loads(self.results_path.read_text(encoding="utf-8"))
            if results.get("settings") != self.settings.to_dict():
                raise ValueError(f"{self.results_path}: made with other settings; remove it or use another file")
            return results
        return {
            "settings": self.settings.to_dict(),
            "seed_sample": [document.id for document in self.seed_sample],
            "pool": {
                "meddocan_train": sum(not d.id.startswith(CASE_REPORT_PREFIX) for d in self.pool),
                "case_reports": sum(d.id.startswith(CASE_REPORT_PREFIX) for d in self.pool),
            },
            "dev_notes": len(self.dev),
            "points": [],
        }

    def _point(self, strategy: str, run: int, notes: int) -> dict[str, Any] | None:
        for point in self.results["points"]:
            if (point["strategy"], point["run"], point["notes"]) == (strategy, run, notes):
                return point
        return None

    def save(self) -> None:
        write_text_atomic(self.results_path, json.dumps(self.results, indent=1, ensure_ascii=False) + "\n")

    def run(self, strategy: str, run: int = 0) -> None:
        """Add the points of ``strategy`` (``run`` seeds the random strategy) that the results file lacks."""
        pickers: dict[str, Picker] = {
            "seed": self._pick_by_seed,
            "uncertainty": self._pick_by_uncertainty,
            "random": self._pick_at_random,
        }
        if strategy not in pickers:
            raise ValueError(f"unknown strategy {strategy!r}: use one of {', '.join(pickers)}")
        by_id = {document.id: document for document in self.pool}
        labelled = list(self.seed_sample)
        added: list[str] = []
        filled = 0
        for notes in self.settings.sizes:
            # The first point, the seed sample alone, is the same for every strategy.
            key = ("start", 0, notes) if notes == self.settings.seed_size else (strategy, run, notes)
            model_file = self.work_dir / f"{key[0]}-{key[1]}-{key[2]}.crfsuite"
            if self._point(*key) is None:
                self._train_and_score(key, labelled, model_file, added, filled)
            if notes + self.settings.batch > self.settings.budget:
                break
            done = self._point(strategy, run, notes + self.settings.batch)
            if done is not None:
                added, filled = done["added"], done["filled_at_random"]
            else:
                taken = {document.id for document in labelled}
                pool = [document for document in self.pool if document.id not in taken]
                added, filled = pickers[strategy](1000 * run + notes, labelled, pool, model_file)
            labelled = labelled + [by_id[document_id] for document_id in added]

    def _train_and_score(
        self, key: tuple[str, int, int], labelled: list[Document], model_file: Path, added: list[str], filled: int
    ) -> None:
        strategy, run, notes = key
        log.info("%s run %d: training on %d notes", strategy, run, notes)
        train_crf(labelled, model_file, self.extractor, self.settings.crf, self.hints)
        detector = CrfDetector(model_file, self.extractor, self.settings.crf.scheme, self.hints)
        report = score(self.dev, {document.id: detector.detect(document) for document in self.dev})
        point: dict[str, Any] = {
            "strategy": strategy,
            "run": run,
            "notes": notes,
            "meddocan_notes": sum(not d.id.startswith(CASE_REPORT_PREFIX) for d in labelled),
            "gold_mentions": sum(len(d.spans) for d in labelled),
            "dev_ner_f1": round(report.subtask1.f1, 4),
            "dev_span_f1": round(report.subtask2_strict.f1, 4),
            "added": added,
            "filled_at_random": filled,
        }
        self.results["points"].append(point)
        self.save()
        log.info("%s run %d, %d notes: dev NER F1 %.4f", strategy, run, notes, point["dev_ner_f1"])

    def _top(self, ranking: Ranking, pool: list[Document], random_seed: int) -> tuple[list[str], int]:
        """The top ``batch`` of a ranking, completed at random when too few notes score above 0."""
        ranked = [document.id for document in ranking.documents if document.score > 0][: self.settings.batch]
        missing = self.settings.batch - len(ranked)
        if missing > 0:
            chosen = set(ranked)
            rest = [document.id for document in pool if document.id not in chosen]
            ranked += random.Random(random_seed).sample(rest, min(missing, len(rest)))
        return ranked, max(missing, 0)

    def _pick_by_seed(
        self, random_seed: int, labelled: list[Document], pool: list[Document], _: Path
    ) -> tuple[list[str], int]:
        return self._top(self.seed_ranking(labelled, pool), pool, random_seed)

    def seed_ranking(self, labelled: Sequence[Document], pool: Sequence[Document]) -> Ranking:
        """The pool by seed score, ``F1_i`` measured on ``labelled``."""
        spans = self.rule_spans([*labelled, *pool])
        f1 = strict_f1_by_type(labelled, spans)
        return rank(seed_scores({document.id: mention_counts(spans[document.id]) for document in pool}, f1))

    def _pick_by_uncertainty(
        self, random_seed: int, labelled: list[Document], pool: list[Document], model_file: Path
    ) -> tuple[list[str], int]:
        if not model_file.is_file():  # a resumed run: the model of this point was trained in an earlier process
            train_crf(labelled, model_file, self.extractor, self.settings.crf, self.hints)
        crf = CrfDetector(model_file, self.extractor, self.settings.crf.scheme, self.hints)
        ranking = rank(uncertainty_scores(CrfMarginals(crf, model_file), pool), by="uncertainty")
        return self._top(ranking, pool, random_seed)

    def _pick_at_random(
        self, random_seed: int, labelled: list[Document], pool: list[Document], _: Path
    ) -> tuple[list[str], int]:
        sample = random.Random(random_seed).sample(pool, min(self.settings.batch, len(pool)))
        return [document.id for document in sample], 0

    def rule_spans(self, documents: Sequence[Document]) -> dict[str, list[Span]]:
        """The rules' spans of each document (computed once: the rules do not change during a simulation)."""
        if self.rules is None:
            raise ValueError("the seed strategy needs rules")
        for document in documents:
            if document.id not in self._rule_spans:
                self._rule_spans[document.id] = self.rules.detect(document)
        return {document.id: self._rule_spans[document.id] for document in documents}
