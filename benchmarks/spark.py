"""Throughput of ``anonimed deidentify --engine spark`` on the MEDDOCAN dev notes, with ``local[1]`` and ``local[2]``.

    .venv/bin/python benchmarks/spark.py [--notes DIR] [--masters local[1] local[2]] [--repeats 2]

The notes are read from ``--notes``, else from ``$ANONIMED_SHARED/data/meddocan/dev/brat``, else from
``../shared/data/meddocan/dev/brat`` beside the repository.  Each master runs in a fresh Python process (its own
JVM): it starts the session, warms every Python worker up (the model is loaded once per worker, then cached), then
runs :func:`anonimed.spark.deidentify_path` on the whole folder (what the CLI runs: the driver reads and writes the
notes, the executors de-identify them) ``--repeats`` times; the best run counts, since the machine is shared.  The
local engine (one process, no Spark) is measured too, as the baseline.  Besides wall time, the CPU time of the whole
process tree (driver, JVM, Python workers) says how much of its cores a run really got (``cpu_share``, 1.0 on an idle
machine) and what a note costs (``cpu_seconds_per_note``).  Writes benchmarks/results/spark.json.
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

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
DEV = Path("data") / "meddocan" / "dev" / "brat"


def default_notes() -> Path:
    shared = os.environ.get("ANONIMED_SHARED")
    return (Path(shared) if shared else ROOT.parent / "shared") / DEV


def tree_cpu_seconds() -> float:
    """CPU seconds (user + system) used so far by this process and every process below it (the JVM, the Python
    daemon and its workers): with the wall time, how much of the cores the run actually got on a shared machine."""
    children: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        children.setdefault(int(fields[1]), []).append(pid)
        times[pid] = (int(fields[11]) + int(fields[12])) / tick
    total, stack = 0.0, [os.getpid()]
    while stack:
        pid = stack.pop()
        total += times.get(pid, 0.0)
        stack.extend(children.get(pid, []))
    return total


def child_spark(master: str, notes: Path, repeats: int) -> dict:
    """One master's measurement, in its own process."""
    started = time.perf_counter()
    from anonimed.spark import deidentify_dataframe, deidentify_options, deidentify_path, spark_session

    spark = spark_session(master, **{"spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false"})
    spark.sparkContext.setLogLevel("ERROR")
    session_ready = time.perf_counter()
    options = deidentify_options(seed=1)
    workers = spark.sparkContext.defaultParallelism
    # One short note a worker, at once: each Python worker loads the model now, not in the measured runs.
    warm = spark.createDataFrame(
        spark.sparkContext.parallelize([(str(i), "Paciente: Ernesto Rivera.") for i in range(workers)], workers),
        "id string, text string",
    )
    deidentify_dataframe(warm, options=options).collect()
    warmed = time.perf_counter()
    runs, cpu = [], []
    for repeat in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            began, cpu_began = time.perf_counter(), tree_cpu_seconds()
            summary = deidentify_path(notes, Path(folder) / f"out{repeat}", options, spark)
            runs.append(time.perf_counter() - began)
            cpu.append(tree_cpu_seconds() - cpu_began)
    spark.stop()
    return {
        "master": master,
        "parallelism": workers,
        "documents": summary.documents,
        "failures": len(summary.failures),
        "session_start_seconds": round(session_ready - started, 2),
        "warm_up_seconds": round(warmed - session_ready, 2),
        "run_seconds": [round(seconds, 2) for seconds in runs],
        "run_cpu_seconds": [round(seconds, 2) for seconds in cpu],
    }


def child_local(notes: Path) -> dict:
    """The local engine (one process), as ``anonimed deidentify`` runs it, for comparison."""
    from anonimed.deidentify import Deidentifier, deidentify_files, load_model

    deidentifier = Deidentifier(model=load_model(), seed=1)
    with tempfile.TemporaryDirectory() as folder:
        began, cpu_began = time.perf_counter(), tree_cpu_seconds()
        summary = deidentify_files(deidentifier, notes, Path(folder) / "out")
        seconds, cpu = time.perf_counter() - began, tree_cpu_seconds() - cpu_began
    return {"master": "local engine (no Spark)", "parallelism": 1, "documents": summary.documents,
            "failures": len(summary.failures), "run_seconds": [round(seconds, 2)],
            "run_cpu_seconds": [round(cpu, 2)]}  # fmt: skip


