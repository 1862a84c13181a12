"""Sentence frames that carry PHI (living with, accompanied by, referred by, dates and ages in words, addresses,
relatives, jobs) and the hard negatives every note gets, in Spanish and Catalan.  A frame returns pieces for the
:class:`~anonimed.train.synthetic.values.Builder`: plain strings and ``(text, TYPE)`` pairs.
"""

from __future__ import annotations

import datetime as dt

from anonimed.text.gender import feminine_title
from anonimed.train.synthetic.values import (
    AGE,
    CENTRE,
    COUNTRY,
    DATE,
    DOCTOR,
    FEASTS_CA,
    FEASTS_ES,
    HOSPITAL,
    JOB,
    MONTHS_ES,
    OTHER,
    PHONE,
    PLACE,
    RELATIVE,
    SEX,
    STREET,
    Person,
    Piece,
    Values,
    words_ca,
    words_es,
)

# (singular, plural, female) kinship words
KIN_ES = (
    ("esposa", "", True),
    ("marido", "", False),
    ("pareja", "", True),
    ("hija", "hijas", True),
    ("hijo", "hijos", False),
    ("hermana", "hermanas", True),
    ("hermano", "hermanos", False),
    ("nieta", "nietas", True),
    ("sobrina", "sobrinas", True),
    ("nuera", "", True),
    ("cuñado", "", False),
    ("hijo mayor", "", False),
    ("hija pequeña", "", True),
)
KIN_CA = (
    ("dona", "", True),
    ("marit", "", False),
    ("parella", "", True),
    ("filla", "filles", True),
    ("fill", "fills", False),
    ("germana", "germanes", True),
    ("germà", "germans", False),
    ("néta", "nétes", True),
    ("neboda", "nebodes", True),
    ("nora", "", True),
    ("gendre", "", False),
)
# (masculine, feminine) Catalan job titles
JOBS_CA = (
    ("paleta", "paleta"),
    ("mestre", "mestra"),
    ("infermer", "infermera"),
    ("administratiu", "administrativa"),
    ("cambrer", "cambrera"),
    ("pagès", "pagesa"),
    ("electricista", "electricista"),
    ("perruquer", "perruquera"),
    ("conductor d'autobús", "conductora d'autobús"),
    ("comptable", "comptable"),
    ("dependent", "dependenta"),
    ("cuiner", "cuinera"),
    ("fuster", "fustera"),
    ("mecànic", "mecànica"),
    ("advocat", "advocada"),
)
COMPANIES = ("Transportes {} S.L.", "Construcciones {} S.A.", "Talleres {}", "Supermercados {}", "Limpiezas {} S.L.")
COMPANIES_CA = ("Transports {} S.L.", "Construccions {} S.A.", "Tallers {}", "Fusteria {}", "Forn {}")
DEMONYMS = ("peruano", "marroquí", "rumano", "colombiano", "ecuatoriano", "boliviano", "senegalés", "chino")
EPONYMS = (
    "Crohn",
    "Parkinson",
    "Addison",
    "Wernicke",
    "Hashimoto",
    "Chiari",
    "Cushing",
    "Graves",
    "Alzheimer",
    "Guillain-Barré",
    "Sjögren",
    "Raynaud",
)
DRUGS = (
    "Sintrom",
    "Adiro",
    "Eutirox",
    "Nolotil",
    "Enantyum",
    "Ventolin",
    "Omeprazol",
    "Seguril",
    "Lyrica",
    "Trankimazin",
    "metformina",
    "enalapril",
    "paracetamol",
    "ibuprofeno",
    "amoxicilina",
)
DEPARTMENTS_ES = (
    "el Servicio de Urgencias",
    "la Unidad de Ictus",
    "Cardiología",
    "Medicina Interna",
    "Neumología",
    "la Unidad de Cuidados Intensivos",
    "Traumatología",
    "el Hospital de Día",
    "Digestivo",
)
DEPARTMENTS_CA = ("Urgències", "Hematologia", "Cardiologia", "Medicina Interna", "Neurologia", "Pneumologia")
NEGATIVES_ES = (
    "Refiere dolor de cabeza opresivo que empeora con la exposición al sol.",
    "Presenta una lesión de color rosa pálido en el antebrazo, sin cambios.",
    "Acude por tos seca y febrícula; en {dept} se pautó {drug}.",
    "Vive una vida activa; valorado previamente en {dept} por sospecha de enfermedad de {eponym}.",
    "Glasgow 15/15. Sin signos de {eponym}. Se mantiene {drug}.",
    "Presenta la piel morena por el sol, sin lesiones sospechosas.",
    "Comenta que se siente como un rey desde que toma {drug}.",
    "Control en {dept}; descartada enfermedad de {eponym}.",
)
NEGATIVES_CA = (
    "Refereix mal de cap i cansament; s'inicia {drug}.",
    "Ingressa a càrrec de {dept} per descartar síndrome de {eponym}.",
    "Valorat al Servei d'Urgències; CURS CLÍNIC sense incidències. Es reprèn el {drug}.",
    "Seguiment a la Unitat d'Ictus i a les consultes externes.",
    "Presenta una taca de color rosa a l'avantbraç, sense canvis.",
    "Glasgow 15. Sense signes de {eponym}. Es manté el {drug}.",
    "Valorada per {dept}, que recomana seguiment ambulatori.",
)


