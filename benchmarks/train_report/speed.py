"""Prediction speed of a model folder on MEDDOCAN dev (250 notes), model load excluded, best of N passes.

Usage: python benchmarks/train_report/speed.py MODEL_DIR [PASSES]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from anonimed.formats.brat import read_brat_dir
from anonimed.models import load_detector
from anonimed.text.tokenize import tokenize

# MEDDOCAN dev: $ANONIMED_SHARED/data/meddocan/dev/brat, else ../shared/... beside the repository.
SHARED = Path(os.environ.get("ANONIMED_SHARED", Path(__file__).resolve().parents[2].parent / "shared"))
DEV = SHARED / "data" / "meddocan" / "dev" / "brat"


def main(model_dir: str, passes: int = 3) -> None:
    documents = read_brat_dir(DEV)
    tokens = sum(len(tokenize(d.text)) for d in documents)
    started = time.perf_counter()
    detector = load_detector(model_dir)
    loaded = time.perf_counter() - started
    times = []
    for _ in range(passes):
        started = time.perf_counter()
        for document in documents:
            detector.detect(document)
        times.append(time.perf_counter() - started)
    print(
        f"{model_dir}: load {loaded:.2f} s; {len(documents)} notes, {tokens} tokens: first pass {times[0]:.2f} s "
        f"= {tokens / times[0]:,.0f} tokens/s, best of {passes} {min(times):.2f} s = {tokens / min(times):,.0f} tokens/s"
    )


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:]))
