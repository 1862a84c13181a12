"""Feature and setting experiments on MEDDOCAN dev through the training API.

Usage: python benchmarks/train_report/experiment.py NAME [data=MEDDOCAN_DIR] [kind=crf|window] [augment=N] [c1=..] [c2=..]
       [iterations=..] [scheme=BIO|BIOES] [mode=precision|recall] [<feature setting>=value ...]
Writes experiments/NAME/ (the model folder, its model.json holding the dev scores) and prints a summary line for
the tagger alone and for the tagger + patterns through the resolver.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path

from anonimed.detect.crf import CrfSettings
from anonimed.detect.features import FeatureConfig
from anonimed.train import DEFAULT_RESOLVER, TrainOptions, score_on, train_model

# MEDDOCAN: data=DIR, else $ANONIMED_SHARED/data/meddocan, else ../shared/data/meddocan beside the repository.
SHARED = Path(os.environ.get("ANONIMED_SHARED", Path(__file__).resolve().parents[2].parent / "shared"))
DATA = SHARED / "data" / "meddocan"
OUT = Path(__file__).parent / "experiments"


def summary(scores: dict) -> str:
    s1, strict, merged = scores["subtask1"], scores["subtask2_strict"], scores["subtask2_merged"]
    return (
        f"s1 P/R/F1 {s1['precision']:.4f}/{s1['recall']:.4f}/{s1['f1']:.4f}  s2 strict F1 {strict['f1']:.4f}  "
        f"merged R/F1 {merged['recall']:.4f}/{merged['f1']:.4f}  {scores['tokens_per_second']} tok/s"
    )


def main(name: str, arguments: list[str]) -> None:
    values = dict(argument.split("=", 1) for argument in arguments)
    crf = CrfSettings(
        c1=float(values.pop("c1", 0.05)),
        c2=float(values.pop("c2", 0.05)),
        max_iterations=int(values.pop("iterations", 200)),
        scheme=values.pop("scheme", "BIO"),  # type: ignore[arg-type]
    )
    kind = values.pop("kind", "crf")
    data = Path(values.pop("data", DATA))
    augment = int(values.pop("augment", 0))
    resolver = dict(DEFAULT_RESOLVER, mode=values.pop("mode", "precision"))
    features = FeatureConfig(**{k: (int(v) if v.isdigit() else v == "true") for k, v in values.items()})
    options = TrainOptions(kind=kind, features=features, crf=crf, resolver=resolver, augment=augment)  # type: ignore[arg-type]
    out = OUT / name
    info = train_model([data / "train" / "brat"], out, data / "dev" / "brat", options)
    alone = score_on(dataclasses.replace(info, resolver=None), out, data / "dev" / "brat")
    print(f"{name}: trained in {info.training['seconds']:.0f} s")
    print(f"  {kind} alone:      {summary(alone)}")
    print(f"  with patterns: {summary(info.dev_scores)}")
    (out / "alone.json").write_text(json.dumps(alone, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
