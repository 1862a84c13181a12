"""The patient's age and sex, and postal codes (TERRITORIO).

Ages carry their unit (``70 años``, ``3 meses``) but not ``de edad``.  A bare ``N años`` is as often a duration
(``desde hace 3 años``) as an age, so it is found with confidence only where the words around it say whose age it
is: a ``Edad:`` key, a patient noun before it (``Varón de 40 años``), ``de edad`` after it.
"""

from __future__ import annotations

import re

from anonimed.detect.patterns import checks
from anonimed.detect.patterns.recognizer import DIGITS, Recognizer, keyed

_ONES = "uno una un dos tres cuatro cinco seis siete ocho nueve".split()
_TEENS = "diez once doce trece catorce quince dieciséis dieciseis diecisiete dieciocho diecinueve veinte".split()
_TENS = "treinta cuarenta cincuenta sesenta setenta ochenta noventa".split()
# A number in words up to a hundred: ``tres``, ``diecisiete``, ``veintiuno``, ``sesenta y tres``.
NUMBER_WORD = (
    rf"(?:(?:{'|'.join(_TENS)})(?:[ \t]+y[ \t]+(?:{'|'.join(_ONES)}))?|veinti\w+|cien|"
    rf"{'|'.join(sorted(_ONES + _TEENS, key=len, reverse=True))})"
)
UNIT = r"(?:años?|mes(?:es)?|semanas?|d[ií]as?|horas?|anys?|mesos|setmanes|dies)"
# Lower-case beginnings of every unit above.
_UNIT_TRIGGERS = ("año", "mes", "semana", "día", "dia", "hora", "any", "setman", "dies")
_AMOUNT = rf"(?:\d{{1,3}}|{NUMBER_WORD})"
# ``70 años``, ``3 años y 8 meses``, ``tres años y medio``.
AGE = rf"{_AMOUNT}[ \t]{{1,2}}{UNIT}\b(?:[ \t]+y[ \t]+(?:medio|{_AMOUNT}[ \t]+{UNIT}\b))?"
_AGE_YEARS = rf"{_AMOUNT}[ \t]{{1,2}}(?:años|anys)\b"
# Nouns whose ``de N años`` is the patient's age; up to three words may come between (``Paciente masculino negro``).
# The Catalan ones too (``home de 57 anys``).
SUBJECT = (
    r"var[oó]n|mujer|hombre|paciente|enferm[oa]|ni[ñn][oa]|chic[oa]|lactante|beb[eé]|reci[eé]n[ \t]+nacid[oa]|"
    r"adolescente|joven|ancian[oa]|señora?|femenina|masculino|individuo|sujeto|home|dona|pacient|nen|nena"
)
SUBJECT_GAP = r"(?:[ \t]+[\wáéíóúñ]+){0,3}?,?"
# ``3 años de evolución`` is how long something lasted, not how old someone is.
_NOT_A_DURATION = (
    r"(?![ \t]+(?:de[ \t]+(?:evoluci|duraci|seguimiento|tratamiento|antig|diagn|enfermedad|residencia|haber|la\b|el\b)"
    r"|(?:del|tras|despu[eé]s|antes|atr[aá]s|m[aá]s)\b))"
)
# Words after which ``N años`` is how long, not how old (``hace 3 años``, ``durante 2 años``).
_NOT_AFTER_DURATION_WORDS = (
    "(?i:"
    + "".join(
        f"(?<!{word} )"
        for word in (
            "hace",
            "hacía",
            "durante",
            "tras",
            "lleva",
            "llevaba",
            "desde",
            "últimos",
            "cada",
            "casi",
            "unos",
            "unas",
            "más",
            "menos",
            "los",
            "otros",
            "aproximadamente",
        )
    )
    + ")"
)
_SEX_WORD = r"var[oó]n|mujer|hombre|ni[ñn][oa]|chic[oa]|femenin[oa]|masculin[oa]"

