"""Surrogates: realistic, consistent, reproducible replacements for every PHI type."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from anonimed.document import Document, Span
from anonimed.schema import LABELS
from anonimed.text.gender import feminine_title
from anonimed.transform.keys import Keyring
from anonimed.transform.surrogates import KEPT_TYPES, SurrogateContext, SurrogateOptions, pools, surrogate
from anonimed.transform.surrogates.dates import parse_date
from anonimed.transform.surrogates.numbers import dni_is_valid, nass_is_valid
from anonimed.transform.surrogates.places import provinces
from anonimed.transform.surrogates.text import fold

# One fictitious mention of every PHI type.
EXAMPLES = {
    "NOMBRE_SUJETO_ASISTENCIA": "Ernesto Rivera Bueno",
    "NOMBRE_PERSONAL_SANITARIO": "Dra. Lucía Ferrer Gil",
    "PROFESION": "albañil",
    "HOSPITAL": "Hospital Comarcal del Valle",
    "CENTRO_SALUD": "Centro de Salud Las Eras",
    "INSTITUCION": "Residencia Los Almendros",
    "CALLE": "C/ Mayor 12, 3º B",
    "TERRITORIO": "Cuenca",
    "PAIS": "Portugal",
    "EDAD_SUJETO_ASISTENCIA": "54 años",
    "FECHAS": "03/03/1946",
    "NUMERO_TELEFONO": "912 345 678",
    "NUMERO_FAX": "912 345 679",
    "CORREO_ELECTRONICO": "lferrer@hcvalle.es",
    "URL_WEB": "www.hcvalle.es",
    "ID_SUJETO_ASISTENCIA": "12345678Z",
    "ID_CONTACTO_ASISTENCIAL": "5038812",
    "ID_ASEGURAMIENTO": "28 12345678 40",
    "ID_TITULACION_PERSONAL_SANITARIO": "16 16 12345",
    "ID_EMPLEO_PERSONAL_SANITARIO": "EMP-20417",
    "NUMERO_BENEF_PLAN_SALUD": "BEN 778812",
    "IDENTIF_VEHICULOS_NRSERIE_PLACAS": "1234 BCD",
    "IDENTIF_DISPOSITIVOS_NRSERIE": "00:1A:2B:3C:4D:5E",
    "IDENTIF_BIOMETRICOS": "HUELLA-88213",
    "OTRO_NUMERO_IDENTIF": "B-4471",
    "SEXO_SUJETO_ASISTENCIA": "mujer",
    "FAMILIARES_SUJETO_ASISTENCIA": "hermana",
    "OTROS_SUJETO_ASISTENCIA": "trabaja en una panadería",
    "DIREC_PROT_INTERNET": "192.168.10.4",
}


def context_for(
    text: str = "Nota.", spans=(), seed: int | None = 1, key: bytes | None = None, doc_id: str = "d1", **options
) -> SurrogateContext:
    document = Document(doc_id, text, list(spans))
    return SurrogateContext(document, Keyring(key=key, seed=seed), SurrogateOptions(**options))


def test_examples_cover_the_schema():
    assert set(EXAMPLES) == set(LABELS)


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_surrogate_never_equals_the_original(label, seed):
    original = EXAMPLES[label]
    new = surrogate(label, original, context_for(seed=seed))
    assert new.strip()
    if label not in KEPT_TYPES:
        assert fold(new) != fold(original)


def test_the_same_entity_gets_the_same_surrogate_in_a_document():
    context = context_for()
    assert surrogate("TERRITORIO", "Cuenca", context) == surrogate("TERRITORIO", "Cuenca", context)
    assert surrogate("NOMBRE_SUJETO_ASISTENCIA", "Ernesto Rivera Bueno", context) == surrogate(
        "NOMBRE_SUJETO_ASISTENCIA", "Ernesto Rivera Bueno", context
    )


def test_partial_name_mentions_keep_the_same_surname():
    context = context_for()
    full = surrogate("NOMBRE_SUJETO_ASISTENCIA", "Ernesto Rivera Bueno", context)
    partial = surrogate("NOMBRE_SUJETO_ASISTENCIA", "Sr. Rivera", context)
    given, first_surname, _second_surname = full.split()
    assert partial == f"Sr. {first_surname}"
    assert surrogate("NOMBRE_SUJETO_ASISTENCIA", "Ernesto", context) == given


def _note(text: str, mentions: list[tuple[str, str]]) -> tuple[str, list[Span]]:
    spans, cursor = [], 0
    for covered, label in mentions:
        start = text.index(covered, cursor)
        spans.append(Span(start, start + len(covered), label))
        cursor = start + len(covered)
    return text, spans


def test_a_surname_keeps_its_surrogate_where_a_later_mention_has_no_known_given_name():
    # GALINDO FERRÁNDIZ OLTRA has no known given name, so its first word would be taken for one by its place alone;
    # the note has already written GALINDO as the surname of TOMÁS GALINDO, so it stays that surname.
    text, spans = _note(
        "PETICIONARIO: DR. TOMÁS GALINDO. FIRMADO: GALINDO FERRÁNDIZ OLTRA.",
        [("TOMÁS GALINDO", "NOMBRE_PERSONAL_SANITARIO"), ("GALINDO FERRÁNDIZ OLTRA", "NOMBRE_PERSONAL_SANITARIO")],
    )
    for seed in range(1, 6):
        context = context_for(text, spans, seed=seed)
        full = surrogate("NOMBRE_PERSONAL_SANITARIO", "TOMÁS GALINDO", context)
        later = surrogate("NOMBRE_PERSONAL_SANITARIO", "GALINDO FERRÁNDIZ OLTRA", context)
        assert later.split()[0] == full.split()[-1]


def test_no_surrogate_holds_a_word_of_the_notes_phi():
    # The doctor's surrogate must not bring back the patient's given name, nor a town or street name of the note.
    mentions = [
        ("Pablo Ortiz Lago", "NOMBRE_SUJETO_ASISTENCIA"),
        ("calle Mayor 3", "CALLE"),
        ("Villalba", "TERRITORIO"),
        ("Narciso Gil", "NOMBRE_PERSONAL_SANITARIO"),
        ("Hospital General de Villalba", "HOSPITAL"),
    ]
    text, spans = _note(
        "Paciente Pablo Ortiz Lago, vive en la calle Mayor 3 de Villalba. Le atiende el Dr. Narciso Gil en el "
        "Hospital General de Villalba.",
        mentions,
    )
    note_words = {"pablo", "ortiz", "lago", "mayor", "villalba", "narciso", "gil"}
    for seed in range(1, 31):
        context = context_for(text, spans, seed=seed)
        for covered, label in mentions:
            new = surrogate(label, covered, context)
            assert not note_words & set(re.findall(r"\w+", fold(new))), (seed, covered, new)


def test_name_shape_is_kept():
    context = context_for()
    assert re.fullmatch(r"Dra\. \w+ \w+", surrogate("NOMBRE_PERSONAL_SANITARIO", "Dra. Lucía Ferrer", context))
    assert re.fullmatch(r"[A-Z]\. \w+", surrogate("NOMBRE_PERSONAL_SANITARIO", "J. Ferrer", context))
    assert surrogate("NOMBRE_SUJETO_ASISTENCIA", "ANA ROS PLA", context).isupper()
    assert " de " in surrogate("NOMBRE_SUJETO_ASISTENCIA", "Juan de Dios Pérez", context)


def test_female_names_get_female_surrogates():
    genders = pools.given_name_genders()
    for seed in range(10):
        context = context_for(seed=seed)
        given = surrogate("NOMBRE_SUJETO_ASISTENCIA", "María José Ferrer", context).split()[:2]
        assert all(genders.get(fold(name)) != "M" for name in given)
        doctor = surrogate("NOMBRE_PERSONAL_SANITARIO", "Dra. Ferrer Gil", context)
        assert doctor.startswith("Dra. ")


def test_an_unknown_given_name_follows_the_sex_of_the_note():
    text = "Nombre: Xenara. Sexo: Mujer."
    spans = [Span(8, 14, "NOMBRE_SUJETO_ASISTENCIA"), Span(22, 27, "SEXO_SUJETO_ASISTENCIA")]
    genders = pools.given_name_genders()
    for seed in range(10):
        new = surrogate("NOMBRE_SUJETO_ASISTENCIA", "Xenara", context_for(text, spans, seed=seed))
        assert genders.get(fold(new)) in ("F", None) or fold(new) in {fold(s) for s in pools.surnames().values}


def test_catalan_given_names_get_catalan_surrogates():
    catalan = {fold(n) for n in pools.given_names("M", catalan=True).values}
    text = "Pacient: Jordi Puig. Home de 50 anys amb dolor, i els seus fills."
    for seed in range(5):
        new = surrogate("NOMBRE_SUJETO_ASISTENCIA", "Jordi Puig", context_for(text, seed=seed))
        assert fold(new.split()[0]) in catalan


@pytest.mark.parametrize(
    "original, layout",
    [
        ("03/03/1946", r"\d\d/\d\d/\d{4}"),
        ("3/3/1946", r"\d{1,2}/\d{1,2}/\d{4}"),
        ("17-12-09", r"\d\d-\d\d-\d\d"),
        ("3 de marzo de 1946", r"\d{1,2} de [a-z]+ de \d{4}"),
        ("marzo de 2015", r"[a-z]+ de \d{4}"),
        ("Marzo 2015", r"[A-Z][a-z]+ \d{4}"),
        ("2.003", r"\d\.\d{3}"),
        ("2015", r"\d{4}"),
        ("MARZO DE 2015", r"[A-Z]+ DE \d{4}"),
        ("27-octubre-2016", r"\d{1,2}-[a-z]+-\d{4}"),
        ("5 de març de 2010", r"\d{1,2} (de |d')[a-zç]+ de \d{4}"),
        ("d'abril de 2010", r"(de |d')[a-zç]+ de \d{4}"),
    ],
)
def test_dates_keep_their_format(original, layout):
    new = surrogate("FECHAS", original, context_for())
    assert new != original
    assert re.fullmatch(layout, new), new


def test_dates_move_together_by_one_offset_per_document():
    context = context_for()
    first, second = "03/03/1946", "15 de junio de 2012"
    before = parse_date(second) - parse_date(first)
    after = parse_date(surrogate("FECHAS", second, context)) - parse_date(surrogate("FECHAS", first, context))
    assert before == after
    assert abs(context.date_offset) >= 365


@pytest.mark.parametrize("seed", range(10))
def test_weekdays_move_with_the_dates_and_keep_their_language_number_and_case(seed: int):
    """A weekday alone is no month (``ve dilluns`` read ``ve octubre``), and it moves as its date does."""
    from anonimed.transform.surrogates.datetext import WEEKDAYS

    context = SurrogateContext(Document("n", "x"), Keyring(seed=seed))
    offset = context.date_offset
    assert offset % 7 != 0
    catalan = surrogate("FECHAS", "dilluns, dimecres i divendres", context)
    assert (
        catalan
        == ", ".join(WEEKDAYS["ca"][(day + offset) % 7] for day in (0, 2)) + " i " + WEEKDAYS["ca"][(4 + offset) % 7]
    )
    plural = surrogate("FECHAS", "los SÁBADOS", context)
    assert plural.startswith("los ") and plural[4:].isupper() and plural[4:].endswith("S") and plural != "los SÁBADOS"
    assert surrogate("FECHAS", "miercoles", context).isascii()
    dated = surrogate("FECHAS", "Sábado, 02/03/2024", context)  # 2 March 2024 was a Saturday
    new_day = parse_date(dated.split(", ")[1])
    assert dated.split(",")[0] == WEEKDAYS["es"][new_day.weekday()].capitalize()
    # A weekday and its day alone move together, as a week's list of visits does.
    week = [surrogate("FECHAS", f"{name} {day}", context) for name, day in (("Dimarts", 4), ("Dimecres", 5))]
    (tuesday, first), (wednesday, second) = (item.split() for item in week)
    assert WEEKDAYS["ca"].index(wednesday.lower()) == (WEEKDAYS["ca"].index(tuesday.lower()) + 1) % 7
    assert int(second) - int(first) in (1, 1 - 30, 1 - 31)


@pytest.mark.parametrize("seed", range(5))
def test_a_day_and_month_without_a_year_move_as_a_date(seed: int):
    """``12/08`` is the 12th of August: it moves by the note's offset, padded as written (it read ``27/65``)."""
    import datetime as dt

    context = SurrogateContext(Document("n", "x"), Keyring(seed=seed))
    for original, separator in (("12/08", "/"), ("3-7", "-")):
        new = surrogate("FECHAS", original, context)
        day, month = (int(part) for part in new.split(separator))
        old_day, old_month = (int(part) for part in original.split(separator))
        moved = dt.date(2000, old_month, old_day) + dt.timedelta(days=context.date_offset)
        assert (day, month) == (moved.day, moved.month)
        assert len(new) == len(original) or original == "3-7"
    # Its weekday moves with it, in Galician too (venres 9 read as venres with new digits).
    from anonimed.transform.surrogates.datetext import WEEKDAYS

    weekday = surrogate("FECHAS", "xoves 3/4", context).split()[0]
    assert weekday == WEEKDAYS["gl"][(3 + context.date_offset) % 7]