def article_ca(name: str) -> str:
    """The Catalan article of a centre: ``l'`` before a vowel or h, ``la`` before a feminine head, else ``el``."""
    if name[:1].lower() in "aeiouhàèéíòóú":
        return "l'"
    if name.split()[0].lower() in ("clínica", "clinica", "fundació", "residència", "mútua", "mutua", "policlínica"):
        return "la "
    return "el "


def at_centre_ca(preposition: str, name: str, label: str = "") -> list[Piece]:
    """``a l'[Hospital X]``, ``al [CAP Y]``, ``de la [Clínica Z]``, ``del [CAP Y]``: the article stays outside."""
    label = label or (CENTRE if name.startswith("CAP") else HOSPITAL)
    article = article_ca(name)
    if article == "el ":
        return [{"a": "al ", "de": "del ", "per": "pel "}[preposition], (name, label)]
    return [f"{preposition} {article}", (name, label)]


def personal_ca(v: Values, name: str, female: bool) -> tuple[str, tuple[str, str]]:
    """A Catalan personal article before a given name: ``l'[Anna]``, ``la [Núria]``, ``en [Quim]``."""
    if name[:1].lower() in "aeiouhàèéíòóú":
        return "l'", (name, "")
    return ("la " if female else "en "), (name, "")


def labelled(pieces: list[Piece], label: str) -> list[Piece]:
    """Pieces whose empty labels are filled with ``label``."""
    return [p if isinstance(p, str) else (p[0], p[1] or label) for p in pieces]


def kin(v: Values, catalan: bool, plural: bool = False) -> tuple[str, str, bool]:
    table = KIN_CA if catalan else KIN_ES
    choice = v.pick([k for k in table if k[1]] if plural else table)
    return choice


def of_ca(name: str) -> str:
    """``de Montgat``, ``d'Alboraya``."""
    return f"d'{name}" if name[:1].lower() in "aeiouhàèéíòóú" else f"de {name}"


def upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def capitalised(pieces: list[Piece]) -> list[Piece]:
    """The pieces with their first letter in capitals (a sentence's opening)."""
    if not pieces:
        return pieces
    first = pieces[0]
    if isinstance(first, str):
        return [first[:1].upper() + first[1:], *pieces[1:]]
    return [(first[0][:1].upper() + first[0][1:], first[1]), *pieces[1:]]


