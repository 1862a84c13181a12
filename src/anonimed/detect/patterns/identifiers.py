"""Identifiers: of the patient (NHC, CIPA, DNI/NIE), of the care episode, of insurance, of clinicians, of devices,
vehicles and biometric records, and any other card number.

Most of them are bare numbers that only their key tells apart (``NHC: 368503`` vs ``Episodio: 1520368541``), so
they are found after their key; the formats with a structure of their own (DNI letter, NASS control digits, IP and
MAC addresses, plates, VIN) are also found without one.
"""

from __future__ import annotations

import re

from anonimed.detect.patterns import checks
from anonimed.detect.patterns.recognizer import DIGITS, KEY_GAP, Recognizer, first_digit, keyed

# ``Nº``, ``N.º``, ``No.``, ``Núm.``, ``número`` (followed by an optional ``de``).
_NUMBER_SIGN = r"(?:(?:n\.?[º°o]\.?|n[uú]m\.?|n[uú]mero)[ \t]*(?:de[ \t]+)?)"
# A number written in groups (``33 4568642 23``, ``08-08-25574``, ``139587451/23``), on one line.
_GROUPED_NUMBER = r"\d+(?:(?:[ \t]{1,2}|[-/])\d+)*"
# A code: letters and digits with at least one digit (``u000999``, ``FP537WXZ391``, ``SN-4411-B``).
_CODE = r"(?=[\w-]*\d)[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]|\d"
# Up to three lower-case words between a key and its code (``huella dactilar registrada FP537WXZ391``,
# ``Nº de serie del marcapasos: PM7730112``).
_WORDS_GAP = r"[ \t]*[:.]?[ \t]*(?:[a-záéíóúñ]+[ \t]*:?[ \t]+){0,3}"
# A serial: letters, digits and dashes, at least five characters and one digit (``PM7730112``, ``FP537WXZ391``).
_SERIAL = r"(?=[\w-]*\d)[A-Za-z0-9][A-Za-z0-9-]{3,}[A-Za-z0-9]"
# A plate (``5478 GDV``, ``M-1234-AB``) or a serial.
_VEHICLE = rf"\d{{4}}[ -]?[A-Z]{{3}}\b|[A-Z]{{1,2}}-?\d{{4}}-?[A-Z]{{1,2}}\b|{_SERIAL}"
# Letter triples after a number that are units, not plates (``1500 MGR`` in a note written in capitals).
_NOT_A_UNIT = r"(?!(?:MGR|MCG|MGS|GRS|KGS|MLS|CMS|MMS|HRS|LPM|RPM)\b)"
_CODE_LIST = rf"(?:{_CODE})(?:[ \t]*[;,/][ \t]*(?:{_CODE}))*"
_CODE_ITEM = re.compile(_CODE)
_DNI_FIRST_DIGIT = first_digit(r"[\w.-]")
_DNI = r"[XYZxyz]?[ -]?\d{1,2}\.?\d{3}\.?\d{3}(?:[ -]?[A-Za-z])?(?![\w])"