RECOGNIZERS = (
    Recognizer(
        "age_keyed",
        "EDAD_SUJETO_ASISTENCIA",
        # Not ``para su edad: 43 mmHg``: the key opens a field, it does not end a phrase.
        re.compile(
            keyed(
                r"edad(?:[ \t]+actual)?|edat",
                start=r"(?<![a-záéíóúñ] )\b",
                value=rf"\d{{1,3}}(?:[ \t]{{1,2}}(?:(?i:{UNIT})|[aA])\b)?",
            )
        ),
        0.98,
        triggers=("edad", "edat"),
    ),
    Recognizer(
        "age_of_subject",
        "EDAD_SUJETO_ASISTENCIA",
        re.compile(rf"(?i:\b(?:{SUBJECT}){SUBJECT_GAP}[ \t]+de[ \t]+)(?P<value>(?i:{AGE})){_NOT_A_DURATION}"),
        0.92,
        triggers=_UNIT_TRIGGERS,
    ),
    Recognizer(
        "age_de_edad",
        "EDAD_SUJETO_ASISTENCIA",
        re.compile(rf"(?i:\b{AGE}(?=[ \t]+de[ \t]+edad\b))"),
        0.92,
        triggers=("edad",),
    ),
    Recognizer(
        "age_at",
        "EDAD_SUJETO_ASISTENCIA",
        re.compile(
            rf"(?i:\b(?:a[ \t]+los|con|tiene|ten[ií]a|cumpli[oó]|cumplidos)[ \t]+)(?P<value>(?i:{_AGE_YEARS})){_NOT_A_DURATION}"
        ),
        0.7,
        triggers=("año", "any"),
    ),
    Recognizer(
        "age_at_the_age",
        "EDAD_SUJETO_ASISTENCIA",
        # ``a la edad de 6 meses``, ``con una edad de 50 años``.
        re.compile(rf"(?i:\b(?:a|con)[ \t]+(?:la|una)[ \t]+edad[ \t]+de[ \t]+)(?P<value>(?i:{AGE}))"),
        0.85,
        triggers=("edad",),
    ),
    Recognizer(
        "age_of_life",
        "EDAD_SUJETO_ASISTENCIA",
        # ``a los 40 días de vida``, ``al mes de vida``: the unit alone is the age when no number comes before it.
        re.compile(
            rf"(?i:\b(?:a|al|con)[ \t]+(?:(?:los|las|el|la)[ \t]+)?)"
            rf"(?P<value>(?i:(?:{_AMOUNT}[ \t]{{1,2}})?{UNIT}))(?=[ \t]+de[ \t]+vida\b)"
        ),
        0.85,
        triggers=("vida",),
    ),
    Recognizer(
        "age_years",
        "EDAD_SUJETO_ASISTENCIA",
        re.compile(rf"{_NOT_AFTER_DURATION_WORDS}(?i:\b{_AGE_YEARS}){_NOT_A_DURATION}"),
        0.2,  # kept alone, it is right about one time in five on train+dev
        triggers=("año", "any"),
    ),
    Recognizer(
        "sex_keyed",
        "SEXO_SUJETO_ASISTENCIA",
        # ``Sexo: M H`` (several by mistake) is one mention.
        re.compile(
            keyed(r"sexo(?:[ \t]+biol[oó]gico)?|sexe|g[eé]nero", rf"(?i:(?:{_SEX_WORD}|[HMFV])\b(?:[ \t]+[HMFV]\b)*)")
        ),
        0.98,
        triggers=("sexo", "sexe", "género", "genero"),
    ),
    Recognizer(
        "sex_of_subject",
        "SEXO_SUJETO_ASISTENCIA",
        re.compile(rf"(?i:\b(?:{_SEX_WORD})\b)(?=(?i:{SUBJECT_GAP}[ \t]+de[ \t]+{AGE}))"),
        0.85,
        triggers=_UNIT_TRIGGERS,
    ),
    Recognizer(
        "sex_noun",
        "SEXO_SUJETO_ASISTENCIA",
        # ``el niño``, ``una niña``, ``un varón``: in a note about one patient, these nouns name the patient.
        re.compile(r"(?i:\b(?:el|la|un|una|del|al|esta|este)[ \t]+)(?P<value>(?i:ni[ñn][oa]|var[oó]n))\b"),
        0.75,
        triggers=("niñ", "nin", "var"),
    ),
    Recognizer(
        "postal_code_keyed",
        "TERRITORIO",
        # ``CP: 28016``, ``CP: E-28015``, foreign codes (``C1031``, ``40140-280``, 7 digits).
        re.compile(
            keyed(
                r"C\.?P\.?|(?:c[oó]digo|c[oó]d\.|codi)[ \t]+postal",
                r"(?:[A-Z]{1,2}[ -]?)?\d{4,7}(?:-\d{3,4})?(?:[A-Z]{1,3}\b)?",
            )
        ),
        0.97,
        triggers=("cp", "c.p", "postal"),
    ),
    Recognizer(
        "postal_code_before_town",
        "TERRITORIO",
        # ``28046 Madrid``, ``29015- Badajoz``, ``E-28935 Móstoles``: the code alone, the town is its own span.
        re.compile(r"(?<![\w/.,-])(?:E-?[ ]?)?\d{5}(?=[ \t]*[-,–]?[ \t]*[A-ZÁÉÍÓÚÑ][a-záéíóúñ])"),
        0.85,
        triggers=DIGITS,
        check=checks.postal_code,
    ),
)
