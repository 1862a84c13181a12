"""The patient's occupation (PROFESION), where the words around it say that it is one.

MEDDOCAN annotates "any job in the text" (guideline P7.1) but train holds only 24 of them, too few for the taggers to
learn: they find none of dev's 4.  Occupations come in few frames, though: an apposition after the patient's age
(``varón de 71 años, jubilado, antiguo carpintero,``), a key (``ocupación: hogar``, ``de profesión mecánico``,
``trabaja como soldadora``), ``mecánico de profesión``, the word for the patient (``pac. panadero,``) or a former
job (``EX PASTOR.``, ``antigua maestra,``).  Except after a key, the occupation must be in the job list that Faker's
``es_ES`` provider ships (474 titles, their feminine forms, a few more common in clinical notes); after a key, any
short phrase is the occupation.  Modifiers stay out (guideline N7.1: not ``jubilado``).
"""

from __future__ import annotations

import re

from faker.providers.job.es_ES import Provider as SpainJobs

from anonimed.detect.patterns.demographics import AGE, SUBJECT, SUBJECT_GAP
from anonimed.detect.patterns.recognizer import Recognizer, phrase_alternation
from anonimed.text.gender import feminine_title

# Occupations frequent in clinical notes that Faker's list lacks, or has only inside a longer title.
MORE_OCCUPATIONS = (
    "ama de casa",
    "amo de casa",
    "agricultor",
    "ganadero",
    "pastor",
    "pescador",
    "minero",
    "militar",
    "policía",
    "guardia civil",
    "bombero",
    "conductor",
    "camionero",
    "taxista",
    "transportista",
    "pintor",
    "panadero",
    "carnicero",
    "peluquero",
    "cocinero",
    "camarero",
    "albañil",
    "fontanero",
    "electricista",
    "mecánico",
    "soldador",
    "jardinero",
    "barrendero",
    "limpiador",
    "dependiente",
    "comercial",
    "vendedor",
    "administrativo",
    "funcionario",
    "secretario",
    "abogado",
    "profesor",
    "maestro",
    "ingeniero",
    "arquitecto",
    "enfermero",
    "médico",
    "veterinario",
    "farmacéutico",
    "auxiliar de enfermería",
    "celador",
    "cuidador",
    "azafata",
    "deportista",
    "futbolista",
    "ciclista profesional",
    "músico",
    "costurero",
    "modista",
    "pagès",
    "pagesa",
    # The guidelines' own examples (P7.1, M7.1).
    "trabajador de la construcción",
    "ingeniero informático",
)
_WORD = r"[^\W\d_]+"


def _known_occupations() -> str:
    """The known occupations (lower case; masculine and feminine forms) as one expression."""
    titles = {title.split(",")[0].strip().lower() for title in SpainJobs.jobs} | set(MORE_OCCUPATIONS)
    forms: set[str] = set()
    for title in titles:
        forms.update((title, feminine_title(title)))
    return phrase_alternation(forms)


# A known occupation, and what it is of (``profesora de secundaria``; not ``enfermera de profesión``).
_OCCUPATION = rf"(?i:(?:{_known_occupations()})(?:[ \t]+de[ \t]+(?:(?:la|el|los|las)[ \t]+)?(?!profesi|una?\b){_WORD})?)(?![^\W_])"
_FORMER = r"(?:antigu[oa]|ex-?)[ \t]*"
_ENDS = (
    r"(?=[ \t]*[,.;)]|[ \t]+(?:durante|desde|jubilad[oa]|retirad[oa]|en[ \t]+(?:paro|activo)|de[ \t]+profesi[oó]n)\b)"
)

RECOGNIZERS = (
    Recognizer(
        "occupation_after_age",
        "PROFESION",
        # ``Varón de 78 años, carpintero,``; ``mujer de 38 años, profesora de secundaria, no fumadora``; up to two
        # other short items first (``de 68 años de edad, diestra, casada, ...``).
        re.compile(
            rf"(?i:\b(?:{SUBJECT}){SUBJECT_GAP}[ \t]+de[ \t]+{AGE}(?:[ \t]+de[ \t]+edad)?,[ \t]*"
            rf"(?:{_WORD},[ \t]*){{0,2}}(?:{_FORMER})?)(?P<value>{_OCCUPATION}){_ENDS}"
        ),
        0.85,
        triggers=("año", "any"),
    ),
    Recognizer(
        "occupation_keyed",
        "PROFESION",
        # ``ocupación: hogar``, ``de profesión empleado en carpintería metálica``: the key says it is a job.
        re.compile(
            rf"(?i:\b(?:ocupaci[oó]n[ \t]*:|profesi[oó]n[ \t]*:|de[ \t]+profesi[oó]n\b)[ \t]*(?:{_FORMER})?)"
            rf"(?P<value>{_WORD}(?:[ \t]+(?:(?:de|en)[ \t]+)?{_WORD}){{0,2}}?)(?=[ \t]*[,.;)\n])"
        ),
        0.8,
        triggers=("ocupaci", "profesi"),
    ),
    Recognizer(
        "occupation_worked_as",
        "PROFESION",
        # ``trabaja como soldadora``, ``trabajaba de camarero``: a known occupation (not ``trabaja de noche``).
        re.compile(
            rf"(?i:\b(?:trabaj(?:a|aba|ó|o|ado)|emplead[oa])[ \t]+(?:como|de)[ \t]+(?:{_FORMER})?)"
            rf"(?P<value>{_OCCUPATION})"
        ),
        0.8,
        triggers=("trabaj", "emplead"),
    ),
    Recognizer(
        "occupation_after_patient",
        "PROFESION",
        # ``pac. panadero, muchas horas de pie``: a known occupation right after the word for the patient.
        re.compile(rf"(?i:\b(?:pac|pte|paciente|pacient)\.?[ \t]+(?:{_FORMER})?)(?P<value>{_OCCUPATION}){_ENDS}"),
        0.8,
        triggers=("pac", "pte"),
    ),
    Recognizer(
        "former_occupation",
        "PROFESION",
        # ``EX PASTOR.``, ``antigua maestra,``: a known occupation that the patient had (the word before stays out).
        re.compile(rf"(?i:(?<![^\W\d_])(?:antigu[oa][ \t]+|ex-?[ \t]*))(?P<value>{_OCCUPATION}){_ENDS}"),
        0.8,
        triggers=("ex", "antigu"),
    ),
    Recognizer(
        "occupation_before_key",
        "PROFESION",
        # ``Mecánico de profesión``.
        re.compile(rf"(?P<value>\b{_OCCUPATION})(?=[ \t]+de[ \t]+profesi[oó]n\b)"),
        0.85,
        triggers=("profesi",),
    ),
)