def test_a_date_no_layout_reads_keeps_its_words_and_changes_its_digits():
    """A festivity's day or a day whose month is elsewhere: its digits change, its words stay words."""
    context = context_for()
    new = surrogate("FECHAS", "fiestas del Pilar 2", context)
    assert new.startswith("fiestas del Pilar ") and new[-1].isdigit()
    new = surrogate("FECHAS", "dia 7 tarda", context)
    assert new.startswith("dia ") and new.endswith(" tarda") and new != "dia 7 tarda"


@pytest.mark.parametrize("seed", range(20))
def test_a_document_offset_never_turns_one_of_its_dates_into_another(seed: int):
    text = "Operado en 1990; recidiva en 1992."
    document = Document("n", text, [Span(11, 15, "FECHAS"), Span(29, 33, "FECHAS")])
    context = SurrogateContext(document, Keyring(seed=seed))
    shifted = {surrogate("FECHAS", year, context) for year in ("1990", "1992")}
    assert not shifted & {"1990", "1992"}, f"offset {context.date_offset} shifts a year onto the other"


def test_a_patient_key_gives_one_offset_across_documents():
    keyring = Keyring(key=b"secret")
    offsets = {
        SurrogateContext(Document(doc_id, "x", metadata={"patient": "P1"}), keyring).date_offset
        for doc_id in ("a", "b", "c")
    }
    assert len(offsets) == 1


