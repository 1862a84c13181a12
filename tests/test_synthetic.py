"""The synthetic notes of other styles (anonimed.train.synthetic, ``anonimed synth``): exact offsets, seeded,
every style, the styles set's conventions.  Reads the shared data folder; skipped when it is absent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.conftest import SHARED

from anonimed.cli import main
from anonimed.document import Document
from anonimed.formats.brat import read_brat_dir
from anonimed.schema import PHI_TYPES
from anonimed.train.synthetic import ALL_STYLES, generate

DATA = SHARED / "data"
HARD_NEGATIVES = re.compile(
    r"\b(?:Urgencias|Urgències|Unidad de Ictus|Cardiolog[ií]a|Crohn|Parkinson|Addison|Glasgow|Wernicke|Hashimoto|"
    r"Chiari|Bosniak|BI-RADS|Fleischner|Hounsfield|cabeza|sol|rosa|rey|morena|Acude|Refiere|Vive|Presenta|Ingressa|"
    r"Refereix)\b",
    re.IGNORECASE,
)


@pytest.fixture(scope="module")
def data() -> Path:
    if not (DATA / "spanish-names-ine").is_dir():
        pytest.skip(f"shared data not found at {DATA} (set ANONIMED_SHARED to the shared folder)")
    return DATA


@pytest.fixture(scope="module")
def notes(data: Path) -> list[Document]:
    return generate(25, data, seed=7)


def test_offsets_are_exact_and_spans_clean(notes: list[Document]) -> None:
    assert all(note.spans for note in notes if not note.id.startswith("primaria"))
    for note in notes:
        for span in note.spans:
            covered = note.text[span.start : span.end]
            assert covered == covered.strip() and covered, (note.id, covered)
            assert "\n" not in covered, (note.id, covered)
            assert span.label in PHI_TYPES
        # no two spans overlap
        for left, right in zip(note.spans, note.spans[1:], strict=False):
            assert left.end <= right.start, (note.id, left, right)


def test_seeded(data: Path, notes: list[Document]) -> None:
    again = generate(25, data, seed=7)
    assert [(n.id, n.text, n.spans) for n in again] == [(n.id, n.text, n.spans) for n in notes]
    other = generate(25, data, seed=8)
    assert [n.text for n in other] != [n.text for n in notes]


def test_every_style_and_names(notes: list[Document]) -> None:
    assert {note.id.split("-synth-")[0] for note in notes} == set(ALL_STYLES)
    assert all(re.fullmatch(r"[a-z]+-synth-\d{5}", note.id) for note in notes)
    assert len(notes) == 25 and len({n.id for n in notes}) == 25


def test_catalan_articles_stay_outside(data: Path) -> None:
    notes = generate(60, data, seed=1, styles=["catala"])
    seen = 0
    for note in notes:
        for span in note.spans:
            covered = note.text[span.start : span.end]
            assert not covered.lower().startswith(("l'", "d'en ", "en ", "la ", "el ")) or span.label in {
                "CALLE",
                "TERRITORIO",
                "FECHAS",
                "HOSPITAL",
            }, (note.id, covered)
            before = note.text[max(0, span.start - 5) : span.start]
            if before.endswith(("l'", "d'en ")) and span.label in {"FAMILIARES_SUJETO_ASISTENCIA", "HOSPITAL"}:
                seen += 1
    assert seen, "no Catalan contraction before a name or a hospital"


def test_hard_negatives_outside_spans(notes: list[Document]) -> None:
    for note in notes:
        found = [m for m in HARD_NEGATIVES.finditer(note.text)]
        assert found, note.id
        outside = [m for m in found if not any(s.start < m.end() and m.start() < s.end for s in note.spans)]
        assert outside, note.id


def test_cli_writes_readable_brat(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "synth"
    assert main(["synth", str(out), "--notes", "10", "--seed", "2", "--data", str(data)]) == 0
    documents = read_brat_dir(out)
    assert len(documents) == 10 and all(d.spans for d in documents if not d.id.startswith("primaria"))
    assert sorted(d.id for d in documents) == sorted(d.id for d in generate(10, data, seed=2))
    summary = capsys.readouterr().err
    assert "10 notes" in summary and "narrativa 2" in summary


def test_cli_names_missing_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere"
    assert main(["synth", str(tmp_path / "out"), "--notes", "5", "--data", str(missing)]) == 2
    assert str(missing) in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