def age_sex(v: Values, patient: Person, catalan: bool, age: int) -> list[Piece]:
    """``Mujer de 45 años``, ``varón de setenta y dos años``, ``Dona de 72 anys``, ``paciente de 34 años``."""
    if catalan:
        sex = v.pick(("dona", "Dona") if patient.female else ("home", "Home"))
        number = words_ca(age) if v.chance(0.3) else str(age)
        number = number[:-1] + "un" if number == "u" or number.endswith("-u") else number
        unit = "anys"
    else:
        sex = v.pick(("mujer", "Mujer", "paciente mujer") if patient.female else ("varón", "Varón", "hombre"))
        number = words_es(age) if v.chance(0.3) else str(age)
        number = (
            "veintiún"
            if number == "veintiuno"
            else number.removesuffix("uno") + "un"
            if number.endswith(" uno")
            else number
        )
        unit = v.pick(("años", "años", "a."))
    age_text = f"{number} {unit}"
    if sex.startswith("paciente "):
        return ["Paciente ", (sex.split()[1], SEX), " de ", (age_text, AGE)]
    if v.chance(0.2):
        return [("Pacient" if catalan else "Paciente") + " de ", (age_text, AGE)]
    return [(sex, SEX), " de ", (age_text, AGE)]


def living(v: Values, catalan: bool, patient: Person) -> list[Piece]:
    word, _, female = kin(v, catalan)
    relative = v.person(female=female, catalan=catalan).given.split()[0]
    if catalan:
        form = v.rng.randrange(4)
        if form == 0:
            return [
                "Viu amb la seva " if female else "Viu amb el seu ",
                (word, RELATIVE),
                " ",
                (relative, RELATIVE),
                ".",
            ]
        if form == 1:
            article, (given, _) = personal_ca(v, relative, female)
            return [
                "Viu amb ",
                article,
                (given, RELATIVE),
                ", ",
                "la seva " if female else "el seu ",
                (word, RELATIVE),
                ".",
            ]
        if form == 2:
            town = v.town(True)
            return ["Viu sol" + ("a" if v.chance(0.5) else "") + " a ", (town.name, PLACE), "."]
        return [
            "Conviu amb la " if female else "Conviu amb el ",
            (word, RELATIVE),
            ", que fa de cuidador" + ("a" if female else "") + " principal.",
        ]
    form = v.rng.randrange(4)
    if form == 0:
        return ["Vive con su ", (word, RELATIVE), " ", (relative, RELATIVE), "."]
    if form == 1:
        return ["Vive en ", (v.town(False).name, PLACE), " con su ", (word, RELATIVE), "."]
    if form == 2:
        plural = kin(v, False, plural=True)
        count = v.pick(("dos", "tres", "cuatro", "cinco"))
        state = v.pick(("Casada", "Viuda", "Separada") if patient.female else ("Casado", "Viudo", "Divorciado"))
        return [state, ", con ", (f"{count} {plural[1]}", RELATIVE), "."]
    return [
        "Convive con su ",
        (word, RELATIVE),
        ", ",
        (relative, RELATIVE),
        ", que es su " + ("cuidadora" if female else "cuidador") + " principal.",
    ]


def accompanied(v: Values, catalan: bool, patient: Person) -> list[Piece]:
    word, _, female = kin(v, catalan)
    relative = v.person(female=female, catalan=catalan).given.split()[0]
    ending = "ada" if patient.female else "at"
    if catalan:
        if v.chance(0.5):
            article = "de la seva " if female else "del seu "
            return [f"Ve acompany{ending} {article}", (word, RELATIVE), "."]
        own = "la seva " if female else "el seu "
        article, (given, _) = personal_ca(v, relative, female)
        if article == "l'":
            return [f"Acompany{ending} de l'", (given, RELATIVE), " (", (word, RELATIVE), ")."]
        if female:
            return [f"Acompany{ending} de la ", (given, RELATIVE), ", ", own, (word, RELATIVE), "."]
        return [f"Acompany{ending} d'en ", (given, RELATIVE), ", ", own, (word, RELATIVE), "."]
    if v.chance(0.5):
        return [
            f"Acude acompañad{'a' if patient.female else 'o'} de su ",
            (word, RELATIVE),
            " ",
            (relative, RELATIVE),
            ".",
        ]
    return ["Viene con su ", (word, RELATIVE), ", quien aporta la información."]


def doctor_title(v: Values, female: bool, catalan: bool) -> str:
    if catalan:
        return v.pick(("Dra. ", "la Dra. ", "la doctora ")) if female else v.pick(("Dr. ", "el Dr. ", "el doctor "))
    return v.pick(("Dra. ", "la Dra. ", "la doctora ")) if female else v.pick(("Dr. ", "el Dr. ", "el doctor "))


