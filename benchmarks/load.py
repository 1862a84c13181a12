"""A bounded load test of ``anonimed serve`` on loopback, with 1 and then 2 workers.

    .venv/bin/python benchmarks/load.py [--notes DIR] [--requests 120] [--clients 4] [--workers 1 2]
                                        [--endpoint detect|deidentify] [--model NAME_OR_PATH] [--out FILE]

For each number of workers the script starts the server itself (``python -m anonimed serve`` on 127.0.0.1, a free
port, a random token in ``ANONIMED_TOKEN``), waits for ``/health``, sends one warm-up request per worker, then
``--requests`` requests of one note each (the notes of ``--notes`` in turn: MEDDOCAN dev by default, the bundled
examples when it is absent) from ``--clients`` parallel clients, each request on a connection of its own so that
the workers share them.  It reports p50/p95 latency, notes per second, the resident memory of the worker processes
and the failed requests (any answer but 200); then it sends malformed requests (bad JSON, wrong types, NUL, a lone
surrogate, no token, a body over the limit) and checks that each gets its 4xx and that ``/health`` still answers.
It also measures how many CPU-bound processes the machine ran at once around the runs (``parallel_capacity``: 2.0
on an idle 2-core machine): a throughput ratio means little when others' jobs hold the cores.  Writes everything as
JSON to ``--out`` (default: benchmarks/results/load.json) and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
# The shared data folder: $ANONIMED_SHARED, else ../shared beside the repository.
SHARED = Path(os.environ.get("ANONIMED_SHARED", ROOT.parent / "shared"))
DEV = SHARED / "data" / "meddocan" / "dev" / "brat"
EXAMPLES = ROOT / "examples"
RESULTS = ROOT / "benchmarks" / "results"

# Each malformed body and the status it must get.
MALFORMED: list[tuple[str, bytes, dict[str, str], int]] = [
    ("bad JSON", b'{"text": ', {}, 422),
    ("not an object", b"[1, 2]", {}, 422),
    ("text of the wrong type", b'{"text": 42}', {}, 422),
    ("text with NUL", b'{"text": "a\\u0000b"}', {}, 422),
    ("lone surrogate", b'{"text": "a\\ud800b"}', {}, 422),
    ("not UTF-8", b'{"text": "\xff\xfe"}', {}, 422),
    ("both text and documents", b'{"text": "a", "documents": [{"id": "x", "text": "b"}]}', {}, 422),
    ("no token", b'{"text": "a"}', {"Authorization": ""}, 401),
]


def _spin() -> None:
    total = 0
    for number in range(10_000_000):
        total += number


def parallel_capacity(processes: int) -> float:
    """How many CPU-bound processes this machine runs at once right now: ``processes`` spinning together against
    one alone (``processes`` on an idle machine with that many cores; less when others hold cores)."""
    timings = []
    for count in (1, processes):
        started = time.perf_counter()
        spinners = [multiprocessing.Process(target=_spin) for _ in range(count)]
        for spinner in spinners:
            spinner.start()
        for spinner in spinners:
            spinner.join()
        timings.append(time.perf_counter() - started)
    return round(processes * timings[0] / timings[1], 2)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _rss_mb(status: Path) -> float:
    for line in status.read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _cpu_seconds(process: Path) -> float:
    # /proc/PID/stat: utime and stime are fields 14 and 15, after the command name in parentheses.
    fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def worker_processes(server: int, workers: int) -> list[Path]:
    """The /proc folder of each worker: the server itself when it runs one worker, else each child that uvicorn
    spawned as a worker (not multiprocessing's helper processes)."""
    if workers == 1:
        return [Path(f"/proc/{server}")]
    found = []
    for process in Path("/proc").glob("[0-9]*"):
        try:
            parent = next(line for line in (process / "status").read_text().splitlines() if line.startswith("PPid:"))
            if int(parent.split()[1]) == server and b"spawn_main" in (process / "cmdline").read_bytes():
                found.append(process)
        except (OSError, StopIteration):  # the process ended meanwhile
            continue
    return sorted(found)


def start_server(
    workers: int, model: str | None, token: str, max_bytes: int, log: Path
) -> tuple[subprocess.Popen, str]:
    port = free_port()
    command = [sys.executable, "-m", "anonimed", "serve", "--port", str(port), "--workers", str(workers)]
    command += ["--max-request-bytes", str(max_bytes)] + (["--model", model] if model else [])
    with open(log, "w") as stream:
        server = subprocess.Popen(
            command, stdout=stream, stderr=subprocess.STDOUT, env={**os.environ, "ANONIMED_TOKEN": token}
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while True:
        try:
            if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                return server, base
        except httpx.TransportError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start: {log.read_text()[-2000:]}")
        time.sleep(0.3)


_clients = threading.local()


def one_request(base: str, path: str, body: dict, token: str) -> tuple[float, int]:
    """One request on a connection of its own (no keep-alive: the workers share the connections), from this
    thread's client (making a client costs more CPU than a request to a loopback server)."""
    if not hasattr(_clients, "client"):
        _clients.client = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0), timeout=120)
    started = time.perf_counter()
    try:
        status = _clients.client.post(
            f"{base}{path}", json=body, headers={"Authorization": f"Bearer {token}"}
        ).status_code
    except httpx.HTTPError:
        status = 0
    return time.perf_counter() - started, status


