"""Stress versions of annotated notes: the same PHI in layouts that MEDDOCAN's template never shows.

Every transformation returns a new :class:`Document` whose spans still point at the same PHI (moved exactly by
:meth:`Document.edited`), so a model can be scored on the changed notes with the ordinary scorer.  They serve two
purposes: measuring robustness (``STRESS_SETS``) and augmenting training data.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable

from anonimed.document import Document, Edit

# The header keys of MEDDOCAN's template, and varied real-world ways of writing the same field (Spanish and Catalan).
HEADER_KEYS: dict[str, tuple[str, ...]] = {
    "Nombre": ("Paciente", "Nombre del paciente", "Nom", "Nombre y apellidos", "Pac."),
    "Apellidos": ("Apellidos del paciente", "Cognoms", "Apellido(s)", "Apell."),
    "NHC": ("Nº historia", "Historia clínica", "HC", "Núm. historia", "Nº d'història", "Número de historia"),
    "NASS": ("Nº Seguridad Social", "NSS", "Afiliación SS", "Núm. afiliació", "Tarjeta sanitaria"),
    "CIPA": ("Código CIPA", "CIP", "Código de identificación", "Codi CIP"),
    "Domicilio": ("Dirección", "Dirección postal", "Adreça", "Domicili", "Residencia"),
    "Localidad/ Provincia": ("Ciudad", "Población", "Municipio / Provincia", "Localitat", "Ciudad/Provincia"),
    "CP": ("Código postal", "C.P.", "Codi postal", "Cód. postal"),
    "Fecha de nacimiento": ("F. nacimiento", "Fecha nac.", "Data de naixement", "Nacido el", "F. Nac"),
    "País de nacimiento": ("Nacionalidad", "País de origen", "País de naixement"),
    "País": ("Nación", "País de residencia", "Estat"),
    "Edad": ("Años", "Edat", "Edad actual"),
    "Sexo": ("Género", "Sexe", "Sexo biológico"),
    "Fecha de Ingreso": ("Ingreso", "F. ingreso", "Data d'ingrés", "Fecha de admisión", "Admisión"),
    "Episodio": ("Nº episodio", "Episodi", "Número de episodio", "Ref. episodio"),
    "Médico": ("Médico responsable", "Facultativo", "Metge", "Dr. responsable", "Atendido por"),
    "Responsable clínico": ("Médico responsable", "Facultativo responsable", "Metge responsable"),
    "NºCol": ("Nº colegiado", "Col. nº", "Núm. col·legiat", "Colegiado"),
    "Remitido por": ("Derivado por", "Enviado por", "Remès per", "Firmado", "Atentamente"),
    "Servicio": ("Unidad", "Servei", "Departamento"),
    "E-mail": ("Correo electrónico", "Email", "Correu electrònic", "e-mail de contacto"),
    "Email": ("Correo electrónico", "E-mail", "Correu electrònic"),
    "Teléfono": ("Teléfono fijo", "Tel.", "Telèfon", "Móvil"),
}

# Bilingual Spanish / Valencian headers of radiology reports, as in the DiSMed paper's examples.
RADIOLOGY_KEYS: dict[str, str] = {
    "Nombre": "NOMBRE / NOM",
    "Apellidos": "APELLIDOS / COGNOMS",
    "NHC": "Nº HISTORIA / Nº HISTÒRIA",
    "Fecha de nacimiento": "F. NACIMIENTO / DATA NAIXEMENT",
    "Fecha de Ingreso": "FECHA EXPLORACIÓN / DATA EXPLORACIÓ",
    "Médico": "MÉDICO PETICIONARIO / METGE SOL·LICITANT",
    "Domicilio": "DOMICILIO / DOMICILI",
    "Localidad/ Provincia": "POBLACIÓN / POBLACIÓ",
}

_KEY = re.compile(
    r"(?<![\w/])(" + "|".join(sorted((re.escape(k) for k in HEADER_KEYS), key=len, reverse=True)) + r")[ \t]*:[ \t]*",
)


def _same_length_case(text: str, convert: Callable[[str], str]) -> str:
    # A few characters change length when their case changes (ß → SS); they keep their case so offsets stay valid.
    return "".join(c2 if len(c2 := convert(c)) == 1 else c for c in text)


def upper_case(document: Document, rng: random.Random | None = None) -> Document:
    return Document(
        document.id, _same_length_case(document.text, str.upper), list(document.spans), dict(document.metadata)
    )


def lower_case(document: Document, rng: random.Random | None = None) -> Document:
    return Document(
        document.id, _same_length_case(document.text, str.lower), list(document.spans), dict(document.metadata)
    )


def collapse_lines(document: Document, rng: random.Random | None = None) -> Document:
    """The whole note on one line: every run of line breaks becomes one space."""
    edits = [Edit(m.start(), m.end(), " ") for m in re.finditer(r"[ \t]*(?:\r\n|\r|\n)+[ \t]*", document.text)]
    return document.edited(_outside_spans(document, edits))


def _key_matches(document: Document) -> list[re.Match[str]]:
    return [
        m
        for m in _KEY.finditer(document.text)
        if not any(s.start < m.end() and m.start() < s.end for s in document.spans)
    ]


def remove_header_keys(document: Document, rng: random.Random | None = None) -> Document:
    """``Nombre:  Ernesto.`` becomes ``Ernesto.``: values are left without the key that announces them."""
    return document.edited(Edit(m.start(), m.end(), "") for m in _key_matches(document))


def paraphrase_header_keys(document: Document, rng: random.Random | None = None) -> Document:
    """Each template key replaced by another real-world wording (``NHC:`` → ``Nº historia:``), chosen with ``rng``."""
    rng = rng or random.Random(0)
    edits = []
    for match in _key_matches(document):
        key = rng.choice(HEADER_KEYS[match.group(1)])
        separator = rng.choice((": ", ":  ", " - ", ": ", ".- "))
        edits.append(Edit(match.start(), match.end(), key + separator))
    return document.edited(edits)


def radiology_layout(document: Document, rng: random.Random | None = None) -> Document:
    """A radiology-report layout: bilingual keys in capitals, each value on its own line in capitals."""
    keyed = [m for m in _key_matches(document) if m.group(1) in RADIOLOGY_KEYS]
    edits = [Edit(m.start(), m.end(), RADIOLOGY_KEYS[m.group(1)] + ":\n") for m in keyed]
    moved = document.edited(edits)
    value_lines = []
    for span in moved.spans:
        line_start = moved.text.rfind("\n", 0, span.start) + 1
        line_end = moved.text.find("\n", span.end)
        line_end = len(moved.text) if line_end < 0 else line_end
        value_lines.append((line_start, line_end))
    text = list(moved.text)
    for start, end in value_lines:
        if end - start <= 80:
            text[start:end] = _same_length_case(moved.text[start:end], str.upper)
    return Document(moved.id, "".join(text), list(moved.spans), dict(moved.metadata))


def _outside_spans(document: Document, edits: Iterable[Edit]) -> list[Edit]:
    return [e for e in edits if not any(s.start < e.end and e.start < s.end for s in document.spans)]


StressTransform = Callable[[Document, "random.Random | None"], Document]

STRESS_SETS: dict[str, StressTransform] = {
    "upper": upper_case,
    "lower": lower_case,
    "one_line": collapse_lines,
    "no_keys": remove_header_keys,
    "other_keys": paraphrase_header_keys,
    "radiology": radiology_layout,
}


# Combinations that training augmentation never makes (it applies one transformation at a time): a check that
# robustness is not only learnt by heart.
COMBINED_SETS = ("no_keys+lower", "one_line+upper", "radiology+lower", "other_keys+one_line")


def stress(documents: Iterable[Document], name: str, seed: int = 0) -> list[Document]:
    """The stress set ``name`` of ``documents``, reproducible with ``seed``: a key of :data:`STRESS_SETS`, or several
    joined by ``+`` (applied left to right, as in :data:`COMBINED_SETS`)."""
    parts = name.split("+")
    unknown = [part for part in parts if part not in STRESS_SETS]
    if unknown:
        raise ValueError(f"unknown stress set {unknown[0]!r}; choose from {', '.join(STRESS_SETS)}, joined by '+'")
    rng = random.Random(seed)
    result = []
    for document in documents:
        for part in parts:
            document = STRESS_SETS[part](document, rng)
        result.append(document)
    return result