def measure(arguments: list[str]) -> dict:
    run = subprocess.run([sys.executable, __file__, "--child", *arguments], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"benchmark child {arguments[0]} failed:\n{run.stderr[-3000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def versions() -> dict:
    import pyspark

    import anonimed

    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    return {
        "anonimed": anonimed.__version__,
        "python": platform.python_version(),
        "pyspark": pyspark.__version__,
        "java": java[0] if java else "unknown",
    }


def summarise(rows: list[dict]) -> tuple[float | None, float | None]:
    """Each row's best run and what it cost; the speed-up of local[2] over local[1], as measured and at full share.

    ``cpu_share`` is the share of its cores a run got (1.0 on an idle machine, less when other work took them);
    ``notes_per_second_at_full_share`` = notes/s ÷ cpu_share is what the run would do with its cores to itself, if a
    note kept costing the CPU time it cost here (an estimate for a shared machine, not a measurement).
    """
    for row in rows:
        best = row["run_seconds"].index(min(row["run_seconds"]))
        row["seconds"] = row["run_seconds"][best]
        row["notes_per_second"] = round(row["documents"] / row["seconds"], 2)
        row["cpu_seconds"] = row["run_cpu_seconds"][best]
        row["cpu_share"] = round(row["cpu_seconds"] / (row["seconds"] * row["parallelism"]), 2)
        row["cpu_seconds_per_note"] = round(row["cpu_seconds"] / row["documents"], 3)
        row["notes_per_second_at_full_share"] = round(row["parallelism"] / (row["cpu_seconds"] / row["documents"]), 2)
    by_master = {row["master"]: row for row in rows}
    if "local[1]" not in by_master or "local[2]" not in by_master:
        return None, None
    one, two = by_master["local[1]"], by_master["local[2]"]
    return (
        round(two["notes_per_second"] / one["notes_per_second"], 2),
        round(two["notes_per_second_at_full_share"] / one["notes_per_second_at_full_share"], 2),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=Path, help="a folder of .txt notes (default: MEDDOCAN dev, see above)")
    parser.add_argument("--masters", nargs="+", default=["local[1]", "local[2]"])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--no-local", action="store_true", help="skip the local-engine baseline")
    parser.add_argument("--out", type=Path, default=RESULTS / "spark.json")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        kind, *rest = arguments.child
        result = child_local(Path(rest[0])) if kind == "local" else child_spark(kind, Path(rest[0]), int(rest[1]))
        print(json.dumps(result))
        return
    notes = arguments.notes or default_notes()
    files = sorted(notes.glob("*.txt")) if notes.is_dir() else []
    if not files:
        raise SystemExit(f"{notes}: no .txt notes (give --notes DIR or set ANONIMED_SHARED)")
    rows = []
    if not arguments.no_local:
        rows.append(measure(["local", str(notes)]))
    for master in arguments.masters:
        rows.append(measure([master, str(notes), str(arguments.repeats)]))
    speedup, speedup_at_full_share = summarise(rows)
    report = {
        "date": date.today().isoformat(),
        "command": "benchmarks/spark.py " + " ".join(sys.argv[1:]).replace(str(notes), "NOTES"),
        "notes": "MEDDOCAN dev" if arguments.notes is None else "--notes",
        "documents": len(files),
        "cores": os.cpu_count(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores (shared with other work)",
        "versions": versions(),
        "what": "deidentify_path (surrogates, seed 1, shipped model with its recall vote) on every note, model "
        "loaded in every worker beforehand; best of the repeats",
        "rows": rows,
        "speedup_local2_over_local1": speedup,
        "speedup_local2_over_local1_at_full_share": speedup_at_full_share,
    }
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    arguments.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print("| master | notes | seconds | notes/s | CPU s/note | CPU share |\n| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print(
            f"| {row['master']} | {row['documents']} | {row['seconds']:.1f} | {row['notes_per_second']:.1f} "
            f"| {row['cpu_seconds_per_note']:.3f} | {row['cpu_share']:.2f} |"
        )
    if speedup is not None:
        print(f"local[2] / local[1]: {speedup}x as measured, {speedup_at_full_share}x with the cores each run paid for")


if __name__ == "__main__":
    main()
