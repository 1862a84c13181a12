"""Notes with decomposed accents are read composed; spans point at the note's own characters."""

from __future__ import annotations

import unicodedata

from anonimed.detect.composed import ComposedText
from anonimed.document import Document, Span
from anonimed.text.columns import keyed_values
from anonimed.text.normalize import composed, detection_form

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


def test_the_catalan_geminate_l_is_read_as_ll_and_spans_keep_its_dot() -> None:
    text = "Pacient: Camil\u00b7la Soler. Residència Els Til\u00b7lers. Cal\u00b7li, a.l."
    form, starts, ends = detection_form(text)
    assert form == "Pacient: Camilla Soler. Residència Els Tillers. Calli, a.l."
    assert len(starts) == len(ends) == len(form)
    name = form.index("Camilla")
    assert text[starts[name] : ends[name + len("Camilla") - 1]] == "Camil\u00b7la"
    first_part = text[starts[name] : ends[name + len("Camil") - 1]]
    assert first_part == "Camil\u00b7", "the dot goes with the l before it"
    assert detection_form("Pacient: Camila Soler.") is None
    decomposed = unicodedata.normalize("NFD", "José Camil\u00b7la")
    form, starts, ends = detection_form(decomposed)
    assert form == "José Camilla"
    assert decomposed[starts[0] : ends[-1]] == decomposed


class _FindsCamilla:
    name = "finds"

    def detect(self, document: Document) -> list[Span]:
        start = document.text.find("Camilla")
        return [Span(start, start + len("Camilla Soler"), NAME, 0.9, "finds")] if start >= 0 else []


def test_a_detector_finds_a_name_with_a_geminate_l_on_the_note_s_own_characters() -> None:
    text = "Pacient: Camil\u00b7la Soler, 70 anys."
    spans = ComposedText(_FindsCamilla()).detect(Document("n", text))
    assert [text[s.start : s.end] for s in spans] == ["Camil\u00b7la Soler"]


FORM = (
    "HOJA DE INGRESO\n"
    "N.º HISTORIA          EPISODIO              SEXO\n"
    "1029384               2025/0188431          MUJER\n"
    "Origen:          Hospital Comarcal de Valdeorras\n"
    "Destino:         Complexo Hospitalario de Ourense\n"
    "[x] HTA                [ ] EPOC\n"
    "[ ] DM2                [x] FA\n"
    "Nombre y apellidos      Ezequiel Sáenz Ruiz\n"
    "Domicilio               C/ Mayor 3\n"
)


def test_values_under_a_row_of_keys_are_read_after_their_keys() -> None:
    form, starts, ends = keyed_values(FORM)
    assert form.splitlines()[1:4] == ["N.º HISTORIA: 1029384", "EPISODIO: 2025/0188431", "SEXO: MUJER"]
    # Keys with their values on one line, a list of boxes and a two-column table are left as they are.
    assert form.splitlines()[4:] == FORM.splitlines()[3:]
    assert len(starts) == len(ends) == len(form)
    episode = form.index("2025/0188431")
    assert FORM[starts[episode] : ends[episode + 11]] == "2025/0188431"
    key = form.index("EPISODIO")
    assert starts[key] == ends[key] == FORM.index("2025/0188431"), "a written key maps to where its value starts"
    assert keyed_values("Paciente: Ana Ruiz\nNHC: 12345\n") is None


def test_a_value_typed_a_column_off_its_key_is_still_its_value() -> None:
    keys = "Paciente" + " " * 19 + "NHC" + " " * 10 + "Fecha\n"  # NHC at column 27, Fecha at 40
    form = keys + "BERMEJO PRIETO, ASUNCIÓN  208817       24.09.2025\n"  # one column to the left of each
    written, _, _ = keyed_values(form)
    assert written.splitlines()[:3] == ["Paciente: BERMEJO PRIETO, ASUNCIÓN", "NHC: 208817", "Fecha: 24.09.2025"]
    assert keyed_values(keys + "BERMEJO     208817       24.09.2025\n") is None, "a value under no key's start"
    assert keyed_values("Nombre    Edad\nAna     4  5\n") is None, "two values under one key"


class _FindsKeysAndValues:
    name = "finds"

    def detect(self, document: Document) -> list[Span]:
        text = document.text
        episode = text.find("EPISODIO: 2025/0188431")
        key = text.find("SEXO")
        return [
            Span(episode, episode + len("EPISODIO: 2025/0188431"), "ID_CONTACTO_ASISTENCIAL", 0.9, "finds"),
            Span(key, key + len("SEXO"), "SEXO_SUJETO_ASISTENCIA", 0.9, "finds"),
        ]


def test_a_span_over_a_written_key_goes_back_to_its_value_and_one_over_a_key_alone_to_nothing() -> None:
    spans = ComposedText(_FindsKeysAndValues()).detect(Document("n", FORM))
    assert [(FORM[s.start : s.end], s.label) for s in spans] == [("2025/0188431", "ID_CONTACTO_ASISTENCIAL")]
    assert detection_form(FORM) is not None
