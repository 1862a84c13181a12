"""Properties on random Spanish-like notes: tokenizer offsets, tag round trips, operators and format round trips.

They extend the narrower properties of test_tokenize.py (any text), test_tagging.py (a fixed word list) and
test_transform.py (non-overlapping spans on any text) with what real notes hold: accents (composed and decomposed),
CRLF and lone CR, a BOM, tabs, emoji, glued header fields, overlapping spans and every MEDDOCAN label.
"""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonimed.deidentify import Deidentifier
from anonimed.document import Document, Span
from anonimed.formats import read_documents, write_documents
from anonimed.schema import LABELS
from anonimed.text.tagging import repair, spans_to_tags, tags_to_spans
from anonimed.text.tokenize import tokenize
from anonimed.transform import covering_spans

WORDS = [
    "Paciente",
    "varón",
    "de",
    "45",
    "años",
    "Nombre",
    "Ana",
    "María",
    "Pérez",
    "Ibáñez",
    "NHC",
    "NºCol",
    "C/",
    "Hospital",
    "Clínico",
    "San",
    "Carlos",
    "ingresa",
    "el",
    "03/03/2016",
    "28007",
    "Madrid",
    "España",
    "i",
    "amb",
    "l'hospital",
    "Dr.",
    "DRAlberto",
    "tel.",
    "912",
    "345",
    "678",
    "ana.perez@correo.es",
    "http://x.es",
    "ñu",
    "Jose\u0301",
    "Pe\u0301rez",
    "😀",
    "𝔸",
    "ª",
    "º",
    "HTA",
    "EPOC",
]
SEPARATORS = [" ", " ", " ", "\n", "\r\n", "\r", "\t", "  ", ": ", ", ", ". ", "\u00a0", ""]


@st.composite
def spanish_text(draw, max_words: int = 40) -> str:
    words = draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=max_words))
    pieces = [draw(st.sampled_from(["", "\ufeff"]))]
    for word in words:
        pieces.append(word)
        pieces.append(draw(st.sampled_from(SEPARATORS)))
    return "".join(pieces)


@st.composite
def spans_in(draw, text: str, max_spans: int = 8, overlapping: bool = True) -> list[Span]:
    """Random spans of ``text`` with any label; they may overlap (or may not, when ``overlapping`` is false)."""
    if not text:
        return []
    spans: list[Span] = []
    for _ in range(draw(st.integers(0, max_spans))):
        start = draw(st.integers(0, len(text) - 1))
        end = draw(st.integers(start + 1, min(len(text), start + 30)))
        span = Span(start, end, draw(st.sampled_from(LABELS)), draw(st.sampled_from([0.5, 0.9, 1.0])), "p")
        if overlapping or not any(span.overlaps(other) for other in spans):
            spans.append(span)
    return spans


@st.composite
def token_aligned_spans(draw, text: str, labels: list[str]) -> list[Span]:
    """Non-overlapping spans that start and end on token boundaries, adjacent ones included."""
    tokens = tokenize(text)
    spans, index = [], 0
    while index < len(tokens):
        length = draw(st.integers(0, 4))
        if length and index + length <= len(tokens):
            spans.append(Span(tokens[index].start, tokens[index + length - 1].end, draw(st.sampled_from(labels))))
            index += length
        else:
            index += 1
    return spans


# --- tokenizer ----------------------------------------------------------------------------------------------------


@settings(max_examples=300)
@given(spanish_text())
def test_tokens_and_the_whitespace_between_them_rebuild_the_text_exactly(text: str):
    pieces, cursor = [], 0
    for token in tokenize(text):
        gap = text[cursor : token.start]
        assert gap == "" or gap.isspace(), repr(gap)
        assert token.text == text[token.start : token.end] and not any(c.isspace() for c in token.text)
        pieces += [gap, token.text]
        cursor = token.end
    assert "".join(pieces) + text[cursor:] == text and (text[cursor:] == "" or text[cursor:].isspace())


