"""``anonimed evaluate``: the table, JSON and plots from the command line, and a clear error for a missing file."""

from __future__ import annotations

import json
from pathlib import Path

from anonimed.cli import main


def write(path: Path, content: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8", newline="")


def fictitious_split(root: Path) -> Path:
    write(root / "brat" / "a.txt", "Ana Gil vive en Madrid.\n")
    write(root / "brat" / "a.ann", "T1\tNOMBRE_SUJETO_ASISTENCIA 0 7\tAna Gil\nT2\tTERRITORIO 16 22\tMadrid\n")
    write(root / "pred" / "a.ann", "T1\tNOMBRE_SUJETO_ASISTENCIA 0 7\tAna Gil\n")
    return root


def test_prints_the_table_and_writes_json_and_plots(tmp_path: Path, capsys) -> None:
    root = fictitious_split(tmp_path)
    json_path, plots = tmp_path / "out" / "scores.json", tmp_path / "plots"
    code = main(["evaluate", str(root / "brat"), str(root / "pred"), "--json", str(json_path), "--plots", str(plots)])
    output = capsys.readouterr().out
    assert code == 0
    assert "Subtask 1 (NER)" in output and "Leak (subtask 1 FN / sentences): 1.0000" in output
    assert "sentence splitter" in output  # no official sentence files here, and the report says so
    data = json.loads(json_path.read_text(encoding="utf-8"))
    assert data["subtask1"]["recall"] == 0.5 and data["subtask1"]["leak"] == 1.0
    assert sorted(path.name for path in plots.glob("*.png")) == ["confusion.png", "per_type_f1.png"]


def test_a_missing_prediction_file_fails_with_its_name(tmp_path: Path, capsys) -> None:
    root = fictitious_split(tmp_path)
    (root / "pred" / "a.ann").unlink()
    assert main(["evaluate", str(root / "brat"), str(root / "pred")]) == 2
    error = capsys.readouterr().err
    assert "no prediction file" in error and str(root / "pred" / "a.ann") in error


def test_gold_against_gold_on_dev(meddocan, capsys) -> None:
    dev = meddocan / "dev"
    assert main(["evaluate", str(dev / "brat"), str(dev / "brat"), "--sentences", str(dev / "sentences")]) == 0
    output = capsys.readouterr().out
    for name in (
        "Subtask 1 (NER)",
        "Subtask 2 strict (spans)",
        "Subtask 2 merged (spans)",
        "Tokens (de-identification)",
    ):
        line = next(line for line in output.splitlines() if line.startswith(name))
        assert line.split()[-3:] == ["1.0000", "1.0000", "1.0000"], line
    assert "Leak (subtask 1 FN / sentences): 0.0000" in output


def test_the_coarse_scheme_scores_classes_and_leaves_headers_and_sex_out(tmp_path: Path) -> None:
    # Gold in the coarse scheme, with a section header (CAB); predictions in MEDDOCAN's types.
    text = "HALLAZGOS: Ana Gil, mujer, Hospital del Mar.\n"
    write(tmp_path / "gold" / "a.txt", text)
    write(
        tmp_path / "gold" / "a.ann",
        "T1\tCAB 0 9\tHALLAZGOS\nT2\tNAME 11 18\tAna Gil\nT3\tINST 27 43\tHospital del Mar\n",
    )
    write(
        tmp_path / "pred" / "a.ann",
        "T1\tNOMBRE_PERSONAL_SANITARIO 11 18\tAna Gil\nT2\tSEXO_SUJETO_ASISTENCIA 20 25\tmujer\n"
        "T3\tCENTRO_SALUD 27 43\tHospital del Mar\n",
    )
    json_path = tmp_path / "coarse.json"
    assert (
        main(
            ["evaluate", str(tmp_path / "gold"), str(tmp_path / "pred"), "--scheme", "coarse", "--json", str(json_path)]
        )
        == 0
    )
    data = json.loads(json_path.read_text(encoding="utf-8"))
    # A clinician's name is a NAME and a health centre an INST; the header and the sex word are not scored.
    assert data["subtask1"]["precision"] == 1.0 and data["subtask1"]["recall"] == 1.0
    json_fine = tmp_path / "fine.json"
    assert main(["evaluate", str(tmp_path / "gold"), str(tmp_path / "pred"), "--json", str(json_fine)]) == 0
    assert json.loads(json_fine.read_text(encoding="utf-8"))["subtask1"]["precision"] == 0.0
