"""Pattern recognizers: the MEDDOCAN guidelines' own examples (section 2.3), negatives, the detector contract, and a
check against the gold spans of dev."""

from __future__ import annotations

import itertools

import pytest

from anonimed.detect.base import Detector
from anonimed.detect.patterns import RECOGNIZERS, PatternDetector, recognizer_labels, resolve
from anonimed.detect.patterns.checks import dni_letter_ok, nass_ok
from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat_dir
from anonimed.schema import PHI_TYPES

DETECTOR = PatternDetector()


def found(text: str) -> set[tuple[str, str]]:
    """(label, covered text) of every span the detector returns for ``text``."""
    return {(s.label, text[s.start : s.end]) for s in DETECTOR.detect(Document("t", text))}


GUIDELINE_EXAMPLES = [
    # (text, label, expected span text)
    ("Email: jrubiopalau@yahoo.es", "CORREO_ELECTRONICO", "jrubiopalau@yahoo.es"),
    ("url: www.sample.com", "URL_WEB", "www.sample.com"),
    ("https://www.sample.com", "DIREC_PROT_INTERNET", "https://www.sample.com"),
    ("ftp://wwwsample.com", "DIREC_PROT_INTERNET", "ftp://wwwsample.com"),
    ("ip: 192.168.0.23", "IDENTIF_DISPOSITIVOS_NRSERIE", "192.168.0.23"),
    ("mac: 00:0a:95:9d:68:16", "IDENTIF_DISPOSITIVOS_NRSERIE", "00:0a:95:9d:68:16"),
    ("Matricula: 5478GDV", "IDENTIF_VEHICULOS_NRSERIE_PLACAS", "5478GDV"),
    ("Nº bastidor: VF1RFD00653635032", "IDENTIF_VEHICULOS_NRSERIE_PLACAS", "VF1RFD00653635032"),
    (
        "... ha sido necesario acceder a su identificador de huella dactilar FP537WXZ391 para poder identificar al "
        "paciente ...",
        "IDENTIF_BIOMETRICOS",
        "FP537WXZ391",
    ),
    ("NºSocio: 5547889955", "OTRO_NUMERO_IDENTIF", "5547889955"),
    ("Nº empleado: u000999; e999000", "ID_EMPLEO_PERSONAL_SANITARIO", "u000999"),
    ("Nº empleado: u000999; e999000", "ID_EMPLEO_PERSONAL_SANITARIO", "e999000"),
    ("Número de teléfono de la madre: 630 304 365", "NUMERO_TELEFONO", "630 304 365"),
    ("El número de móvil de su esposa es el 633 349 565", "NUMERO_TELEFONO", "633 349 565"),
    ("Buscapersonas: 6527- 3368", "NUMERO_TELEFONO", "6527- 3368"),
    ("Fax: 0998 455879", "NUMERO_FAX", "0998 455879"),
    ("… calle Manuel Luna 32. CP 02080 Albacete. FAX: 637 249 823 ...", "NUMERO_FAX", "637 249 823"),
    ("… calle Manuel Luna 32. CP 02080 Albacete. FAX: 637 249 823 ...", "TERRITORIO", "02080"),
    ("NHC: 987654", "ID_SUJETO_ASISTENCIA", "987654"),
    ("CIPA: nhc-150679", "ID_SUJETO_ASISTENCIA", "150679"),
    ("DNI: 38987678", "ID_SUJETO_ASISTENCIA", "38987678"),
    # The guidelines' invented ``38987678-P`` has a wrong letter (mod 23 gives X): with the right one it is found.
    ("NIF: 38987678-X", "ID_SUJETO_ASISTENCIA", "38987678-X"),
    ("Episodio:1520368541", "ID_CONTACTO_ASISTENCIAL", "1520368541"),
    ("NASS: 33 4568642 23", "ID_ASEGURAMIENTO", "33 4568642 23"),
    ("NASS: 26 63514095.", "ID_ASEGURAMIENTO", "26 63514095"),
    ("NºCol: 08-08-25574", "ID_TITULACION_PERSONAL_SANITARIO", "08-08-25574"),
    ("Médico: Ignacio Navarro NºCol: 28 28 70973.", "ID_TITULACION_PERSONAL_SANITARIO", "28 28 70973"),
    ("CP: 01022", "TERRITORIO", "01022"),
    ("CP: E-28015", "TERRITORIO", "E-28015"),
    ("Calle Strachan, 4- 2º piso 29015- Badajoz", "TERRITORIO", "29015"),
    ("Río Júcar, s/n E-28935 Móstoles (Madrid)", "TERRITORIO", "E-28935"),
    ("Fecha de ingreso: 20/09/2016", "FECHAS", "20/09/2016"),
    ("Fecha de nacimiento: 23-octubre-1972", "FECHAS", "23-octubre-1972"),
    ("Fecha de nacimiento: 22 Septiembre de 2018", "FECHAS", "22 Septiembre de 2018"),
    ("Otoño del 2017", "FECHAS", "Otoño del 2017"),
    ("En el mes de Marzo de ese mismo año…", "FECHAS", "Marzo"),
    ("...se le diagnostica a principios del año 2004 un carcinoma…", "FECHAS", "año 2004"),
    ("… diagnosticada en 2014…", "FECHAS", "2014"),
    ("se normalizó en el plazo de 4 meses (Junio 04).", "FECHAS", "Junio 04"),
    ("... el jueves 2 de Agosto se le diagnosticó ...", "FECHAS", "jueves 2 de Agosto"),
    ("... en los 90s tuvo un accidente …", "FECHAS", "90s"),
    ("[INV]... en nochevieja ingresó …", "FECHAS", "nochevieja"),
    ("había precisado hemodiálisis desde 1980 a 1983", "FECHAS", "1980"),
    ("había precisado hemodiálisis desde 1980 a 1983", "FECHAS", "1983"),
    ("Edad: 68", "EDAD_SUJETO_ASISTENCIA", "68"),
    ("Antecedentes: Paciente de 76 años", "EDAD_SUJETO_ASISTENCIA", "76 años"),
    ("Historia actual: Enfermo varón de 40 años", "EDAD_SUJETO_ASISTENCIA", "40 años"),
    ("Recién nacido de tres días de vida", "EDAD_SUJETO_ASISTENCIA", "tres días"),
    ("Edad: 3 días de nacido", "EDAD_SUJETO_ASISTENCIA", "3 días"),
    ("Historia actual: Enfermo varón de 40 años", "SEXO_SUJETO_ASISTENCIA", "varón"),
    ("Antecedentes: Niña de 11 años…", "SEXO_SUJETO_ASISTENCIA", "Niña"),
    ("Sexo: Hombre", "SEXO_SUJETO_ASISTENCIA", "Hombre"),
    ("Sexo: M", "SEXO_SUJETO_ASISTENCIA", "M"),
    ("[INV]Sexo: M H", "SEXO_SUJETO_ASISTENCIA", "M H"),
]