def test_ages_are_kept_and_ninety_or_more_generalised():
    context = context_for()
    assert surrogate("EDAD_SUJETO_ASISTENCIA", "54 años", context) == "54 años"
    assert surrogate("EDAD_SUJETO_ASISTENCIA", "93 años", context) == "90 o más años"
    assert surrogate("EDAD_SUJETO_ASISTENCIA", "95 días", context) == "95 días"
    # A unit glued to the number stays a word of its own (not "90 o mása").
    assert surrogate("EDAD_SUJETO_ASISTENCIA", "92a", context) == "90 o más a"


def test_occupations_keep_the_gender_of_the_original():
    masculine = {job.partition(" ")[0].lower() for job in pools.jobs().values}
    for seed in range(20):
        for original in ("profesora de secundaria", "Enfermera", "abogada"):
            new = surrogate("PROFESION", original, context_for(seed=seed))
            head = new.partition(" ")[0].lower()
            assert head not in masculine or feminine_title(head) == head, (original, new)
            assert fold(new) != fold(original)
        new = surrogate("PROFESION", "carpintero", context_for(seed=seed))
        assert new.partition(" ")[0].lower() in masculine, new


def test_sex_is_kept_unless_swapped():
    assert surrogate("SEXO_SUJETO_ASISTENCIA", "Mujer", context_for()) == "Mujer"
    assert surrogate("SEXO_SUJETO_ASISTENCIA", "Mujer", context_for(sex="swap")) == "Hombre"


