"""Speed and memory of ``predict`` and ``deidentify`` on the 250 MEDDOCAN dev notes, with 1 and 2 processes.

    .venv/bin/python benchmarks/speed.py [--model default PATH ...] [--processes 1 2] [--notes DIR]

For every model, command and number of processes, the notes are split into that many equal shares, and each share
runs in a fresh Python process that imports anonimed, loads the model (the *cold start*, reported apart) and then
runs the command's API (``predict_dir``, or ``deidentify_files`` with surrogates) into a temporary folder.
Throughput is documents and tokens (``anonimed.text.tokenize``) per second of the slowest process's run, model load
excluded; peak memory is the sum of the processes' peak resident sets.  The default model is measured when it is
installed.  Writes benchmarks/results/speed.json and prints a Markdown table for BENCHMARKS.md.
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
COMMANDS = ("predict", "deidentify")


def child(model: str, command: str, notes: Path, out: Path) -> dict:
    """One process's measurement (run with ``--child``): import and load time, run time, own peak memory."""
    started = time.perf_counter()
    from anonimed.deidentify import Deidentifier, deidentify_files
    from anonimed.models import load_detector
    from anonimed.predict import predict_dir

    detector = load_detector(model)
    loaded = time.perf_counter()
    if command == "predict":
        summary = predict_dir(detector, notes, out)
    else:
        summary = deidentify_files(Deidentifier(model=detector, seed=1), notes, out)
    finished = time.perf_counter()
    return {
        "cold_start_seconds": loaded - started,
        "run_seconds": finished - loaded,
        "documents": summary.documents,
        "failures": len(summary.failures),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def shares(notes: list[Path], count: int, folder: Path) -> list[Path]:
    """``count`` folders of symbolic links, each holding an equal share of the notes."""
    folders = []
    for index in range(count):
        share = folder / f"share{index}"
        share.mkdir()
        for note in notes[index::count]:
            (share / note.name).symlink_to(note)
        folders.append(share)
    return folders


def measure(model: str, command: str, processes: int, notes: list[Path], tokens: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        inputs = shares(notes, processes, Path(folder))
        runs = [
            subprocess.Popen(
                [sys.executable, __file__, "--child", model, command, str(share), str(Path(folder) / f"out{i}")],
                stdout=subprocess.PIPE,
                text=True,
            )
            for i, share in enumerate(inputs)
        ]
        outputs = [json.loads(run.communicate()[0]) for run in runs]
        if any(run.returncode for run in runs):
            raise RuntimeError(f"{model} {command}: a measuring process failed")
    seconds = max(o["run_seconds"] for o in outputs)
    documents = sum(o["documents"] for o in outputs)
    from anonimed.train.data import portable_path

    return {
        "model": model if model in ("default", "fast") else portable_path(model),  # no machine's folders in the results
        "command": command,
        "processes": processes,
        "documents": documents,
        "failures": sum(o["failures"] for o in outputs),
        "tokens": tokens,
        "cold_start_seconds": round(max(o["cold_start_seconds"] for o in outputs), 2),
        "run_seconds": round(seconds, 2),
        "documents_per_second": round(documents / seconds, 1),
        "tokens_per_second": round(tokens / seconds),
        "peak_memory_mb": round(sum(o["peak_rss_mb"] for o in outputs)),
    }


def markdown(rows: list[dict]) -> str:
    lines = [
        "| model | command | processes | cold start (s) | docs/s | tokens/s | peak memory (MB) |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {Path(r['model']).name} | {r['command']} | {r['processes']} | {r['cold_start_seconds']:.2f} | "
            f"{r['documents_per_second']:.1f} | {r['tokens_per_second']:,} | {r['peak_memory_mb']} |"
        )
    return "\n".join(lines)


def default_models() -> list[str]:
    from anonimed.models import DEFAULT_MODEL_DIR

    return ["default"] if (DEFAULT_MODEL_DIR / "model.json").is_file() else []


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        model, command, notes, out = sys.argv[2:6]
        print(json.dumps(child(model, command, Path(notes), Path(out))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", nargs="+", default=[], help="model folders (the default model is always added)")
    parser.add_argument("--processes", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--notes", type=Path, default=DEV, help="a folder of *.txt notes (default: MEDDOCAN dev)")
    parser.add_argument("--output", type=Path, default=RESULTS / "speed.json")
    arguments = parser.parse_args()
    from anonimed.formats.textio import read_text
    from anonimed.text.tokenize import tokenize

    models = default_models() + [
        m if m == "fast" else str(Path(m).resolve()) for m in arguments.model if m != "default"
    ]
    if not models:
        parser.error("the default model is not installed: give a model folder with --model")
    notes = sorted(arguments.notes.glob("*.txt"))
    tokens = sum(len(tokenize(read_text(note))) for note in notes)
    rows = []
    for model in models:
        for command in COMMANDS:
            for processes in arguments.processes:
                rows.append(measure(model, command, processes, notes, tokens))
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    from anonimed.train.data import portable_path

    report = {
        "date": date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared), python {platform.python_version()}",
        "command": " ".join(["benchmarks/speed.py", *sys.argv[1:]]),
        "notes": portable_path(arguments.notes),
        "documents": len(notes),
        "rows": rows,
    }
    arguments.output.parent.mkdir(parents=True, exist_ok=True)
    arguments.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