@pytest.mark.parametrize("text, label, expected", GUIDELINE_EXAMPLES)
def test_guideline_examples(text: str, label: str, expected: str) -> None:
    assert (label, expected) in found(text)


MORE_FORMS = [
    ("Fecha: 03/03/1946", "FECHAS", "03/03/1946"),
    ("nacido el 3-III-46 en Soria", "FECHAS", "3-III-46"),
    ("ingresó el 3 de marzo de 1946", "FECHAS", "3 de marzo de 1946"),
    ("desde marzo de 2015", "FECHAS", "marzo de 2015"),
    ("operado en 2.003 de cataratas", "FECHAS", "2.003"),
    ("el pasado 4 de junio acudió", "FECHAS", "4 de junio"),
    ("el jueves 2 de Agosto a las 14:41 ingresó en el hospital", "FECHAS", "jueves 2 de Agosto"),
    ("Data de naixement: 3 de març de 1946", "FECHAS", "3 de març de 1946"),
    ("va ingressar el 15 d'octubre", "FECHAS", "15 d'octubre"),
    ("Fecha de nacimiento: 03/15/1996", "FECHAS", "03/15/1996"),
    ("Lactante de 3 meses con fiebre", "EDAD_SUJETO_ASISTENCIA", "3 meses"),
    ("Edad: 70 años Sexo: H.", "EDAD_SUJETO_ASISTENCIA", "70 años"),
    ("Edad: 70 años Sexo: H.", "SEXO_SUJETO_ASISTENCIA", "H"),
    ("Paciente de 70 años de edad, minero", "EDAD_SUJETO_ASISTENCIA", "70 años"),
    ("Varón de 3 años y 8 meses", "EDAD_SUJETO_ASISTENCIA", "3 años y 8 meses"),
    ("Tel.: +34 630 304 365", "NUMERO_TELEFONO", "34 630 304 365"),
    ("Teléfono: 91 123 45 67", "NUMERO_TELEFONO", "91 123 45 67"),
    ("Telfs.: 918823884 / 918823984", "NUMERO_TELEFONO", "918823984"),
    ("Tel. y Fax: 961 622 403", "NUMERO_TELEFONO", "961 622 403"),
    ("Matrícula: 5478 GDV", "IDENTIF_VEHICULOS_NRSERIE_PLACAS", "5478 GDV"),
    ("vio el coche M-1234-AB aparcado", "IDENTIF_VEHICULOS_NRSERIE_PLACAS", "M-1234-AB"),
    ("caida de ciclomotor (C-4821-BTK) en una rotonda", "IDENTIF_VEHICULOS_NRSERIE_PLACAS", "C-4821-BTK"),
    ("Nº de serie del marcapasos: PM7730112", "IDENTIF_DISPOSITIVOS_NRSERIE", "PM7730112"),
    ("servidor 2001:db8::ff00:42:8329", "IDENTIF_DISPOSITIVOS_NRSERIE", "2001:db8::ff00:42:8329"),
    ("su DNI es 12345678Z", "ID_SUJETO_ASISTENCIA", "12345678Z"),
    ("NIE X1234567L", "ID_SUJETO_ASISTENCIA", "X1234567L"),
    ("afiliado 28 12345678 40 desde", "ID_ASEGURAMIENTO", "28 12345678 40"),
    ("Nº de carnet de la biblioteca: B-778812", "OTRO_NUMERO_IDENTIF", "B-778812"),
    ("Póliza: 884512093", "NUMERO_BENEF_PLAN_SALUD", "884512093"),
    ("Calle Mayor 3, 28046 Madrid", "TERRITORIO", "28046"),
    ("E-mail.ana.garcia@hospital.es", "CORREO_ELECTRONICO", "ana.garcia@hospital.es"),
    # Key wordings other than MEDDOCAN's template, Catalan ones, and the value on the line under its key.
    ("Historia clínica:  3598742.", "ID_SUJETO_ASISTENCIA", "3598742"),
    ("Nº d'història: 2569870.", "ID_SUJETO_ASISTENCIA", "2569870"),
    ("Nº HISTORIA / Nº HISTÒRIA:\n2569870.\nDOMICILIO", "ID_SUJETO_ASISTENCIA", "2569870"),
    ("CIPA: NHC/976421.", "ID_SUJETO_ASISTENCIA", "976421"),
    ("Nº Seguridad Social.- 84 37283957 33.", "ID_ASEGURAMIENTO", "84 37283957 33"),
    ("Episodi - 7843567.", "ID_CONTACTO_ASISTENCIAL", "7843567"),
    ("Núm. col·legiat: 28 28 20943.", "ID_TITULACION_PERSONAL_SANITARIO", "28 28 20943"),
    ("Col. nº.- 28 28 20943.", "ID_TITULACION_PERSONAL_SANITARIO", "28 28 20943"),
    ("Edad actual - 53 años Sexo biológico.- H.", "EDAD_SUJETO_ASISTENCIA", "53 años"),
    ("Edad actual - 53 años Sexo biológico.- H.", "SEXO_SUJETO_ASISTENCIA", "H"),
    ("edat: 47 sexe: h.", "SEXO_SUJETO_ASISTENCIA", "h"),
    ("Codi postal: 08005.", "TERRITORIO", "08005"),
    ("Teléfono fijo - 55304000", "NUMERO_TELEFONO", "55304000"),
    ("PACIENTE VARÓN, DE 28 AÑOS", "SEXO_SUJETO_ASISTENCIA", "VARÓN"),
    # Forms that MEDDOCAN dev shows and train does not.
    ("En febrero y abril de 2002 acude a urgencias", "FECHAS", "febrero y abril de 2002"),
    ("se retiró en sep-04, al disponer de una FAVI", "FECHAS", "sep-04"),
    ("vista por nosotros a la edad de 6 meses, presentaba", "EDAD_SUJETO_ASISTENCIA", "6 meses"),
    ("El neonato falleció a los 40 días de vida.", "EDAD_SUJETO_ASISTENCIA", "40 días"),
    ("desapareciendo la tumoración al mes de vida.", "EDAD_SUJETO_ASISTENCIA", "mes"),
]


