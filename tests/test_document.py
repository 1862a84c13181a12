from __future__ import annotations

import pytest

from anonimed.document import Document, Edit, Span, SpanOutOfBoundsError


def test_span_offsets_are_validated():
    with pytest.raises(ValueError):
        Span(5, 5, "FECHAS")
    with pytest.raises(ValueError):
        Span(-1, 3, "FECHAS")
    with pytest.raises(TypeError):
        Span(1.0, 3, "FECHAS")  # type: ignore[arg-type]


def test_spans_compare_on_type_and_offsets_only():
    assert Span(0, 3, "PAIS", 0.4, "crf") == Span(0, 3, "PAIS")
    assert sorted([Span(4, 6, "PAIS"), Span(0, 3, "PAIS")])[0].start == 0


def test_document_refuses_spans_past_its_text():
    with pytest.raises(SpanOutOfBoundsError, match="doc1"):
        Document("doc1", "abc", [Span(1, 4, "PAIS")])


def test_with_spans_sorts_and_removes_duplicates():
    document = Document("d", "España y Madrid", metadata={"path": "x"})
    result = document.with_spans([Span(9, 15, "TERRITORIO"), Span(0, 6, "PAIS"), Span(9, 15, "TERRITORIO", 0.5)])
    assert [document.span_text(s) for s in result.spans] == ["España", "Madrid"]
    assert result.metadata == {"path": "x"} and document.spans == []


def test_edited_moves_spans_exactly():
    document = Document(
        "d", "Nombre: Ana. CP: 28016.", [Span(8, 11, "NOMBRE_SUJETO_ASISTENCIA"), Span(17, 22, "TERRITORIO")]
    )
    result = document.edited([Edit(8, 11, "Margarita"), Edit(0, 8, ""), Edit(17, 17, "E-")])
    assert result.text == "Margarita. CP: E-28016."
    assert [result.span_text(s) for s in result.spans] == ["Margarita", "28016"]


def test_edit_inside_a_span_resizes_it_and_insertions_at_its_edges_stay_outside():
    document = Document("d", "en Madrid hoy", [Span(3, 9, "TERRITORIO")])
    result = document.edited([Edit(4, 5, "AAA"), Edit(3, 3, "<"), Edit(9, 9, ">")])
    assert result.text == "en <MAAAdrid> hoy"
    assert [result.span_text(s) for s in result.spans] == ["MAAAdrid"]


def test_edits_that_cross_a_span_or_overlap_are_refused():
    document = Document("d", "en Madrid hoy", [Span(3, 9, "TERRITORIO")])
    with pytest.raises(ValueError, match="crosses"):
        document.edited([Edit(0, 5, "")])
    with pytest.raises(ValueError, match="overlapping"):
        document.edited([Edit(0, 2, ""), Edit(1, 3, "")])