@settings(max_examples=200)
@given(spanish_text(max_words=15), spanish_text(max_words=15))
def test_tokenizing_is_local_whitespace_separates(left: str, right: str):
    text = f"{left} {right}"
    shifted = [(t.start + len(left) + 1, t.end + len(left) + 1, t.text) for t in tokenize(right)]
    expected = [(t.start, t.end, t.text) for t in tokenize(left)] + shifted
    assert [(t.start, t.end, t.text) for t in tokenize(text)] == expected


# --- BIO / BIOES --------------------------------------------------------------------------------------------------


@settings(max_examples=300)
@given(st.data(), spanish_text(), st.sampled_from(["BIO", "BIOES"]))
def test_tag_encoding_then_decoding_gives_back_every_token_aligned_span(data, text: str, scheme: str):
    tokens = tokenize(text)
    spans = data.draw(token_aligned_spans(text, list(LABELS[:6]) + ["A-B", "X"]))  # a label may hold a hyphen
    tags = spans_to_tags(tokens, spans, scheme)
    assert tags_to_spans(tokens, tags) == spans
    assert repair(tags, scheme) == tags  # an encoded sequence is already valid


# --- operators ----------------------------------------------------------------------------------------------------

OPERATORS = [
    ["surrogate"],
    ["tag"],
    ["redact"],
    ["mask"],
    ["hash:8"],
    ["surrogate", "FECHAS=mask:keep", "NAME=hash", "CONTACT=redact:[X]", "LOC=tag:coarse"],
]


def kept_outside(text: str, ranges: list[tuple[int, int]]) -> str:
    pieces, cursor = [], 0
    for start, end in ranges:
        pieces.append(text[cursor:start])
        cursor = end
    return "".join(pieces) + text[cursor:]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), spanish_text(), st.sampled_from(OPERATORS))
def test_every_operator_keeps_all_characters_outside_phi_in_order_and_replaces_every_phi_character(
    data, text: str, operators: list[str]
):
    spans = data.draw(spans_in(text))  # overlapping ones too, as detectors and annotators may give
    result = Deidentifier(model=None, operators=operators, key=b"k").transform(Document("p", text, spans))
    replaced = [(r.input.start, r.input.end) for r in result.replacements]
    written = [(r.output.start, r.output.end) for r in result.replacements if r.output is not None]
    assert kept_outside(result.text, written) == kept_outside(text, replaced)
    phi = {i for s in spans for i in range(s.start, s.end)}
    assert phi == {i for start, end in replaced for i in range(start, end)}  # no PHI character left as it was
    for replacement in result.replacements:
        if replacement.output is not None:
            assert result.text[replacement.output.start : replacement.output.end] == replacement.replacement


@settings(max_examples=300)
@given(st.data(), spanish_text())
def test_covering_spans_cover_every_character_once_and_nothing_else(data, text: str):
    spans = data.draw(spans_in(text, max_spans=20))
    covered = covering_spans(spans)
    assert all(a.end <= b.start for a, b in itertools.pairwise(covered)), "merged spans never overlap"
    wanted = {i for s in spans for i in range(s.start, s.end)}
    assert {i for s in covered for i in range(s.start, s.end)} == wanted
    for span in covered:
        assert any(s.label == span.label and span.contains(s) for s in spans), "labelled as one of its members"


# --- format round trips -------------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.data(), st.lists(spanish_text(max_words=25), min_size=1, max_size=3), st.sampled_from(["brat", "xml", "jsonl"])
)
def test_format_round_trips_are_lossless(data, texts: list[str], target: str):
    documents = [Document(f"d{i}", text).with_spans(data.draw(spans_in(text))) for i, text in enumerate(texts)]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / ("notes.jsonl" if target == "jsonl" else "notes")
        assert write_documents(documents, out, target) == len(documents)
        back = sorted(read_documents(out, target), key=lambda d: d.id)
    assert [d.id for d in back] == [d.id for d in documents]
    for original, read in zip(documents, back):
        assert read.text == original.text
        assert [s.key for s in read.spans] == [s.key for s in original.spans]
        if target == "jsonl":  # the only format that carries scores and sources
            assert [(s.score, s.source) for s in read.spans] == [(s.score, s.source) for s in original.spans]