def malformed_run(base: str, path: str, token: str, max_bytes: int) -> dict:
    results = {}
    cases = MALFORMED + [("over the size limit", b'{"text": "' + b"x" * (max_bytes + 1) + b'"}', {}, 413)]
    for name, body, headers, expected in cases:
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json", **headers}
        status = httpx.post(f"{base}{path}", content=body, headers=headers, timeout=30).status_code
        results[name] = {"status": status, "expected": expected}
    healthy = httpx.get(f"{base}/health", timeout=10).status_code == 200
    return {
        "cases": results,
        "all_as_expected": all(r["status"] == r["expected"] for r in results.values()),
        "healthy_after": healthy,
    }


def measure(workers: int, notes: list[str], arguments: argparse.Namespace, folder: Path) -> dict:
    token = secrets.token_urlsafe(16)
    path = f"/v1/{arguments.endpoint}"
    server, base = start_server(
        workers, arguments.model, token, arguments.max_request_bytes, folder / f"serve-{workers}.log"
    )
    try:
        bodies = [{"text": notes[i % len(notes)]} for i in range(arguments.requests)]
        with ThreadPoolExecutor(arguments.clients) as pool:  # warm-up: every worker has answered once
            list(pool.map(lambda body: one_request(base, path, body, token), bodies[: 2 * workers]))
        processes = worker_processes(server.pid, workers)
        cpu_before = [_cpu_seconds(process) for process in processes]
        started = time.perf_counter()
        with ThreadPoolExecutor(arguments.clients) as pool:
            answers = list(pool.map(lambda body: one_request(base, path, body, token), bodies))
        elapsed = time.perf_counter() - started
        cpu = [_cpu_seconds(process) - before for process, before in zip(processes, cpu_before)]
        memory = [_rss_mb(process / "status") for process in processes]
        malformed = malformed_run(base, path, token, arguments.max_request_bytes)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
    latencies = sorted(seconds for seconds, _ in answers)
    return {
        "workers": workers,
        "requests": len(answers),
        "clients": arguments.clients,
        "failed": sum(status != 200 for _, status in answers),
        "seconds": round(elapsed, 2),
        "notes_per_second": round(len(answers) / elapsed, 2),
        "characters_per_second": round(sum(len(b["text"]) for b in bodies) / elapsed),
        "p50_ms": round(1000 * statistics.median(latencies), 1),
        "p95_ms": round(1000 * latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))], 1),
        "worker_rss_mb": [round(size, 1) for size in memory],
        "worker_cpu_seconds": [round(seconds, 1) for seconds in cpu],  # how the work was shared
        "malformed": malformed,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=Path, default=DEV if DEV.is_dir() else EXAMPLES, help="folder of *.txt notes")
    parser.add_argument("--requests", type=int, default=120, help="requests per run (one note each)")
    parser.add_argument("--clients", type=int, default=4, help="parallel clients")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--endpoint", choices=("detect", "deidentify"), default="detect")
    parser.add_argument("--model", default=None, help="model name or folder (default: the shipped model)")
    parser.add_argument("--max-request-bytes", type=int, default=1_000_000)
    parser.add_argument("--out", type=Path, default=RESULTS / "load.json")
    arguments = parser.parse_args()
    notes = [path.read_text(encoding="utf-8") for path in sorted(arguments.notes.glob("*.txt"))]
    if not notes:
        parser.error(f"{arguments.notes}: no *.txt notes")
    capacity = parallel_capacity(max(arguments.workers))  # before and after: others' jobs come and go
    with tempfile.TemporaryDirectory() as folder:
        runs = [measure(workers, notes, arguments, Path(folder)) for workers in arguments.workers]
    capacity = min(capacity, parallel_capacity(max(arguments.workers)))
    report = {
        "date": date.today().isoformat(),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs",
        "parallel_capacity": capacity,
        "notes": arguments.notes.name,
        "endpoint": arguments.endpoint,
        "model": arguments.model or "default",
        "runs": runs,
    }
    if len(runs) > 1:
        report["throughput_ratio"] = round(runs[-1]["notes_per_second"] / runs[0]["notes_per_second"], 2)
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    arguments.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    columns = ["workers", "requests", "clients", "failed", "p50 ms", "p95 ms", "notes/s", "worker RSS MB"]
    columns += ["worker CPU s", "malformed → 4xx, /health after"]
    print("| " + " | ".join(columns) + " |")
    print("|" + " --- |" * len(columns))
    for run in runs:
        checks = "yes" if run["malformed"]["all_as_expected"] and run["malformed"]["healthy_after"] else "NO"
        cells = [run[name] for name in ("workers", "requests", "clients", "failed", "p50_ms", "p95_ms")]
        cells += [run["notes_per_second"], " + ".join(f"{size:.0f}" for size in run["worker_rss_mb"])]
        cells += [" + ".join(f"{seconds:.1f}" for seconds in run["worker_cpu_seconds"]), checks]
        print("| " + " | ".join(str(cell) for cell in cells) + " |")
    if "throughput_ratio" in report:
        print(f"throughput {arguments.workers[-1]} workers / {arguments.workers[0]}: {report['throughput_ratio']}x")
    print(f"parallel capacity for {max(arguments.workers)} CPU-bound processes at the time: {capacity}")
    failed = any(
        run["failed"] or not run["malformed"]["all_as_expected"] or not run["malformed"]["healthy_after"]
        for run in runs
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
