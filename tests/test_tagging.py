from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anonimed.document import Span
from anonimed.text.tagging import repair, spans_to_tags, tags_to_spans
from anonimed.text.tokenize import tokenize

NOTE = "Nombre: Ernesto Rivera Bueno. Edad: 70 años. CP: 28016."
SPANS = [Span(8, 28, "NOMBRE_SUJETO_ASISTENCIA"), Span(36, 43, "EDAD_SUJETO_ASISTENCIA"), Span(49, 54, "TERRITORIO")]


@pytest.mark.parametrize("scheme", ["BIO", "BIOES"])
def test_encode_decode_is_identity(scheme):
    tokens = tokenize(NOTE)
    tags = spans_to_tags(tokens, SPANS, scheme)
    assert tags_to_spans(tokens, tags) == SPANS


def test_bioes_tags():
    tags = spans_to_tags(tokenize(NOTE), SPANS, "BIOES")
    assert [t for t in tags if t != "O"] == [
        "B-NOMBRE_SUJETO_ASISTENCIA",
        "I-NOMBRE_SUJETO_ASISTENCIA",
        "E-NOMBRE_SUJETO_ASISTENCIA",
        "B-EDAD_SUJETO_ASISTENCIA",
        "E-EDAD_SUJETO_ASISTENCIA",
        "S-TERRITORIO",
    ]


def test_repair_turns_orphan_inside_into_begin():
    assert repair(["O", "I-X", "I-X", "O"], "BIO") == ["O", "B-X", "I-X", "O"]
    assert repair(["B-X", "I-Y", "I-Y"], "BIO") == ["B-X", "B-Y", "I-Y"]
    assert repair(["O", "I-X", "O", "E-X"], "BIOES") == ["O", "S-X", "O", "S-X"]
    assert repair(["B-X", "I-X"], "BIOES") == ["B-X", "E-X"]


def test_invalid_tag_is_a_clear_error():
    with pytest.raises(ValueError, match="invalid tag"):
        tags_to_spans(tokenize("a b"), ["O", "Q-X"])
    with pytest.raises(ValueError, match="scheme"):
        spans_to_tags([], [], "IOB2")


words = st.lists(
    st.sampled_from(["Ana", "López", "28016", ",", "de", "Madrid", "70", "años", "."]), min_size=1, max_size=30
)


@given(words, st.data(), st.sampled_from(["BIO", "BIOES"]))
def test_encode_decode_identity_on_random_non_adjacent_spans(word_list, data, scheme):
    text = " ".join(word_list)
    tokens = tokenize(text)
    spans, index = [], 0
    while index < len(tokens):
        length = data.draw(st.integers(0, 3))
        if length and index + length <= len(tokens):
            label = data.draw(st.sampled_from(["A", "B"]))
            spans.append(Span(tokens[index].start, tokens[index + length - 1].end, label))
            index += length
        else:
            index += 1
    assert tags_to_spans(tokens, spans_to_tags(tokens, spans, scheme)) == spans