@pytest.mark.parametrize("text, label, expected", MORE_FORMS)
def test_more_forms(text: str, label: str, expected: str) -> None:
    assert (label, expected) in found(text)


NOT_PHI = [
    "PSA de 1.16 ng/ml.",
    "glucemia de 169 mg/dl y triglicéridos de 456 mg/dl",
    "hemoglobina 12.5 g/dl, plaquetas 250.000/mm3",
    "tacto rectal compatible con adenoma de próstata grado I/IV.",
    "fumador de 20 cigarrillos / día.",
    "4 hematíes/ campo y 0-5 leucocitos/campo",
    "Otra placa de 2 cm. de diámetro",
    "Vincristina 1,5 mg por m2",
    "a las 14:41:05 ingresó",
    "Domicilio: Calle Pintor Salvador Abril 18",
    "Nombre: Julio.",
    "serie roja: hemoglobina 7,2 g/dl; serie blanca: leucocitos 8.600/µl",
    "CRIPTOLÁTEX EN SUERO POSITIVO 1/2048",
    "250 MGR. DE ISONIAZIDA Y 1500 MGR DE RIFAMPICINA",
    "Lote SEP-2014/33",
    "a los 3 meses de la cirugía",
]


@pytest.mark.parametrize("text", NOT_PHI)
def test_not_phi(text: str) -> None:
    assert found(text) == set()


