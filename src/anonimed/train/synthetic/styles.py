"""One writer per note style: which frames a note of that style is made of, in what layout and case."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from anonimed.train.synthetic import frames as f
from anonimed.train.synthetic.values import (
    AGE,
    CENTRE,
    DATE,
    DOCTOR,
    EMAIL,
    EPISODE,
    FAX,
    HOSPITAL,
    INSURANCE,
    JOB,
    LICENCE,
    NAME,
    OTHER,
    PATIENT_ID,
    PHONE,
    PLACE,
    RELATIVE,
    SEX,
    URL,
    Builder,
    Person,
    Piece,
    Values,
)

CATALAN_CLINICAL = (
    "Exploració física: conscient i orientat, eupneic, afebril.",
    "Auscultació cardiopulmonar: tons rítmics sense bufs, murmuri vesicular conservat.",
    "Analítica amb lleugera elevació de la PCR, resta sense alteracions.",
    "Es realitza radiografia de tòrax sense condensacions.",
    "Bona evolució clínica durant l'ingrés, amb millora progressiva de la dispnea.",
    "Es pauta tractament antibiòtic endovenós i fluidoteràpia.",
    "Refereix dolor abdominal difús de tres dies d'evolució, sense febre.",
    "Presenta edemes a extremitats inferiors fins a genolls.",
    "Tolera dieta oral i deambula sense ajuda.",
    "Es decideix alta a domicili amb control pel seu metge de capçalera.",
    "Pla: continuar amb el tractament habitual i revisió en un mes.",
    "Pressió arterial 130/80, freqüència cardíaca 78 x', saturació 96 %.",
    "Nega al·lèrgies medicamentoses conegudes.",
    "Es fan cures de la ferida quirúrgica, sense signes d'infecció.",
)
CATALAN_HEADINGS = ("CURS CLÍNIC", "Motiu d'ingrés", "ANTECEDENTS", "Exploració", "Pla terapèutic", "Evolució")
SPANISH_HEADINGS = ("Motivo de ingreso", "ANTECEDENTES", "Evolución", "EXPLORACIÓN FÍSICA", "Juicio clínico", "Plan")
# Findings by body region, each region with an eponym or scale that is not PHI; studies name their region.
FINDINGS: dict[str, tuple[str, ...]] = {
    "chest": (
        "No se observan adenopatías mediastínicas ni hiliares de tamaño significativo.",
        "Nódulo pulmonar de 5 mm en LSD; según criterios Fleischner no precisa seguimiento.",
        "Derrame pleural derecho de pequeña cuantía.",
        "Sin condensaciones parenquimatosas. Silueta cardiaca normal.",
    ),
    "head": (
        "Descenso de amígdalas cerebelosas compatible con malformación de Chiari tipo I.",
        "Sin signos de sangrado intracraneal ni efecto de masa.",
        "Lesiones de sustancia blanca periventricular, Fazekas 1.",
        "Sistema ventricular de tamaño normal, línea media centrada.",
    ),
    "abdomen": (
        "Quiste renal izquierdo de 14 mm, Bosniak I.",
        "Lesión hipodensa hepática de 40 unidades Hounsfield, sugestiva de quiste simple.",
        "Engrosamiento mural de íleon terminal sugestivo de enfermedad de Crohn.",
        "Hígado de tamaño y ecoestructura normales. Vesícula alitiásica.",
    ),
    "breast": (
        "Mamas de patrón fibroglandular disperso. Categoría BI-RADS 2.",
        "No se identifican microcalcificaciones sospechosas. BI-RADS 1.",
        "Ganglios axilares de morfología normal.",
    ),
}
FINDINGS_CA: dict[str, tuple[str, ...]] = {
    "chest": (
        "No s'observen adenopaties mediastíniques ni hiliars.",
        "Nòdul pulmonar de 4 mm; segons criteris Fleischner no cal seguiment.",
        "Petit vessament pleural esquerre.",
    ),
    "head": (
        "Sense signes de sagnat intracranial. Línia mitjana centrada.",
        "Descens amigdalar compatible amb malformació de Chiari I.",
        "Lesions de substància blanca, Fazekas 2.",
    ),
    "abdomen": (
        "Quist renal dret de 12 mm, Bosniak II.",
        "Fetge de mida normal, sense lesions focals.",
        "Lesió hepàtica hipodensa de 10 UH (Hounsfield), quist simple.",
    ),
    "breast": ("Mames de densitat heterogènia. BI-RADS 3.", "Sense microcalcificacions sospitoses. BI-RADS 1."),
}
STUDIES = (
    ("TC DE TÓRAX CON CONTRASTE", "chest"),
    ("RX DE TÓRAX PA Y LATERAL", "chest"),
    ("PET-TC", "chest"),
    ("RM CEREBRAL", "head"),
    ("TC CRANEAL SIN CONTRASTE", "head"),
    ("ECOGRAFÍA ABDOMINAL", "abdomen"),
    ("TC ABDOMINOPÉLVICO", "abdomen"),
    ("MAMOGRAFÍA BILATERAL", "breast"),
)
STUDIES_CA = (
    ("TC TORÀCIC AMB CONTRAST", "chest"),
    ("RX DE TÒRAX", "chest"),
    ("RM CRANIAL", "head"),
    ("ECOGRAFIA ABDOMINAL", "abdomen"),
    ("MAMOGRAFIA BILATERAL", "breast"),
)
_EPONYMOUS = re.compile(r"Bosniak|Chiari|Fleischner|Hounsfield|BI-RADS|Crohn|Fazekas")
PRIMARY = (
    "tos y mocos 3 dias",
    "afebril",
    "ac: rcr sin soplos",
    "ap: mvc sin ruidos",
    "abd blando depresible",
    "orofaringe hiperemica",
    "ta 135/85",
    "plan: paracetamol 1g/8h",
    "control en 1 sem",
    "se pauta ibuprofeno 600",
    "otoscopia normal",
    "glucemia 145",
    "no disnea",
    "refiere mareo al levantarse",
    "seguir con enalapril 10",
)
PRIMARY_CA = ("diu que té tos fa 4 dies", "afebril", "ac: tons rítmics", "ve per renovar receptes", "pla: repòs")


def _write_pieces(b: Builder, pieces: list[Piece], case: str = "") -> None:
    if case == "upper":
        pieces = [p.upper() if isinstance(p, str) else (p[0].upper(), p[1]) for p in pieces]
    elif case == "lower":
        pieces = [p.lower() if isinstance(p, str) else (p[0].lower(), p[1]) for p in pieces]
    b(*pieces)


def _key(v: Values, b: Builder, key: str, value: list[Piece], case: str = "", newline: bool = False) -> None:
    """``Key: value`` or, with ``newline``, the key alone on its line and the value below it."""
    if not v.separator or v.chance(0.1):  # one layout a note, now and then another line's own
        v.separator = v.pick((": ", ": ", ":  ", " ", ".: ", ":\t", " | ", "  "))
    separator = "\n" if newline else v.separator
    if key.endswith(".") and separator.startswith("."):
        separator = separator[1:]
    if separator in (" | ", "  "):  # the left column of a table
        key = f"{key:<24}"
    _write_pieces(b, [key.rstrip(":") + (":" if newline and v.chance(0.7) else "") + separator, *value, "\n"], case)


def _patient_name(v: Values, patient: Person) -> list[Piece]:
    return [(v.name_form(patient), NAME)]


def _sentences(v: Values, count: int) -> list[str]:
    return list(v.rng.sample(v.sources.sentences, min(count, len(v.sources.sentences))))


def narrativa(v: Values, b: Builder, patient: Person) -> None:
    age = v.age()
    body: list[list[Piece]] = [
        f.living(v, False, patient),
        f.accompanied(v, False, patient),
        f.referred(v, False, patient),
        f.job(v, False, patient),
        [v.pick(("Ingresa ", "Acude a Urgencias ", "Consulta ")), *f.date_phrase(v, False), " por empeoramiento."],
        [f.negative(v, False)],
        f.relatives_history(v, False),
    ]
    if v.chance(0.4):
        body.append(["Reside en ", *f.address(v, False), "."])
    if v.chance(0.4):
        body.append(f.contact(v, False))
    if v.chance(0.3):
        body.append(f.origin(v))
    if v.chance(0.4):
        body.append(f.informed(v, False, patient))
    if v.chance(0.35):
        title = v.pick(("la Sra. ", "Dña. ", "la señora ") if patient.female else ("el Sr. ", "D. ", "el señor "))
        lead = v.pick(("Se comenta el caso de ", "Valoramos a "))
        if title.startswith("el "):
            lead = lead.removesuffix("de ") + "del " if lead.endswith("de ") else lead.removesuffix("a ") + "al "
            title = title[3:]
        body.append([lead, title, (v.name_form(patient, prose=True), NAME), "."])
    body += [[s] for s in _sentences(v, v.rng.randint(2, 5))]
    v.rng.shuffle(body)
    if v.chance(0.5):
        b(v.pick(("INFORME DE ALTA", "Nota de evolución", "EVOLUCIÓN", "Informe clínico")), "\n\n")
    b(
        *f.capitalised(f.age_sex(v, patient, False, age)),
        v.pick((" con antecedentes de ", " que presenta ")),
        v.pick(("hipertensión arterial y dislipemia.", "EPOC y diabetes tipo 2.", "fibrilación auricular.")),
        "\n",
    )
    for number, sentence in enumerate(body):
        b(*sentence, "\n" if number % 3 == 2 or v.chance(0.2) else " ")
    day = v.date(10)
    when = v.numeric_date(day) if v.chance(0.5) else v.word_date(day, False, year=v.chance(0.5))
    b("\n", v.pick(("Alta el ", "Se da de alta el ", "Alta a domicilio el ")), (when, DATE))
    b(v.pick((".", ", con control por su MAP.", " con seguimiento en consultas externas.")), "\n")
    name, female = f.doctor_name(v, False)
    title = v.pick(("Dra. ", "Dra ", "La doctora ")) if female else v.pick(("Dr. ", "Dr ", "El doctor "))
    b(v.pick(("Fdo.: ", "Firmado: ", "")), title, (name, DOCTOR), "\n")


def catala(v: Values, b: Builder, patient: Person) -> None:
    kind = v.pick(("INFORME D'ALTA", "Nota d'evolució", "Valoració d'infermeria", "Informe de treball social"))
    b(kind, "\n")
    if v.chance(0.7):
        _key(v, b, v.pick(("Pacient", "Nom i cognoms", "Nom")), _patient_name(v, patient))
        if v.chance(0.6):
            _key(v, b, v.pick(("NHC", "Núm. història", "NHC")), [(v.digits(6, 8), PATIENT_ID)])
        if v.chance(0.6):
            _key(v, b, "CIP", [(v.cip(), PATIENT_ID)])
        if v.chance(0.4):
            _key(v, b, "Adreça", f.address(v, True))
        if v.chance(0.4):
            _key(v, b, v.pick(("Telèfon", "Telèfon mòbil", "Tel.")), [(v.phone(), PHONE)])
        if v.chance(0.4):
            _key(v, b, v.pick(("Episodi", "Núm. episodi")), [(v.digits(7, 9), EPISODE)])
        _key(v, b, v.pick(("Data d'ingrés", "Data", "Data de visita")), [(v.numeric_date(v.date()), DATE)])
    b("\n")
    body: list[list[Piece]] = [
        f.living(v, True, patient),
        f.accompanied(v, True, patient),
        f.referred(v, True, patient),
        f.job(v, True, patient),
        [v.pick(("Ingressa ", "Consulta ", "Acudeix a Urgències ")), *f.date_phrase(v, True), " per febre."],
        [f.negative(v, True)],
        f.relatives_history(v, True),
        f.informed(v, True, patient),
    ]
    hospital = v.hospital(True)
    body.append(
        ["Prèviament estudiada " if patient.female else "Prèviament estudiat ", *f.at_centre_ca("a", hospital), "."]
    )
    body += [[line] for line in v.rng.sample(CATALAN_CLINICAL, v.rng.randint(2, 4))]
    if v.chance(0.3):
        body += [[s] for s in _sentences(v, 1)]  # some notes mix Spanish and Catalan
    v.rng.shuffle(body)
    b(*f.capitalised(f.age_sex(v, patient, True, v.age())), ".\n")
    if v.chance(0.5):
        b(v.pick(CATALAN_HEADINGS), "\n")
    for number, sentence in enumerate(body):
        b(*sentence, "\n" if number % 2 == 1 or v.chance(0.3) else " ")
    name, female = f.doctor_name(v, True)
    b("\n", f.doctor_title(v, female, True).strip().replace("la ", "").replace("el ", "").capitalize(), " ")
    b((name, DOCTOR), v.pick((" - núm. col. ", ", núm. col. ", "\nNúm. col. ")), (v.licence(), LICENCE), "\n")


def radiologia(v: Values, b: Builder, patient: Person) -> None:
    catalan = v.chance(0.4)
    case = "upper" if v.chance(0.5) else ""
    newline = v.chance(0.6)
    hospital = v.hospital(catalan)
    if v.chance(0.5):
        _write_pieces(
            b,
            [
                (hospital, HOSPITAL),
                "\n",
                "SERVICIO DE RADIODIAGNÓSTICO" if not catalan else "SERVEI DE RADIOLOGIA",
                "\n",
            ],
            case,
        )
        if v.chance(0.4):
            line: list[Piece] = [*f.address(v, catalan), "\n"]
            if v.chance(0.6):
                line += [v.pick(("Tel. ", "Tlf: ", "Telèfon: " if catalan else "Teléfono: ")), (v.phone(False), PHONE)]
                line += ["\n"]
            _write_pieces(b, line, case)
        b("\n")
    keys: list[tuple[str, list[Piece]]] = (
        [
            ("PACIENT", _patient_name(v, patient)),
            ("SIP" if v.chance(0.5) else "CIP", [(v.cip() if v.chance(0.5) else v.digits(7, 8), PATIENT_ID)]),
            ("DATA", [(v.numeric_date(v.date(30)), DATE)]),
            ("NHC", [(v.digits(6, 8), PATIENT_ID)]),
            ("EDAT", [(f"{v.age()} anys", AGE)]),
            ("Nº ACC", [(v.pick(("RX", "TC", "")) + v.digits(7, 9), EPISODE)]),
        ]
        if catalan
        else [
            ("PACIENTE", _patient_name(v, patient)),
            ("NHC", [(v.digits(6, 8), PATIENT_ID)]),
            ("FECHA", [(v.numeric_date(v.date(30)), DATE)]),
            ("Nº ACCESO" if v.chance(0.5) else "Nº PETICIÓN", [(v.digits(7, 10), EPISODE)]),
            ("EDAD", [(f"{v.age()} años", AGE)]),
            ("SEXO", [(v.pick(("M", "Mujer")) if patient.female else v.pick(("H", "Hombre")), SEX)]),
        ]
    )
    keys = [k for k in keys if v.chance(0.8)] or keys[:1]
    for key, value in keys:
        _key(v, b, key, value, case, newline)
    name, female = f.doctor_name(v, catalan)
    centre = v.centre(catalan)
    _write_pieces(
        b,
        [
            "\n",
            "SOL·LICITANT: " if catalan else "Solicitado por: ",
            f.doctor_title(v, female, catalan).strip().replace("la ", "").replace("el ", "").capitalize(),
            " ",
            (name, DOCTOR),
            " (",
            (centre, CENTRE),
            ")\n\n",
        ],
        case,
    )
    study, region = v.pick(STUDIES_CA if catalan else STUDIES)
    findings = (FINDINGS_CA if catalan else FINDINGS)[region]
    _write_pieces(b, [study, "\n\n"], "upper")
    _write_pieces(
        b,
        [
            "INFORMACIÓ CLÍNICA:\n" if catalan else "INFORMACIÓN CLÍNICA:\n",
            v.pick(
                ("Control evolutiu.\n", "Dolor toràcic.\n")
                if catalan
                else ("Disnea de esfuerzo.\n", "Control oncológico.\n", "Cefalea persistente.\n")
            ),
            "\n",
        ],
        case,
    )
    _write_pieces(b, ["TROBALLES:\n" if catalan else v.pick(("HALLAZGOS:\n", "Hallazgos:\n", "INFORME:\n"))], case)
    eponymous = [x for x in findings if _EPONYMOUS.search(x)]
    others = [x for x in findings if x not in eponymous]
    chosen = [v.pick(eponymous), *v.rng.sample(others, min(len(others), v.rng.randint(1, 2)))]
    v.rng.shuffle(chosen)
    for finding in chosen:
        _write_pieces(b, [finding, "\n"], case)
    if v.chance(0.5):
        _write_pieces(
            b,
            [
                "Comparado con estudio previo del " if not catalan else "Comparat amb l'estudi del ",
                (v.numeric_date(v.date(900)), DATE),
                ", sin cambios.\n" if not catalan else ", sense canvis.\n",
            ],
            case,
        )
    _write_pieces(
        b,
        [
            "\n",
            "CONCLUSIÓ:\n" if catalan else v.pick(("CONCLUSIÓN:\n", "CONCLUSIÓN\n", "Impresión diagnóstica:\n")),
            v.pick(findings),
            "\n\n",
        ],
        case,
    )
    signer = v.person(catalan=catalan)
    _write_pieces(
        b,
        [
            (f"{signer.given.split()[0]} {signer.first} {signer.second}", DOCTOR),
            "\n",
            "Metge radiòleg" if catalan else "Médico especialista en Radiodiagnóstico",
            "\n",
            v.pick(("Núm. col. ", "Nº colegiado: ", "Col. ")),
            (v.licence(), LICENCE),
            "\n",
        ],
        case,
    )
    if v.chance(0.2):
        _write_pieces(b, ["Fax: ", (v.phone(mobile=False), FAX), "\n"], case)


def primaria(v: Values, b: Builder, patient: Person) -> None:
    age = v.age(2, 95)
    if age < 14:
        sex = v.pick(("niña", "nena")) if patient.female else v.pick(("niño", "nen"))
    else:
        sex = v.pick(("m", "mujer", "dona")) if patient.female else v.pick(("h", "varon", "home"))
    openers: list[list[Piece]] = [
        ["pac. de ", (f"{age}a", AGE), ", "],
        [(sex, SEX), " ", (f"{age} a", AGE), ". "],
        ["pac ", (sex, SEX), " de ", (f"{age} años", AGE), " "],
    ]
    if v.chance(0.08):  # a few notes carry no PHI at all
        for _ in range(v.rng.randint(3, 6)):
            b(v.pick(PRIMARY + PRIMARY_CA), v.pick((". ", ", ", "\n", ".\n")))
        b(f.negative(v, False).lower(), "\n")
        return
    if v.chance(0.15):
        b(v.pick(("pac: ", "paciente: ", "")), (v.name_form(patient).lower(), NAME), "\n")
    b(
        *v.pick(openers),
        v.pick(("acude hoy,refiere ", "acude hoy por ", "ve avui per ", "consulta por ")),
        v.pick(PRIMARY),
        ". ",
    )
    parts: list[list[Piece]] = [[v.pick(PRIMARY)] for _ in range(v.rng.randint(2, 4))]
    parts.append([v.pick(PRIMARY_CA)])
    in_catalan = v.chance(0.4)
    word, _, female = f.kin(v, in_catalan)
    if age < 16:  # a child comes with a parent or a grandparent
        word, female = v.pick(
            (("mare", True), ("pare", False), ("àvia", True)) if in_catalan else (("madre", True), ("padre", False))
        )
    if in_catalan:
        parts.append(["ve amb la " if female else "ve amb el ", (word, RELATIVE)])
    else:
        parts.append([v.pick(("viene con su ", "acompañado de su ", "acompañada por su ")), (word, RELATIVE)])
    if v.chance(0.6):
        parts.append([v.pick(("tlf ", "tel ", "telf. ", "movil ")), (v.phone(prefix=False), PHONE)])
    if v.chance(0.5):
        parts.append(["vive en ", *f.address(v, v.chance(0.3), lower=True)])
    if v.chance(0.5):
        dni = v.dni().lower()
        parts.append([v.pick(("nie ", "nie: ")) if dni[0].isalpha() else v.pick(("dni ", "dni: ")), (dni, PATIENT_ID)])
    if v.chance(0.4):
        parts.append([v.pick(("nhc ", "nhc: ", "hc ")), (v.digits(6, 8), PATIENT_ID)])
    if v.chance(0.3):
        parts.append(["cip ", (v.cip().lower(), PATIENT_ID)])
    if v.chance(0.4):
        work = f.occupation(v, patient.female)
        parts.append(["trabaja de ", (work, JOB)])
    if v.chance(0.3):
        parts.append(["derivo a ", (v.hospital(False).lower(), HOSPITAL), " para valoracion"])
    if v.chance(0.3):
        parts.append(["email ", (v.email(patient), EMAIL)])
    if v.chance(0.3):
        parts.append(
            ["visto por su mf en el ", (v.centre(False).lower(), CENTRE), " ", (v.numeric_date(v.date()), DATE)]
        )
    parts.append([f.negative(v, False).lower().rstrip(".")])
    v.rng.shuffle(parts)
    for part in parts:
        b(*part, v.pick((". ", ", ", "\n", " ", ".\n")))
    b("\n")
    if v.chance(0.3):
        name, female = f.doctor_name(v, v.chance(0.3))
        b(v.pick(("mf: ", "dr", "fdo ")).replace("dr", "dra. " if female else "dr. "), (name.lower(), DOCTOR), "\n")


def cabeceras(v: Values, b: Builder, patient: Person) -> None:
    kind = v.rng.randrange(5)
    upper_keys = v.chance(0.3)
    newline = upper_keys and v.chance(0.6)
    hospital, centre = v.hospital(False), v.centre(False)
    age = v.age()
    birth = v.today - dt.timedelta(days=365 * age + v.rng.randrange(360))
    dni, licence = v.dni(), v.licence()
    phone_key = v.pick(("Teléfono móvil", "Móvil", "Teléfono"))
    title = (
        "SOLICITUD DE DERIVACIÓN",
        "CONSENTIMIENTO INFORMADO",
        "CERTIFICADO MÉDICO",
        "PARTE DE INCAPACIDAD TEMPORAL",
        "SOLICITUD DE PRUEBAS COMPLEMENTARIAS",
    )[kind]
    b(title, "\n\n")
    header: list[tuple[str, list[Piece]]] = [
        ("Hospital", [(hospital, HOSPITAL)]),
        (v.pick(("Centro de salud", "Centro de Salud", "Centro")), [(centre, CENTRE)]),
        (v.pick(("Nombre y apellidos", "Paciente", "Nombre del paciente")), _patient_name(v, patient)),
        ("NHC", [(v.digits(6, 8), PATIENT_ID)]),
        (v.pick(("CIP", "Tarjeta sanitaria", "CIP autonómico")), [(v.cip(), PATIENT_ID)]),
        (v.pick(("DNI/NIE", "DNI", "NIF")), [(dni, PATIENT_ID)]),
        (v.pick(("Nº afiliación S.S.", "NASS")), [(v.nass(), INSURANCE)]),
        (phone_key, [(v.phone(mobile=phone_key != "Teléfono" or None, prefix=v.chance(0.5)), PHONE)]),
        (v.pick(("Episodio", "Nº episodio")), [(v.digits(7, 10), EPISODE)]),
        (v.pick(("Fecha de nacimiento", "F. nacimiento")), [(v.numeric_date(birth), DATE)]),
        ("Sexo", [(v.pick(("Mujer", "M")) if patient.female else v.pick(("Hombre", "H")), SEX)]),
        ("Edad", [(f"{age} años", AGE)]),
        (v.pick(("Domicilio", "Dirección")), f.address(v, False)),
        ("Correo electrónico", [(v.email(patient), EMAIL)]),
    ]
    if kind == 3:
        work = f.occupation(v, patient.female)
        header += [("Empresa", [(v.pick(f.COMPANIES).format(v.person().first), OTHER)]), ("Ocupación", [(work, JOB)])]
    header = [h for h in header if v.chance(0.7)]
    v.rng.shuffle(header)
    for key, value in header:
        _key(v, b, key.upper() if upper_keys else key, value, "", newline)
    b("\n")
    name, female = f.doctor_name(v, False)
    if kind == 0:
        b(
            v.pick(("Estimado/a compañero/a:\n", "Estimada compañera:\n")),
            "Remito ",
            "a la paciente" if patient.female else "al paciente",
            " para valoración por ",
            v.pick(f.DEPARTMENTS_ES),
            ". ",
            f.negative(v, False),
            "\n",
        )
        b(*f.accompanied(v, False, patient), " ", *f.living(v, False, patient), "\n")
    elif kind == 1:
        b(
            "Yo, ",
            v.pick(("D./Dña. ", "D. " if not patient.female else "Dña. ", "")),
            (patient.full, NAME),
            ", con DNI ",
            (dni, PATIENT_ID),
            ", autorizo a ",
            f.doctor_title(v, female, False).lower(),
            (name, DOCTOR),
            " a realizar la prueba indicada. ",
            f.negative(v, False),
            "\n",
        )
        b("En ", (v.town(False).name, PLACE), ", a ", (v.word_date(v.date(30), False, year=True), DATE), ".\n")
    elif kind == 2:
        b(
            f.upper_first(f.doctor_title(v, female, False).strip()),
            " ",
            (name, DOCTOR),
            ", colegiada nº " if female else ", colegiado nº ",
            (licence, LICENCE),
            ", certifica que ",
            v.pick(("Dña. ", "") if patient.female else ("D. ", "")),
            (patient.full, NAME),
            " ha sido atendid",
            "a" if patient.female else "o",
            " ",
            *f.date_phrase(v, False),
            " en el ",
            v.pick(
                ("Servicio de Urgencias", "Hospital de Día", "Servicio de Cardiología", "Servicio de Traumatología")
            ),
            ".\n",
        )
    elif kind == 4:
        b(v.pick(("Prueba solicitada: ", "Exploración: ")), v.pick(STUDIES)[0].capitalize(), "\n")
        b("Prioridad: ", v.pick(("preferente", "normal", "urgente")), ". ", f.negative(v, False), "\n")
        b(*f.capitalised(f.age_sex(v, patient, False, age)), ", ", *f.date_phrase(v, False), " acude a consulta.\n")
    else:
        b(
            "Diagnóstico: lumbalgia mecánica. ",
            f.negative(v, False),
            "\n",
            "Fecha de baja: ",
            (v.numeric_date(v.date(20)), DATE),
            "\n",
        )
    signature: list[tuple[str, list[Piece]]] = [
        (v.pick(("Médico", "Facultativo", "Firma del médico")), [(name, DOCTOR)]),
        ("Cargo del médico", [v.pick(("Médico Adjunto", "Médico de Familia", "Jefe de Servicio", "MIR"))]),
        (v.pick(("Nº colegiado", "Núm. col.")), [(licence, LICENCE)]),
    ]
    if v.chance(0.3):
        signature.append(("Fax", [(v.phone(mobile=False), FAX)]))
    if v.chance(0.2):
        signature.append(("Web", [(f"www.{v.town(False).name.lower().replace(' ', '')}salud.es", URL)]))
    b("\n")
    for key, value in signature:
        _key(v, b, key.upper() if upper_keys else key, value, "", newline)


WRITERS: dict[str, Callable[[Values, Builder, Person], None]] = {
    "narrativa": narrativa,
    "catala": catala,
    "radiologia": radiologia,
    "primaria": primaria,
    "cabeceras": cabeceras,
}
