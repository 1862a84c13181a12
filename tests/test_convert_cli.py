"""`anonimed convert` end to end on a temporary folder of fictitious notes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anonimed.cli import main
from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat, write_brat

NAME = "NOMBRE_SUJETO_ASISTENCIA"


@pytest.fixture
def brat_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "brat"
    write_brat(Document("a", "\ufeffNombre: Ana Pérez\r\nEdad: 3 años\r\n", [Span(9, 18, NAME)]), folder)
    write_brat(Document("b", "Médico: Luis Gil ]]> fin\n", [Span(8, 16, "NOMBRE_PERSONAL_SANITARIO")]), folder)
    return folder


@pytest.mark.parametrize(("target", "output"), [("xml", "xml"), ("jsonl", "docs.jsonl")])
def test_convert_there_and_back_is_lossless(brat_dir: Path, tmp_path: Path, capsys, target: str, output: str):
    assert main(["convert", str(brat_dir), str(tmp_path / output), "--to", target]) == 0
    assert capsys.readouterr().out.strip() == (
        f"2 documents converted from brat to {target} into {tmp_path / output} (2 PHI spans read)"
    )
    assert main(["convert", str(tmp_path / output), str(tmp_path / "back"), "--to", "brat"]) == 0
    for name in ("a", "b"):
        assert (tmp_path / "back" / f"{name}.txt").read_bytes() == (brat_dir / f"{name}.txt").read_bytes()
        assert (tmp_path / "back" / f"{name}.ann").read_bytes() == (brat_dir / f"{name}.ann").read_bytes()


def test_convert_to_conll_with_bio_and_back(brat_dir: Path, tmp_path: Path, capsys):
    out = tmp_path / "docs.conll"
    assert main(["convert", str(brat_dir), str(out), "--to", "conll", "--scheme", "BIO"]) == 0
    lines = out.read_text(encoding="utf-8").split("\n")
    assert "# doc_id = a" in lines and f"Ana\t9\t12\tB-{NAME}" in lines and f"Pérez\t13\t18\tI-{NAME}" in lines
    assert main(["convert", str(out), str(tmp_path / "back"), "--to", "brat"]) == 0
    back = read_brat(tmp_path / "back" / "a.txt")
    assert [back.span_text(s) for s in back.spans] == ["Ana Pérez"] and back.spans[0].key == (NAME, 9, 18)


def test_a_bad_file_is_named_and_the_batch_goes_on(brat_dir: Path, tmp_path: Path, capsys):
    (brat_dir / "c.txt").write_text("Ana", encoding="utf-8")
    (brat_dir / "c.ann").write_text("T1\tPACIENTE 0 3\tAna\n", encoding="utf-8")
    (brat_dir / "d.txt").write_bytes(b"Ana \xff")
    out = tmp_path / "docs.jsonl"
    assert main(["convert", str(brat_dir), str(out), "--to", "jsonl"]) == 1
    captured = capsys.readouterr()
    assert "2 documents converted" in captured.out and "2 failed" in captured.out
    assert "c.ann:1: unknown PHI label 'PACIENTE'" in captured.err
    assert "d.txt: is not valid utf-8" in captured.err
    assert [json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()] == ["a", "b"]
    assert main(["convert", str(brat_dir), str(tmp_path / "all.jsonl"), "--to", "jsonl", "--keep-unknown-labels"]) == 1
    assert "3 documents converted" in capsys.readouterr().out


def test_a_document_xml_cannot_hold_is_reported(tmp_path: Path, capsys):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "ok.txt").write_text("Ana\n", encoding="utf-8")
    (notes / "ff.txt").write_text("Ana\x0cPérez\n", encoding="utf-8")
    assert main(["convert", str(notes), str(tmp_path / "xml"), "--to", "xml", "--from", "plain"]) == 1
    captured = capsys.readouterr()
    assert "character U+000C at offset 3 cannot be stored in XML 1.0" in captured.err
    assert sorted(p.name for p in (tmp_path / "xml").iterdir()) == ["ok.xml"]


def test_usage_errors_exit_with_2(brat_dir: Path, tmp_path: Path, capsys):
    assert main(["convert", str(tmp_path / "missing"), str(tmp_path / "out.jsonl"), "--to", "jsonl"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["convert", str(brat_dir), str(tmp_path), "--to", "jsonl"]) == 2
    assert "is a folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["convert", str(brat_dir), str(tmp_path / "x"), "--to", "docx"])