def doctor_name(v: Values, catalan: bool) -> tuple[str, bool]:
    doctor = v.person(catalan=catalan)
    name = v.pick((doctor.first, f"{doctor.given.split()[0]} {doctor.first}", f"{doctor.first} {doctor.second}"))
    return name, doctor.female


def referred(v: Values, catalan: bool, patient: Person) -> list[Piece]:
    name, female = doctor_name(v, catalan)
    if catalan:
        ending = "ada" if patient.female else "at"
        centre = v.centre(True) if v.chance(0.6) else v.hospital(True)
        title = v.pick(("per la Dra. ", "per la doctora ")) if female else v.pick(("pel Dr. ", "pel doctor "))
        return [f"Deriv{ending} ", title, (name, DOCTOR), " ", *at_centre_ca("de", centre), "."]
    title = doctor_title(v, female, False)
    if title.startswith(("el ", "El ")):
        title = title[3:]
        preposition = "por el "
    else:
        preposition = "por "
    ending = "a" if patient.female else "o"
    if v.chance(0.6):
        centre = v.centre(False)
        return [f"Remitid{ending} {preposition}", title, (name, DOCTOR), " del ", (centre, CENTRE), "."]
    return [f"Trasladad{ending} desde el ", (v.hospital(False), HOSPITAL), " para estudio."]


def date_phrase(v: Values, catalan: bool) -> list[Piece]:
    day = v.date()
    form = v.rng.randrange(7)
    if catalan:
        if form == 0:
            return ["el passat ", (v.word_date(day, True), DATE)]
        if form == 1:
            return ["el ", (v.word_date(day, True, weekday=True), DATE)]
        if form == 2:
            return ["per ", (v.pick(FEASTS_CA), DATE)]
        if form == 3:
            later = day + dt.timedelta(days=v.rng.randint(2, 20))
            return ["des del ", (v.numeric_date(day), DATE), " fins al ", (v.numeric_date(later), DATE)]
        if form == 4:
            return [
                "el ",
                (v.numeric_date(day), DATE),
                f" a les {v.rng.randint(7, 22)}:{v.pick(('00', '15', '30', '45'))} h",
            ]
        return ["el ", (v.word_date(day, True, year=True), DATE)]
    if form == 0:
        return ["el pasado ", (v.word_date(day, False), DATE)]
    if form == 1:
        return ["el ", (v.word_date(day, False, weekday=True), DATE)]
    if form == 2:
        return [v.pick(("la víspera de ", "el día de ", "en ")), (v.pick(FEASTS_ES), DATE)]
    if form == 3:
        later = day + dt.timedelta(days=v.rng.randint(2, 20))
        return ["desde el ", (v.numeric_date(day), DATE), " hasta el ", (v.numeric_date(later), DATE)]
    if form == 4:
        return [
            "el ",
            (v.numeric_date(day), DATE),
            f" a las {v.rng.randint(7, 22)}:{v.pick(('00', '15', '30', '45'))} h",
        ]
    if form == 5:
        return ["en ", (f"{MONTHS_ES[day.month - 1]} de {day.year}", DATE)]
    return ["el ", (v.word_date(day, False, year=True), DATE)]


def address(v: Values, catalan: bool, lower: bool = False) -> list[Piece]:
    town = v.town(catalan)
    pieces: list[Piece] = [(v.street(catalan, lower=lower), STREET)]
    if v.chance(0.6):
        pieces += [", ", (v.pick(town.postcodes), PLACE), " "]
    else:
        pieces += [v.pick((", ", " de ", " - "))]
    pieces.append((town.name.lower() if lower else town.name, PLACE))
    if v.chance(0.3):
        pieces += [" (", (town.province, PLACE), ")"]
    return pieces


def occupation(v: Values, female: bool) -> str:
    """A Spanish job title that agrees with the patient's sex (``anonimed.text.gender`` for the feminine)."""
    if not v.sources.occupations:
        return "camarera" if female else "camarero"
    work = v.pick(v.sources.occupations)
    if female:
        return feminine_title(work)
    for _ in range(8):
        head = work.split()[0]
        if not head.endswith("a") or head.endswith(("ista", "ía", "iatra", "ta")):
            break
        work = v.pick(v.sources.occupations)
    return work


