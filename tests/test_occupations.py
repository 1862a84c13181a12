"""Occupation recognizers (PROFESION): the frames that say a phrase is a job, the guideline's rules P7.1, N7.1, M7.1."""

from __future__ import annotations

import pytest

from anonimed.detect.patterns import PatternDetector
from anonimed.document import Document

DETECTOR = PatternDetector(labels=["PROFESION"])


def occupations(text: str) -> list[str]:
    return [text[s.start : s.end] for s in DETECTOR.detect(Document("note", text))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Varón de 78 años, carpintero, exfumador desde hace 22 años.", ["carpintero"]),
        ("Mujer de 38 años, profesora de secundaria, no fumadora, que consulta por tos.", ["profesora de secundaria"]),
        ("Varón de 71 años, jubilado, antiguo carpintero, sin alergias conocidas.", ["carpintero"]),
        ("Mujer de 43 años de edad, ama de casa, alérgica al contraste yodado.", ["ama de casa"]),
        ("Paciente de 68 años de edad, diestra, casada, ocupación: hogar. Padecimiento que inicia.", ["hogar"]),
        (
            "Varón de 40 años, de profesión empleado en carpintería metálica, había sido visto.",
            ["empleado en carpintería metálica"],
        ),
        ("Limitación de la movilidad. Mecánico de profesión, en su trabajo.", ["Mecánico"]),
        ("Desde los 25 años trabajaba como soldadora, utilizando estireno.", ["soldadora"]),
        ("Mujer de 61 años, agricultora durante treinta años en Francia.", ["agricultora"]),
        ("Home de 57 anys, pagès, exfumador.", ["pagès"]),
        # P7.1 and N7.1: the job is annotated, the modifier 'jubilado' is not.
        ("Varón de 66 años, trabajador de la construcción jubilado, hipertenso.", ["trabajador de la construcción"]),
        ("Mujer de 34 años de edad, enfermera de profesión, que acude a consulta.", ["enfermera"]),
        # After the word for the patient, and a former job (the word before stays out).
        ("dolor eva 3.\npac. panadero,muchas horas de pie", ["panadero"]),
        ("FA PERMANENTE,ERC 3A. EX PASTOR.\nTTO: SPIRIVA", ["PASTOR"]),
        ("Vive sola, antigua maestra, sin deterioro.", ["maestra"]),
    ],
)
def test_occupations_in_their_frames(text: str, expected: list[str]) -> None:
    assert occupations(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Varón de 40 años, hipertenso, diabético, que acude por dolor torácico.",
        "El paciente trabaja de noche, en turnos de doce horas.",
        "Enfermedad Profesional según el RD 1299/2006, de 10 de noviembre.",
        "Su médico de familia solicitó una analítica.",
        "La ocupación del espacio pleural es completa.",
        "exfumador desde hace 10 años, pac. diabético.",
        "paciente conductor del vehículo accidentado",
    ],
)
def test_no_occupation_without_a_frame(text: str) -> None:
    assert occupations(text) == []
