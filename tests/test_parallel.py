"""--jobs: detection spread over processes gives the output of one process; failures stay per note."""

from __future__ import annotations

import filecmp
import multiprocessing
import threading
from pathlib import Path

import pytest

from anonimed.cli import main
from anonimed.document import Document
from anonimed.parallel import DetectorSpec, ParallelDetector, ReadAhead, available_cores, start_method

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def notes_folder(tmp_path: Path) -> Path:
    notes = tmp_path / "notes"
    notes.mkdir()
    for path in sorted(EXAMPLES.glob("*.txt")):
        (notes / path.name).write_bytes(path.read_bytes())
    (notes / "broken.txt").write_bytes(b"Paciente: \xff\xfe Ana\n")  # not UTF-8: fails alone
    return notes


def same_tree(left: Path, right: Path) -> bool:
    names = sorted(p.relative_to(left) for p in left.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(right) for p in right.rglob("*") if p.is_file())
    return all(filecmp.cmp(left / name, right / name, shallow=False) for name in names)


def test_predict_with_two_processes_writes_what_one_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = notes_folder(tmp_path)
    assert main(["predict", str(notes), str(tmp_path / "one"), "--jobs", "1"]) == 1  # the broken note fails
    assert main(["predict", str(notes), str(tmp_path / "two"), "--jobs", "2"]) == 1
    assert same_tree(tmp_path / "one", tmp_path / "two")
    assert not (tmp_path / "two" / "broken.ann").exists()
    err = capsys.readouterr().err
    assert "with 2 processes" in err
    assert [line for line in err.splitlines() if line.startswith("failed:")] == [
        line for line in err.splitlines() if "broken.txt" in line and line.startswith("failed:")
    ]
    assert err.count("failed:") == 2


def test_the_fast_model_with_two_processes_writes_what_one_writes(tmp_path: Path) -> None:
    notes = notes_folder(tmp_path)
    for jobs in ("1", "2"):
        assert main(["predict", str(notes), str(tmp_path / jobs), "--model", "fast", "--jobs", jobs, "--quiet"]) == 1
    assert same_tree(tmp_path / "1", tmp_path / "2")


def test_deidentify_with_two_processes_writes_what_one_writes(tmp_path: Path) -> None:
    notes = notes_folder(tmp_path)
    key = tmp_path / "key"
    key.write_bytes(b"0123456789abcdef0123456789abcdef")
    for jobs in ("1", "2"):
        code = main(["deidentify", str(notes), str(tmp_path / jobs), "--key", str(key), "--jobs", jobs, "--quiet"])
        assert code == 1
    assert same_tree(tmp_path / "1", tmp_path / "2")


def test_quiet_says_nothing_but_failures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = notes_folder(tmp_path)
    main(["predict", str(notes), str(tmp_path / "out"), "--jobs", "1", "--quiet"])
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [line for line in captured.err.strip().splitlines() if "failed" in line]
    main(["predict", str(notes), str(tmp_path / "out2"), "--jobs", "1"])
    assert "notes/s" in capsys.readouterr().err


def test_a_model_that_does_not_exist_fails_before_any_process_starts(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a model"), ParallelDetector(DetectorSpec(str(tmp_path)), 2):
        pass
    with pytest.raises(ValueError, match="--jobs must be 1 or more"):
        ParallelDetector(DetectorSpec(), 0)


def test_a_worker_that_cannot_load_its_model_fails_each_note_instead_of_hanging(tmp_path: Path) -> None:
    (tmp_path / "model.json").write_text('{"kind": "nonsense"}', encoding="utf-8")
    with ParallelDetector(DetectorSpec(str(tmp_path)), 1) as parallel:
        [answer] = list(parallel.detect_all([Document("a", "Paciente: Ana.")]))
    assert "could not be loaded" in str(answer)


def test_jobs_default_to_the_cores() -> None:
    assert available_cores() >= 1


def test_workers_fork_only_from_a_process_with_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patched:
        patched.setattr(threading, "active_count", lambda: 1)  # as in the CLI (pytest's own threads aside)
        assert start_method() == ("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert start_method() == "spawn"  # a forked child would inherit the locks the other thread holds
    finally:
        stop.set()
        other.join()


def test_notes_read_ahead_come_back_in_order_over_many_batches(tmp_path: Path) -> None:
    texts = [f"Paciente: Ana Pérez García. NHC {1000 + i}. Telf: 6{i:08d}." for i in range(9)]
    with ParallelDetector(DetectorSpec("fast"), 2) as parallel:
        expected = [spans for spans in parallel.detect_all([Document(str(i), t) for i, t in enumerate(texts)])]

        def read(index: int) -> Document:
            if index == 4:
                raise OSError("note 4 cannot be read")
            return Document(str(index), texts[index])

        ahead = ReadAhead(parallel, list(range(9)), read)
        ahead.batch = 2  # five batches, two of them in flight at a time
        for index in range(9):
            if index == 4:
                with pytest.raises(OSError, match="note 4"):
                    ahead.take(index)
                continue
            document, spans = ahead.take(index)
            assert document.id == str(index)
            assert spans == expected[index]
            assert any(document.text[s.start : s.end] == f"6{index:08d}" for s in spans)
