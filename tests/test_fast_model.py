"""The fast model: the default model's CRF member, the patterns and the shipped rules, by name."""

from __future__ import annotations

import io

import pytest

from anonimed.cli import main
from anonimed.document import Document
from anonimed.models import load_detector


def test_the_fast_model_finds_phi_and_takes_no_vote() -> None:
    detector = load_detector("fast")
    assert load_detector("fast") is detector  # loaded once, then shared
    note = Document("n", "Paciente: Ernesto Rivera Bueno.\nNHC: 4471093.\nVive en Olot con su hija.\n")
    found = {(span.label, note.span_text(span)) for span in detector.detect(note)}
    assert ("ID_SUJETO_ASISTENCIA", "4471093") in found
    assert any(label == "NOMBRE_SUJETO_ASISTENCIA" and "Rivera" in text for label, text in found)
    assert any("Olot" in text for _, text in found)
    with pytest.raises(ValueError, match="no vote settings"):
        load_detector("fast", "recall")


def test_deidentify_with_the_fast_model(tmp_path, monkeypatch, capsys) -> None:
    note = "Paciente: Ernesto Rivera Bueno. NHC: 4471093.\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(note.encode("utf-8"))))
    assert main(["deidentify", "-", "-", "--model", "fast", "--operator", "tag", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "4471093" not in out and "Rivera" not in out and "[ID_SUJETO_ASISTENCIA]" in out
