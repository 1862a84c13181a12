"""Span boundaries as the MEDDOCAN guidelines draw them, where a tagger's token-by-token view gets them wrong.

Five kinds of rule, each backed by the annotated notes (train: 500 notes, 11,333 mentions); a sixth, the contexts
that are never PHI, drops spans instead of reshaping them and is in :mod:`anonimed.detect.not_phi`:

- **no stray punctuation or function word at the ends**: a span starts with a letter or a digit (all 17,134 gold
  spans of train and dev do; taggers write ``+34 945007359`` or ``. NºCOL.``), and never ends in ``,``, ``;``,
  ``:``, ``+``, ``-``, ``/``, ``(``, ``[`` or in ``de``, ``del``, ``la``, ``las``, ``los``, ``el``, ``y``, ``en`` (1
  gold span ends so; taggers write ``Ciudad de México,`` or ``Hospital ... Santafé de``); and a name never starts
  with a title (``Doctor``, ``Dra.``, ``Sr.``: the guidelines leave titles out), nor runs on into a bracket it does
  not close (``operaria de línea (industria conservera``);
- **the street type belongs to the street**: 753 of 862 gold streets start with their type (``C/.``, ``Avda.``,
  ``Paseo``, ``Boulevard``...) and only 4 leave a preceding one out, so a street span takes the type word just
  before it, from the end of another span if need be (``Hospital Miguel Servet Pso`` + ``Isabel La Católica``), but not
  after a function word (``Hospital Virgen del Camino``);
- **one street, one span**: two street spans separated by spaces alone are one street (``C/.`` + ``Camino Sur, 18``);
  train has 2 gold pairs like that. Other types are left alone: places often stand side by side (``28036 Madrid``,
  ``Oviedo Asturias``: 313 pairs in train);
- **one thing, one span**: the two ends of an interval are two dates (guideline M6.1: ``de Marzo a Mayo del 2000``,
  ``desde 1980 hasta 1983``; no gold date of train or dev holds ``a`` or ``hasta``), and so is each weekday of a list
  (``lunes, miércoles y viernes``: three gold dates in the styles set), each official name of a town
  (``Pamplona/Iruña``: two places) and each of two phone numbers written together (``977553218-622087114``); a
  centre's head word after a
  name starts a second centre (``Hospital Universitario Puerto Real`` + ``Complejo Hospitalario de la Bahía``,
  ``Hospital ...`` + ``Asociación para Evitar la Ceguera``), unless the word before it belongs to the first head
  (``Clínica Hospital Virgen del Camino``, ``Hospital Universitario Fundación Santafé``);
- **what belongs to the span**: an age takes the half after its unit (``un mes y medio``: all 4 such gold ages of
  train and dev do) and the months after its years (``3a 2m``, as the styles set's gold does); a name the abbreviated
  María before it (``Mª Amparo``) and the half of a surname a hyphen glues to its start (``GARCÍA-`` + ``CUERVO``), a
  hospital the foundation or consortium that owns it (``Fundación`` + ``Hospital Calahorra``), a health centre its
  number (``CS Tomelloso 2``), as every such gold span of train, dev and the styles set does; a relative the word that
  tells which one (``hijo`` + ``mayor``, ``germà`` + ``gran``: 25 of 25 in train and dev), a phone its extension
  unbracketed (``971 17 50 00 ext. 69210``); two given names joined by ``y`` or ``i`` are two people (``sus hijos, Adam
  y Nour``); a street leaves the ``C`` of a ``C.P.`` key it ran into (7 streets of train and dev stand before
  ``C.P.``, none takes the ``C``); a name or a centre takes the capitalised word that a hyphen glues to its end (``H.
  Don Benito`` + ``-Villanueva``); an identifier ends before the next key that a slash glues to it (``00482113/cip``);
  a centre ends before a gap of spaces and a lower-case word (``CS Maspalomas  sáb 19/07``: the next field) and before
  its department, building or floor (``Institut de Medicina Legal de Catalunya`` + ``Servei de Patologia``,
  ``Hospital Morales Meseguer`` + ``2ª planta``: 42 such words follow a gold centre of train and dev, 1 stands inside
  one), a name before the job after it (``Supervisora``, ``Jefe``, ``Residente``: 3 follow a gold name, none stands
  inside one), a street after the floor before it (``Edificio de Gobierno - 4ª Planta`` + ``Avenida Fuerzas Armadas,
  2``: 11 gold streets follow a building or a floor, none takes it); and no span runs on into a clause (``... de
  Majadahonda como Trichorderma``, ``Hospital Clínic, on va ingressar``: no gold span holds ``que``, ``como``,
  ``donde`` or ``on``), a name into a verb (``Mari Carmen vive``), a date into the next field's key (``24/08/24
  FPP``), or a span ends in ``su`` or ``sus``.

Applied to the gold annotations of train, the rules change 7 of 11,333 spans (annotators' slips: a street type left
out once, a trailing comma, a postal code filed as a street, a floor filed in a hospital's name), a test checks it.
On MEDDOCAN dev, with the same members and vote, the rules moved subtask-1 F1 from .9707 to .9741, and the rules added
next (time spans, measures, laws, intervals, second centres, the adjective familiar, eponyms, halves, postal keys) to
.9765, and the third round (departments, floors, jobs, clauses) to .9770 (BENCHMARKS.md).

``never_phi`` and ``NAME_TYPES`` are still importable from here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from anonimed.detect.base import Detector
from anonimed.detect.not_phi import NAME_TYPES, never_phi
from anonimed.detect.patterns.demographics import UNIT
from anonimed.document import Document, Span

STREET = "CALLE"
CENTRE_TYPES = frozenset({"HOSPITAL", "INSTITUCION", "CENTRO_SALUD"})
PHONE_TYPES = frozenset({"NUMERO_TELEFONO", "NUMERO_FAX"})
_PERSONAL_NAMES = NAME_TYPES - {"FAMILIARES_SUJETO_ASISTENCIA"}  # a relative's span may open with a number
_TRAILING_MARKS = ",;:+-/(["
_TRAILING_WORDS = frozenset({"de", "del", "la", "las", "los", "el", "y", "en", "su", "sus"})
TITLES = ("dr", "dra", "doctor", "doctora", "sr", "sra", "srta", "dña", "don", "doña")  # before a name, never in it
# A title, and Doña written with a feminine ordinal indicator (Dª, D.ª).
_TITLE = re.compile(rf"(?:{'|'.join(TITLES)}|d\.?ª)\.?\s+", re.IGNORECASE)
_STREET_TYPE = re.compile(
    r"(?<!\w)(?:C/\.?|Calle|Avenida|Avda\.?|Av\.?|Paseo|Pso\.?|Plaza|Pza\.?|Boulevard|Bulevar|Carretera|Ctra\.?"
    r"|Camino|Ronda|Traves[ií]a|Rúa|Calzada|Glorieta|Pasaje|Carrer|Avinguda|Passeig|Plaça)[ \t]+\Z",
    re.IGNORECASE,
)
_LOOK_BACK = 15  # characters: the longest street type and its spaces


_POSTAL_KEY_REST = re.compile(r"\.[ \t]?P\.", re.IGNORECASE)  # what follows the "C" of a "C.P." a span ran into
_UNIT = re.compile(rf"(?<!\w){UNIT}\Z", re.IGNORECASE)
_INTERVAL = re.compile(r"\s+(?:a|al|hasta)\s+", re.IGNORECASE)
# The slash between a town's two official names (Pamplona/Iruña, Gijón/Xixón): each is a place of its own.
_BILINGUAL_SLASH = re.compile(r"(?<=[^\W\d_])/(?=[A-ZÁÉÍÓÚÀÈÒÑÇ])")
# Between two weekdays of a list (lunes, miércoles y viernes; dl, dc i dv): each weekday is a date of its own.
_WEEKDAY_LIST = re.compile(
    r"(?:,\s*|\s+(?:y|i|e)\s+)(?=(?:lunes|martes|miércoles|miercoles|jueves|viernes|sábado|sabado|domingo|dilluns"
    r"|dimarts|dimecres|dijous|divendres|dissabte|diumenge|lun|mar|mié|mie|jue|vie|sáb|sab|dom|dl|dt|dm|dc|dj|dv|ds|dg)"
    r"\.?(?![\w/]))",
    re.IGNORECASE,
)
# A centre's head word and the type of the centre it starts; inside a name, after a space, it may start a second one.
_CENTRE_WORD = (
    r"(?:(?P<hospital>Hospital|Complejo Hospitalario|Cl[ií]nica|Sanatorio|Policl[ií]nica)"
    r"|(?P<institution>Asociaci[oó]n|Fundaci[oó]n|Instituto|Institut))\s+\w"
)
_CENTRE_HEAD = re.compile(_CENTRE_WORD)
_INNER_CENTRE_HEAD = re.compile(rf"(?<=\s){_CENTRE_WORD}")
_CENTRE_WORDS = frozenset(
    word.casefold()
    for word in (
        "Hospital Hospitalario Complejo Consorcio Clínica Clinica Sanatorio Policlínica Asociación Fundación Instituto "
        "Institut Universitario Universitari Clínico Clínic General Provincial Comarcal Regional Central Militar "
        "Infantil Nacional Docente Privado Público"
    ).split()
)
_SPACES = re.compile(r"[ \t]+")
_DEPARTMENT = r"Servicio|Servei|Unidad|Unitat|Departamento|Departament|Secci[oó]n|Secció"
_FLOOR = r"\d+[ \t]*[ªºa°]\.?[ \t]*planta|planta[ \t]+-?\d+"
_IDENTIFIER_TYPES = frozenset(
    {"ID_SUJETO_ASISTENCIA", "ID_CONTACTO_ASISTENCIAL", "ID_ASEGURAMIENTO", "NUMERO_TELEFONO", "NUMERO_FAX"}
)
# The next field's key glued after a code by a slash or a hyphen (00482113/cip:, PUMA0160305003/tlf): not the code's.
NEXT_KEY_GLUED = re.compile(r"[-/](?i:cipa?|tlf|telf|tel|tfno|nhc|sip|dni|nie|nass|tis|tsi|nuhsa)\b")
# The dash or slash between two phone numbers of nine digits written together (977553218-622087114).
PHONES_JOINT = re.compile(r"(?<=\d{9})[-/](?=\d{9}(?!\d))")
# Where a span of the given types ends (the start of the match), whatever a model ran on into.
_ENDS_BEFORE = (
    # A clause goes on: ... de Majadahonda como Trichorderma; l'Hospital Clínic, on va ingressar.
    (None, re.compile(r"\s(?:que|como|donde|onde|on|quan|cuando)(?=\s|\Z)")),
    (CENTRE_TYPES, re.compile(rf"\s(?:(?:{_DEPARTMENT}|Edificio|Edifici|Pabell[oó]n)\b|{_FLOOR}\b)", re.IGNORECASE)),
    # The next key glued to an identifier, or a slash standing alone (nhc 00482113/cip:PUMA01…/tlf, 2047731 /).
    (_IDENTIFIER_TYPES, re.compile(rf"{NEXT_KEY_GLUED.pattern}|[ \t]+/(?=[ \t]|$)", re.M)),
    # A gap of spaces before a lower-case word after a centre (CS Maspalomas  sáb 19/07): the next field.
    (CENTRE_TYPES, re.compile(r"[ \t]{2,}(?=[a-zà-ÿ])")),
    (
        NAME_TYPES,
        re.compile(
            rf"\s(?:{_DEPARTMENT}|Jef[ea]|Residente|Supervisora?|Enfermer[oa]|Adjunt[oa]|Facultativ[oa])\b",
            re.IGNORECASE,
        ),
    ),
    # A verb in lower case after a name (hija Mari Carmen vive en Huércal): the sentence goes on.
    (NAME_TYPES, re.compile(r"\s(?:vive|viu|trabaja|treballa|refiere|refereix|acude|viene|ve|llama|dice|diu)\b")),
    # A key in capitals after a date and a gap of spaces (FUR 24/08/24  FPP 31/05/25): the next field.
    (frozenset({"FECHAS"}), re.compile(r"[ \t]{2,}[A-Z]{2,5}\b")),
)
# What a span takes from right before it: María abbreviated before a name (Mª, M.ª, Mª., any case), and the owner
# before a hospital's head (Fundación Hospital Calahorra, Consorci Hospitalari de Vic, Complejo Hospitalario).
# Each entry: the span's types, what it must open with (None: anything), and the words before it.
_WORDS_BEFORE: tuple[tuple[frozenset[str], re.Pattern[str] | None, re.Pattern[str]], ...] = (
    (NAME_TYPES, None, re.compile(r"(?<!\w)[Mm]\.?ª\.?[ \t]*\Z")),
    # The first half of a surname that a hyphen glues to the name (GARCÍA- + CUERVO LLANEZA).
    (NAME_TYPES, re.compile(r"[^\W\d_a-z]"), re.compile(r"(?<![\w-])[^\W\d_a-z][^\W\d_]+-\Z")),
    (
        frozenset({"HOSPITAL"}),
        re.compile("(?i:hosp)"),
        re.compile(r"(?<!\w)(?i:fundaci[oó]n?|consorci|consorcio|corporaci[oó]n?|parc|complejo)[ \t]+\Z"),
    ),
)
_WORDS_BEFORE_LOOK_BACK = 16
# Kinship words, and the words that tell which relative (hijo mayor, germà gran, abuela materna): after a kinship
# word, another lower-case word is not part of a relative's span (el fill pauta de laxant). Narrower than the rules'
# kinship list, which also holds familia, progenitores, pares: words a place or a longer span may hold.
KINSHIP = frozenset(
    "hijo hija hijos hijas fill filla fills filles padre madre pare mare marit marido esposo esposa dona home hermano"
    " hermana germa germana nieto nieta net neta abuelo abuela avi avia tio tia oncle sobrino sobrina nebot neboda"
    " primo prima cosi cosina nuera yerno nora gendre suegro suegra sogre sogra pareja parella".split()
)
RELATIVE_MODIFIERS = re.compile(
    r"(?:mayor|menor|gran|petit|petita|petits|petites|pequeños?|pequeñas?|gemel[oa]s?|besso|bessona|bessons"
    r"|matern[oa]?s?|patern[oa]?s?|major|majors|mitj[aà]|mitjana|median[oa]|menut|menuda|menuts|menudes"
    r"|varon|varones|mayores|menores|grans|primer|primera|segon|segona|segundo|segunda|politic[oa]|politica)"
)
# An age that ends in its years abbreviated after a space (78 a).
_SPACED_YEARS_AT_THE_END = re.compile(r"\d[ \t]a\Z")
# An age that ends in its years (3a, 5 años): the months may follow.
_YEARS_AT_THE_END = re.compile(r"\d[ \t]*(?:a|años|anys|a\.)\Z", re.IGNORECASE)
# What a span takes right after it, in this order. Each entry: the span's types, what follows it, and whether the span
# takes it.
_WHAT_FOLLOWS: tuple[tuple[frozenset[str], re.Pattern[str], Callable[[str, Span], bool]], ...] = (
    # A name or a centre, the capitalised word a hyphen glues to its end (H. Don Benito + -Villanueva, Ferrer +
    # -Salvat): a hyphen inside a word never ends a name; not an acronym (-UTE).
    (
        NAME_TYPES | CENTRE_TYPES,
        re.compile(r"(?<=[^\W\d_])-[A-ZÁÉÍÓÚÑÀÈÒÇ][a-zà-ÿ]+(?![\w-])"),
        lambda text, span: True,
    ),
    # An age, the half after its unit (un mes y medio, 3 anys i mig), as every such gold age of train and dev does.
    (
        frozenset({"EDAD_SUJETO_ASISTENCIA"}),
        re.compile(r"[ \t]+(?:y[ \t]+medi[oa]|i[ \t]+mi(?:g|tja))(?!\w)", re.IGNORECASE),
        lambda text, span: _UNIT.search(text, span.start, span.end) is not None,
    ),
    # An age in years, the months after it (3a 2m, 5 años y 4 meses, 3 anys i 4 mesos), as the styles set's gold does;
    # left alone, "3a 2m" reads as a range's start (de 3 a 2).
    (
        frozenset({"EDAD_SUJETO_ASISTENCIA", "FAMILIARES_SUJETO_ASISTENCIA"}),
        re.compile(r"(?:[ \t]+(?:y|i))?[ \t]+\d{1,2}[ \t]*(?:m|meses|mes|mesos)(?![\w/])", re.IGNORECASE),
        lambda text, span: _YEARS_AT_THE_END.search(text, span.start, span.end) is not None,
    ),
    # A relative, the word that tells which one after the kinship word (hijo mayor, germà gran, abuela materna), as
    # every such gold relative of MEDDOCAN's train and dev has it (25 of 25).
    (
        frozenset({"FAMILIARES_SUJETO_ASISTENCIA"}),
        re.compile(rf"[ \t]+(?i:{RELATIVE_MODIFIERS.pattern})(?!\w)"),
        lambda text, span: _ends_with_a_kinship_word(text, span),
    ),
    # An age in years written "a." after a space (78 a.), the abbreviation's full stop, as 93 of the 106 such gold ages
    # of the styles set have it; glued (78a.) the stop is the sentence's.
    (
        frozenset({"EDAD_SUJETO_ASISTENCIA", "FAMILIARES_SUJETO_ASISTENCIA"}),
        re.compile(r"\.(?![\w.])"),
        lambda text, span: _SPACED_YEARS_AT_THE_END.search(text, span.start, span.end) is not None,
    ),
    # A phone, its extension (971 17 50 00 ext. 69210, 91 503 64 27, ext. 3317): the number dialled, as the styles
    # set annotates it; not one in brackets, which the gold leaves out (971 39 70 00 (ext. 4412)).
    (
        PHONE_TYPES,
        re.compile(r",?[ \t]*(?:ext|extensi[oó]n?|extensió)\.?[ \t]*\d{2,6}(?![\w/])", re.IGNORECASE),
        lambda text, span: True,
    ),
    # A health centre, the number or Roman numeral after its town (CS Tomelloso 2, Centro de Salud Delicias II): 33
    # gold centres of train, dev and the styles set end so, none leaves one after it. Nothing glued after the number
    # (not 2,5 nor 2/3 nor 10:30), and no unit.
    (
        frozenset({"CENTRO_SALUD"}),
        re.compile(
            r"[ \t]+(?:\d{1,2}|I{1,3}|IV|VI{0,3})"
            r"(?![\w/:]|[.,-]\d|[ \t]*(?i:h|hrs?|horas|hores|min|d[ií]as|dies|a|años|anys)\b)"
        ),
        lambda text, span: True,
    ),
)
# Two capitalised words joined by a conjunction.
_NAME_PAIR = re.compile(r"(?P<first>[^\W\d_a-z][^\W\d_]+)(?P<joint>[ \t]+[yi][ \t]+)(?P<second>[^\W\d_a-z][^\W\d_]+)")
_FLOOR_AND_GAP = re.compile(rf"(?:{_FLOOR})[\s.,;:-]+", re.IGNORECASE)
_STREET_AND_NUMBER = re.compile(r"[A-ZÁÉÍÓÚÑ]\D*\d")


def tidy(text: str, spans: Sequence[Span]) -> list[Span]:
    """``spans`` with the boundary rules of the module docstring applied, sorted, and without the spans that
    :func:`~anonimed.detect.not_phi.never_phi` rules out; never two spans overlapping more than they did."""
    kept = [s for s in (_trimmed(text, s) for s in spans) if s is not None and not never_phi(text, s)]
    kept = [cut for cut in (_cut(text, s) for s in kept) if cut is not None]
    kept = [part for span in kept for part in _split(text, span) if part == span or not never_phi(text, part)]
    kept = _take_what_follows(text, _take_words_before(text, kept))
    return _join_streets(text, _take_street_types(text, kept))


def _cut(text: str, span: Span) -> Span | None:
    """``span`` without the department, floor, occupation or clause it ran into, and a street without the floor it
    started with (``Edificio de Gobierno - 4ª Planta Avenida Fuerzas Armadas, 2``)."""
    end = span.end
    for labels, ends_before in _ENDS_BEFORE:
        if labels is None or span.label in labels:
            found = ends_before.search(text, span.start + 1, end)
            end = found.start() if found else end
    start = span.start
    floor = _FLOOR_AND_GAP.search(text, start, end) if span.label == STREET else None
    if (
        floor
        and not any(c.isdigit() for c in text[start : floor.start()])
        and _STREET_AND_NUMBER.match(text, floor.end(), end)
    ):
        start = floor.end()  # the floor came first; the street and its number follow
    return _trimmed(text, replace(span, start=start, end=end))


def _split(text: str, span: Span) -> list[Span]:
    if span.label == "FECHAS":
        separators = [
            *_INTERVAL.finditer(text, span.start, span.end),
            *_WEEKDAY_LIST.finditer(text, span.start, span.end),
        ]
        cuts = sorted((m.start(), m.end(), span.label) for m in separators)
    elif span.label == "TERRITORIO":
        cuts = [(m.start(), m.end(), span.label) for m in _BILINGUAL_SLASH.finditer(text, span.start, span.end)]
    elif span.label == "NUMERO_TELEFONO":
        cuts = [(m.start(), m.end(), span.label) for m in PHONES_JOINT.finditer(text, span.start, span.end)]
    elif span.label in NAME_TYPES and (pair := _two_given_names(text, span)) is not None:
        cuts = [(pair.start("joint"), pair.end("joint"), span.label)]
    elif span.label == "HOSPITAL" and _CENTRE_HEAD.match(text, span.start, span.end):
        cuts = [
            (m.start(), m.start(), "HOSPITAL" if m.group("hospital") else "INSTITUCION")
            for m in _INNER_CENTRE_HEAD.finditer(text, span.start + 1, span.end)
            if _starts_another_centre(text, span.start, m.start())
        ]
    else:
        return [span]
    parts, start, label = [], span.start, span.label
    for cut_start, cut_end, next_label in cuts:
        parts.append(
            _trimmed(text, replace(span, start=start, end=cut_start, label=label)) if cut_start > start else None
        )
        start, label = cut_end, next_label
    parts.append(_trimmed(text, replace(span, start=start, label=label)))
    return [part for part in parts if part is not None]


def _two_given_names(text: str, span: Span) -> re.Match[str] | None:
    """Two given names joined by ``y`` or ``i`` (``sus hijos, Adam y Nour``): two people, not one name."""
    from anonimed.rules.gazetteers import given_names
    from anonimed.rules.language import fold

    pair = _NAME_PAIR.fullmatch(text, span.start, span.end)
    if pair is None or not all(fold(pair[side]) in given_names() for side in ("first", "second")):
        return None
    return pair


def _starts_another_centre(text: str, centre_start: int, head_start: int) -> bool:
    """Whether a head word inside a centre's name starts a second centre: ``Hospital Universitario Puerto Real``
    ``Complejo Hospitalario de la Bahía``, but not ``Hospital Universitario Fundación Santafé`` nor ``Clínica Hospital
    Virgen del Camino`` (the word before is part of the first centre's head)."""
    previous = text[centre_start:head_start].split()
    return bool(previous) and previous[-1][0].isupper() and previous[-1].casefold() not in _CENTRE_WORDS


def _trimmed(text: str, span: Span) -> Span | None:
    start, end = span.start, _end_without_trailing(text, span.start, span.end)
    if end - start > 1 and text[end - 1] in "Cc" and text[end - 2].isspace() and _POSTAL_KEY_REST.match(text, end):
        end = _end_without_trailing(text, start, end - 1)  # the key "C.P." after a street
    while start < end and not text[start].isalnum():
        start += 1
    opened = text.rfind("(", start, end)
    if opened > start and ")" not in text[opened:end]:  # a bracket it does not close (línea (industria conservera)
        end = _end_without_trailing(text, start, opened)
    while start < end and span.label in _PERSONAL_NAMES and not text[start].isalpha():
        start += 1  # a name opens with a letter, not the minutes of a time it ran into (09:00 Núria)
    if span.label in NAME_TYPES:
        title = _TITLE.match(text, start, end)
        if title and title.end() < end:
            start = title.end()
    if end <= start:
        return None
    return span if (start, end) == (span.start, span.end) else replace(span, start=start, end=end)


def _end_without_trailing(text: str, start: int, end: int) -> int:
    # A scan, not one regular expression: nested repetition backtracks exponentially on long runs of spaces.
    while True:
        while end > start and (text[end - 1].isspace() or text[end - 1] in _TRAILING_MARKS):
            end -= 1
        word_start = end
        while word_start > start and not text[word_start - 1].isspace():
            word_start -= 1
        if word_start == start or text[word_start:end].lower() not in _TRAILING_WORDS:
            return end
        end = word_start


def _take_street_types(text: str, found: list[Span]) -> list[Span]:
    spans: list[Span | None] = list(sorted(found))  # None: a span that gave all it had to a street
    for index, span in enumerate(spans):
        if span is None or span.label != STREET:
            continue
        street_type = _STREET_TYPE.search(text, max(0, span.start - _LOOK_BACK), span.start)
        if not street_type:
            continue
        word_start = street_type.start()
        before = [(i, other) for i, other in enumerate(spans[:index]) if other is not None and other.end > word_start]
        if any(other.start >= word_start for _, other in before):
            continue  # the type word is a span of its own: _join_streets deals with it
        if before and _after_function_word(text, before[0][1].start, word_start):
            continue  # a name's last word: Hospital Virgen del Camino
        for i, other in before:  # a span that runs into the type word gives it up
            spans[i] = _trimmed(text, replace(other, end=word_start))
        spans[index] = replace(span, start=word_start)
    return sorted(s for s in spans if s is not None)


def _take_words_before(text: str, spans: list[Span]) -> list[Span]:
    """A name takes the abbreviated María before it (``Mª Amparo``, ``m.ª ángeles``), as all 21 gold names of train,
    dev and the styles set that follow one do, and the capitalised half of a surname a hyphen glues to its start
    (``GARCÍA-`` + ``CUERVO LLANEZA``), and a hospital the foundation or consortium that owns it (``Fundación``
    + ``Hospital Calahorra``, as all 60 such gold hospitals do); a span inside the words taken (the ``m`` of ``m.ª``
    read as a sex) goes."""
    taken: list[Span | None] = list(sorted(spans))  # None: a span inside the words another one took
    for index, span in enumerate(taken):
        if span is None:
            continue
        look_back = max(0, span.start - _WORDS_BEFORE_LOOK_BACK)
        words = next(
            (
                found
                for labels, opening, before in _WORDS_BEFORE
                if span.label in labels
                and (opening is None or opening.match(text, span.start))
                and (found := before.search(text, look_back, span.start)) is not None
            ),
            None,
        )
        if words is None:
            continue
        taken[index] = replace(span, start=words.start())
        for inner, other in enumerate(taken[:index]):
            if other is not None and other.start >= words.start() and other.end <= span.start:
                taken[inner] = None
    return [span for span in taken if span is not None]


def _ends_with_a_kinship_word(text: str, span: Span) -> bool:
    # Deferred: the rules' package imports this module.
    from anonimed.rules.language import fold

    words = text[span.start : span.end].split()
    return bool(words) and fold(words[-1]) in KINSHIP


def _take_what_follows(text: str, spans: list[Span]) -> list[Span]:
    """Each span takes what :data:`_WHAT_FOLLOWS` gives its type right after it, with the numbers found wholly inside
    what it takes (the extension ``3317`` of ``91 503 64 27, ext. 3317``, which a network read as a town), but not when
    another span runs into it (``Chiesi-España`` keeps its country)."""
    spans = sorted(spans)
    swallowed: set[int] = set()
    for index, span in enumerate(spans):
        if index in swallowed:
            continue
        for labels, after, applies in _WHAT_FOLLOWS:
            found = after.match(text, span.end) if span.label in labels else None
            if not found or not applies(text, span):
                continue
            reached = [later for later in range(index + 1, len(spans)) if spans[later].start < found.end()]
            inside = {
                later
                for later in reached
                if spans[later].start >= span.end
                and spans[later].end <= found.end()
                and text[spans[later].start : spans[later].end].isdigit()
            }
            if len(inside) == len(reached):
                swallowed |= inside
                span = spans[index] = replace(span, end=found.end())
    return [span for index, span in enumerate(spans) if index not in swallowed]


def _after_function_word(text: str, start: int, word_start: int) -> bool:
    previous = text[start:word_start].split()
    return bool(previous) and previous[-1].lower() in _TRAILING_WORDS


def _join_streets(text: str, spans: list[Span]) -> list[Span]:
    joined: list[Span] = []
    for span in spans:
        previous = joined[-1] if joined else None
        if (
            previous is not None
            and previous.label == STREET == span.label
            and previous.end < span.start
            and _SPACES.fullmatch(text, previous.end, span.start)
        ):
            joined[-1] = replace(previous, end=span.end, score=min(previous.score, span.score))
        else:
            joined.append(span)
    return joined


class TidyBoundaries:
    """A detector whose spans get the boundary rules of this module (name and source: the wrapped detector's)."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.name = detector.name

    def detect(self, document: Document) -> list[Span]:
        return tidy(document.text, self.detector.detect(document))
