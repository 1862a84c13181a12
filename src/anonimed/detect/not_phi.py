"""Contexts that are never PHI, whatever a model thinks: a span found there is dropped, not reshaped.

A time span is not an age (``hace más de 20 años``, ``tras 6 meses``, ``10 años de
evolución``, ``en un plazo de 4 meses``, ``2 años después``, ``a los 5 años de la intervención``: 738 such phrases
in train and none annotated, while ``a los 7 meses de vida`` is an age), nor is a measure (``60 kilos``) or a bone
age; the date of a law is no patient's (``RD 1299/2006, de 10 de noviembre``); the family doctor is not a relative
(``su médico de familia``: never annotated, 10 times in train and dev), nor is the adjective ``familiar``
(``antecedentes familiares``, ``agobio familiar``: about 100 times in train and dev, never annotated, while 11 of the 12
annotated ``familiares`` follow an article or a preposition); an eponym is no name (``clasificación de Azúa``,
``síndrome de Down``: 199 in train, none annotated as a name, nor a place: ``figura compleja de Rey``); Catalan ``cap
a`` in lower case is "towards", not a CAP; an hour's minutes are no place (``13:05``), nor a public health portal (``La
Meva Salut``), nor the region in an emergency service's name (``SEM 061 CATALUNYA``); an emergency unit (``médico SVA``)
is no person; and a header key before its colon is layout (``NºCOL.:``, ``PACIENTE:``, flagged by a model in a note in
capitals).

Used by the boundary rules (:func:`anonimed.detect.boundaries.tidy`) and by propagation
(:mod:`anonimed.detect.propagate`: no copy of a mention is made where the context rules it out).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from anonimed.document import Span
from anonimed.stress import HEADER_KEYS, RADIOLOGY_KEYS

NAME_TYPES = frozenset({"NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO", "FAMILIARES_SUJETO_ASISTENCIA"})


@dataclass(frozen=True)
class _NeverPhi:
    """A span of type ``label`` whose text matches ``text`` (any text: None) is no PHI when what ends right before it
    matches ``before`` or what starts right after it matches ``after``; with neither given, its text says so alone."""

    label: str
    text: re.Pattern[str] | None = None
    before: re.Pattern[str] | None = None
    after: re.Pattern[str] | None = None


_NOT_PHI = (
    _NeverPhi(  # a time span
        "EDAD_SUJETO_ASISTENCIA",
        before=re.compile(
            r"(?<!\w)(?:(?:hace|desde hace|luego de|después de|despues de|posterior a|tras|durante)\s+"
            r"(?:(?:más|mas|menos) de\s+|unos\s+|unas\s+|casi\s+|aproximadamente\s+)?"
            r"|(?:más|mas|menos|plazo|periodo|período|lapso) de\s+|edad [óo]sea\s+(?:\w+\s+)?de\s+)$",
            re.IGNORECASE,
        ),
        after=re.compile(
            r"\s+(?:de\s+(?:evolución|evolucion|duración|duracion|antigüedad|tratamiento|seguimiento)\b"
            r"|(?:previamente|más tarde|mas tarde|después|despues|antes)\b|(?:de la|del|de su|de haber)\s)",
            re.IGNORECASE,
        ),
    ),
    _NeverPhi(  # the well-child programme (programa del niño sano, revisió del nen sa), not the patient's sex
        "SEXO_SUJETO_ASISTENCIA",
        text=re.compile(r"(?i)niño|niña|nen|nena|infant"),
        after=re.compile(r"(?i)[ \t]+(?:sano|sana|sa)\b"),
    ),
    _NeverPhi(  # a measure
        "EDAD_SUJETO_ASISTENCIA",
        text=re.compile(r".*\b(?:kilos?|kilogramos?|kg|gramos?|gr|metros?|cm|mm|litros?|ml)\b.*", re.IGNORECASE),
    ),
    _NeverPhi(  # a law's date
        "FECHAS",
        before=re.compile(
            r"(?<!\w)(?:RD|R\.D\.|Real Decreto|Decreto(?:-ley)?|Ley(?: Orgánica)?|Orden|Directiva|Reglamento)\s+"
            r"(?:[A-Z]+/)?(?:\d+/\d{4},?\s+(?:de\s+)?)?$",
            re.IGNORECASE,
        ),
    ),
    _NeverPhi(  # the family doctor (médico de familia, med. familia)
        "FAMILIARES_SUJETO_ASISTENCIA",
        text=re.compile(r"familia", re.IGNORECASE),
        before=re.compile(r"(?<!\w)(?:(?:médic|medic)[oa]s?\s+de\s+|med\.?\s*|mf\s+de\s+)$", re.IGNORECASE),
    ),
    _NeverPhi(  # the adjective (antecedentes familiares, agobio familiar, heredo-familiar), not the relatives
        "FAMILIARES_SUJETO_ASISTENCIA",
        text=re.compile(r"familiar(?:es)?", re.IGNORECASE),
        before=re.compile(
            r"(?:-|(?<!\w)(?!(?:el|la|los|las|su|sus|un|una|unos|unas|varios|varias|algunos|algunas|otros|otras|dos|tres"
            r"|por|de|del|a|al|con|sin|referido|referida|este|esta|estos|estas|cada|ningún|algún)\s)\w+\s+)$",
            re.IGNORECASE,
        ),
    ),
    *(
        _NeverPhi(  # an eponym: clasificación de Azúa, síndrome de Down, maniobra de Valsalva, figura de Rey
            label,
            before=re.compile(
                r"(?<!\w)(?:clasificación|clasificacion|criterios?|escala|síndrome|sindrome|enfermedad|signo|test"
                r"|maniobra|técnica|tecnica|método|metodo|índice|indice|tinción|tincion|prueba|regla|operación"
                r"|procedimiento|figura(?:\s+compleja)?)\s+de\s+$",
                re.IGNORECASE,
            ),
        )
        for label in sorted(NAME_TYPES | {"TERRITORIO"})
    ),
    _NeverPhi("TERRITORIO", text=re.compile(r"\d{1,2}"), before=re.compile(r"\d:$")),  # an hour's minutes (13:05)
    _NeverPhi(  # the region in capitals in an emergency service's name (SEM 061 CATALUNYA, SAMU 061 ILLES BALEARS)
        "TERRITORIO",
        text=re.compile(r"[^a-zà-ÿ]+"),
        before=re.compile(
            r"(?<!\w)(?:SEM|SAMU|SUMMA|EPES|SES|061|112)[ \t]+(?:0?61[ \t]+)?(?:ILLES[ \t]+|ISLAS[ \t]+)?$", re.I
        ),
    ),
    *(
        _NeverPhi(label, text=re.compile(r"(?i)la meva salut|mi carpeta salud|salud responde|sanidad responde"))
        for label in ("TERRITORIO", "INSTITUCION", "CENTRO_SALUD", "HOSPITAL")  # a public health portal or line
    ),
    _NeverPhi(  # Catalan "towards" in lower case (propera revisió cap a Falles), not a CAP
        "CENTRO_SALUD",
        text=re.compile(r"cap\s+(?:a|al|als|on)\b.*"),
    ),
    *(
        _NeverPhi(
            label,
            text=re.compile(
                r"(?:SVA|SVB|SVAE|SVAI|USVA|USVB|UVI|UCI|SAMU|SUMMA|SUAP|PAC|CUAP|SEM|UME)(?:[ \t]+0?61\b.*)?"
            ),
        )
        for label in sorted(NAME_TYPES)  # an emergency unit (médico SVA: Clara Ribés, SAMU 061 Illes Balears)
    ),
)
_CONTEXT = 40  # characters read before a span for _NOT_PHI
_HEADER_KEYS = frozenset(
    key.rstrip(".").casefold()
    for key in (
        *HEADER_KEYS,
        *(variant for variants in HEADER_KEYS.values() for variant in variants),
        *(part.strip() for keys in RADIOLOGY_KEYS.values() for part in keys.split("/")),
    )
)
_COLON = re.compile(r"[ \t]*:")


def never_phi(text: str, span: Span) -> bool:
    """Whether ``span``'s context says it is no PHI whatever a model thinks (see the module docstring)."""
    if text[span.start : span.end].rstrip(".").casefold() in _HEADER_KEYS and _COLON.match(text, span.end):
        return True
    for rule in _NOT_PHI:
        if span.label != rule.label or (rule.text is not None and not rule.text.fullmatch(text, span.start, span.end)):
            continue
        if rule.before is None and rule.after is None:
            return True
        if rule.before is not None and rule.before.search(text, max(0, span.start - _CONTEXT), span.start):
            return True
        if rule.after is not None and rule.after.match(text, span.end):
            return True
    return False