@pytest.mark.parametrize("original", ["12345678Z", "12345678-z", "X1234567L", "Y 7654321 B"])
def test_dni_and_nie_surrogates_have_a_valid_letter(original):
    for seed in range(5):
        new = surrogate("ID_SUJETO_ASISTENCIA", original, context_for(seed=seed))
        assert dni_is_valid(new), new
        assert re.sub(r"[0-9A-Za-z]", "#", new) == re.sub(r"[0-9A-Za-z]", "#", original)
        assert new[0] == original[0] or original[0].isdigit()


def test_social_security_numbers_have_valid_control_digits():
    for seed in range(5):
        new = surrogate("ID_ASEGURAMIENTO", "28 12345678 40", context_for(seed=seed))
        assert nass_is_valid(new) and re.fullmatch(r"\d\d \d{8} \d\d", new)
        assert 1 <= int(new[:2]) <= 52


def test_identifiers_keep_their_layout_and_repeated_groups():
    context = context_for()
    new = surrogate("ID_TITULACION_PERSONAL_SANITARIO", "28 28 57946", context)
    assert re.fullmatch(r"(\d\d) \1 \d{5}", new) and 1 <= int(new[:2]) <= 52
    assert re.fullmatch(r"[A-Z]{3}-\d{5}", surrogate("ID_EMPLEO_PERSONAL_SANITARIO", "EMP-20417", context))
    plate = surrogate("IDENTIF_VEHICULOS_NRSERIE_PLACAS", "1234 BCD", context)
    assert re.fullmatch(r"\d{4} [BCDFGHJKLMNPRSTVWXYZ]{3}", plate)