def job(v: Values, catalan: bool, patient: Person) -> list[Piece]:
    surname = v.person(catalan=catalan).first
    employer = v.pick(COMPANIES_CA if catalan else COMPANIES).format(surname)
    if catalan:
        work = v.pick(JOBS_CA)[1 if patient.female else 0]
        if v.chance(0.3):
            town = v.town(True).name
            return [
                "Treballa com a ",
                (work, JOB),
                " ",
                *at_centre_ca("a", f"Ajuntament {of_ca(town)}", OTHER),
                ".",
            ]
        of = "d'" if work[0] in "aeiouàèéíòóú" else "de "
        return [f"Treballa {of}", (work, JOB), " a ", (employer, OTHER), "."]
    work = occupation(v, patient.female)
    form = v.rng.randrange(4)
    if form == 0:
        return ["Trabaja como ", (work, JOB), " en ", (employer, OTHER), "."]
    if form == 3:
        return ["Es ", (work, JOB), " en el ", (f"Ayuntamiento de {v.town(False).name}", OTHER), "."]
    if form == 1:
        return ["Jubilad" + ("a" if patient.female else "o") + ", fue ", (work, JOB), " durante treinta años."]
    return ["De profesión ", (work, JOB), "."]


def origin(v: Values) -> list[Piece]:
    if v.chance(0.5):
        return ["Natural de ", (v.pick(v.sources.countries), COUNTRY), ", reside en ", (v.town(False).name, PLACE), "."]
    return ["De origen ", (v.pick(DEMONYMS), "ID_SUJETO_ASISTENCIA"), ", sin barrera idiomática."]


def relatives_history(v: Values, catalan: bool) -> list[Piece]:
    age = v.rng.randint(40, 85)
    if catalan:
        word = v.pick(("pare", "mare", "germà", "germana"))
        return [
            "Antecedents familiars: ",
            (word, RELATIVE),
            " morta als " if word in ("mare", "germana") else " mort als ",
            (f"{age} anys", RELATIVE),
            " per IAM.",
        ]
    word = v.pick(("padre", "madre", "hermano", "hermana"))
    return [
        "Antecedentes familiares: ",
        (word, RELATIVE),
        " fallecid",
        "a" if word in ("madre", "hermana") else "o",
        " a los ",
        (f"{age} años", RELATIVE),
        " de neoplasia de colon.",
    ]


def informed(v: Values, catalan: bool, patient: Person) -> list[Piece]:
    """A son or daughter told about the patient: the kinship word that points at the patient is not PHI."""
    word, female = v.pick((("filla", True), ("fill", False)) if catalan else (("hija", True), ("hijo", False)))
    if catalan:
        parent = "la seva mare" if patient.female else "el seu pare"
        ending = "ada" if patient.female else "at"
        return ["S'informa ", "la " if female else "el ", (word, RELATIVE), f" que {parent} queda ingress{ending}."]
    parent = "su madre" if patient.female else "su padre"
    return [
        "Se informa a su ",
        (word, RELATIVE),
        f" de que {parent} queda ingresad" + ("a" if patient.female else "o") + " en planta.",
    ]


def contact(v: Values, catalan: bool) -> list[Piece]:
    word, _, _ = kin(v, catalan)
    if catalan:
        return [v.pick(("Telèfon de contacte ", "Contacte: ")), (v.phone(), PHONE), " (", (word, RELATIVE), ")."]
    if v.chance(0.5):
        return [v.pick(("Teléfono de contacto: ", "Tfno. de contacto ", "Localizable en el ")), (v.phone(), PHONE), "."]
    return ["Contactar con su ", (word, RELATIVE), " en el ", (v.phone(), PHONE), "."]


def negative(v: Values, catalan: bool) -> str:
    template = v.pick(NEGATIVES_CA if catalan else NEGATIVES_ES)
    return template.format(
        dept=v.pick(DEPARTMENTS_CA if catalan else DEPARTMENTS_ES), drug=v.pick(DRUGS), eponym=v.pick(EPONYMS)
    )
