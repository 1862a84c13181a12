"""The PHI type scheme of MEDDOCAN (IberLEF 2019): 29 fine types, their i2b2-style parent group and a coarse class.

The fine type names are those of the organisers' scorer; the guidelines call OTRO_NUMERO_IDENTIF ``NUMERO_IDENTIF``
and that spelling is accepted as an alias.  The coarse classes are the six of radiology-report de-identification
(DiSMed): NAME, DIR (addresses, e-mails, URLs), LOC, NUM (numbers and identifiers), FECHA, INST; types that have no
place in those six (sex, profession) map to ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass

GROUPS = ("NAME", "PROFESSION", "LOCATION", "AGE", "DATE", "CONTACT", "ID", "OTHER")
COARSE_CLASSES = ("NAME", "DIR", "LOC", "NUM", "FECHA", "INST")


@dataclass(frozen=True)
class PhiType:
    name: str
    group: str
    coarse: str | None
    description: str
    in_training_data: bool


_TYPES = (
    PhiType("NOMBRE_SUJETO_ASISTENCIA", "NAME", "NAME", "patient's given names and surnames", True),
    PhiType("NOMBRE_PERSONAL_SANITARIO", "NAME", "NAME", "names of clinicians and other health staff", True),
    PhiType("PROFESION", "PROFESSION", None, "the patient's job", True),
    PhiType("HOSPITAL", "LOCATION", "INST", "hospitals and care centres", True),
    PhiType("CENTRO_SALUD", "LOCATION", "INST", "primary-care health centres", True),
    PhiType("INSTITUCION", "LOCATION", "INST", "institutions other than hospitals or health centres", True),
    PhiType("CALLE", "LOCATION", "DIR", "street address: street type, name, number, floor", True),
    PhiType("TERRITORIO", "LOCATION", "LOC", "towns, provinces, regions, postal codes", True),
    PhiType("PAIS", "LOCATION", "LOC", "countries", True),
    PhiType("EDAD_SUJETO_ASISTENCIA", "AGE", "NUM", "patient's age with its unit", True),
    PhiType("FECHAS", "DATE", "FECHA", "any date or date part: days, months, years, festivities", True),
    PhiType("NUMERO_TELEFONO", "CONTACT", "NUM", "telephone and pager numbers", True),
    PhiType("NUMERO_FAX", "CONTACT", "NUM", "fax numbers", True),
    PhiType("CORREO_ELECTRONICO", "CONTACT", "DIR", "e-mail addresses", True),
    PhiType("URL_WEB", "CONTACT", "DIR", "web addresses", False),
    PhiType(
        "ID_SUJETO_ASISTENCIA", "ID", "NUM", "patient identifiers (NHC, CIPA, DNI/NIF, passport), ethnic group", True
    ),
    PhiType("ID_CONTACTO_ASISTENCIAL", "ID", "NUM", "episode or care-contact numbers", True),
    PhiType("ID_ASEGURAMIENTO", "ID", "NUM", "social-security affiliation number (NASS)", True),
    PhiType("ID_TITULACION_PERSONAL_SANITARIO", "ID", "NUM", "clinician's professional registration number", True),
    PhiType("ID_EMPLEO_PERSONAL_SANITARIO", "ID", "NUM", "staff employee number", False),
    PhiType("NUMERO_BENEF_PLAN_SALUD", "ID", "NUM", "health-plan beneficiary number (HIPAA; unused in Spain)", False),
    PhiType("IDENTIF_VEHICULOS_NRSERIE_PLACAS", "ID", "NUM", "licence plates and vehicle serial numbers", False),
    PhiType("IDENTIF_DISPOSITIVOS_NRSERIE", "ID", "NUM", "device identifiers: IP and MAC addresses, serials", False),
    PhiType("IDENTIF_BIOMETRICOS", "ID", "NUM", "biometric identifiers (fingerprint, retina scan codes)", False),
    PhiType("OTRO_NUMERO_IDENTIF", "ID", "NUM", "any other identifying number (membership, library card)", False),
    PhiType("SEXO_SUJETO_ASISTENCIA", "OTHER", None, "patient's sex", True),
    PhiType("FAMILIARES_SUJETO_ASISTENCIA", "OTHER", "NAME", "relatives: names, kinship, number, ages", True),
    PhiType("OTROS_SUJETO_ASISTENCIA", "OTHER", "INST", "other identifying facts (employer, account numbers)", True),
    PhiType("DIREC_PROT_INTERNET", "OTHER", "DIR", "internet protocol addresses (http://, ftp://)", False),
)

PHI_TYPES: dict[str, PhiType] = {t.name: t for t in _TYPES}
ALIASES = {"NUMERO_IDENTIF": "OTRO_NUMERO_IDENTIF", "ID_CENTRO_DE_SALUD": "CENTRO_SALUD"}
LABELS: tuple[str, ...] = tuple(PHI_TYPES)


class UnknownLabelError(ValueError):
    """A label that is neither a MEDDOCAN type nor one of its aliases."""


def canonical_label(label: str) -> str:
    """The scheme's name for ``label``; raises :class:`UnknownLabelError` for anything else."""
    name = ALIASES.get(label, label)
    if name not in PHI_TYPES:
        raise UnknownLabelError(f"unknown PHI label {label!r}; known labels: {', '.join(LABELS)}")
    return name


def group_of(label: str) -> str:
    return PHI_TYPES[canonical_label(label)].group


def coarse_of(label: str) -> str | None:
    return PHI_TYPES[canonical_label(label)].coarse


SCHEMES = ("meddocan", "coarse")
# Section headers in the coarse scheme of radiology-report de-identification: annotated there, never PHI.
COARSE_HEADER = "CAB"


def label_in_scheme(label: str, scheme: str) -> str | None:
    """``label`` as ``scheme`` names it, or ``None`` where that scheme counts no PHI (a section header; sex and
    profession in the coarse scheme).  Coarse classes stay as they are, so gold files written in the coarse scheme
    score too; a label of neither scheme is kept as given (it then counts as a wrong type)."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown scheme {scheme!r}; known schemes: {', '.join(SCHEMES)}")
    if scheme == "meddocan" or label in COARSE_CLASSES:
        return label
    if label == COARSE_HEADER:
        return None
    try:
        return coarse_of(label)
    except UnknownLabelError:
        return label
