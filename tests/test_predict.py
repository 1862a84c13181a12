from __future__ import annotations

import re
from pathlib import Path

import pytest

from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat
from anonimed.predict import predict_dir


class CapitalisedWords:
    """A fake detector: every capitalised word after a colon is a name."""

    name = "fake"

    def detect(self, document: Document) -> list[Span]:
        return [
            Span(m.start(1), m.end(1), "NOMBRE_SUJETO_ASISTENCIA", 0.9, self.name)
            for m in re.finditer(r": ([A-ZÁÉÍÓÚ]\w+)", document.text)
        ]


def test_predict_writes_ann_and_a_copy_of_each_text(tmp_path: Path):
    notes = tmp_path / "in"
    notes.mkdir()
    (notes / "a.txt").write_text("Nombre: Ana\r\nApellidos: Pérez\r\n", encoding="utf-8")
    (notes / "b.txt").write_bytes(b"\xef\xbb\xbfNombre: Luis\n")
    (notes / "bad.txt").write_bytes(b"Nombre: \xff\xfe Juan")
    summary = predict_dir(CapitalisedWords(), notes, tmp_path / "out")
    assert summary.documents == 2 and "bad.txt" in next(iter(summary.failures))
    assert "byte 8" in next(iter(summary.failures.values()))
    a = read_brat(tmp_path / "out" / "a.txt")
    assert [a.span_text(s) for s in a.spans] == ["Ana", "Pérez"]
    assert (tmp_path / "out" / "a.txt").read_bytes() == (notes / "a.txt").read_bytes()
    b = read_brat(tmp_path / "out" / "b.txt")
    assert [b.span_text(s) for s in b.spans] == ["Luis"]
    assert not (tmp_path / "out" / "bad.ann").exists() and not (tmp_path / "out" / "bad.txt").exists()
    assert summary.spans["NOMBRE_SUJETO_ASISTENCIA"] == 3


def test_predict_refuses_to_write_into_its_input(tmp_path: Path):
    with pytest.raises(ValueError, match="must differ"):
        predict_dir(CapitalisedWords(), tmp_path, tmp_path)