def test_phones_are_spanish_numbers_in_the_same_layout():
    context = context_for()
    assert re.fullmatch(r"9\d\d \d{3} \d{3}", surrogate("NUMERO_TELEFONO", "912 345 678", context))
    assert re.fullmatch(r"\+34 6\d{8}", surrogate("NUMERO_TELEFONO", "+34 612345678", context))


def test_relatives_swap_their_kinship_unless_told_to_keep_it():
    swapped = surrogate("FAMILIARES_SUJETO_ASISTENCIA", "madre", context_for())
    assert fold(swapped) != "madre"
    kept = context_for(kinship="keep")
    assert surrogate("FAMILIARES_SUJETO_ASISTENCIA", "madre", kept) == "madre"
    assert surrogate("FAMILIARES_SUJETO_ASISTENCIA", "dos hijos", kept) == "dos hijos"
    named = surrogate("FAMILIARES_SUJETO_ASISTENCIA", "su esposa Marta Gil", kept)
    assert named.startswith("su esposa ") and "Marta" not in named and "Gil" not in named


def test_unknown_kinship_option_is_refused():
    with pytest.raises(ValueError, match="kinship option"):
        SurrogateOptions(kinship="hide")


def test_network_addresses_keep_their_kind():
    context = context_for()
    assert re.fullmatch(r"192(\.\d{1,3}){3}", surrogate("DIREC_PROT_INTERNET", "192.168.10.4", context))
    mac = surrogate("IDENTIF_DISPOSITIVOS_NRSERIE", "00:1A:2B:3C:4D:5E", context)
    assert re.fullmatch(r"([0-9A-F]{2}:){5}[0-9A-F]{2}", mac)
    assert surrogate("URL_WEB", "http://www.hcvalle.es/citas", context).startswith("http://www.")