RECOGNIZERS = (
    Recognizer(
        "patient_record_keyed",
        "ID_SUJETO_ASISTENCIA",
        # ``CIPA: nhc-150679``: the ``nhc-`` prefix is not part of the identifier.
        re.compile(
            keyed(
                rf"NHC|N\.H\.C\.?|HC|(?:c[oó]digo[ \t]+|codi[ \t]+)?CIPA?|c[oó]digo[ \t]+de[ \t]+identificaci[oó]n"
                rf"|{_NUMBER_SIGN}?(?:d['’][ \t]*)?hist[oò]ria(?:[ \t]+cl[ií]nica)?|{_NUMBER_SIGN}paciente|id[ \t]+paciente",
                _GROUPED_NUMBER,
                KEY_GAP + r"(?i:nhc[-/])?",
            )
        ),
        0.97,
        triggers=("hc", "h.c", "cip", "identificaci", "historia", "història", "paciente"),
    ),
    Recognizer(
        "national_id_keyed",
        "ID_SUJETO_ASISTENCIA",
        re.compile(keyed(r"DNI|D\.N\.I\.?|NIF|N\.I\.F\.?|NIE|N\.I\.E\.?", _DNI)),
        0.98,
        triggers=("dni", "d.n.i", "nif", "n.i.f", "nie", "n.i.e"),
        check=checks.dni,
    ),
    Recognizer(
        "national_id",
        "ID_SUJETO_ASISTENCIA",
        # DNI (8 digits) or NIE (X, Y or Z and 7 digits) with their check letter: the letter must be right.
        re.compile(
            rf"(?:[XYZ](?<![\w.-][XYZ])-?\d{{7}}|{_DNI_FIRST_DIGIT}(?:\d{{7}}|\d\.\d{{3}}\.\d{{3}}))[ -]?[A-Z](?![\w])"
        ),
        0.92,
        triggers=DIGITS,
        check=checks.dni,
    ),
    Recognizer(
        "passport_keyed",
        "ID_SUJETO_ASISTENCIA",
        re.compile(keyed(r"pasaporte", _SERIAL, _WORDS_GAP)),
        0.9,
        triggers=("pasaporte",),
    ),
    Recognizer(
        "care_episode_keyed",
        "ID_CONTACTO_ASISTENCIAL",
        re.compile(keyed(rf"(?:ref\.?[ \t]*)?episodio?|{_NUMBER_SIGN}(?:episodio|contacto|proceso)", _GROUPED_NUMBER)),
        0.97,
        triggers=("episodi", "contacto", "proceso"),
    ),
    Recognizer(
        "insurance_keyed",
        "ID_ASEGURAMIENTO",
        re.compile(
            keyed(
                rf"NASS|NSS|N\.A\.S\.S\.?|{_NUMBER_SIGN}(?:SS|afiliaci[oó]n?|(?:la[ \t]+)?seguridad[ \t]+social)"
                r"|afiliaci[oó]n[ \t]+(?:a[ \t]+la[ \t]+)?(?:SS|seguridad[ \t]+social)|tarjeta[ \t]+sanitaria",
                _GROUPED_NUMBER,
            )
        ),
        0.97,
        triggers=("ss", "s.s", "afiliaci", "seguridad", "tarjeta"),
        check=checks.nass,
    ),
    Recognizer(
        "insurance",
        "ID_ASEGURAMIENTO",
        # Twelve digits in the NASS groups (province, number, control) whose control digits are right.
        re.compile(first_digit(r"[\w/.-]") + r"\d[ /-]?\d{8}[ /-]?\d{2}(?![\w/]|[.-]\d)"),
        0.85,
        triggers=DIGITS,
        check=checks.nass_unkeyed,
    ),
    Recognizer(
        "health_plan_keyed",
        "NUMERO_BENEF_PLAN_SALUD",
        re.compile(keyed(rf"p[oó]liza|{_NUMBER_SIGN}(?:beneficiario|asegurado)", _CODE)),
        0.8,
        triggers=("póliza", "poliza", "beneficiario", "asegurado"),
    ),
    Recognizer(
        "clinician_registration_keyed",
        "ID_TITULACION_PERSONAL_SANITARIO",
        # The key may be glued to the clinician's name (``MartínezNºCol:``).
        re.compile(
            keyed(
                rf"{_NUMBER_SIGN}col(?:egiad[oa]|·legiat)?\.?|colegiad[oa](?:[ \t]+{_NUMBER_SIGN})?|col\.?[ \t]*{_NUMBER_SIGN}",
                _GROUPED_NUMBER,
                start="",
            )
        ),
        0.97,
        triggers=("col",),
    ),
    Recognizer(
        "clinician_employee_keyed",
        "ID_EMPLEO_PERSONAL_SANITARIO",
        re.compile(keyed(rf"{_NUMBER_SIGN}?empleado|{_NUMBER_SIGN}(?:de[ \t]+)?personal", _CODE_LIST)),
        0.95,
        triggers=("empleado", "personal"),
        split=_CODE_ITEM,
    ),
    Recognizer(
        "membership_keyed",
        "OTRO_NUMERO_IDENTIF",
        re.compile(
            keyed(
                rf"{_NUMBER_SIGN}?socio|carn[eé]t?[ \t]+de[ \t]+(?:la[ \t]+)?biblioteca|{_NUMBER_SIGN}(?:carn[eé]t?|tarjeta)",
                _CODE_LIST,
            )
        ),
        0.9,
        triggers=("socio", "carn", "tarjeta"),
        split=_CODE_ITEM,
    ),
    Recognizer(
        "biometric_keyed",
        "IDENTIF_BIOMETRICOS",
        re.compile(
            keyed(
                r"huellas?(?:[ \t]+(?:dactilar|digital)(?:es)?)?|biom[eé]tric[oa]s?|retinian[oa]|iris",
                _SERIAL,
                _WORDS_GAP,
            )
        ),
        0.9,
        triggers=("huella", "biom", "retin", "iris"),
    ),
    Recognizer(
        "device_serial_keyed",
        "IDENTIF_DISPOSITIVOS_NRSERIE",
        # ``serie`` alone is also a blood count (``serie blanca: leucocitos 8.600``): a number sign must come first.
        re.compile(keyed(rf"{_NUMBER_SIGN}serie|serial|IMEI|UDI", _SERIAL, _WORDS_GAP)),
        0.9,
        triggers=("serie", "imei", "udi"),
    ),
    Recognizer(
        "ipv4",
        "IDENTIF_DISPOSITIVOS_NRSERIE",
        re.compile(first_digit(r"[\w.]") + r"\d{0,2}(?:\.\d{1,3}){3}(?![\w]|\.\d)"),
        0.9,
        triggers=(".",),
        check=checks.ipv4,
    ),
    Recognizer(
        "ipv6",
        "IDENTIF_DISPOSITIVOS_NRSERIE",
        # A run of hex digits and colons, then checked by the standard library (clock times are not addresses).
        re.compile(r"[0-9A-Fa-f:](?<![\w:][0-9A-Fa-f:])[0-9A-Fa-f:]*:[0-9A-Fa-f:]*(?<![:])(?![\w:])"),
        0.9,
        triggers=(":",),
        check=checks.ipv6,
    ),
    Recognizer(
        "mac_address",
        "IDENTIF_DISPOSITIVOS_NRSERIE",
        re.compile(
            r"[0-9A-Fa-f](?<![\w:-][0-9A-Fa-f])[0-9A-Fa-f]([:-])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}(?![\w:-])"
        ),
        0.95,
        triggers=(":", "-"),
    ),
    Recognizer(
        "vehicle_keyed",
        "IDENTIF_VEHICULOS_NRSERIE_PLACAS",
        re.compile(keyed(rf"matr[ií]cula|{_NUMBER_SIGN}?bastidor|VIN", _VEHICLE, _WORDS_GAP)),
        0.95,
        triggers=("matr", "bastidor", "vin"),
    ),
    Recognizer(
        "licence_plate",
        "IDENTIF_VEHICULOS_NRSERIE_PLACAS",
        # Since 2000: four digits and three consonants (no vowels, Ñ or Q); before: province letters, digits, letters
        # (two at most on a real plate; notes and invented examples write three too).
        re.compile(
            rf"[0-9A-Z](?<![\w-][0-9A-Z])(?:(?<=[0-9])\d{{3}}[ -]?{_NOT_A_UNIT}[BCDFGHJKLMNPRSTVWXYZ]{{3}}"
            r"|(?<=[A-Z])[A-Z]?-\d{4}-[A-Z]{1,3})(?![\w-])"
        ),
        0.8,
        triggers=DIGITS,
    ),
    Recognizer(
        "vehicle_identification_number",
        "IDENTIF_VEHICULOS_NRSERIE_PLACAS",
        re.compile(r"[A-HJ-NPR-Z0-9](?<![\w-][A-HJ-NPR-Z0-9])[A-HJ-NPR-Z0-9]{16}(?![\w-])"),
        0.85,
        triggers=DIGITS,
        check=checks.vin,
    ),
)
