"""Operators, their configuration, and how replacements go into the text (offsets are sacred)."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonimed.document import Document, Span
from anonimed.schema import LABELS
from anonimed.transform import (
    Hash,
    Keyring,
    Mask,
    OperatorPlan,
    Redact,
    Surrogate,
    SurrogateContext,
    Tag,
    apply_plan,
    build_config,
    covering_spans,
    load_settings,
    make_operator,
)

NOTE = "Paciente: Ana Ros Pla, nacida el 03/03/1946 en Cuenca. Correo: ana.ros@gmail.com."
SPANS = [
    Span(10, 21, "NOMBRE_SUJETO_ASISTENCIA"),
    Span(33, 43, "FECHAS"),
    Span(47, 53, "TERRITORIO"),
    Span(63, 80, "CORREO_ELECTRONICO"),
]


def transform(operators, text: str = NOTE, spans=SPANS, key: bytes | None = None, seed: int | None = 1):
    document = Document("n1", text, list(spans))
    config = build_config(operators, key=key)
    return apply_plan(document, config.plan, SurrogateContext(document, Keyring(key, seed), config.options))


def test_tag_fine_and_coarse():
    assert transform(["tag"]).text == (
        "Paciente: [NOMBRE_SUJETO_ASISTENCIA], nacida el [FECHAS] en [TERRITORIO]. Correo: [CORREO_ELECTRONICO]."
    )
    assert transform(["tag:coarse"]).text == "Paciente: [NOMBRE], nacida el [FECHA] en [LUGAR]. Correo: [DIRECCION]."


def test_partly_overlapping_spans_leave_no_character_of_either():
    # "Ana Ros" and "Ros Pla": keeping only one of them would leave "Pla" or "Ana" in the output.
    spans = [Span(10, 17, "NOMBRE_SUJETO_ASISTENCIA"), Span(14, 21, "NOMBRE_PERSONAL_SANITARIO")]
    assert transform(["tag"], spans=spans).text.startswith("Paciente: [NOMBRE_SUJETO_ASISTENCIA], nacida el")


def test_every_type_has_a_coarse_tag():
    context = SurrogateContext(Document("x", "x"), Keyring(seed=1))
    assert all(re.fullmatch(r"\[[A-Z]+\]", Tag(coarse=True).replace("x", label, context)) for label in LABELS)


def test_redact_removes_or_marks_and_drops_the_output_span():
    removed = transform(["redact"])
    assert removed.text == "Paciente: , nacida el  en . Correo: ."
    assert removed.spans == []
    assert all(r.output is None for r in removed.replacements)
    assert transform(["redact:XXX"]).text == "Paciente: XXX, nacida el XXX en XXX. Correo: XXX."


def test_mask_keeps_length_and_optionally_separators():
    masked = transform(["mask"])
    assert len(masked.text) == len(NOTE) and "**********" in masked.text
    kept = transform(["mask:keep"])
    assert "**/**/****" in kept.text and "***.***@*****.***" in kept.text
    mixed = transform(["mask:#", "FECHAS=mask:keep"]).text
    assert "el **/**/**** en ######." in mixed


def test_hash_is_keyed_and_stable():
    first = transform(["hash"], key=b"k1").text
    assert first == transform(["hash"], key=b"k1", seed=99).text
    assert first != transform(["hash"], key=b"k2").text
    assert re.search(r"Paciente: [0-9a-f]{12},", first)
    with pytest.raises(ValueError, match="key"):
        build_config(["hash"])


def test_per_type_group_and_default_targets():
    plan = build_config(["tag", "FECHAS=mask", "LOCATION=redact:X"]).plan
    assert isinstance(plan.operator_for("FECHAS"), Mask)
    assert isinstance(plan.operator_for("TERRITORIO"), Redact)
    assert isinstance(plan.operator_for("NOMBRE_SUJETO_ASISTENCIA"), Tag)
    assert isinstance(OperatorPlan().operator_for("PAIS"), Surrogate)
    assert isinstance(build_config(["NUMERO_IDENTIF=tag"]).plan.operator_for("OTRO_NUMERO_IDENTIF"), Tag)


@pytest.mark.parametrize("spec", ["shuffle", "tag:big", "FOO=tag", "mask:ab", "hash:2"])
def test_bad_specs_are_clear_errors(spec):
    with pytest.raises(ValueError):
        build_config([spec], key=b"k")


def test_yaml_and_toml_configuration(tmp_path):
    yaml_file = tmp_path / "ops.yaml"
    yaml_file.write_text(
        "default: tag\nsex: swap\nkinship: keep\noperators:\n  FECHAS: mask:keep\n  ID: {operator: hash, length: 8}\n"
    )
    toml_file = tmp_path / "ops.toml"
    toml_file.write_text('default = "tag:coarse"\n[operators]\nNAME = "surrogate"\n')
    config = build_config(settings=load_settings(yaml_file), key=b"k")
    assert config.options.sex == "swap" and config.options.kinship == "keep"
    assert build_config().options.kinship == "swap"
    assert config.plan.operator_for("FECHAS") == Mask(keep_separators=True)
    assert config.plan.operator_for("ID_SUJETO_ASISTENCIA") == Hash(key=b"k", length=8)
    assert isinstance(config.plan.operator_for("PAIS"), Tag)
    toml_config = build_config(settings=load_settings(toml_file))
    assert isinstance(toml_config.plan.operator_for("NOMBRE_PERSONAL_SANITARIO"), Surrogate)
    assert toml_config.plan.default == Tag(coarse=True)
    (tmp_path / "bad.yaml").write_text("colour: blue\n")
    with pytest.raises(ValueError, match="unknown configuration keys"):
        build_config(settings=load_settings(tmp_path / "bad.yaml"))


def test_make_operator_from_mapping():
    assert make_operator({"operator": "mask", "character": "X"}) == Mask(character="X")
    with pytest.raises(ValueError, match="invalid settings"):
        make_operator({"operator": "mask", "colour": "red"})


def test_overlapping_spans_are_replaced_as_one_labelled_as_the_longest():
    spans = [Span(0, 5, "FECHAS"), Span(2, 10, "TERRITORIO"), Span(12, 14, "PAIS")]
    assert covering_spans(spans) == [Span(0, 10, "TERRITORIO"), Span(12, 14, "PAIS")]


# --- properties -------------------------------------------------------------------------------------------------

SAFE_LABELS = [label for label in LABELS if label not in ("EDAD_SUJETO_ASISTENCIA", "SEXO_SUJETO_ASISTENCIA")]


@st.composite
def documents_with_spans(draw):
    text = draw(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=80))
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), max_size=8))))
    spans = []
    for start, end in zip(cuts[::2], cuts[1::2]):
        if end > start:
            spans.append(Span(start, end, draw(st.sampled_from(LABELS))))
    return Document("p", text, spans)


OPERATOR_CHOICES = [["surrogate"], ["tag"], ["tag:coarse"], ["redact"], ["redact:<X>"], ["mask:keep"], ["hash"]]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents_with_spans(), st.sampled_from(OPERATOR_CHOICES))
def test_text_outside_spans_is_unchanged_and_output_spans_point_at_replacements(document, operators):
    config = build_config(operators, key=b"secret")
    result = apply_plan(document, config.plan, SurrogateContext(document, Keyring(b"secret"), config.options))
    # Everything between spans is copied in order: remove the replaced parts from both texts and compare.
    kept_input, cursor = [], 0
    kept_output, output_cursor = [], 0
    for replacement in result.replacements:
        kept_input.append(document.text[cursor : replacement.input.start])
        cursor = replacement.input.end
        if replacement.output is not None:
            kept_output.append(result.text[output_cursor : replacement.output.start])
            output_cursor = replacement.output.end
            assert result.text[replacement.output.start : replacement.output.end] == replacement.replacement
            assert replacement.output.label == replacement.input.label
        else:
            assert replacement.replacement == ""
    kept_input.append(document.text[cursor:])
    kept_output.append(result.text[output_cursor:])
    assert "".join(kept_output) == "".join(kept_input)
    # The same key gives the same output.
    again = apply_plan(document, config.plan, SurrogateContext(document, Keyring(b"secret"), config.options))
    assert again.text == result.text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SAFE_LABELS), st.from_regex(r"[A-Za-zÁÉÍÓÚáéíóúñÑ0-9 ./@-]{1,30}", fullmatch=True))
def test_a_surrogate_never_equals_its_original(label, original):
    document = Document("p", original, [Span(0, len(original), label)])
    config = build_config()
    result = apply_plan(document, config.plan, SurrogateContext(document, Keyring(seed=3), config.options))
    assert result.replacements[0].replacement.casefold() != original.casefold()
