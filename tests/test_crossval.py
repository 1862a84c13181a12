"""benchmarks/crossval.py: its folds partition the notes, deterministically, and a tiny run scores every variant."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "crossval.py"


def _load_crossval() -> ModuleType:
    spec = importlib.util.spec_from_file_location("crossval", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


crossval = _load_crossval()


@pytest.mark.parametrize(("documents", "folds"), [(750, 5), (11, 3), (10, 2), (7, 7)])
def test_folds_partition_the_documents_in_balanced_folds(documents: int, folds: int) -> None:
    ids = [f"note-{number:03d}" for number in range(documents)]
    plan = crossval.assign_folds(ids, folds, seed=3)
    assert len(plan) == folds
    dealt = [document_id for fold in plan for document_id in fold]
    assert sorted(dealt) == ids  # every note in exactly one fold
    sizes = [len(fold) for fold in plan]
    assert max(sizes) - min(sizes) <= 1


def test_folds_depend_on_the_seed_alone_not_on_the_input_order() -> None:
    ids = [f"note-{number:03d}" for number in range(40)]
    plan = crossval.assign_folds(ids, 4, seed=1)
    assert crossval.assign_folds(list(reversed(ids)), 4, seed=1) == plan
    assert crossval.assign_folds(ids, 4, seed=2) != plan


def test_folds_refuse_impossible_plans() -> None:
    with pytest.raises(ValueError, match="at least 2 folds"):
        crossval.assign_folds(["a", "b"], 1, seed=0)
    with pytest.raises(ValueError, match="cannot fill"):
        crossval.assign_folds(["a", "b"], 3, seed=0)
    with pytest.raises(ValueError, match="not unique"):
        crossval.assign_folds(["a", "a", "b"], 2, seed=0)


def test_a_tiny_run_scores_every_variant_and_resumes(
    meddocan: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The 10 shortest training notes keep the run to seconds.
    notes = sorted((meddocan / "train" / "brat").glob("*.txt"), key=lambda path: (path.stat().st_size, path.name))
    brat = tmp_path / "data" / "brat"
    brat.mkdir(parents=True)
    for note in notes[:10]:
        shutil.copy(note, brat / note.name)
        shutil.copy(note.with_suffix(".ann"), brat / note.with_suffix(".ann").name)
    work, out = tmp_path / "work", tmp_path / "crossval.json"
    arguments = ["--data", str(tmp_path / "data"), "--work", str(work), "--out", str(out), "--folds", "2"]
    monkeypatch.setattr(crossval, "SPLITS", ("",))  # one BRAT folder: data/brat
    monkeypatch.setattr(sys, "argv", ["crossval.py", *arguments, "--iterations", "3"])
    assert crossval.main() == 0

    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["documents"] == 10 and len(results["per_fold"]) == 2
    assert [fold["held_out"] for fold in results["per_fold"]] == [5, 5]
    for fold in results["per_fold"]:
        assert set(fold["variants"]) == set(crossval.VARIANTS)
        assert not fold["model_kept"]
        for figures in fold["variants"].values():
            assert 0.0 <= figures["subtask1"]["f1"] <= 1.0
            assert 0.0 <= figures["characters"]["recall"] <= 1.0
    for variant in crossval.VARIANTS:
        assert set(results["summary"][variant]) == {"mean", "sd", "pooled"}
        assert "subtask1.f1" in results["summary"][variant]["mean"]
    assert (work / "fold-0" / "model" / "model.json").is_file()
    assert not (work / "fold-0" / "model.partial").exists()

    # --resume keeps both models; other settings on the same work folder are refused.
    monkeypatch.setattr(sys, "argv", ["crossval.py", *arguments, "--iterations", "3", "--resume"])
    assert crossval.main() == 0
    resumed = json.loads(out.read_text(encoding="utf-8"))
    assert all(fold["model_kept"] for fold in resumed["per_fold"])
    assert resumed["summary"] == results["summary"]
    monkeypatch.setattr(sys, "argv", ["crossval.py", *arguments, "--iterations", "4", "--resume"])
    with pytest.raises(ValueError, match="another plan or with other settings"):
        crossval.main()


def test_missing_data_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(sys, "argv", ["crossval.py", "--data", str(tmp_path / "nowhere"), "--work", str(tmp_path)])
    assert crossval.main() == 2
    assert "MEDDOCAN not found" in capsys.readouterr().err