def test_hospital_named_after_a_date_is_not_a_date() -> None:
    assert ("FECHAS", "12 de Octubre") not in found("Hospital Universitario 12 de Octubre. Madrid")


def test_time_of_day_is_left_out_of_the_date() -> None:
    text = "el jueves 2 de Agosto a las 14:41 ingresó"
    assert {label for label, covered in found(text) if "14" in covered} == set()


def test_invalid_dni_letter_is_not_a_dni() -> None:
    assert not dni_letter_ok("12345678A") and dni_letter_ok("12345678Z")
    assert found("su DNI es 12345678A") == set()
    assert found("DNI: 12345678-A") == set()
    assert found("NIF: 38987678-P") == set()


def test_nass_control_digits_raise_the_score_and_unkeyed_numbers_need_them() -> None:
    assert nass_ok("28 12345678 40") and not nass_ok("28 12345678 41")
    valid, invalid = (
        DETECTOR.detect(Document("t", "NASS: 28 12345678 40")),
        DETECTOR.detect(Document("t", "NASS: 28 12345678 41")),
    )
    assert valid[0].score > invalid[0].score > 0.8
    assert found("afiliado 28 12345678 41 desde") == set()


@pytest.mark.parametrize(
    "text", ["fumador hasta hace 2 años, intervenido hace 3 años de una hernia", "DIAGNOSTICADA HACE 6 AÑOS"]
)
def test_durations_are_not_confident_ages(text: str) -> None:
    assert all(s.score < 0.5 for s in DETECTOR.detect(Document("t", text)) if s.label == "EDAD_SUJETO_ASISTENCIA")


def test_spans_follow_the_detector_contract() -> None:
    text = "Edad: 70 años Sexo: H.\nNHC: 368503.\nNASS: 26 63514095.\nCP: 28016.\nFecha: 03/03/1946\nEmail: a@b.es"
    spans = DETECTOR.detect(Document("t", text))
    assert isinstance(DETECTOR, Detector) and DETECTOR.name == "patterns"
    assert len(spans) == 7
    assert spans == sorted(spans)
    for span in spans:
        assert span.source == "patterns" and 0.0 < span.score <= 1.0 and span.label in PHI_TYPES
        assert text[span.start : span.end] == text[span.start : span.end].strip(" .:,")
    for first, second in itertools.pairwise(spans):
        assert first.end <= second.start


