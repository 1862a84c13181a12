"""Notes with decomposed accents are read composed; spans point at the note's own characters."""

from __future__ import annotations

import unicodedata

from anonimed.detect.composed import ComposedText
from anonimed.document import Document, Span
from anonimed.text.normalize import composed

NAME = "NOMBRE_SUJETO_ASISTENCIA"


def test_composed_text_maps_each_character_back_to_its_source() -> None:
    text = unicodedata.normalize("NFD", "Nombre: José Muñoz.")
    nfc, starts, ends = composed(text)
    assert nfc == "Nombre: José Muñoz."
    assert len(starts) == len(ends) == len(nfc)
    assert text[starts[8] : ends[11]] == unicodedata.normalize("NFD", "José")
    assert composed("Nombre: José Muñoz.") is None, "composed text needs no map"


class _FindsJose:
    name = "finds"

    def detect(self, document: Document) -> list[Span]:
        start = document.text.find("José")  # only the composed spelling
        return [Span(start, start + len("José Muñoz"), NAME, 0.9, "finds")] if start >= 0 else []


def test_a_detector_of_composed_text_finds_a_decomposed_name_on_its_own_characters() -> None:
    text = unicodedata.normalize("NFD", "Paciente: José Muñoz, 70 años.")
    spans = ComposedText(_FindsJose()).detect(Document("n", text))
    assert [(text[s.start : s.end], s.label) for s in spans] == [(unicodedata.normalize("NFD", "José Muñoz"), NAME)]
    plain = "Paciente: José Muñoz."
    assert ComposedText(_FindsJose()).detect(Document("n", plain)) == _FindsJose().detect(Document("n", plain))
