from __future__ import annotations

import pytest

from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat_dir
from anonimed.stress import COMBINED_SETS, STRESS_SETS, stress

NOTE = Document(
    "n1",
    "Nombre:  Ernesto.\nApellidos: Rivera Bueno.\nNHC: 368503.\nEdad: 70 años Sexo: H.\nRemitido por: Ana Gil",
    [
        Span(9, 16, "NOMBRE_SUJETO_ASISTENCIA"),
        Span(29, 41, "NOMBRE_SUJETO_ASISTENCIA"),
        Span(48, 54, "ID_SUJETO_ASISTENCIA"),
        Span(62, 69, "EDAD_SUJETO_ASISTENCIA"),
        Span(76, 77, "SEXO_SUJETO_ASISTENCIA"),
        Span(93, 100, "NOMBRE_PERSONAL_SANITARIO"),
    ],
)


def texts(document: Document) -> list[str]:
    return [document.span_text(s) for s in document.spans]


def test_header_keys_removed():
    result = stress([NOTE], "no_keys")[0]
    assert result.text == "Ernesto.\nRivera Bueno.\n368503.\n70 años H.\nAna Gil"
    assert texts(result) == texts(NOTE)


def test_one_line_and_case_changes_keep_every_span_on_its_phi():
    assert "\n" not in stress([NOTE], "one_line")[0].text
    assert texts(stress([NOTE], "upper")[0]) == [t.upper() for t in texts(NOTE)]
    assert texts(stress([NOTE], "lower")[0]) == [t.lower() for t in texts(NOTE)]


def test_paraphrased_keys_are_reproducible_and_radiology_values_stand_on_their_own_line():
    assert stress([NOTE], "other_keys", seed=3)[0].text == stress([NOTE], "other_keys", seed=3)[0].text
    assert "Nombre:" not in stress([NOTE], "other_keys")[0].text
    radiology = stress([NOTE], "radiology")[0]
    assert "NOMBRE / NOM:\nERNESTO." in radiology.text
    assert texts(radiology)[0] == "ERNESTO"


def test_unknown_stress_set():
    with pytest.raises(ValueError, match="unknown stress set 'sideways'"):
        stress([NOTE], "sideways")
    with pytest.raises(ValueError, match="unknown stress set 'sideways'"):
        stress([NOTE], "upper+sideways")


def test_combined_sets_apply_their_parts_in_order():
    combined = stress([NOTE], "no_keys+lower")[0]
    assert combined.text == "ernesto.\nrivera bueno.\n368503.\n70 años h.\nana gil"
    assert texts(combined) == [t.lower() for t in texts(NOTE)]


@pytest.mark.parametrize("name", [*sorted(STRESS_SETS), *COMBINED_SETS])
def test_gold_spans_move_exactly_on_dev(meddocan, name):
    documents = read_brat_dir(meddocan / "dev" / "brat")
    for original, changed in zip(documents, stress(documents, name)):
        assert len(changed.spans) == len(original.spans)
        for before, after in zip(original.spans, changed.spans):
            expected = original.span_text(before)
            got = changed.span_text(after)
            if "one_line" in name:  # line breaks inside a span become spaces
                assert got.upper().split() == expected.upper().split()
            else:
                assert got.upper() == expected.upper()