def test_recognizers_are_listed_with_their_labels() -> None:
    labels = recognizer_labels()
    assert list(labels) == [r.name for r in RECOGNIZERS]
    assert set(labels.values()) <= set(PHI_TYPES)
    assert {"FECHAS", "ID_SUJETO_ASISTENCIA", "URL_WEB", "IDENTIF_BIOMETRICOS"} <= set(labels.values())


def test_choosing_recognizers() -> None:
    text = "Edad: 70 años Sexo: H. Fecha: 03/03/1946"
    only_dates = PatternDetector(labels=["FECHAS"])
    assert {s.label for s in only_dates.detect(Document("t", text))} == {"FECHAS"}
    only_sex = PatternDetector(names=["sex_keyed"])
    assert [text[s.start : s.end] for s in only_sex.detect(Document("t", text))] == ["H"]
    with pytest.raises(ValueError, match="unknown pattern recognizers"):
        PatternDetector(names=["no_such_recognizer"])


def test_matches_keep_every_recognizer_and_detect_resolves_overlaps() -> None:
    text = "NHC: 22 75689632 36."
    names = {name for name, _ in DETECTOR.matches(text)}
    assert "patient_record_keyed" in names
    [span] = DETECTOR.detect(Document("t", text))
    assert span.label == "ID_SUJETO_ASISTENCIA"


def test_resolve_prefers_score_then_length() -> None:
    spans = [
        Span(0, 5, "FECHAS", 0.5, "patterns"),
        Span(2, 8, "TERRITORIO", 0.9, "patterns"),
        Span(8, 9, "PAIS", 0.1, "patterns"),
    ]
    assert [s.label for s in resolve(spans)] == ["TERRITORIO", "PAIS"]
    tied = [Span(0, 3, "FECHAS", 0.5, "patterns"), Span(0, 6, "EDAD_SUJETO_ASISTENCIA", 0.5, "patterns")]
    assert [s.label for s in resolve(tied)] == ["EDAD_SUJETO_ASISTENCIA"]


def test_detection_on_text_with_non_ascii_case_changes() -> None:
    # ``İ`` lower-cases to two characters: offsets must still point into the original text.
    text = "İİİ Edad: 68. NHC: 123456"
    assert ("ID_SUJETO_ASISTENCIA", "123456") in found(text)
    assert ("EDAD_SUJETO_ASISTENCIA", "68") in found(text)


def _full_search(text: str) -> set[tuple[str, Span]]:
    return {(r.name, span) for r in RECOGNIZERS for span in r.find(text)}


def _windowed_search(text: str) -> set[tuple[str, Span]]:
    return {(name, span) for name, span in DETECTOR.matches(text)}


def test_triggers_lose_no_match_on_the_examples() -> None:
    # Each recognizer runs only near its triggers: that must find what a search of the whole text finds.
    for text, _, _ in GUIDELINE_EXAMPLES + MORE_FORMS:
        assert _windowed_search(text) == _full_search(text), text


def test_triggers_lose_no_match_on_dev(meddocan) -> None:
    for document in read_brat_dir(meddocan / "dev" / "brat")[:40]:
        assert _windowed_search(document.text) == _full_search(document.text), document.id


def test_confident_spans_are_precise_on_dev(meddocan) -> None:
    documents = read_brat_dir(meddocan / "dev" / "brat")[:60]
    confident = correct = 0
    for document in documents:
        gold = {s.key for s in document.spans}
        for span in DETECTOR.detect(document):
            if span.score >= 0.9:
                confident += 1
                correct += span.key in gold
    assert confident > 300
    assert correct / confident > 0.97


def test_upper_case_text() -> None:
    text = "PACIENTE EDAD: 68 AÑOS SEXO: M. NHC: 123456. FECHA DE INGRESO: 12 DE MARZO DE 2016"
    assert {
        ("EDAD_SUJETO_ASISTENCIA", "68 AÑOS"),
        ("SEXO_SUJETO_ASISTENCIA", "M"),
        ("FECHAS", "12 DE MARZO DE 2016"),
    } <= found(text)