def test_email_is_built_from_the_surrogate_name():
    context = context_for()
    doctor = surrogate("NOMBRE_PERSONAL_SANITARIO", "Lucía Ferrer Gil", context)
    given, surname = fold(doctor).split()[:2]
    address = surrogate("CORREO_ELECTRONICO", "lucia.ferrer@gmail.com", context)
    assert address.endswith("@gmail.com")
    assert address.split("@")[0] == f"{given}.{surname}".replace(" ", "")


def test_towns_provinces_and_postal_codes_agree():
    text = "Localidad/ Provincia: Cuenca (Cuenca). CP: 16004."
    spans = [Span(22, 28, "TERRITORIO"), Span(30, 36, "TERRITORIO"), Span(43, 48, "TERRITORIO")]
    for seed in range(5):
        context = context_for(text, spans, seed=seed)
        province = surrogate("TERRITORIO", "Cuenca", context)
        postal_code = surrogate("TERRITORIO", "16004", context)
        code = int(postal_code[:2])
        assert province in provinces()[code]
        assert re.fullmatch(r"\d{5}", postal_code)


def test_streets_keep_type_number_and_floor_layout():
    for seed in range(5):
        new = surrogate("CALLE", "C/ Mayor 12, 3º B", context_for(seed=seed))
        assert re.fullmatch(r"C/ [^\d,]+ \d{1,2}, \dº [A-F]", new), new
        assert surrogate("CALLE", "Avenida de la Paz, s/n", context_for(seed=seed)).startswith("Avenida ")


def test_surrogates_are_reproducible_with_a_seed_and_differ_without_a_key_across_documents():
    a = [surrogate(label, text, context_for(seed=5)) for label, text in EXAMPLES.items()]
    b = [surrogate(label, text, context_for(seed=5)) for label, text in EXAMPLES.items()]
    assert a == b
    other_document = [surrogate(label, text, context_for(seed=5, doc_id="d2")) for label, text in EXAMPLES.items()]
    assert other_document != a


def test_with_a_key_surrogates_are_stable_across_documents():
    a = [
        surrogate(label, text, context_for(key=b"k", seed=None, doc_id="a"))
        for label, text in EXAMPLES.items()
        if label != "FECHAS"
    ]
    b = [
        surrogate(label, text, context_for(key=b"k", seed=None, doc_id="b"))
        for label, text in EXAMPLES.items()
        if label != "FECHAS"
    ]
    assert a == b


def test_common_names_are_picked_more_often_than_rare_ones():
    pool = pools.surnames()
    weights = dict(zip(pool.values, (b - a for a, b in zip((0.0, *pool.cumulative), pool.cumulative))))
    assert weights["García"] > weights["Abascal"]


def test_parse_date_reads_full_dates_only():
    assert parse_date("3 de marzo de 1946") == dt.date(1946, 3, 3)
    assert parse_date("03/03/1946") == dt.date(1946, 3, 3)
    assert parse_date("marzo de 1946") is None


@pytest.mark.parametrize("seed", range(20))
def test_a_shifted_date_never_holds_another_date_of_the_document(seed: int):
    text = "FECHA: 12 DE JUNIO DE 2025\nSIN CAMBIOS RESPECTO A LA RONDA ANTERIOR (2023)."
    first, second = text.index("12 DE"), text.index("2023")
    document = Document("n", text, [Span(first, first + 19, "FECHAS"), Span(second, second + 4, "FECHAS")])
    context = SurrogateContext(document, Keyring(seed=seed))
    assert "2023" not in surrogate("FECHAS", "12 DE JUNIO DE 2025", context), f"offset {context.date_offset}"


def test_a_festivity_becomes_a_month_the_note_does_not_name() -> None:
    months = "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre".split()
    text = "No sale desde San Fermín; vino en " + ", ".join(months) + "."
    spans = [Span(13, 23, "FECHAS")]
    start = 34
    for month in months:
        spans.append(Span(start, start + len(month), "FECHAS"))
        start += len(month) + 2
    for seed in range(5):
        context = context_for(text, spans, seed=seed)
        assert [text[s.start : s.end] for s in spans[1:]] == months
        assert surrogate("FECHAS", "San Fermín", context) == "diciembre"
