from __future__ import annotations

import pytest

from anonimed.document import Document, Span, SpanOutOfBoundsError


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
