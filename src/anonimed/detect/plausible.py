"""Spans a tagger flags that cannot be PHI by their shape or place in the note, whatever the note's template.

A model trained on MEDDOCAN's template learnt that a capitalised word after a line break is often a value of a key; on
notes written otherwise it flags sentence-initial verbs (``Ingresa``, ``Truca``), headings (``CURS CLÍNIC``,
``SOLICITUD DE INTERCONSULTA``), key names (``Telèfon:``) and runs of prose.  These rules are general, not lists of
those examples, and each holds for the annotated notes (a test applies them to MEDDOCAN train's gold spans):

- **no span crosses a line break**: a line ends a value (``67539363R`` + newline + ``Fecha``); the span keeps its
  first line;
- **a street has the shape of one**: a street span holds a street type (``calle``, ``c/``, ``carrer``, ``avda.``; a
  word of its own, not the ``c`` of ``hba1c``) or ``s/n``, or a capitalised word (``Irunlarrea, 3``), or, when longer
  than four words, is made of capitalised words (859 of the 862 gold streets of MEDDOCAN train: the others are e-mail
  addresses filed as streets); and it is not a sentence: three common lower-case words that name nothing a list
  knows make one (``c/ madre x fiebre … y rechazo de tomas``, where ``c/`` is ``con``). Catalan prose,
  ``ta 150/85,sat 88`` or a lab result is not a street (``Creatinina 1,9``: no street type, one capital and a
  decimal; ``paseo 30 min/d``; ``DOLOR … DE 24 H``), nor a phone's extension a postal code (``ext. 4412``);
- **a person's name holds no function word**: it ends before ``por``, ``para``, ``con``, ``que``… (``SE COMUNICA
  AL DR. GALINDO POR TELÉFONO``: the name is ``GALINDO``);
- **a phone number is whole**: it keeps its country code (``+34 676 902 118``, not ``676 902 118``) and the groups of
  digits next to it up to nine (``(636 554 218)``, not ``554 218``);
- **a code is whole**: a number or code that starts or ends inside a run of letters and digits covers the run
  (``ARCALA780915013``, not ``780915013``; a key glued by a hyphen, ``nhc-150679``, stays out), and a "phone number"
  with letters in it is the patient's identifier;
- **a number is made of digits**: a phone, fax or identifier other than the patient's (whose type MEDDOCAN also gives
  to descriptions: ``raza blanca``, ``lactante``) holds a digit, and ends before a word glued to it by a full stop
  (``45128876k.ve x dolor``: the word after is prose) or after a space (``55120984 · Episodi``);
- **a date inside a code is the code**: a date or postal code found inside a run of letters and digits joined by
  hyphens or slashes is the run, a date when it is one written without spaces (``03-ABR-2025``), else an identifier of
  the kind its key names (``Episodio: AP-2025-77810``, not a year and a postal code);
- **a bracket closes what it opened**: a span that runs past a closing bracket it did not open ends before it
  (``hija (Puri) tlf``: ``Puri``), and one that ends on a closing quote it did not open ends before it;
- **a key is layout**: a span that starts a line and is followed by a colon is the line's key, not its value;
- **a sentence's first word is not a name or a place** when it runs on into a lower-case word (``Refereix dolor``,
  ``Truca la filla``) and no list of names or places knows it;
- **a heading is not a name or a place**: a line in capitals that a span fills (its colon aside), with no
  word that a list of names or places knows (``SOLICITUD DE INTERCONSULTA``, ``CURS CLÍNIC``);
- **prose in lower case is not a name or a place**: in a note that capitalises its names elsewhere, a lower-case
  word of four letters or more that no list knows (``firmo el presente``, ``a efectos de su empresa``), and no
  person a lone lower-case common word even if a list of surnames knows it (``la font de la febre``); in a note
  written in lower case, lower-case words of which none is known and one is a common word (``se recomienda q``),
  unless one is neither (``nora olazabal eizaguirre``); there a street needs no capital (``teatinos 180``: a word
  that names something and its number) and an article before a name is kept (``la coruña``);
- **a comma glued to the next word ends a name or a place** (``camina sola,disartria leve``);
- **a column ends a value**: three spaces or a table's ``|`` end a span as a line break does
  (``MARÍA DEL CARMEN FERNÁNDEZ SUÁREZ   NHC``);
- **hours are not hospitals**: ``h.`` after a number is the hour (``90 mg/24 h. Ticagrelor``, ``A LAS 06:30 H.``);
- **a title, a department or a job is not a name or a place**: a span whose words are all titles (``la Sra``,
  ``con el Dr``) or departments (``Hematología``, ``Urgències``, ``Cirugía General``, ``Unidad de Melanoma``); a
  person whose words are all words of jobs and roles (``Médico de Familia``, ``Facultativo Especialista de Área``,
  ``Pacient``);
  an article or preposition in lower case before a name is not part of it (``la Roser`` → ``Roser``);
- **a street without a street type is a name with a number**, not a sentence (``Tolera dieta blanda. Refiere``);
- **a name is whole**: it takes the initials before it (``R. Morales``, also when it was taken for a town) and the known surnames after it on the line
  (``BENITO CABEZA REY``), and a date the weekday before it (``dijous 20/11/2025``);
- **a dash between spaces ends a name or a date** (``DRA. CLARA MIRALLES - NEUROPEDIATRIA``, ``14/01 - Tercer dia``);
- **an age is not part of a time or a decimal** (``03:12 H``, ``3.240 g``), **nor a time span** (``revisión en dos
  años``, ``hace 3 años``);
- **a role, an article, an eponym or a lab result is no PHI**: ``familia`` after ``de`` (``médico de familia``), a
  name or place made of articles alone (``La`` that opens ``La filla``), a name that opens with the head of an
  eponym (``Escala de Braden``, ``Síndrome de Down``), a street that holds a unit (``Àcid úric 9,4 mg/dL``);
- **a language, a kind of centre, a clean wound are no PHI**: a place that is a language in lower case (``en
  català``), a health centre or day hospital named by generic words (``Centro de Salud Mental``; one that a name
  follows after ``de`` takes it: ``CENTRE DE SALUT D'ALZIRA``), Catalan ``net``/``neta`` without an article
  (``ferida neta``); a relative ends after its kinship word unless the next word tells which (``el fill pauta``,
  ``hijo mayor``); a sentence's opening word before a known name is not part of it (``Vuelve Xosé Manuel a``);
- **a centre ends before its town** after a dash between spaces (``Hospital Arnau de Vilanova - Lleida``);
- **a centre named in capitals ends at its last capitalised word** when two lower-case words or more follow
  (``Hospital Vall d'Hebron per a empelts``);
- **a hospital or health centre holds a centre's head word or few lower-case words**: three lower-case words and no ``hospital``,
  ``CAP``, ``institut``… make prose (``Refereix menys dispnea. Es retira l'oxigen``);
- **an occupation ends before its workplace** (``estudiante de derecho en la uv``) and takes what it is of
  (``maestra de educación infantil``, ``mestra d'escola bressol``; guideline M7.1);
- **a relative keeps its ``ex``, a hospital its glued ``h.``** (``su ex marido``, ``h.bellvitge``);
- **telegraphic notes**: a street holds no shorthand ``x`` (*por*) or ``q`` (``c/ madre x fiebre``, where ``c/`` is
  *con*); a centre written in lower case ends before a word no name holds (``cs san blas en 48h``); a date ends
  before the hour after it (``14 de junio 05:10h``); a phone or fax has six digits at least (``48-72h``); a slash
  between spaces parts two people (``dr.peña / mir s. ortega``);
- **a relative's name follows the kinship word**: a person's span that holds one names the relative after it
  (``AVISADA HIJA Mª JESUS DEL POZO`` → ``Mª JESUS DEL POZO``), and ``pares craneales`` are the cranial nerves;
- **a colour, a lot number or a patient are no PHI**: a colour after a finding (``eritema rosa``), digits glued to
  two letters (``lot AH5127``: no year), ``PAC`` before words that name no town (``EN PAC ANTICOAGULADO``), and a
  centre ends before the hour after it (``PAC 23:50``);
- **a span is no longer than the longest of its type** in the annotated notes (six words for a town, seven for a
  patient's name): a longer one is a run of prose.

Centres (``Hospital del Mar``) and relatives (``su esposa``) are made of common words by nature and are left alone.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import cache

from anonimed.detect.base import Detector
from anonimed.detect.boundaries import KINSHIP, NEXT_KEY_GLUED, PHONE_TYPES, PHONES_JOINT, RELATIVE_MODIFIERS
from anonimed.document import Document, Span
from anonimed.rules.language import fold

# Types whose values are numbers or codes; ID_SUJETO_ASISTENCIA is not one (MEDDOCAN gives it to ``raza blanca``).
NUMBER_TYPES = PHONE_TYPES | frozenset(
    {"ID_CONTACTO_ASISTENCIAL", "ID_ASEGURAMIENTO", "ID_TITULACION_PERSONAL_SANITARIO", "ID_EMPLEO_PERSONAL_SANITARIO"}
    | {"NUMERO_BENEF_PLAN_SALUD", "IDENTIF_VEHICULOS_NRSERIE_PLACAS", "IDENTIF_DISPOSITIVOS_NRSERIE"}
    | {"IDENTIF_BIOMETRICOS", "OTRO_NUMERO_IDENTIF"}
)
CODE_TYPES = NUMBER_TYPES | {"ID_SUJETO_ASISTENCIA"}
# Digits of a Spanish phone number, and a group of its digits right before or after a part of it.
_PHONE_DIGITS = 9
# Fewer digits make no phone number (48-72h); MEDDOCAN's have eight at least.
_FEWEST_PHONE_DIGITS = 6
_GROUP_BEFORE = re.compile(r"(?<![\w/.,+-])\d{2,4}[ .-]\Z")
_GROUP_AFTER = re.compile(r"[ .-]\d{2,4}(?![\w/]|[.,-]?\d)")
# A country code right before a number: +34, 0034, (+34), (34).
_COUNTRY_CODE = re.compile(r"(?<![\w+])(?:\+\d{1,3}|00\d{1,3}|\(\+?\d{1,4}\))[ \t.-]?\Z")
PERSON_TYPES = frozenset({"NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO"})
PLACE_TYPES = frozenset({"TERRITORIO", "CALLE", "PAIS"})
STREET = "CALLE"
# Zipf frequency (wordfreq) from which a word is a common word of Spanish or Catalan.
COMMON_WORD = 3.5
_WORD = re.compile(r"[^\W\d_]+")
_HYPHENATED_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")
_TRAILING_NUMBERS = re.compile(r"(?:[ \t,]+[0-9]+)+\Z")
_ALPHANUMERIC = re.compile(r"[^\W_]+")
# A word glued to a code by a full stop, in lower case: the sentence after it (``45128876k.ve``).
_GLUED_WORD = re.compile(r"\.[a-zà-ÿ]{2,}\Z")
# Three spaces or a table's bar: a column break, which ends a value as a line break does.
_COLUMN_BREAK = re.compile(r"[ \t]{3,}|\t|[ \t]*\|")
# "h." right after a number or a time: the hour, not a hospital (``24 h. Ticagrelor``, ``06:30 H.``).
_HOUR_BEFORE = re.compile(r"\d[ \t]*\Z")
# What follows the cranial nerves' "pares"; colour words and the findings they describe.
_CRANIAL_AFTER = re.compile(r"(?i)[ \t]+(?:craneales|craneal|cranials|cranial)\b")
_COLOUR_WORDS = frozenset("rosa rosada rosado blanca blanco violeta morena".split())
_FINDING_BEFORE = re.compile(
    r"(?i)\b(?:eritema|color|coloraci[oó]n|tono|piel|pell|mucosas?|lesi[oó]n|lesions?|placas?|m[aá]culas?|tinte)[ \t]+\Z"
)
# Closing quotation marks and the opening mark each needs.
_CLOSING_QUOTES = {'"': '"', "”": "“", "»": "«"}
# Out-of-hours care points by their acronyms (punt/punto d'atenció continuada, SUAP, PUAC, CUAP).
_CARE_POINTS = frozenset("pac suap puac cuap".split())
# Titles before a name, in Spanish and Catalan, never names themselves.
_TITLE_WORDS = frozenset("dr dra doctor doctora sr sra srta sres sras don dona dña señor señora senyor senyora".split())
# What opens a signature in a note written in lower case: a title or an abbreviated role (dra, inf, enf, mf, ped).
_SIGNATURE_OPENERS = _TITLE_WORDS | frozenset("inf enf mf matr fisio ts due med ped".split())
# A role's second word, between it and a signature's name (med. guardia j.m. lasierra, inf. ped nerea).
_ROLE_QUALIFIERS = frozenset("guardia familia ped mf reg social".split())
# Articles and prepositions that may stand before a name but are not part of it in lower case (``la Roser``,
# ``en Quim``, ``con el Dr``).
_LEADING_FUNCTION_WORDS = frozenset("el la los las en na a al con de del per amb ya és".split())
# What separates such a word from the name: spaces or an apostrophe (l'Anna).
_AFTER_FUNCTION_WORD = re.compile(r"[ \t]+|'|’")
# Departments and specialties (``Cardiología``, ``Urgències``, ``Cirugía General``, ``NEUROPEDIATRIA``).
_DEPARTMENT_WORD = re.compile(
    r"(?:\w*(?:logia|iatria|grafia|cirugia|cirurgia|terapia)|urgencias|urgencies|medicina|interna|general|intensiva"
    r"|intensius|anestesia|anestesiologia|reanimacion|reanimacio|familia|familiar|comunitaria|pediatri(?:ca|cas|cos|cs|ques)"
    r"|infantil|neonatologia|obstetricia|ginecologia|nefrologia|hematologia|oncologia|radiodiagnostico|radiodiagnostic"
    r"|rehabilitacion|rehabilitacio|guardia|servicio|servei|unidad|unitat|triaje|triatge|urg|digestivo|digestiu"
    r"|dixestivo|pades|esad|ehad|medica|radioterapica|radioterapic|quirurgica|quirurgic)"
)
# Who someone is in a hospital, not their name (with the job titles of :func:`anonimed.rules.gazetteers.occupations`).
_ROLE_WORDS = frozenset(
    "medico medica metge metgessa facultativo facultativa especialista adjunto adjunta residente resident jefe jefa cap"
    " area servicio seccion paciente pacient enfermero enfermera infermer infermera auxiliar celador celadora matrona"
    " llevadora supervisor supervisora coordinador coordinadora firma firmado signat solicitante peticionario"
    " peticionaria remitente informante sollicitant licitant alumno alumna alumne estudiante gestor gestora casos due"
    " tcae usuario usuaria usuari higienista logopeda fisioterapeuta fisio dietista nutricionista podologo podologa"
    " podoleg optometrista educadora educador integradora integrador mediadora mediador".split()
)
# The roles whose holder a note names in brackets after them (enfermeria (miren), t.s. (xoana), trab. social (lucia)).
_ROLES_BEFORE_A_NAME_IN_BRACKETS = _ROLE_WORDS | frozenset(
    "enfermeria infermeria enf inf ts social gerocultora gerocultor mf pediatra".split()
)
_BRACKET_OPEN_BEFORE = re.compile(r"\([ \t]*\Z")
# A role in brackets after a name that signs a line (aurelio (mf)).
_SIGNING_ROLES = frozenset(
    "mf enf inf due tes med ped mir matr matrona llevadora fisio ts aux tcae pediatra medico metge metgessa enfermera"
    " enfermero infermera infermer".split()
)
_ROLE_IN_BRACKETS_AFTER = re.compile(r"[ \t]*\([ \t]*([^\W\d_]+)(?:[ \t]+[Rr]?\d[ºª]?)?[ \t]*[.)]")  # (MIR 2º)
# Specialists named by their specialty (``cardiólogo``, ``radiòloga``, ``pediatra``).
_SPECIALIST = re.compile(r"\w+(?:log[oa]|iatra|grafista|cirujan[oa]|cirurgi[aà])")
# A role that a signature writes before the name, abbreviated (``inf ped nerea b.``, ``R2 Gerard Pla``), with the
# words of :data:`_ROLE_WORDS`: never the name's.
_ROLE_BEFORE_A_NAME = re.compile(
    r"(?i)(?:inf|enf|ped|mir|eir|fir|pir|tcae|aux|ts|due|fisio|gerocultora?|trabajadora?|social|triaje|triatge|r[1-5])\.?[ \t]+"
)
# The key of an identifier glued to it: by a hyphen or a slash (``nhc-150679``), or directly where the case changes
# (``dni73001842-K``, ``nuhsaAN0417726390``, ``NHC150679``); a key in capitals that a span took with its number
# (``CIPNA 1004587321``, Andorra's ``CASS 183245-B``).
_GLUED_KEY = re.compile(
    r"(?i:nhc|hc|cipa?|sip|dni|nie|nif|nass|nuhsa|tsi|tis|ss|n[º°o])[-/]"
    r"|(?:nhc|cipa?|sip|dni|nie|nif|nass|nuhsa|nuss|tsi|tis|nis|col)(?=[A-Z\d])"
    r"|(?:NHC|CIPA?|SIP|DNI|NIF|NASS|NUHSA|NUSS|TSI|TIS)(?=\d)"
    r"|(?:NHC|CIPNA|CIPA?|SIP|DNI|NIE|NIF|NASS|NSS|NUHSA|NUSS|TSI|TIS|CASS)[ \t]+(?=[A-Z]*\d)"
)
# Common lower-case words that name nothing, from which a span is a sentence: not a name, place or street.
_SENTENCE_WORDS = 3
# The words of an address's floor and door, which no sentence words count (c/ loma del viento 8 bajo).
_FLOOR_AND_DOOR_WORDS = frozenset(
    "bajo bajos baix baixos entresuelo atico atic principal izquierda derecha puerta".split()
)
# The most words a span of each type holds (the longest gold spans of MEDDOCAN train and dev and of the styles set:
# Colonia Valle de las palmas Huixquilucan, Jose Luis Del Castillo Pardo de Vera); a longer one is a run of prose.
_MOST_WORDS = {
    "TERRITORIO": 6,
    "PAIS": 4,
    "NOMBRE_SUJETO_ASISTENCIA": 7,
    "NOMBRE_PERSONAL_SANITARIO": 8,
    "SEXO_SUJETO_ASISTENCIA": 3,
    "EDAD_SUJETO_ASISTENCIA": 7,
    "PROFESION": 8,
    "OTROS_SUJETO_ASISTENCIA": 8,
    # Centres: the longest annotated is 9 words (HOSPITAL), 7 (CENTRO_SALUD), 10 (INSTITUCION), with some room.
    "HOSPITAL": 12,
    "CENTRO_SALUD": 10,
    "INSTITUCION": 12,
}
# A name's initial and the word after it (m. ventura, R. Morales).
_INITIAL = re.compile(r"[^\W\d_]\.[ \t]?[^\W\d_]")
# An initial right before a name (R. Morales), not D. (don) nor the end of a title (Dr.); in lower case before a name
# in lower case (dra p. hidalgo).
_INITIAL_BEFORE = re.compile(r"(?<![\w.])[A-CE-Z]\.[ \t]?\Z")
# A doctor's title right before a word (dra. Guàrdia).
_DOCTOR_BEFORE = re.compile(r"(?i)(?<!\w)(?:dr|dra|doctor|doctora)\.?[ \t]+\Z")
# In lower case, a letter and a full stop are as often a door or a number (3º a., n. 12): an initial after a title or
# a role only (dra p. hidalgo, inf m. ventura).
_TITLED_LOWER_INITIAL_BEFORE = re.compile(
    r"(?<!\w)(?:dr|dra|inf|enf|psicologa|psicologo|psicòloga|psicòleg|matrona|llevadora|ts)\.?[ \t]+"
    r"(?P<initial>[a-ce-rt-z]\.)[ \t]?\Z"
)
_INITIAL_NOT_SAN_BEFORE = re.compile(r"(?<![\w.])[A-CE-RT-Z]\.[ \t]?\Z")
# The next word on the line.
_WORD_AFTER = re.compile(r"[ \t]{1,2}(?P<word>[^\W\d_]+)(?![\w.'’-])")
# A weekday right before a date, with a comma or not.
_WEEKDAY_BEFORE = re.compile(
    r"(?i)(?<!\w)(?:lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo|dilluns|dimarts|dimecres|dijous"
    r"|divendres|dissabte|diumenge"
    # and their abbreviations in shift notes (dt 14/5, mie 12/03)
    r"|(?:dl|dt|dc|dj|dv|ds|dg|lun|mar|mi[eé]|jue|vie|s[aá]b|dom)\.?),?[ \t]+\Z"
)
# Catalan Tuesday's abbreviation, in lower case (dm 18/2), and a day and a month written in figures.
_DIMARTS_BEFORE = re.compile(r"(?<!\w)dm,?[ \t]+\Z")
_DAY_AND_MONTH = re.compile(r"\d{1,2}[/.-]\d{1,2}(?![\d])")
# A day at a date's end, and the month written after it, whole or cut short (martes 4 + nov, 12 + setembre; not mar
# or may, the sea and English, nor Catalan's des, since).
_DAY_AT_END = re.compile(r"(?<![\d/.:-])(?:0?[1-9]|[12]\d|3[01])\Z")
_MONTH_AFTER = re.compile(
    r"(?i)[ \t]+(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre"
    r"|gener|febrer|març|maig|juny|juliol|agost|setembre|novembre|desembre|ene|feb|abr|jun|jul|ago|sept?|oct|nov|dic)"
    r"(?![\w'’])"
)
# A number that an age's digits continue, a time or a decimal (03:12, 3.240): its end before the span (not a code's
# end: sip18730562,19 anys), and its start after it.
_NUMBER_BEFORE = re.compile(r"(?<!\d{4})\d[:.,]\Z")
_NUMBER_AFTER = re.compile(r"[:.,]\d")
# A dash between spaces: two values side by side (DRA. CLARA MIRALLES - NEUROPEDIATRIA).
_SPACED_DASH = re.compile(r"\s+[-–—]\s+")
# A slash between spaces parts two people (dr.peña / mir s. ortega).
_SPACED_SLASH = re.compile(r"[ \t]+/[ \t]+")
# Head words of a department's name (Unidad de Melanoma, Servei de Cardiologia, Salud Pública).
_DEPARTMENT_HEADS = frozenset(
    "unidad unitat servicio servei seccion seccio planta consulta consultas consultes maternitat maternidad"
    " paritorio box boxes".split()
)
# Head words of a clinical eponym or scale: Escala de Braden, Índice de Barthel, Síndrome de Down, Maniobra de Valsalva.
_EPONYM_HEADS = frozenset(
    "escala indice index test sindrome enfermedad malaltia signo signe maniobra criterios criteris clasificacion"
    " classificacio estadio grado grau quiste quist lineas linies reflejo reflex fenomeno fenomen bolsa bossa joroba".split()
)
# The key of a phone glued to its number (tlf688-402-917).
_GLUED_PHONE_KEY = re.compile(r"(?i)(?:tlf|telf|tel|tfno|tf|movil|mòbil|mobil|mv|mov)\.?:?(?=\+?\d)")
# A dose or a frequency (cada 72h, 600 mg, c/12h), and the rest of one that a street's number ran into (2|.5/12h).
_DOSE = re.compile(r"(?i)\bcada[ \t]+\d+[ \t]*h\b|\b\d+[ \t]*(?:mg|mcg|ml|ui)\b|\bc/\d+[ \t]*h\b")
_REST_OF_A_DOSE = re.compile(r"(?i)(?:[.,]\d+)?(?:/|[ \t]*(?:mg|c/|cada)[ \t]*)\d+[ \t]*h\b")
# Words of the care a lower-case note logs (prox cura jueves, 1a visita, vacunacion embarazo, cura domic): a lower-case
# name or place holds none of them.
_CARE_WORDS = frozenset(
    "cura curas cures visita visites revision revisio control ctrl vacunacion vacunacio vacuna consulta seguimiento"
    " seguiment prox proxima proximo proper propera domic domicilio domicili cita analitica tto tratamiento tractament"
    " alta ingreso ingres".split()
)
# Languages, which a note names in lower case (en castellano y en árabe, full informatiu en català): no place.
_LANGUAGES = frozenset(
    "castellano castella castellana catalan catala catalana valenciano euskera gallego galego arabe ingles angles"
    " anglesa frances francesa aleman alemany rumano rumana ruso rus chino xines portugues italiano wolof urdu amazigh"
    " bereber darija".split()
)
# A serial number's key right before a code, on its line: núm. de sèrie, nº serie, n/s, serial (not s/n, an
# address's "no number").
_SERIAL_KEY_BEFORE = re.compile(
    r"(?i)(?:\b(?:n[º°o]|núm|num|número|numero)\.?[ \t]*(?:de[ \t]+)?s[eè]rie|\bn/s|\bserial)[ \t]*[:.]?[ \t]*\Z"
)
_DEVICE = "IDENTIF_DISPOSITIVOS_NRSERIE"
# What says a language is spoken or written, not someone's origin (informació donada en francès, parla àrab).
_LANGUAGE_CUE = re.compile(
    r"(?i)\b(?:en|parla|parlen|parlant|habla|hablan|hablando|idioma|llengua|lengua|int[eè]rprete?|traductora?)[ \t]+\Z"
)
# The generic words of a social service (derivar a Serveis Socials): no one body; the district's or the town's is.
_GENERIC_INSTITUTION_WORDS = frozenset(
    "serveis servicios servei servicio socials sociales social comunitaris comunitarios basics basicos atencion atencio"
    " primaria treball trabajo".split()
)
# A product's name written in camel case (MRI SureScan, CapSureFix Novus): a brand, not a person or a health centre
# (a company or a care home may be named so: ArcelorMittal, DomusVi); the prefixes of surnames written so (McKenzie,
# MacArthur, DeLuca) and of Spanish compound given names (MariCarmen, JoseLuis) stay.
_CAMEL_CASE = re.compile(
    r"\b(?!(?:Mc|Mac|Mari|Ma|De|Di|Da|Del|Le|La|Van|Von|Fitz|Du|Dos|Das|Jose|Josep|Juan|Joan)[A-Z])[A-Z][a-z]+[A-Z][a-z]"
)
# Catalan's "clean" (ferida neta, apòsit net) is its word for a grandchild too: a grandchild has an article before
# (Balearic sa and ses too: sa neta).
_CLEAN_OR_GRANDCHILD = frozenset({"net", "neta", "nets", "netes"})
_DETERMINER_BEFORE = re.compile(
    r"(?i)\b(?:el|la|els|les|l['’]|del|dels|al|als|pel|pels|seu|seva|seus|seves|meu|meva|un|una|dos|dues|tres|amb|i|nou"
    r"|sa|ses)"
    r"[ \t]*\Z"
)
# Centre names made of generic words only name no centre (Centro de Salud Mental, Hospital de Día).
_GENERIC_CENTRE_WORDS = frozenset(
    "centro centre salud salut mental infantil juvenil atencion atencio primaria hospital dia dia unidad unitat"
    " especialidades especialitats adults adultos eap referencia csma csmij csm".split()
)
# What a form's key says of a hospital (HOSPITAL DE ORIGEN, Hospital de referencia): no hospital's name.
_HOSPITAL_ROLES = frozenset("origen destino desti procedencia referencia".split())
_CENTRE_NAME_AFTER = re.compile(
    r"[ \t]+(?i:de|del|d['’])(?:[ \t]*(?i:l|s)['’])?[ \t]*[A-ZÀ-Ý][\w-]+(?:[ \t]+[A-ZÀ-Ý][\w-]+)*"
)
# The articles of the Balearic Islands, which open towns' names (Es Castell, Sa Pobla, Ses Salines).
_BALEARIC_ARTICLES = frozenset("es sa ses".split())
# Words that say which kind of hospital, not which one (Hospital Comarcal, Hospital Universitari).
_CENTRE_KINDS = frozenset("comarcal general universitario universitari provincial regional clinico clinic".split())
# A company's legal form as its name ends it (SL, S.A. without its stops).
# A town's Grau: the word, de or d', and the town.
_GRAU_OF = re.compile(r"(?i:grau)[ \t]+(?:(?i:de)[ \t]+|(?i:d)['’])(?P<town>[^\W\d_]+)")
_LEGAL_FORMS = frozenset("SL SA SLU SAU SCCL SLL SAT SCL".split())
_OCCUPATION_COMPLEMENT = re.compile(
    r" {1,2}(?:de {1,2}|d['’])(?P<words>[^\W\d_]+(?: {1,2}[^\W\d_]+){0,3})(?=[ \t.,;:)\n]|$)"
)
# The rest of a complement that a span holds the start of: one or two words up to punctuation (within its column:
# not over the three spaces before the next key, operari de planta química    Empresa:).
_COMPLEMENT_REST = re.compile(r" {1,2}(?P<words>[^\W\d_]+(?: {1,2}[^\W\d_]+)?)(?=[.,;:)\n]|$)")
_OF = re.compile(r"[ \t](?:de|d['’])[ \t]?\w")
# Words that end an occupation's complement: where or since when it works, or the sentence going on.
_COMPLEMENT_STOPS = frozenset(
    "en a al amb con y i e o que desde des hasta fins para per por sin ni profesion professio oficio ofici jubilado"
    " jubilada jubilat retirado retirada del la el los las les els su sus seu seva un una uno".split()
)
_EXTENSION_BEFORE = re.compile(r"(?i)\b(?:ext|extensi[oó]n?)\.?[ \t]*\Z")
# A phone's extension written after it, not in brackets (93 227 54 00 ext 3, 985 18 50 00 ext. 38120), and the word
# of one that a phone span ends with.
_EXTENSION_AFTER = re.compile(r"(?i)[ \t,]*(?:ext|extensi[oó]n?)\.?[ \t:]*\d{1,6}(?![\d/.,]\d)")
_EXTENSION_WORD_AT_END = re.compile(r"(?i)[ \t,]*\b(?:ext|extensi[oó]n?)\.?\Z")
# Spanish and Catalan weekdays (the rules' list also holds Galician ones, whose martes and domingo may name).
_WEEKDAYS = frozenset(
    "lunes martes miercoles jueves viernes sabado domingo dilluns dimarts dimecres dijous divendres dissabte diumenge".split()
)
# The words that name a date alone, folded: months, weekdays and seasons in Spanish, Catalan and Galician, feasts
# and festivals. A FECHAS span of one other common word is prose (diners, timbre, vieron, a form's Servei).
_DATE_WORDS = frozenset(
    """enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre gener febrer
    marc maig juny juliol agost setembre novembre desembre xaneiro febreiro xuno xullo setembro outubro novembro
    decembro lunes martes miercoles jueves viernes sabado domingo sabados domingos dilluns dimarts dimecres dijous
    divendres dissabte diumenge dissabtes diumenges luns mercores xoves venres primavera verano otono invierno estiu
    tardor hivern veran outono inverno navidad navidades nadal reyes reis pascua pasqua carnaval carnestoltes entroido
    antroxu ramadan nochebuena nochevieja fallas falles sanfermines diada castanyada halloween feria fiestas festes
    fira verbena revetlla pilar magdalena merce candelera candelaria inmaculada purisima meritxell pentecostes
    pentecosta corpus ascension asuncio asuncion epifania apostol ene feb abr may jun jul ago sep sept set oct nov dic gen
    febr ag des otoño xuño""".split()
)
# Their abbreviations, which a weekday of a list is written with (lun, mie y vie; dl i dj).
_WEEKDAY_ABBREVIATIONS = frozenset("lun mar mie jue vie sab dom dl dt dc dj dv ds dg".split())
_DATE_WORDS_AND_ABBREVIATIONS = _DATE_WORDS | _WEEKDAY_ABBREVIATIONS
_GLUED_COMMA = re.compile(r"(?<=[^\W\d_]),(?=[^\W\d_])")
# Without its cedilla, a plaque (placa eritematosa 1,2 cm), not a square (plaça).
_PLAQUE = "placa"
# A comma glued to a town after a street's number (or its floor): the town runs to the span's end, with no figure.
_GLUED_TOWN = re.compile(r"(?<=\w),(?=[^\W\d_]{3,}[^\d,]*\Z)")
_HYPHENATED_PART = re.compile(r"(?<=\w)-[^\W\d_]+")
_DURATION_BEFORE = re.compile(
    r"(?i)(?<!\w)(?:en|cada|hace|fa|durante|durant|tras|després\s+de|despues\s+de|después\s+de|dentro\s+de|d'aquí\s+a"
    r"|plazo\s+de|termini\s+de|ctrl|control|alquiler|lloguer|prox|pròxim|proximo|próximo|lleva|llevaba|porta|portava"
    r"|treballar|treballat|trabajó|trabajado|trabajar)"
    r"[ \t]+\Z"
)
# What a duration says after its number (DM2 de 15 anys d'evolució, dolor de 3 años de evolución).
_DURATION_AFTER = re.compile(r"(?i)[ \t]*(?:de[ \t]+|d['’])(?:evoluci|duraci|durada|antig|seguimiento|seguiment)")
# The most words a form's key holds before a lower-case word that ends it (Enf. gestora de casos:).
_KEY_WORDS_BEFORE = 3
# An age's number with the bare ``a`` of years, and a number after it: a range's start (de 0 a 45 grados).
_BARE_YEARS_UNIT = re.compile(r"\d[ \t]*a\Z")
_NUMBER_NEXT = re.compile(r"[ \t]+\d")
# What a job is worked in, not the job (trabaja a turnos, treballa a torns).
_NOT_OCCUPATIONS = frozenset("turnos turno torns torn jornada media completa parcial tiempo temps".split())
# Being retired is no occupation (jubilat, jubilada, pensionista): the guidelines tag the job, not its end.
_RETIRED = frozenset(
    "jubilado jubilada jubilados jubiladas jubilat jubilats jubilades pensionista pensionistas retirado retirada".split()
)
# Five digits opening with 00 in brackets: a nursing diagnosis' NANDA code (Risc de caigudes (00155)), where a Spanish
# postal code opens with its province's number, 01 to 52 (a foreign one, such as France's 66260, stays a place).
# What may open a nursing diagnosis' line before its code: a list's mark, the word of a diagnosis (Dx 00046 ...).
_NANDA_LEAD = re.compile(r"(?i)[ \t*•-]*(?:(?:dx|dg|diag|nanda|diagn[oó]stico|diagn[oò]stic)\.?:?[ \t]*)?")
_NANDA_CODE = re.compile(r"\(00\d{3}\)|\[00\d{3}\]")
_NANDA_DIAGNOSIS_AFTER = re.compile(r"[ \t]+([^\W\d_]+)")
# A department or a centre's acronym after de/del, which ends a clinician's name (Dr. Oliveras del CSMA, Dr.
# Ferreiro de Oncología).
_DEPARTMENT_AFTER_A_NAME = re.compile(r"[ \t]+(?:del|de|d['’])[ \t]*(?:la[ \t]+|l['’])?(?P<word>[^\W\d_]+)")
# Units, which a lab result holds and a street does not (Àcid úric 9,4 mg/dL, Nena de 3.240 g).
# The last number of a span, when it may be an hour's, and the minutes or the "h" after the span that make it one
# (14 de junio 05 + :10h, PAC 23 + :50, viernes 10 + h).
_HOUR_AT_END = re.compile(r"(?<![\d:.])\d{1,2}\Z")
_MINUTES_AFTER = re.compile(r"[:.h][0-5]\d(?!\d)|h\b")
# A whole hour at a date's end (19/4 08:01): the time a message or an entry was written, no part of the date.
_WHOLE_HOUR_AT_END = re.compile(r"[ \t,]+\d{1,2}:\d{2}h?\Z")
# Two numbers of a blood pressure: the first above any day (128/76, 145/90), neither a year's four digits.
_BLOOD_PRESSURE = re.compile(r"(?<![\d/.-])(?:3[2-9]|[4-9]\d|1\d\d|2[0-9]\d)/\d{2,3}(?![\d/.-])")
# A glued full stop and a word: a new sentence typed without a space (8a.otalgia, eap.furosemida).
_GLUED_SENTENCE = re.compile(r"(?<=\w\w)\.(?=[a-zà-ÿ]{2,})")  # not an abbreviation's (h.bellvitge)
# After a street's number, the glued sentence's word is longer than a floor's (c/ san roque 12.antes, not 12.bj).
_GLUED_SENTENCE_AFTER_A_NUMBER = re.compile(r"(?<=\d)\.(?=[a-zà-ÿ]{4,})")
# A unit after a number: a quantity, not a year (escotoma en 4000 Hz).
_UNIT_AFTER = re.compile(r"[ \t]*(?:hz|khz|mg|mcg|ml|cc|ui|kcal|mmhg|lpm|rpm|kg|gr)\b", re.IGNORECASE)
# A thing named after a feast, not a date: the Christmas tree that a pityriasis rosea's plaques draw (placas en árbol
# de navidad), St John's wort (hierba de San Juan, herba de Sant Joan), the poinsettia (flor de Pascua).
_NAMED_AFTER_A_FEAST = re.compile(r"(?i)\b(?:[aá]rbol|arbre|hierba|herba|flor)[ \t]+de[ \t]+\Z")
# A fraction of a tablet or a dose (3/4 comp, 1/2 cp, 1/2 ampolla): a quantity, not a day and month.
_DOSE_FRACTION = re.compile(r"[1-3]/[2-4]")
_DOSE_AFTER = re.compile(
    r"[ \t]*(?:comp|comprimidos?|comprimits?|cp|cps|pastillas?|pastilles?|past|sobres?|ampollas?|ampolles?|amp)\b",
    re.IGNORECASE,
)
# Two words joined by y/i (murcia y viene; castilla y leon).
_WORD_AND_WORD = re.compile(r"(?P<place>[^\W\d_]+)[ \t]+(?:y|i)[ \t]+(?P<word>[^\W\d_]+)")
# The conjunction and the title of a second person after a name (Sílvia Roura i Dr. Albert Bosch).
_TITLE_OF_THE_NEXT = re.compile(r"(?i)[ \t]+(?:i|y|e)[ \t]+(?:dr|dra|sr|sra)\.?\Z")
# What a phone number in brackets says about its owner, not a place: (casa), (trabajo).
_DIGIT_THEN_BRACKET = re.compile(r"\d[ \t]*\(\Z")
# Words a span takes from right before it: ex (a relative), h. or hosp. glued to a hospital's name.
_EX_BEFORE = re.compile(r"(?i)(?<!\w)ex[ -]?\Z")
# The patient's keys (their last word), and up to three words before: nombre y apellidos, nom del pacient.
_PATIENT_KEY = r"(?:[^\W\d_]+[ \t]+){0,3}?(?:pacient[ea]?|nom|nombre|cognoms|apellidos|usuari[oa]?"
# A key that names a person (its last word before the colon), opening its line or a column of it.
_PERSON_KEY_BEFORE = re.compile(
    rf"(?i)(?:^|\n|\t|  )[ \t]*{_PATIENT_KEY}"
    r"|infermer[ao]|enfermer[ao]|metge|metgessa|m[eé]dic[oa]|facultativ[oa]|responsable|referent[e]?|titular"
    r"|contacte|contacto|familiar|cuidador[a]?|tutor[a]?)[ \t]*:[ \t]*\Z"
)
# The patient's key alone on the line above, colon or not (USUARIO\nCHEN, XIAOLING; NOMBRE Y APELLIDOS\nKoldo ...).
_PERSON_KEY_LINE_ABOVE = re.compile(rf"(?i)(?:^|\n)[ \t]*{_PATIENT_KEY})[ \t]*:?[ \t]*\n[ \t]*\Z")
# The word for the patient opening a line, with no colon (pac mamadou diallo sow.habla wolof): a name follows.
_PATIENT_WORD_BEFORE = re.compile(r"(?i)(?:^|\n)[ \t]*(?:pac|pte|paciente|pacienta|pacient)\.?[ \t]+\Z")
# The key of an address at the start of a line or of a field, perhaps after a leader of dots (adreça: , DOMICILIO
# ....... :, 81a. enderezo:): what follows is a street whatever its type's word (pujada del Rei Martí, 8, 2n).
_ADDRESS_KEY_BEFORE = re.compile(
    r"(?i)(?:^|\n|[.;,|][ \t]|[ \t]{2})[ \t]*(?:domicilio|domicili|direcci[oó]n?|adre[cç]a|enderezo|helbidea|address)"
    r"[ \t.]*:[ \t]*\Z"
    # Or where someone lives, in a sentence (vive en lugar de outeiro 14, domicilio lugar de vilar 14, dom. r/ …).
    r"|\b(?:vive|viu|reside|resideix|domicilio|domicili|dom\.)(?:[ \t]+(?:en|a|al))?[ \t]+\Z"
)
# The Galician rúa abbreviated r/, which opens a street (r/ do progreso 118 3ºizq) as c/ does.
_GALICIAN_RUA = re.compile(r"(?i)r/")
# A Galician hamlet (lugar) named with capitals and its house's number, an address where streets have no names
# (lugar de Rubián de Cima, 3); lugar alone is a word (en lugar de Sintrom 4 mg).
_GALICIAN_HAMLET = re.compile(r"[Ll]ugar[ \t]+(?:(?:de|do|da|dos|das|o|a|os|as|O|A|Os|As)[ \t]+)?[A-ZÁÉÍÓÚÑ][^\n]*\d")
# A street's type, its number and floor, then a comma, a bracket or a dash on the same line: what follows is the town
# or the neighbourhood of the address, whatever its case (c/ la vega 14 bajo, santullano; c/ ezcurdia 118 (xixón)).
_STREET_NUMBER_BEFORE = re.compile(
    r"(?i)(?:\bc/|\br/|\b(?:calle|carrer|avda|avd|av|avenida|avinguda|plaza|pza|pl|pla[cç]a|r[uú]a|lugar|lg|camino|cam[ií]|"
    r"paseo|pº|passeig|pg|ronda|rda|traves[ií]a|ctra|carretera|urb|urbanizaci[oó]n)\b\.?)[^\n]{0,40}\d[^\n]{0,16}"
    r"(?:,|\(|[ \t][-–])[ \t]*\Z"
)
# A bed, a box or a room of a handover's list before a patient's name (hab 104 dolores 89a, box5 varón, cama 8).
_BED_BEFORE = re.compile(r"(?i)(?<!\w)(?:hab|habitaci[oó]n|cama|box|llit|obs)\.?[ \t]*\d{1,4}[a-z]?[ \t:.,-]*\Z")
# A verb that gives someone's name (dice llamarse luis, es diu pau, de nombre iulian).
_NAMING_VERB_BEFORE = re.compile(
    r"(?i)(?<!\w)(?:llamarse|se[ \t]+llama|llamado|llamada|es[ \t]+diu|es[ \t]+deia|de[ \t]+nombre|de[ \t]+nom)[ \t]+\Z"
)
# What follows a patient's name that opens a telegraphic note, even one that capitalises other names: the age (``,26a``,
# ``, v 81 anys``, ``(82a)``) or an identifier's key (``,nie``, ``, dni``).
_AGE_OR_IDENTIFIER_AFTER = re.compile(
    r"(?i)[ \t]*[,(/]?[ \t]*(?:(?:(?:v|h|m|var[oó]n|mujer|home|dona|ni[ñn][oa]|nen|nena)(?:[ \t]*,)?[ \t]+)?(?:de[ \t]+)?~?"
    r"\d{1,3}[ \t]*(?:a|aa|a[ñn]os|anys|any|anos|m|meses|mesos)(?![^\W\d_])"
    r"|(?:nie|dni|nif|sip|cip|tis|tsi|nhc|nass|nuhsa|pasaporte|passaport|tlf|telf|tfno|tel[eè]fon[o]?)\b)"
)
# Given names in capitals after a comma that end their line or come before a full stop, a bracket or a comma: those
# of a name written surnames first (MARTÍN ALONSO, EUSEBIO (UROLOGÍA)).
_GIVEN_NAMES_AFTER_A_COMMA = re.compile(
    r",[ \t]*(?P<names>[^\W\d_a-zß-ÿ]+(?:[ \t]+[^\W\d_a-zß-ÿ]+){0,3})(?=[ \t]*(?:[.(,]|$))", re.M
)
# The minutes of a time, and the hour and colon before them (11:05h).
_MINUTES = re.compile(r"[0-5]\d[ \t]?h?\.?")
# A time of day under its key (Hora: 11.30): no date, though 11.05 could be a day and month.
_CLOCK_TIME = re.compile(r"(?:[01]?\d|2[0-3])[:.h][0-5]\d[ \t]?h?")
_HOUR_KEY_BEFORE = re.compile(r"(?i)\b(?:hora|hores|horas|time)[ \t]*[:.]?[ \t]*\Z")
_HOUR_AND_COLON = re.compile(r"\d:\Z")
# The word that joins the two dates of a range, at a date's end (``9 al``).
_RANGE_WORD_AT_END = re.compile(r"(?i)[ \t]+(?:al|a|hasta|fins|y|i)\Z")
# A twin, or the calf muscle when a side follows (gemelo izq).
_TWIN_WORDS = frozenset("gemelo gemelos gemela gemelas".split())
_SIDE_AFTER = re.compile(
    r"(?i)[ \t]+(?:izq|izda|izdo|izquierdo|izquierda|dcho|dcha|dch|derecho|derecha|der|interno|externo|medial|lateral"
    r"|bilateral)\b"
)
# What Catalan ``cap`` (none, any) comes before in a sentence, where it names no CAP.
_NONE_OF = frozenset(
    "altra altre altres mena tipus signe signes simptoma simptomes problema problemes canvi canvis alteracio lesio"
    " complicacio complicacions incidencia incidencies queixa dolor febre motiu efecte resposta millora dada dubte"
    " tractament medicacio episodi ingres caiguda vomit focus imatge troballa".split()
) | frozenset("bipolar femoral humeral radial".split())  # the head of a bone or a prosthesis (cap bipolar, cap femoral)
# Catalan "al cap de" a while: after some time, no CAP (al cap d'unes hores, al cap de tres dies).
_AFTER_A_WHILE = re.compile(
    r"cap d(?:e\s+|['’])(?:un|una|uns|unes|poc|pocs|poques|mig|mitja|alguns|algunes|[0-9]+|dos|tres|quatre|cinc|sis"
    r"|set|vuit|nou|deu|quinze|vint)\b"
)
# Header keys of identifiers, which a name may run into (``IONUT CRACIUN  NIE``, ``juan perez nis``); a clinician's
# professional card (``Dr. Toni Marí  TIP 4471``) only in capitals, where the word is no key.
_TRAILING_ID_KEY = re.compile(
    r"[ \t]+(?:(?i:NIE|DNI|NIF|NIS|NASS|NHC|SIP|CIP|CIPA|TIS|TSI|NUHSA|NUSS|PASAPORTE|PASSAPORT|PASSPORT)|TIP|CIAS)\Z"
)
# A word with figures at the end of a span: no word of a person's name has them.
_TRAILING_CODE = re.compile(r"[ \t]+[^\W\d_]*\d[\w/.-]*\Z")
# The letters of a Spanish number plate after its digits (no vowels, no Ñ or Q).
_PLATE_LETTERS_AFTER = re.compile(r"[ \t-]?[BCDFGHJKLMNPRSTVWXYZ]{3}(?!\w)")
# A capitalised name's last word and the opening quote of a nickname, perhaps in brackets (Sánchez (").
_NAME_AND_QUOTE_BEFORE = re.compile(r"[A-ZÀ-Ý][\w'’-]+[ \t]*\(?[\"“«]\Z")
# A drug's doses at breakfast, lunch and dinner (and perhaps bedtime): 1-0-1, 0-0-1, 1/2-0-0, ½-0-½-0.
_DOSE_SCHEDULE = re.compile(r"(?:[0-3]|½|1/2)(?:-(?:[0-3]|½|1/2)){2,3}")
# The units of an age in words.
_AGE_UNIT_WORDS = frozenset("anys años anos meses mesos".split())
# And those of a relative's age in words (de set anys, de tres setmanes).
_AGE_UNITS = _AGE_UNIT_WORDS | frozenset("any año mes setmanes semanas dies dias".split())
# Words that say a date follows, taken for the date (``nascut 07/10/2021``, a last period's ``DUM 14/2``), and units of
# an age: never a date.
_DATE_CUES = (
    frozenset(
        "nascut nascuda nacido nacida nacimiento naixement fecha data fec dx dia ayunas dejuni dum fur fum fpp".split()
    )
    | _AGE_UNIT_WORDS
)
# Identifiers' keys and documents, taken for the identifier (doc: pasaporte 554019827) or for a person.
_IDENTIFIER_KEYS = frozenset(
    "nie dni nif nass nhc sip cip cipa cipna tis tsi nuhsa nuss nis pasaporte passaport passport ghic tse".split()
)
# Words taken for a person that never are one: identifiers' keys, units of an age.
_NEVER_A_PERSON = _IDENTIFIER_KEYS | _AGE_UNIT_WORDS
# The preposition after a place that opens what follows it (Barcelona des del 2009, Tarragona des de l'any).
_TRAILING_PREPOSITION = re.compile(r"[ \t]+(?:des|de|del|desde|en|a|al)\Z")
# An age's unit right after a number (34 anys, 52 años, 8 meses).
_AGE_UNIT_AFTER = re.compile(r"(?i)(?:[ \t]*(?:años|anys|anos|any|meses|mesos)|a)(?![^\W\d_])")
# Breastfeeding taken for an origin (MEDDOCAN does annotate the infant, lactante, as ID_SUJETO_ASISTENCIA).
_NEVER_AN_ORIGIN = frozenset(["lactancia"])
# Shared clinical records and their programs, where a note was registered (registrada a HC3): no one's identifier.
_RECORD_SYSTEMS = frozenset(["hc3", "ecap"])
# No identifier of a patient is shorter (HC 3: the shared record again, read as a key and its value).
_FEWEST_ID_CHARACTERS = 3
# The number of an age before its unit.
_NUMBER_BEFORE_A_UNIT = re.compile(r"(?<![\w.,/])\d{1,3}[ \t]?\Z")
# Five figures in a row, which no vital sign's value has.
_FIVE_FIGURES = re.compile(r"\d{5}")
# A post-office box and its number.
_POST_OFFICE_BOX = re.compile(
    r"(?i)(?:apartado|apartat|apdo|apto)\.?(?:[ \t]+de)?(?:[ \t]+corre(?:os|us))?[ \t,:]*\d{1,6}\Z"
)
# The country's letter of a postal code (E-41013, e-18012 in a note written in lower case).
_COUNTRY_LETTER_BEFORE = re.compile(r"(?i)(?<![\w-])e-\Z")
# A hospital takes h. or hosp., glued or a space before it, but not the h. of an hour (8 h. Percusión); a "town"
# takes hosp. so, and h. only glued (h.bellvitge): a town after an hour's h. is rarer than one after a full stop.
_WORD_BEFORE = {
    "FAMILIARES_SUJETO_ASISTENCIA": _EX_BEFORE,
    "HOSPITAL": re.compile(r"(?i)(?<![\w.])(?<!\d )(?:h|hosp)\.[ \t]?\Z"),
    "TERRITORIO": re.compile(r"(?i)(?<![\w.])(?:hosp\.[ \t]?|h\.)\Z"),
}
# A vital sign's or a scale's abbreviation before its value: temperature, respiratory and heart rate, blood pressure,
# saturation, pain, coma and performance scales (ECOG 1, NYHA 2), and the scales of geriatric and nursing assessment
# (Barthel 25, MNA 19, Tinetti 12: not a street and its number).
_SCALES = (
    "barthel|tinetti|mna|pfeiffer|lawton|norton|braden|emina|downton|karnofsky|nihss|rankin|mmse|mec|katz|pps|charlson"
    "|zarit|yesavage|glasgow|apgar|epworth|hamilton|beck|fagerstrom|morisky|cage|audit|dast|phq-?9|gad-?7|moca|hads"
    "|cincinnati"
)
_VITAL_SIGN = re.compile(
    rf"(?i)(?:t|tª|temp|fr|fc|ta|tas|tad|pa|sat|sato2|spo2|eva|gcs|ecog|nyha|asa|imc|peep|fio2|inr|hba1c|{_SCALES})"
    r"[ \t:]*(?:de[ \t]+)?\d"  # Tª 37,8; Hamilton de 24
)
# What a scale's value may be taken for.
_SCORE_LOOKALIKES = CODE_TYPES | {"FECHAS", "EDAD_SUJETO_ASISTENCIA"}
# A scale named alone, without its value (Braden, Norton): no person.
_SCALE_NAMES = frozenset(name for name in _SCALES.split("|") if name.isalpha())
# A scale's name, perhaps a word (previ, actual, inicial) and a key's leader dots before a value: a score, which may
# look like a date or an age (Lawton ........ 2/8, Barthel previ .... 70).
_SCALE_BEFORE = re.compile(
    rf"(?i)\b(?:{_SCALES})(?:[ \t]+(?:previ|previo|previa|actual|inicial|basal|final|total))?[ \t.:]*\Z"
)
# Two numbers and a slash that no day and month, month and year, or year and month can be (Janumet 50/1000, a test's
# 21/35): a dose or a score.
_FRACTION = re.compile(r"\D*?(\d{1,4})/(\d{1,4})")
# The head of a clinical eponym, a scale or a criterion, then de: the capitalised word after it names a person or a
# place only as an eponym (fractura de Colles, criterios de Seattle, criteris de Lugano, tipus II de Bigliani).
_EPONYM_BEFORE = re.compile(
    r"(?i)\b(?:escala|[íi]ndice|[íi]ndex|test|s[íi]ndrome|enfermedad|enf\.|malaltia|signo|signe|maniobra|criterios?"
    r"|criteris?|clasificaci[óo]n|classificaci[óo]|estadio|grado|grau|fractura|tipo|tipus|biometr[íi]a|reglas?|regles?"
    r"|f[óo]rmula|tri[áa]ngulo|triangle|joroba|bolsa|bossa|bursa|ligamento|lligament|conducto|conducte"
    r"|reflejo|reflex)[ \t]+(?:[\w'’-]+[ \t]+){0,2}?(?:de|d['’])[ \t]*\Z"
)
# A Catalan clitic pronoun right before a verb (es dona, li dona, ens dona).
_CLITIC_BEFORE = re.compile(r"(?i)(?<!\w)(?:es|se|li|els|ens|us|et|em|s['’])[ \t]*\Z")
# The workplace after an occupation: en and an article (trabajador en canteras, without one, is MEDDOCAN's whole span).
_WORKPLACE = re.compile(r"(?i)[ \t]+en[ \t]+(?:el|la|los|las|un|una)\b")
# A date written without spaces: 03-ABR-2025, 15/03/2025, 2025-03-15, 03.2025, 20250315.
_MONTH = r"(?:ene|feb|mar|abr|may|jun|jul|ago|sep|set|oct|nov|dic|gen|febr|març|maig|juny|ag|des)[a-zç]*\.?"
_DATE_WITHOUT_SPACES = re.compile(
    rf"(?i)(?:\d{{1,2}}[-/.])?(?:\d{{1,2}}|{_MONTH})[-/.]?\d{{2,4}}|\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|(?:19|20)\d{{2}}(?:\d{{4}})?"
)
# An identifier, not a date: six digits in a row, or five and a letter (``AP-2025-77810``; MEDDOCAN's ``26708/2017``
# is a date with a slash lost).
_IDENTIFIER_DIGITS = re.compile(r"\d{6}|^(?=.*[^\W\d_]).*\d{5}")
# Letters and this many digits in two groups or more make an identifier too (AR-2025-1143, EP-2025-RH-7701).
_FEWEST_CODE_DIGITS = 7
# A postal code glued to its town is no identifier (``08005-Barcelona``, ``E-28935``): an identifier's letters are
# three at most, and its digits in two groups at least.
_LONG_LETTERS = re.compile(r"[^\W\d_]{4,}")
_DIGIT_GROUP = re.compile(r"\d+")
# The key of an identifier that names a care episode, or insurance, by its last word before the value on its line.
_CODE_KEY = re.compile(
    r"(?i)(?P<episode>episodi|petici|solicitud|ingr[eé]s|contacto|proc[eé]s|visita|asistencia|estudio|estudi\b|\bacc\b)"
    r"|(?P<insurance>nass|nss|afiliaci|seguridad social|seguretat social|tarjeta sanitaria|p[oò]lissa|p[oó]liza)"
)
_KEY_REACH = 40
# A code ends before a word of letters after a space or a middle dot (``55120984 · Episodi``).
_WORD_AFTER_CODE = re.compile(r"[ \t]+(?:[·|][ \t]*)?(?!(?i:ext))[^\W\d_]{3,}\b|[ \t]*·")
# A street without a street type: words, then its number, perhaps floor and door (los alisos, 10; teatinos 180, 2º b).
_NAME_AND_NUMBER = re.compile(r"[^\W\d_][^\d]*?,?[ \t]*\d{1,4}(?:[ \t]*[,-]?[ \t]*\d{1,2}[ \t]*[ºª]?[ \t]*[a-z]?)?")
# Words of a street without a street type in a note without capitals (begiristain doktorea pasealekua, 109).
_STREET_WITHOUT_TYPE_WORDS = 6
# A word of shorthand prose: x (por), q (que).
_SHORTHAND_WORD = re.compile(r"(?<![\w/])[xq](?![\w/])")
_DECIMAL_AT_END = re.compile(r"\d[.,]\d{1,2}\Z")
_UNIT = re.compile(
    r"(?i:\b(?:mg|ml|dl|mmol|mcg|ui|kg|mmhg|lpm|rpm|min)\b)|\d[.,]\d+[ \t]?g\b|%"
    # Hours after de or c/ (DOLOR EN FOSA ILÍACA DERECHA DE 24 H; cambios posturales c/3h).
    r"|(?i:\b(?:de|c/)[ \t]*\d+[ \t]*h\b)"
)
# Words that no person's name holds (articles, which some do hold, such as El Kadaoui, are left out).
_NOT_IN_NAMES = frozenset(
    "por para con sin que al en se le lo su sus es ha muy tras desde hasta per amb els ho li hi cada".split()
)
_PARTICLES = frozenset("de del la las los el y i e d l da dos sant san santa".split())
# The head words of a Basque centre's name, which follow the name.
_BASQUE_CENTRE_HEADS = frozenset("osasun zentroa anbulatorioa ikastola ospitalea".split())
# Words that say what kind of place a name is, tagged with it: not prose.
_PLACE_KIND_WORDS = frozenset("comarca parroquia urbanizacion urbanitzacio".split())
_IS_A_PERSON = re.compile(
    r"[ \t]+(?:es|és|era|fue|fou)[ \t]+(?:un|una)[ \t]+(?:niñ|nen|noi|chic|var[oó]n|hom|dona|mujer|lactant|beb|adolescent|pacient|senyor|señor)"
)


@cache
def _known_words() -> frozenset[str]:
    """Given names, surnames, provinces, their capitals, regions and countries that Faker ships (and the countries'
    Catalan names), the towns of GeoNames and the distinctive words of cities abroad
    (:func:`anonimed.rules.gazetteers.towns`), the rules' given names (Montse, Txell) and regions (Eivissa, Osona),
    folded to lower case without accents: words that may name someone or somewhere even when they are common words
    (``Rosa``, ``León``, ``Mataró``)."""
    from anonimed.rules.gazetteers import countries, distinctive_world_towns, given_names, regions, towns
    from anonimed.transform.surrogates import pools
    from anonimed.transform.surrogates.places import provinces

    words: set[str] = set()
    names = [*pools.given_name_genders(), *pools.surnames().values, *pools.regions(), *pools.countries().values]
    names += [place for pair in provinces().values() for place in pair]
    for name in names:
        words.update(fold(word) for word in _WORD.findall(name))
    return frozenset(words | towns() | given_names() | countries() | distinctive_world_towns() | regions())


def _own_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text) if w.lower() not in _PARTICLES and len(w) > 1]


def _known(word: str) -> bool:
    return fold(word) in _known_words()


def _opens_a_clause(text: str, span: Span) -> bool:
    """A single capitalised word that starts a sentence or a line and runs on into a lower-case word (``Refereix
    dolor``, ``Truca la filla``): a verb or a noun of the sentence, unless a list of names or places knows it, or it
    is the subject of a sentence that says who the patient is (``Amadou es un niño de 6 años``)."""
    covered = text[span.start : span.end]
    if len(_WORD.findall(covered)) != 1 or not covered[:1].isupper() or covered.isupper() or _known(covered):
        return False
    after = text[span.end :]
    if _IS_A_PERSON.match(after):
        return False
    return _opens_a_sentence(text, span.start) and re.match(r"[ \t]+[a-zà-ÿ]", after) is not None


def _lower_case_prose(covered: str) -> bool:
    """A lower-case word of four letters or more that no name or place list knows (``a efectos de su empresa``); the
    lower-case part of a hyphenated name is none (``Vall-llosera``), nor the word that says what kind of place a
    name is (``comarca del Ripollès``, ``parroquia de Vilatuxe``: guideline P12.4 tags it with the name)."""
    words = _own_words(_HYPHENATED_PART.sub("", covered))
    named = [w for w in words if fold(w) not in _PLACE_KIND_WORDS]
    return (bool(words) and not named) or any(w.islower() and len(w) >= 4 and not _known(w) for w in named)


def _lower_case_word(text: str, span: Span) -> bool:
    """A lone lower-case common word, even one that a list of surnames knows, with no title before it: a word used
    as a word (Catalan ``la font de la febre``, ``abdomen moll``; not ``dr. cabrera``).  Said of people only: a town
    is often written in lower case (``vive en valencia``), a person's name seldom in a note that capitalises names."""
    from anonimed.rules.gazetteers import CommonWords

    covered = text[span.start : span.end]
    if not (covered.isalpha() and covered.islower() and covered in CommonWords()):
        return False
    return not (
        _after_a_title(text, span)
        or _before_age_or_identifier(text, span)
        or _beside_a_role_in_brackets(text, span)
        or _nickname(text, span)
        or _after_a_naming_verb(text, span)
    )


def _nickname(text: str, span: Span) -> bool:
    """A word in quotes right after a capitalised name, perhaps in brackets: a nickname (``Francisco Moreno Sánchez
    ("paco")``)."""
    return (
        text[span.end : span.end + 1] in ('"', "”", "»")
        and _NAME_AND_QUOTE_BEFORE.search(text, max(0, span.start - 30), span.start) is not None
    )


def _beside_a_role_in_brackets(text: str, span: Span) -> bool:
    """A name alone in brackets after a clinician's role (``enfermera gestora de casos (rosario)``, ``t.s. (xoana)``,
    ``enfermeria (miren)``), or before the role in brackets (``aurelio (mf)``): whose name it is."""
    after = _ROLE_IN_BRACKETS_AFTER.match(text, span.end)
    if after is not None and fold(after.group(1)) in _SIGNING_ROLES:
        return True
    if not (
        _BRACKET_OPEN_BEFORE.search(text, max(0, span.start - 2), span.start) and text[span.end : span.end + 1] == ")"
    ):
        return False
    before = _WORD.findall(text[max(0, span.start - 40) : span.start])
    return any(fold(word) in _ROLES_BEFORE_A_NAME_IN_BRACKETS for word in before[-3:])


def _before_age_or_identifier(text: str, span: Span) -> bool:
    """Whether the patient's age or an identifier's or a phone's key follows the span (``yesenia mamani quispe,26a``,
    ``marcos,18 meses``, ``fatima zahra el amrani,nie``, ``cama 2 koldo arbizu 19a``, ``pac mamadou diallo,tlf:``,
    ``wang lihua (dona, 63a)``), or a handover's bed before it (``hab 104 dolores 89a``): a name in lower case, as
    telegraphic notes write the patient's even where they capitalise hospitals and towns."""
    after = _AGE_OR_IDENTIFIER_AFTER.match(text, span.end)
    # After a space alone, only a name of two words at least (cama 2 koldo arbizu 19a; not sala 5a, pozo 30 años), or a
    # known given name that opens its line (lucía 5a 3m nuhsa ...).
    return after is not None and (
        any(c in after.group() for c in ",(/")
        or len(text[span.start : span.end].split()) > 1
        or _given_name_opening_a_line(text, span)
        or _BED_BEFORE.search(text, max(0, span.start - 20), span.start) is not None
    )


def _after_a_naming_verb(text: str, span: Span) -> bool:
    """Whether a verb that gives a name stands right before the span (``dice llamarse luis``, ``es diu pau``)."""
    return _NAMING_VERB_BEFORE.search(text, max(0, span.start - 24), span.start) is not None


def _given_name_opening_a_line(text: str, span: Span) -> bool:
    from anonimed.rules.gazetteers import given_names

    line_start = text.rfind("\n", 0, span.start) + 1
    return not text[line_start : span.start].strip() and fold(text[span.start : span.end]) in given_names()


def _after_a_person_key(text: str, span: Span) -> bool:
    """Whether the span is the value of a key that names a person, at the start of its line or of a column of it
    (``pacient: teresa ferré bel``, ``infermera referent: laia pla``), or follows the word for the patient that opens
    a line (``pac mamadou diallo sow``): a name, whatever case the note writes it in."""
    start = max(0, span.start - 48)
    return (
        _PERSON_KEY_BEFORE.search(text, start, span.start) is not None
        or _PATIENT_WORD_BEFORE.search(text, start, span.start) is not None
        or _PERSON_KEY_LINE_ABOVE.search(text, start, span.start) is not None
    )


def _after_an_address_key(text: str, span: Span) -> bool:
    """Whether the span is the value of an address key (``adreça: pujada del Rei Martí, 8, 2n``)."""
    return _ADDRESS_KEY_BEFORE.search(text, max(0, span.start - 48), span.start) is not None


def _after_a_street_number(text: str, span: Span) -> bool:
    """Whether the span follows a street and its number on its line (see ``_STREET_NUMBER_BEFORE``)."""
    line_start = text.rfind("\n", 0, span.start) + 1
    return _STREET_NUMBER_BEFORE.search(text, max(line_start, span.start - 72), span.start) is not None


def _after_a_title(text: str, span: Span) -> bool:
    """Whether a title or a role (``dra.``, ``inf.``) stands right before the span, perhaps with an initial or the
    role's second word between them (``dr. cabrera``, ``dra. s.`` + ``puigvert``, ``med. guardia``): a signature, its
    name in lower case as the note writes it."""
    before = _WORD.findall(text, max(0, span.start - 24), span.start)
    if before and len(before[-1]) == 1:  # an initial
        before.pop()
    if not before:
        return False
    qualified = len(before) > 1 and fold(before[-1]) in _ROLE_QUALIFIERS and fold(before[-2]) in _SIGNATURE_OPENERS
    return qualified or fold(before[-1]) in _SIGNATURE_OPENERS


def _sentence_words(covered: str) -> list[str]:
    """The lower-case words of four letters or more that are common words and name nothing a list knows."""
    from anonimed.rules.gazetteers import CommonWords

    common = CommonWords()
    return [w for w in _own_words(covered) if w.islower() and len(w) >= 4 and w in common and not _known(w)]


def _common_prose(covered: str) -> bool:
    """Lower-case words of which none names anyone or anywhere that a list knows and one at least is a common word
    (``se recomienda q``, ``cardiologia de guardia``), or three common words at least: prose, in a note written all in
    lower case."""
    from anonimed.rules.gazetteers import CommonWords

    words = _own_words(covered)
    common = CommonWords()
    if not covered.islower():
        return False
    # Three common words that name nothing make a sentence even when a known name closes it (… en el centro de
    # its de valencia).
    sentence = _sentence_words(covered)
    if len(sentence) >= _SENTENCE_WORDS:
        return True
    # A word that is neither common nor known looks like a name no list holds (olazabal, eizaguirre, abdul); so does a
    # word after an initial (m. ventura).
    name_like = any(w not in common and not _known(w) and len(w) >= 4 for w in words) or bool(_INITIAL.match(covered))
    return not name_like and not any(_known(w) for w in words) and any(w in common for w in words)


def _line_around(text: str, span: Span) -> tuple[int, int]:
    """The start and end offsets of the line that holds ``span`` (a span never crosses a line break)."""
    line_end = text.find("\n", span.end)
    return text.rfind("\n", 0, span.start) + 1, line_end if line_end >= 0 else len(text)


def _heading(text: str, span: Span) -> bool:
    """A line in capitals that the span fills (its colon aside), none of whose words names anyone or anywhere that a
    list knows, and half of whose words at least are common words: ``SOLICITUD DE INTERCONSULTA``, ``CURS CLÍNIC``
    (not a name no list knows, alone under its key: ``BABAJIDE OLUWASEUN ADEYEMI``)."""
    from anonimed.rules.gazetteers import CommonWords

    line_start, line_end = _line_around(text, span)
    line = text[line_start:line_end].strip().rstrip(":").strip()
    covered = text[span.start : span.end]
    words = _own_words(covered)
    # Not "covered + '.'": a value in capitals under its key ends in one (NOMBRE / NOM:\nERNESTINA.).
    if line != covered or not covered.isupper() or not words or any(_known(w) for w in words):
        return False
    common = CommonWords()
    return 2 * sum(fold(w) in common for w in words) >= len(words)


def _words_of_a_heading(text: str, span: Span) -> bool:
    """A span that fills part of a line in capitals with no key and no title (``DIAGNÒSTIC PER LA IMATGE``, ``MÉDICO
    SOLICITANTE``, ``RX TÓRAX PORTÁTIL AP (UCI, BOX 7)``) and whose words of four letters or more are all common
    words that no list of names or places knows: part of a heading.  A value alone on its line may be made of common
    words (``BUENOS AIRES``, a street) and is left to the other checks; so is a note all in capitals, where every line
    is (``MEDELEC SYNERGY. OXFORD. INSTRUMENTS``)."""
    from anonimed.rules.gazetteers import CommonWords

    line_start, line_end = _line_around(text, span)
    line = text[line_start:line_end]
    if not line.isupper() or ":" in line or any(fold(w) in _TITLE_WORDS for w in _WORD.findall(line)):
        return False
    if _WORD.findall(line) == _WORD.findall(text, span.start, span.end):
        return False
    # Values listed on one line are parted by punctuation (SAN LUCAS, COYOACAN, CDMX.; HOSPITAL CAN MISSES - EIVISSA);
    # a heading's words are not.
    before = text[line_start : span.start].rstrip(" \t")
    after = text[span.end : line_end].lstrip(" \t")
    if before[-1:] in (",", ".", ";", "-", "–", "·") or after[:1] in (",", ".", ";"):
        return False
    words = [w.lower() for w in _own_words(text[span.start : span.end]) if len(w) >= 4]
    common = CommonWords()
    return bool(words) and all(w in common and not _known(w) for w in words)


def _capitalises_names(text: str) -> bool:
    """Whether the note writes capitalised words inside its sentences (a note all in capitals or all in lower case
    does not: there case tells nothing)."""
    inner = re.findall(r"(?<=[a-zà-ÿ,;] )[A-ZÀ-Ý][a-zà-ÿ]+", text)
    return len(inner) >= 2


def _street_shaped(covered: str, capitalised: bool) -> bool:
    """Whether a street span looks like one (see the module docstring); ``capitalised``: whether the note capitalises
    names (in one that does not, a street needs no capital: ``teatinos 180``)."""
    from anonimed.rules.gazetteers import CommonWords, street_types

    words = _WORD.findall(covered)
    sentence = [w for w in _sentence_words(covered) if fold(w) not in street_types() | _FLOOR_AND_DOOR_WORDS]
    if len(sentence) >= _SENTENCE_WORDS:
        return False
    # A street type makes a street, but c (of c/) only where it opens one: further on, c/ is con (epoc gold 3,icc,acxfa
    # anticoag c/ sintrom); and placa without its cedilla is a plaque (placa eritematosa 1,2 cm), not a plaça.
    tokens = [fold(w) for w in _ALPHANUMERIC.findall(covered) if w.lower() != _PLAQUE]
    if (
        re.search(r"(?i)\bs/n\b", covered)
        or _GALICIAN_RUA.match(covered)
        or _GALICIAN_HAMLET.match(covered)
        or any(w in street_types() and (index < 2 or w != "c") for index, w in enumerate(tokens))
    ):
        return True
    if _POST_OFFICE_BOX.match(covered):  # an address in MEDDOCAN's annotation: Apartado de Correos 20134
        return True
    # No street type, one capitalised word and a decimal: a lab result (Creatinina 1,9; DAS28 de 5,4).
    if _DECIMAL_AT_END.search(covered) and sum(w[0].isupper() for w in words) <= 1:
        return False
    if not capitalised and _NAME_AND_NUMBER.fullmatch(covered) and len(words) <= _STREET_WITHOUT_TYPE_WORDS:
        # A name and its number, in a note without capitals: a word that names something (known, or no common word),
        # then the number and perhaps floor and door (not a dose: doxiciclina 100/12h 7d).
        common = CommonWords()
        if len(sentence) < 2 and any(len(w) >= 4 and (_known(w) or w.lower() not in common) for w in words):
            return True
    capitals = [w for w in words if w[0].isupper()]
    if len(words) <= 4:
        # A name and a number (Irunlarrea, 3), or capitalised words: not a sentence with a capital (Tolera dieta).
        prose = [w for w in words if w.islower() and len(w) >= 3 and w not in _PARTICLES]
        return bool(capitals) and (any(c.isdigit() for c in covered) or not prose)
    prose = [w for w in words if w.islower() and len(w) >= 4 and w not in _PARTICLES]
    return len(capitals) >= 2 and not prose


def _whole_phone(text: str, span: Span) -> Span:
    """A phone number of fewer than nine digits takes the groups of digits written right before or after it
    (``(636 554 218)``, not ``554 218``), up to nine."""
    start, end = span.start, span.end
    while sum(c.isdigit() for c in text[start:end]) < _PHONE_DIGITS:
        before = _GROUP_BEFORE.search(text, max(0, start - 6), start)
        after = _GROUP_AFTER.match(text, end)
        if before is not None and sum(c.isdigit() for c in text[before.start() : end]) <= _PHONE_DIGITS:
            start = before.start()
        elif after is not None and sum(c.isdigit() for c in text[start : after.end()]) <= _PHONE_DIGITS:
            end = after.end()
        else:
            break
    return span if (start, end) == (span.start, span.end) else Span(start, end, span.label, span.score, span.source)


def _with_country_code(text: str, span: Span) -> Span:
    """A phone number keeps the country code written before it (``+34 676 902 118``, ``(0034) 93…``)."""
    if span.start > 0 and text[span.start - 1] == "+" and text[span.start : span.start + 1].isdigit():
        return Span(span.start - 1, span.end, span.label, span.score, span.source)  # the + of +34 left out
    code = _COUNTRY_CODE.search(text, max(0, span.start - 12), span.start)
    if code is None:
        return span
    return Span(code.start(), span.end, span.label, span.score, span.source)


def _with_its_extension(text: str, span: Span) -> Span:
    """A phone number takes the extension written after it (``972 26 19 00 ext 3``), and one that ends with the word
    of an extension takes its number too (``ext`` alone is no PHI)."""
    word = _EXTENSION_WORD_AT_END.search(text, span.start, span.end)
    end = word.start() if word is not None else span.end
    extension = _EXTENSION_AFTER.match(text, end)
    if extension is not None:
        end = extension.end()
    return span if end == span.end else Span(span.start, end, span.label, span.score, span.source)


def _whole_plate(text: str, span: Span) -> Span:
    """A Spanish number plate's four digits take the three letters after them (``4821 KLP``)."""
    if not re.fullmatch(r"\d{4}", text[span.start : span.end]):
        return span
    letters = _PLATE_LETTERS_AFTER.match(text, span.end)
    return span if letters is None else Span(span.start, letters.end(), span.label, span.score, span.source)


def _name_part(text: str, span: Span) -> Span | None:
    """A person's name ends before a word that no name holds (``DR. GALINDO POR TELÉFONO`` → ``GALINDO``), and before
    a department or a centre's acronym after ``de`` (``Oliveras del CSMA``, ``Ferreiro de Oncología``)."""
    for match in _WORD.finditer(text, span.start, span.end):
        if match.start() > span.start and match.group().lower() in _NOT_IN_NAMES:
            end = span.start + len(text[span.start : match.start()].rstrip(" \t,;:-("))
            return Span(span.start, end, span.label, span.score, span.source) if end > span.start else None
    for found in _DEPARTMENT_AFTER_A_NAME.finditer(text, span.start, span.end):
        word = found.group("word")
        acronym = word.isupper() and 2 <= len(word) <= 5 and not text[span.start : found.start()].isupper()
        if found.start() > span.start and (acronym or _DEPARTMENT_WORD.fullmatch(fold(word))):
            span = Span(span.start, found.start(), span.label, span.score, span.source)
            break
    # Nor does it end in a separator (Dra. Núria Campos · Núm. col.), nor in the number of an age that follows it in a
    # telegraphic note (juan perez 72a: the span cuts the age's word; a whole number after a name may be a code).
    covered = text[span.start : span.end]
    if span.end < len(text) and text[span.end].isalpha():
        covered = _TRAILING_NUMBERS.sub("", covered)
    covered = _without_trailing_prose(covered)
    end = span.start + len(covered.rstrip(" \t·•|/-"))
    return Span(span.start, end, span.label, span.score, span.source) if end > span.start else None


def _without_trailing_prose(covered: str) -> str:
    """A name written with capitals ends before the lower-case words after it, the verb of its sentence (``Marta
    Álvarez vendra``); not before those after a particle (``Ana de la fuente``), a hyphen (``Vall-llosera``), nor
    before a known name (``Rocío vega``)."""
    words = list(_WORD.finditer(covered))
    if not any(word.group()[0].isupper() and word.group()[1:].islower() for word in words):
        return covered
    last = len(words)
    while last > 1 and _prose_after_a_name(covered, words[last - 1]):
        last -= 1
    if last == len(words) or words[last - 1].group().lower() in _PARTICLES:
        return covered
    return covered[: words[last - 1].end()]


def _prose_after_a_name(covered: str, word: re.Match[str]) -> bool:
    """Whether ``word`` of a name's ``covered`` text is a lower-case word of prose (see ``_without_trailing_prose``)."""
    from anonimed.rules.gazetteers import given_names, surnames

    text = word.group()
    spaced = covered[word.start() - 1] in " \t"
    return spaced and text.islower() and text not in _PARTICLES and text not in given_names() and text not in surnames()


def _code_part(text: str, span: Span) -> Span | None:
    """A number or code holds a digit (see :data:`NUMBER_TYPES`), and ends before a lower-case word glued to it by a
    full stop (``45128876k.ve``)."""
    covered = text[span.start : span.end]
    glued = _GLUED_WORD.search(covered)
    if glued is not None:
        covered = covered[: glued.start()]
    if span.label in NUMBER_TYPES and not any(c.isdigit() for c in covered):
        return None
    return Span(span.start, span.start + len(covered), span.label, span.score, span.source) if covered else None


def _whole_code(text: str, span: Span) -> Span:
    """A number or code that starts or ends inside a run of letters and digits covers the whole run
    (``ARCALA780915013``, not ``780915013``); a "phone number" with letters in it is the patient's identifier."""
    start, end = span.start, span.end
    if text[start].isalnum():
        while start > 0 and (text[start - 1].isalnum() or _code_joint(text, start - 1)):
            start -= 1
    if text[end - 1].isalnum():
        while (
            end < len(text) and (text[end].isalnum() or _code_joint(text, end)) and not NEXT_KEY_GLUED.match(text, end)
        ):
            end += 1  # not on into the next field's key (00482113/cip:)
    key = _GLUED_KEY.match(text, start, end)
    if key is not None and key.end() < end:  # nhc-150679, dni73001842-K: the key glued to the number is not part of it
        start = key.end()
    if (start, end) == (span.start, span.end) or (span.label in PHONE_TYPES and PHONES_JOINT.search(text, start, end)):
        return span  # two phone numbers written together stay two (977553218-622087114)
    label = span.label
    if label in PHONE_TYPES and any(c.isalpha() for c in text[start:end]):
        label = "ID_SUJETO_ASISTENCIA"
    return Span(start, end, label, span.score, span.source)


def _date_or_code(text: str, span: Span) -> Span:
    """A date or postal code that starts or ends inside a run of letters and digits joined by hyphens or slashes is
    the whole run: a date when the run is one written without spaces (``03-ABR-2025`` found as ``03`` and ``ABR-2025``),
    else, when the run holds six digits in a row, or letters and five in a row or seven in all, an identifier
    (``AP-2025-77810`` found as a year and a postal code, ``2025/118440``, ``AR-2025-1143``), of the kind its key
    names."""
    whole = _whole_code(text, span)
    run = text[whole.start : whole.end]
    if any(c.isspace() for c in run) or (span.label != "FECHAS" and whole == span):
        return span
    if _DATE_WITHOUT_SPACES.fullmatch(run):
        return Span(whole.start, whole.end, "FECHAS", span.score, span.source) if span.label == "FECHAS" else span
    groups = _DIGIT_GROUP.findall(run)
    letters = any(c.isalpha() for c in run)
    digits = sum(len(g) for g in groups)
    identifier = _IDENTIFIER_DIGITS.search(run) is not None or (letters and digits >= _FEWEST_CODE_DIGITS)
    if not identifier or _LONG_LETTERS.search(run) or len(groups) < 2:
        return span
    return Span(whole.start, whole.end, _code_label(text, whole.start), span.score, span.source)


def _code_label(text: str, start: int) -> str:
    """The type of the identifier at ``start`` by the last key word before it on its line: a care episode
    (``Episodio``, ``Petición``), insurance (``NASS``), else the patient's."""
    line_start = text.rfind("\n", 0, start) + 1
    if not text[line_start:start].strip() and line_start > 0:  # a value alone on its line: its key is the line before
        line_start = text.rfind("\n", 0, line_start - 1) + 1
    keys = list(_CODE_KEY.finditer(text, max(line_start, start - _KEY_REACH), start))
    if not keys:
        return "ID_SUJETO_ASISTENCIA"
    return "ID_CONTACTO_ASISTENCIAL" if keys[-1].group("episode") else "ID_ASEGURAMIENTO"


def _device_serial(text: str, span: Span) -> Span:
    """A code after a serial number's key on its line is a device's (``núm. de sèrie PJN7731902``, ``n/s
    UP41027388``), whatever identifier it was taken for."""
    if span.label == _DEVICE or _SERIAL_KEY_BEFORE.search(text, max(0, span.start - 24), span.start) is None:
        return span
    return Span(span.start, span.end, _DEVICE, span.score, span.source)


def _before_a_word(text: str, span: Span) -> Span | None:
    """A code ends before a word of letters after it (``55120984 · Episodi``): codes hold no words (the patient's
    "identifier" may be a description, ``la menor``, which is left alone)."""
    word = _WORD_AFTER_CODE.search(text, span.start, span.end)
    if word is None:
        return span
    code = text[span.start : word.start()]
    if not any(c.isdigit() for c in code) or _LONG_LETTERS.search(code):
        return span
    return Span(span.start, word.start(), span.label, span.score, span.source)


def _code_joint(text: str, offset: int) -> bool:
    """A hyphen or slash between letters or digits joins the parts of one code (``HUBU-0193847``, ``30/10448721/59``),
    and so does a full stop between digits (a collegiate number's thousands: ``07/04.561``)."""
    if not 0 < offset < len(text) - 1:
        return False
    before, after = text[offset - 1], text[offset + 1]
    return (text[offset] in "-/" and before.isalnum() and after.isalnum()) or (
        text[offset] == "." and before.isdigit() and after.isdigit()
    )


def _within_brackets(text: str, span: Span) -> Span | None:
    """A span ends before a closing bracket it did not open (``Puri) tlf`` → ``Puri``)."""
    depth = 0
    for offset in range(span.start, span.end):
        char = text[offset]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                end = span.start + len(text[span.start : offset].rstrip(" \t,;:-"))
                return Span(span.start, end, span.label, span.score, span.source) if end > span.start else None
            depth -= 1
    return span


def _within_quotes(text: str, span: Span) -> Span | None:
    """A span ends before a closing quotation mark it did not open (``Dra. E. Beltrán Querol"`` of a quoted report →
    ``E. Beltrán Querol``)."""
    covered = text[span.start : span.end]
    closing, before = covered[-1:], covered[:-1]
    if closing not in _CLOSING_QUOTES:
        return span
    opening = _CLOSING_QUOTES[closing]
    if before.count(opening) % 2 if opening == closing else opening in before:
        return span
    end = span.start + len(before.rstrip(" \t,;:-"))
    return Span(span.start, end, span.label, span.score, span.source) if end > span.start else None


def _before_an_hour(text: str, span: Span) -> Span | None:
    """A centre ends before the hour of a time that follows it (``PAC 23:50`` → ``PAC``), and one that is then only
    an abbreviation names no centre."""
    shorter = _before_the_hour(text, span)
    if shorter is span or shorter is None:
        return shorter
    if all(fold(word) in _CENTRE_ABBREVIATIONS | _CARE_POINTS for word in _WORD.findall(text, span.start, shorter.end)):
        return None
    return shorter


def _after_a_kinship_word(text: str, span: Span) -> Span:
    """A person's span that holds a kinship word before other words names the relative after it (``AVISADA HIJA Mª
    JESUS DEL POZO`` → ``Mª JESUS DEL POZO``), unless a name comes before the word (``Ana Pareja Ruiz``: a surname)
    or no given name after it (``nora olazabal eizaguirre``: a given name), or the word is capitalised in a note that
    is not all capitals (``el "Tío Quico"``: a nickname)."""
    from anonimed.rules.gazetteers import given_names, surnames

    words = list(_WORD.finditer(text, span.start, span.end))
    for index, word in enumerate(words):
        if fold(word.group()) not in KINSHIP:
            continue
        if word.group().istitle() and not text[span.start : span.end].isupper():
            return span  # a nickname (el "Tío Quico")
        if any(fold(w.group()) in given_names() or fold(w.group()) in surnames() for w in words[:index]):
            return span
        rest = [w for w in words[index + 1 :] if w.group().lower() not in _PARTICLES]
        if not any(fold(w.group()) in given_names() for w in rest):  # nora olazabal: Nora, not a daughter-in-law
            return span
        return Span(rest[0].start(), span.end, span.label, span.score, span.source)
    return span


def _first_column(text: str, span: Span) -> Span | None:
    """A span ends at a column break (three spaces, a tab, a table's bar), as at a line break; one that opens with a
    form's key is its value, the next column (``Mutua<TAB>Fremap`` → ``Fremap``)."""
    covered = text[span.start : span.end]
    start = span.start + len(covered) - len(covered.lstrip())
    found = _COLUMN_BREAK.search(text, start, span.end)
    if found is None:
        return span
    if _form_key(text[start : found.start()]) and found.end() < span.end:
        return _first_column(text, Span(found.end(), span.end, span.label, span.score, span.source))
    return Span(span.start, found.start(), span.label, span.score, span.source) if found.start() > span.start else None


def _form_key(words_before_a_column: str) -> bool:
    """Ordinary words, none with a figure or that names someone or somewhere: a form's key (``Mutua``, ``Fecha de la
    baja``), which a tab or aligned spaces part from its value."""
    from anonimed.rules.gazetteers import CommonWords

    common = CommonWords()
    words = _WORD.findall(words_before_a_column)
    return (
        bool(words)
        and not any(c.isdigit() for c in words_before_a_column)
        and all(w.lower() in common and not _known(w) for w in words)
    )


def _without_leading_function_words(text: str, span: Span) -> Span | None:
    """A name or a place without the lower-case articles and prepositions it starts with before a capitalised word
    (``la Roser`` → ``Roser``; ``la coruña`` in a note written in lower case stays); none when nothing else is left
    (``el``, ``ya``)."""
    start = span.start
    while True:
        match = _WORD.match(text, start, span.end)
        if match is None or match.group() not in _LEADING_FUNCTION_WORDS:
            break
        rest = _AFTER_FUNCTION_WORD.match(text, match.end(), span.end)
        if rest is None:
            if match.end() == span.end:
                return None
            break
        start = rest.end()
    # Written in lower case, the article may be the name's (la coruña); not before a neighbourhood's word (en el
    # barrio de Usera → barrio de Usera).
    if start == span.start or (text[start].islower() and not text.startswith(("barrio ", "barri "), start)):
        return span
    return Span(start, span.end, span.label, span.score, span.source)


def _title_or_department(covered: str) -> bool:
    """Words that are all titles (``Sra``, ``Dr``) or department words (``Cirugía General``), perhaps with the acronym
    of a unit after a department word (``Cirugía HBP``): no name, no place."""
    words = _own_words(covered)
    if not words:
        return False
    opens_with_a_department = _DEPARTMENT_WORD.fullmatch(fold(words[0])) is not None
    return all(
        fold(word) in _TITLE_WORDS
        or _DEPARTMENT_WORD.fullmatch(fold(word))
        or (index > 0 and opens_with_a_department and word.isupper() and len(word) <= 4)
        for index, word in enumerate(words)
    )


def _surname_after_a_title(text: str, span: Span) -> bool:
    """A person's one capitalised word right after a doctor's title, which is their surname even where it is a
    department's word too (``dra. Guàrdia``, ``Dr. Cirugeda``)."""
    covered = text[span.start : span.end]
    return (
        span.label in PERSON_TYPES
        and len(_WORD.findall(covered)) == 1
        and covered[:1].isupper()
        and _DOCTOR_BEFORE.search(text, max(0, span.start - 12), span.start) is not None
    )


def _job_title(covered: str) -> bool:
    """A person's or place's span made of words of jobs, roles and departments, none a name that a list knows
    (``Médico de Familia``, ``Facultativo Especialista de Área``, ``Pacient``, ``Radiòloga``), but for a department
    after the role, which may be a surname too (``metgessa de família``)."""
    from anonimed.rules.gazetteers import occupations

    words = [fold(w) for w in _own_words(covered)]
    roles = occupations() | _ROLE_WORDS

    def role(word: str) -> bool:
        return word in roles or _DEPARTMENT_WORD.fullmatch(word) is not None or _SPECIALIST.fullmatch(word) is not None

    return (
        bool(words)
        and all(role(w) for w in words)
        and words[0] not in _known_words()
        and all(w not in _known_words() or _DEPARTMENT_WORD.fullmatch(w) for w in words[1:])
    )


def _hour(text: str, span: Span) -> bool:
    """A hospital span that opens with ``h.`` right after a number: the hour (``24 h. Ticagrelor``)."""
    return text[span.start : span.start + 2].lower() == "h." and _HOUR_BEFORE.search(text, 0, span.start) is not None


def _before_a_spaced_dash(text: str, span: Span) -> Span | None:
    """A name or a date ends before a dash between spaces, which joins two values (``DRA. CLARA MIRALLES -
    NEUROPEDIATRIA``, ``14/01 - Tercer dia``); streets and centres may hold one (``Ctra. Torrevieja - San Miguel de
    Salinas``, ``Hospital Clínico Universitario - Hospital Gil Casares``)."""
    found = _SPACED_DASH.search(text, span.start, span.end)
    if found is None or found.start() == span.start:
        return span
    return Span(span.start, found.start(), span.label, span.score, span.source)


def _centre_before_its_town(text: str, span: Span) -> Span:
    """A centre ends before a dash between spaces that a town's name follows to the span's end (``Hospital
    Universitari Arnau de Vilanova - Lleida``): the town is a place of its own (a rule finds it); a centre named after
    another keeps it (``Hospital Clínico Universitario - Hospital Gil Casares``)."""
    from anonimed.rules.gazetteers import towns

    found = _SPACED_DASH.search(text, span.start, span.end)
    if found is None or found.start() == span.start:
        return span
    words = [fold(word) for word in _WORD.findall(text, found.end(), span.end)]
    if not words or not all(word in towns() or word in _PARTICLES for word in words):
        return span
    return Span(span.start, found.start(), span.label, span.score, span.source)


def _department_or_eponym(covered: str) -> bool:
    """A name that opens with the head word of a department (``Unidad de Melanoma``, ``Servei de Cardiologia``) or of
    an eponym (``Escala de Braden``, ``Síndrome de Down``); an eponym's head alone may be a town (``l'Escala``)."""
    words = _own_words(covered)
    if not words:
        return False
    head = fold(words[0])
    return head in _DEPARTMENT_HEADS or (head in _EPONYM_HEADS and len(words) > 1 and not _grau_of_a_town(covered))


def _grau_of_a_town(covered: str) -> bool:
    """A town's seaside district, its Grau (``Grau de Gandia``), not a grade (``Grau II de Kellgren``) nor a surname
    (``Grau Solsona``)."""
    from anonimed.rules.gazetteers import towns

    found = _GRAU_OF.fullmatch(covered)
    return found is not None and fold(found.group("town")) in towns()


def _function_words_only(covered: str) -> bool:
    """A "name" made of articles and prepositions alone (``La`` that opens ``La filla, la Núria``), or of them and a
    kinship word (``la nuera``: a relative, not a place)."""
    words = [fold(w) for w in _WORD.findall(covered)]
    return (
        bool(words)
        and not any(c.isdigit() for c in covered)  # E-28015 is a postal code
        and all(w in _FUNCTION_WORDS for w in words[:-1])
        and (words[-1] in _FUNCTION_WORDS or (len(words) > 1 and words[-1] in KINSHIP))
    )


def _kinship_of_a_role(text: str, span: Span) -> bool:
    """``familia`` after ``de`` names a role (``médico de familia``, ``metgessa de família``), not the patient's
    relatives (none of MEDDOCAN's twelve is annotated)."""
    return (
        fold(text[span.start : span.end]) == "familia" and re.search(r"(?i)\bde[ \t]+$", text[: span.start]) is not None
    )


def _vital_sign(covered: str) -> bool:
    """A "code" or a "street" that is a vital sign's abbreviation or a scale's name and its value (``T 37``, ``FR 58``,
    ``Barthel 25``); not a code whose letters happen to be one (a passport's ``PA4471932``: no value has five
    figures in a row)."""
    return _VITAL_SIGN.match(covered) is not None and _FIVE_FIGURES.search(covered) is None


def _after_an_eponym_head(text: str, span: Span) -> bool:
    """A capitalised name right after an eponym's or a criterion's head and de (``fractura de Colles``, ``criterios de
    Seattle``): the name of a sign, a scale or a fracture, not of a person or a place."""
    return _EPONYM_BEFORE.search(text, max(0, span.start - 60), span.start) is not None


def _brand_in_brackets(text: str, span: Span) -> bool:
    """A capitalised word that no list knows, alone in brackets after a word that names no place (``Edoxabán
    (Lixiana)``, ``IGRA (QuantiFERON)``, ``Biometría (Hadlock)``): a brand or an author; ``(Béjar)`` is known, and
    ``Vic (Osona)`` follows a town."""
    covered = text[span.start : span.end]
    before = _WORD.findall(text[max(0, span.start - 40) : span.start])
    return (
        text[span.start - 1 : span.start] == "("
        and text[span.end : span.end + 1] == ")"
        and len(_WORD.findall(covered)) == 1
        and covered[:1].isupper()
        and not _known(covered)
        and not (before and _known(before[-1]))
    )


def _unit_hospital(covered: str) -> bool:
    """A hospital's day unit named by what it treats (``Hospital de Día Geriátrico``, ``Hospital de Dia de
    Trasplantament Hepàtic``): a department, unless a list knows a word of its name (``Hospital de Día de Getafe``)."""
    words = _own_words(covered)
    return [fold(w) for w in words[:2]] == ["hospital", "dia"] and not any(_known(w) for w in words[2:])


def _giving_not_a_woman(text: str, span: Span) -> bool:
    """Catalan ``dona`` after a clitic pronoun is the verb *to give* (``es dona informació``, ``li dona la Dra.``),
    not a woman."""
    return fold(text[span.start : span.end]) == "dona" and _CLITIC_BEFORE.search(text, 0, span.start) is not None


def _inside_a_number(text: str, span: Span) -> bool:
    """An age that is part of a time or a decimal number (``03:12 H``, ``3.240 g``)."""
    after = text[span.end : span.end + 2]
    return bool(_NUMBER_BEFORE.search(text, max(0, span.start - 2), span.start) or _NUMBER_AFTER.fullmatch(after))


def _without_a_sentence_opener(text: str, span: Span) -> Span:
    """A person's span that opens a sentence of prose with a common word that names no one, before a known name,
    starts at the name (``Vuelve Xosé Manuel a consulta``)."""
    from anonimed.rules.gazetteers import CommonWords

    words = list(_WORD.finditer(text, span.start, span.end))
    # After a full stop only, not a title's (Dr. Orlando Rodríguez): a value after its key (Apellidos: Terraza Baeza)
    # is a name whatever its first word.
    before = text[: span.start].rstrip()
    if len(words) < 2 or words[0].start() != span.start or before[-1:] not in (".", "!", "?"):
        return span
    if _a_title_or_initial_ends(before):
        return span
    # And in a sentence that goes on in lower case: a name alone on its line is a value (Dana Paola.).
    if re.match(r"[ \t]+[a-zà-ÿ]", text[span.end :]) is None:
        return span
    first, second = words[0].group(), words[1].group()
    if not first[:1].isupper() or first.isupper() or _known(first) or first.lower() not in CommonWords():
        return span
    if not _known(second) or text[words[0].end() : words[1].start()].strip(" \t"):
        return span
    return Span(words[1].start(), span.end, span.label, span.score, span.source)


def _without_a_leading_role(text: str, span: Span) -> Span:
    """A person's span that opens with the role of a signature starts at the name (``inf ped nerea b.`` → ``nerea
    b.``, ``matrona encarni`` → ``encarni``), as long as a word is left."""
    start = span.start
    while True:
        word = _WORD.match(text, start, span.end)
        if word is None:
            break
        role = _ROLE_BEFORE_A_NAME.match(text, start, span.end)
        if role is not None:
            following = role.end()
        elif fold(word.group()) in _ROLE_WORDS or _SPECIALIST.fullmatch(fold(word.group())):
            following = word.end() + len(text[word.end() : span.end]) - len(text[word.end() : span.end].lstrip(" \t"))
        else:
            break
        if following <= word.end() or _WORD.search(text, following, span.end) is None:
            break
        start = following
    return span if start == span.start else Span(start, span.end, span.label, span.score, span.source)


def _a_title_or_initial_ends(before: str) -> bool:
    """Whether the text ``before`` a span ends with a title or an initial (its full stop ends no sentence: Dr.
    Ferreiro de Oncología, J. Roig)."""
    word_before = _WORD.findall(before[-12:])
    return bool(word_before) and (fold(word_before[-1]) in _TITLE_WORDS or len(word_before[-1]) == 1)


def _opens_a_sentence(text: str, offset: int) -> bool:
    before = text[:offset].rstrip(" \t")
    if before.endswith(".") and _a_title_or_initial_ends(before):
        return False
    return not before or before[-1] in "\n\r.!?:;"


def _extension(text: str, span: Span) -> bool:
    """Digits after ``ext.`` are a phone's extension, not a postal code (``93 274 60 00 (ext. 4412)``)."""
    return _EXTENSION_BEFORE.search(text, max(0, span.start - 14), span.start) is not None


def _without_a_weekday_at_the_end(text: str, span: Span) -> Span | None:
    """A place or centre ends before a weekday written after it (``sant joan de reus dimarts``): the weekday is a
    date."""
    words = list(_WORD.finditer(text, span.start, span.end))
    last = words[-1].group() if words else ""
    if len(words) < 2 or not last.islower() or fold(last) not in _WEEKDAYS:
        return span
    end = span.start + len(text[span.start : words[-1].start()].rstrip(" \t,"))
    return Span(span.start, end, span.label, span.score, span.source)


def _before_first(pattern: re.Pattern[str], text: str, span: Span) -> Span | None:
    """``span`` cut before the first match of ``pattern`` inside it (None when nothing is left before it)."""
    found = pattern.search(text, span.start, span.end)
    if found is None:
        return span
    return Span(span.start, found.start(), span.label, span.score, span.source) if found.start() > span.start else None


def _before_a_glued_comma(text: str, span: Span) -> Span | None:
    """A name or place ends before a comma glued to the next word, which telegraphic notes write between clauses
    (``camina sola,disartria leve``); a name written surname first keeps its comma and space (``Vázquez, Maruxa``)."""
    return _before_first(_GLUED_COMMA, text, span)


def _with_the_elided_word(text: str, span: Span) -> Span:
    """A name that ends on an elided particle takes the word it is elided before (``abs móra d`` + ``'ebre``)."""
    elided = _ELIDED_END.search(text, span.start, span.end)
    word = _APOSTROPHE_AND_WORD.match(text, span.end) if elided is not None else None
    return span if word is None else Span(span.start, word.end(), span.label, span.score, span.source)


def _after_a_glued_phone_key(text: str, span: Span) -> Span:
    """A number glued to the key of a phone (``tlf688-402-917``) is the phone number, without the key."""
    key = _GLUED_PHONE_KEY.match(text, span.start, span.end)
    if key is None:
        return span
    return Span(key.end(), span.end, "NUMERO_TELEFONO", span.score, span.source)


def _dose_or_glued(text: str, span: Span) -> bool:
    """A street that gives a dose or a frequency (``c/ mepilex cada 72h``: c/ for con), or starts inside a word
    (``hba1c.inicio``)."""
    inside_a_word = span.start > 0 and text[span.start - 1].isalnum() and text[span.start].isalnum()
    # The unit may lie just past the span (c/ mepilex cada 72|h, c/ apixaban 2|.5/12h, C/ APIXABAN 2|.5 C/12H).
    return (
        inside_a_word
        or _DOSE.search(text[span.start : span.end + 4]) is not None
        or _REST_OF_A_DOSE.match(text, span.end) is not None
    )


def _care_log(covered: str) -> bool:
    """A lower-case span with a word of the care a note logs (``prox cura jueves``, ``revision 6 meses``)."""
    return covered.islower() and any(fold(w) in _CARE_WORDS for w in _WORD.findall(covered))


def _language(covered: str) -> bool:
    """A place that is a language in lower case (``en castellano y en árabe``, ``en català``)."""
    words = _WORD.findall(covered)
    return bool(words) and all(w.islower() and fold(w) in _LANGUAGES for w in words)


def _relative_end(text: str, span: Span) -> Span:
    """A relative of two lower-case words ends after the first unless the second tells which (``hijo mayor``,
    ``abuela materna``): ``el fill pauta de laxant`` is ``fill``."""
    words = list(_WORD.finditer(text, span.start, span.end))
    if len(words) != 2 or words[1].end() != span.end or not all(w.group().islower() for w in words):
        return span
    if fold(words[0].group()) not in KINSHIP:
        return span
    if RELATIVE_MODIFIERS.fullmatch(fold(words[1].group())):
        return span
    return Span(span.start, words[0].end(), span.label, span.score, span.source)


def _clean_not_a_grandchild(text: str, span: Span) -> bool:
    """``net``/``neta`` with no article or possessive before it is Catalan's "clean" (``ferida neta``)."""
    covered = fold(text[span.start : span.end])
    return (
        covered in _CLEAN_OR_GRANDCHILD and _DETERMINER_BEFORE.search(text, max(0, span.start - 12), span.start) is None
    )


def _generic_centre(label: str, covered: str) -> bool:
    """A health centre or a day hospital named by generic words alone (``Centro de Salud Mental``, ``Hospital de Dia
    d'Oncohematologia``: a department's name is generic too), or the word ``hospital`` alone (``llegada 19:58 ·
    hospital 20:40``), or a form's key (``HOSPITAL DE ORIGEN``): the kind of a centre, not one.  MEDDOCAN names
    ``Hospital General`` a hospital."""
    words = [fold(w) for w in _own_words(covered)]
    if label == "HOSPITAL" and words[:1] == ["hospital"] and words[-1:] and words[-1] in _HOSPITAL_ROLES:
        return True
    if not words or "general" in words or (label == "HOSPITAL" and "dia" not in words and words != ["hospital"]):
        return False
    return all(w in _GENERIC_CENTRE_WORDS or _DEPARTMENT_WORD.fullmatch(w) for w in words)


def _spoken_language(text: str, span: Span) -> bool:
    """A language in lower case after a word that says it is spoken or written (``informe en francès``)."""
    return (
        _language(text[span.start : span.end])
        and _LANGUAGE_CUE.search(text, max(0, span.start - 20), span.start) is not None
    )


def _generic_institution(covered: str) -> bool:
    """A social service named by its generic words alone (``Serveis Socials``, ``Servicios Sociales Comunitarios``)."""
    words = [fold(w) for w in _own_words(covered)]
    return bool(words) and all(w in _GENERIC_INSTITUTION_WORDS for w in words)


def _generic_centre_with_its_name(text: str, span: Span) -> Span:
    """A centre named by generic words that a capitalised name follows after ``de`` takes it (``CENTRE DE SALUT`` +
    ``D'ALZIRA``, ``Hospital Comarcal`` + ``de l'Alt Penedès``): the name makes it one centre."""
    words = [fold(w) for w in _own_words(text[span.start : span.end])]
    if not words or not all(w in _GENERIC_CENTRE_WORDS | _CENTRE_KINDS or _DEPARTMENT_WORD.fullmatch(w) for w in words):
        return span
    name = _CENTRE_NAME_AFTER.match(text, span.end)
    return span if name is None else Span(span.start, name.end(), span.label, span.score, span.source)


def _duration(text: str, span: Span) -> bool:
    """An "age" after a word that makes it a time span (``revisión en dos años``, ``hace 3 años``, ``cada 2 anys``,
    ``lleva ocho años``), or before one (``15 anys d'evolució``): no age of MEDDOCAN train, dev or the styles set has
    either."""
    return (
        _DURATION_BEFORE.search(text, max(0, span.start - 20), span.start) is not None
        or _DURATION_AFTER.match(text, span.end) is not None
    )


def _part_of_a_key(text: str, span: Span) -> bool:
    """Lower-case words right before a colon, with three words at most before them on their line, end a form's key
    (``Profesión declarada:``, ``Enf. gestora de casos:``), whose value follows; not a job before a colon in prose
    (``on treballa de tractorista: s'explica``)."""
    line_start = text.rfind("\n", 0, span.start) + 1
    return (
        text.startswith(":", span.end)
        and text[span.start : span.end].islower()
        and len(_WORD.findall(text, line_start, span.start)) <= _KEY_WORDS_BEFORE
    )


def _range_start(text: str, span: Span) -> bool:
    """A number and the ``a`` of a range (``flexión de 0 a 45 grados``), not an age in years."""
    return (
        _BARE_YEARS_UNIT.search(text, span.start, span.end) is not None
        and _NUMBER_NEXT.match(text, span.end) is not None
    )


def _not_an_occupation(covered: str) -> bool:
    """How a job is worked (``a turnos``), or being retired (``jubilat``), not the job."""
    words = _WORD.findall(covered)
    return bool(words) and (fold(words[0]) in _NOT_OCCUPATIONS or fold(covered.strip()) in _RETIRED)


def _gerund_inside(covered: str) -> bool:
    """A verb's gerund in lower case (``se inmoviliza c/ férula incluyendo 1er dedo``: c/ is ``con``): prose, not a
    street's name, which a gerund that is a name (``c/ fernando``) is not taken for."""
    from anonimed.rules.gazetteers import CommonWords

    return any(
        word.islower() and len(word) >= 6 and word.endswith("ndo") and word in CommonWords() and not _known(word)
        for word in _WORD.findall(covered)
    )


def _nanda_code(text: str, span: Span) -> bool:
    """A nursing diagnosis' code taken for a postal code (see ``_NANDA_CODE``): in brackets, or opening a line of a
    list (perhaps after ``Dx``) before the diagnosis, a word no list of places knows (``00103 Deglució deteriorada``;
    not ``00185 Roma``)."""
    if span.end - span.start != 5:
        return False
    if _NANDA_CODE.fullmatch(text, span.start - 1, span.end + 1) is not None:
        return True
    diagnosis = _NANDA_DIAGNOSIS_AFTER.match(text, span.end)
    return (
        text[span.start : span.start + 2] == "00"
        and _NANDA_LEAD.fullmatch(text, _line_around(text, span)[0], span.start) is not None
        and diagnosis is not None
        and not _known(diagnosis.group(1))
    )


def _whole_name(text: str, span: Span) -> Span:
    """A person's name takes the initials written right before it (``R. Morales``, ``M. J. PRIEGO``; not ``D.``, which
    is *don*), the known surnames that follow it on the line (``BENITO CABEZA REY``, ``Lucía Herrero Cabeza``) and,
    after surnames in capitals, the given names after a comma (``PAZOS CASTRO, XOÁN``)."""
    from anonimed.rules.gazetteers import given_names, street_types, surnames

    start, end = span.start, span.end
    if text[start:end].islower():
        titled = _TITLED_LOWER_INITIAL_BEFORE.search(text, max(0, start - 16), start)
        start = titled.start("initial") if titled is not None else start
    while (initial := _INITIAL_BEFORE.search(text, max(0, start - 4), start)) is not None:
        start = initial.start()
    while (after := _WORD_AFTER.match(text, end)) is not None:
        word = after.group("word")
        if not (word[0].isupper() and (word.isupper() or word[1:].islower())) or fold(word) not in surnames():
            break
        if fold(word) in street_types():  # Torres Gómez Plaza de la Encarnación: an address follows
            break
        if word.isupper() != text[start:end].isupper():  # CABEZA after Benito: another line's style, not the name
            break
        end = after.end()
    if text[start:end].isupper() and (given := _GIVEN_NAMES_AFTER_A_COMMA.match(text, end)) is not None:
        words = [fold(word) for word in given.group("names").split()]
        if words[0] in given_names() and all(word in given_names() or word in _PARTICLES for word in words):
            end = given.end("names")  # HERRERO BLANCO, LUIS ÁNGEL: the surnames first, as a list of names writes them
    return span if (start, end) == (span.start, span.end) else Span(start, end, span.label, span.score, span.source)


def _centre_name_end(text: str, span: Span) -> Span:
    """A centre named in capitals ends at its last capitalised word: the lower-case words after it are the sentence
    (``Hospital Vall d'Hebron per a empelts``, ``Hospital Sant Joan de Déu d'aquí a dues setmanes``)."""
    covered = text[span.start : span.end]
    words = list(_ALPHANUMERIC.finditer(covered))
    if not words or not words[0].group()[0].isupper():
        return span
    last = max(i for i, word in enumerate(words) if not word.group().islower())
    tail = [word.group() for word in words[last + 1 :] if word.group() not in _PARTICLES]
    # Two words at least: one lower-case word may be the name's own (Hospital Universitario La paz, 12 de octubre);
    # Basque puts the centre's head after its name (Lasarte-Oria osasun zentroa).
    if len(tail) < 2 or not any(len(word) >= 3 for word in tail) or all(w in _BASQUE_CENTRE_HEADS for w in tail):
        return span
    # An abbreviated head in capitals before a name in lower case is the name's whole (PAC son pisà, CAP alcarràs).
    if last == 0 and words[0].group().isupper() and fold(words[0].group()) in _CENTRE_HEADS and len(tail) <= 3:
        return span
    return Span(span.start, span.start + words[last].end(), span.label, span.score, span.source)


def _date_before_an_hour(text: str, span: Span) -> Span | None:
    """A date ends before the hour written after it (``sabado 14 de junio 05:10h``: not ``05``; ``viernes 10h``: not
    ``10``; ``19/4 08:01``: not ``08:01``)."""
    whole = _WHOLE_HOUR_AT_END.search(text, span.start, span.end)
    if whole is not None and whole.start() > span.start:
        return Span(span.start, whole.start(), span.label, span.score, span.source)
    return _before_the_hour(text, span)


def _before_the_hour(text: str, span: Span) -> Span | None:
    """The span without the hour its last number starts (see ``_MINUTES_AFTER``); None when nothing is left."""
    hour = _HOUR_AT_END.search(text, span.start, span.end)
    if hour is None or _MINUTES_AFTER.match(text, span.end) is None:
        return span
    end = span.start + len(text[span.start : hour.start()].rstrip(" \t,"))
    return Span(span.start, end, span.label, span.score, span.source) if end > span.start else None


def _before_a_glued_sentence(text: str, span: Span) -> Span | None:
    """An age or a centre ends at a full stop glued to the next word, a sentence typed without its space
    (``8a.otalgia``, ``eap.furosemida``); a street, at one glued to its number (``c/ san roque 12.antes``)."""
    return _before_first(_GLUED_SENTENCE_AFTER_A_NUMBER if span.label == STREET else _GLUED_SENTENCE, text, span)


def _without_the_title_of_the_next(text: str, span: Span) -> Span:
    """A name ends before the conjunction and the title of the next person (``Sílvia Roura i Dr``)."""
    return _before_first(_TITLE_OF_THE_NEXT, text, span) or span


def _before_a_signature(text: str, span: Span) -> Span:
    """A centre written in lower case ends before a spaced dash and a title: the signature after it (``cs arganzuela
    - dra olmedo``)."""
    found = _SPACED_DASH.search(text, span.start, span.end)
    if found is None or not text[span.start : span.end].islower():
        return span
    after = _WORD.match(text, found.end(), span.end)
    if after is None or fold(after.group()) not in _SIGNATURE_OPENERS:
        return span
    return Span(span.start, found.start(), span.label, span.score, span.source)


def _place_before_a_clause(text: str, span: Span) -> Span:
    """A place in lower case ends after a place the lists know, before ``y``/``i`` and a common word that names
    nothing: a clause goes on after it (``murcia y viene los sabados``; not ``castilla y leon``, ``ramón y cajal``)."""
    from anonimed.rules.gazetteers import CommonWords

    covered = text[span.start : span.end]
    if not covered.islower():
        return span
    for found in _WORD_AND_WORD.finditer(covered):
        word = found.group("word")
        if _known(found.group("place")) and word in CommonWords() and not _known(word):
            return Span(span.start, span.start + found.end("place"), span.label, span.score, span.source)
    return span


def _cut_before(ending: re.Pattern[str]) -> Callable[[str, Span], Span]:
    """A change that ends a span before the words ``ending`` finds at its end (never the whole span)."""

    def cut(text: str, span: Span) -> Span:
        match = ending.search(text, span.start, span.end)
        return span if match is None or match.start() == span.start else replace(span, end=match.start())

    return cut


# A date without the word that joins it to the next one (del [9] al 14 de abril, [dl] i dc): a range is two dates.
_without_the_range_word = _cut_before(_RANGE_WORD_AT_END)
# A place without the preposition after it that opens what follows (a [Barcelona] des del 2009).
_without_a_trailing_preposition = _cut_before(_TRAILING_PREPOSITION)
# A name without the identifier's key that follows it on a capitalised line (IONUT CRACIUN  NIE X7742019Q).
_without_a_trailing_key = _cut_before(_TRAILING_ID_KEY)
# A name without the code glued to a key that it ran into at its end (dr iñaki sol bermejo col282856431).
_without_a_trailing_code = _cut_before(_TRAILING_CODE)
# A street ends before a comma glued to the town that follows its number (c/ des born 7,inca): the town is a place of
# its own (a street's own parts after a comma hold figures: 41,3º 2ª).
_before_a_glued_town = _cut_before(_GLUED_TOWN)


# Lower-case words that open a person's span before the capitalised name and are no part of it: a sex or kinship word,
# a title, the word for the patient (Que la nena Aina Ferrà Vidal, amb targeta; la filla Núria).
_NO_NAME_BEFORE_A_NAME = KINSHIP | frozenset(
    "nena nen nina nin niña niño noia noi xiqueta xiquet bebe home dona hombre mujer varon senyor senyora senor senora"
    " don sr sra pacient pacienta paciente usuari usuaria usuario".split()
)
_OPENING_WORD = re.compile(r"(?P<word>[^\W\d_]+)[ \t]+(?=[A-ZÀ-Ý])")


def _without_a_word_of_no_name_before(text: str, span: Span) -> Span:
    """A person's span without the lower-case sex, kinship or title words that open it before a capitalised name
    (``nena Aina Ferrà Vidal`` → ``Aina Ferrà Vidal``): a member may take the word in, and the checks would then drop
    the whole name as lower-case prose."""
    start = span.start
    while (opening := _OPENING_WORD.match(text, start, span.end)) and (
        opening.group("word").islower() and fold(opening.group("word")) in _NO_NAME_BEFORE_A_NAME
    ):
        start = opening.end()
    return span if start == span.start else replace(span, start=start)


def _with_the_number_before_the_unit(text: str, span: Span) -> Span:
    """An age's unit alone grows to take its number (``34 [anys]`` → ``[34 anys]``)."""
    if fold(text[span.start : span.end]) not in _AGE_UNIT_WORDS:
        return span
    number = _NUMBER_BEFORE_A_UNIT.search(text, max(0, span.start - 6), span.start)
    return replace(span, start=number.start()) if number is not None else span


def _age_not_a_number(text: str, span: Span) -> bool:
    """A street's number followed by an age's unit is an age: a name and the age (``Laia Comas Riera, 34 anys``)."""
    return text[span.end - 1 : span.end].isdigit() and _AGE_UNIT_AFTER.match(text, span.end) is not None


def _calf_muscle(text: str, span: Span) -> bool:
    """``gemelo`` before a side is the calf muscle, not a twin (``irradiación a gemelo izq``)."""
    return fold(text[span.start : span.end]) in _TWIN_WORDS and _SIDE_AFTER.match(text, span.end) is not None


def _cranial_nerves(text: str, span: Span) -> bool:
    """``pares`` before ``craneales`` are the cranial nerves, not the parents (``pares craneales ok``)."""
    return fold(text[span.start : span.end]) in ("par", "pares") and _CRANIAL_AFTER.match(text, span.end) is not None


def _colour_of_a_finding(text: str, span: Span) -> bool:
    """A colour word after what a finding describes is no name (``eritema rosa pálido``; the daughter Rosa of the same
    note lends it her label)."""
    return (
        fold(text[span.start : span.end]) in _COLOUR_WORDS and _FINDING_BEFORE.search(text, 0, span.start) is not None
    )


def _glued_digits(text: str, span: Span) -> bool:
    """Digits glued to two letters or more are part of a code, not a date or a year (``lot AH5127``, ``SRV2007``); one
    letter may be a postal code's (``B1827``), which stays PHI."""
    covered = text[span.start : span.end]
    return covered.isdigit() and (
        text[max(0, span.start - 2) : span.start].isalpha() or text[span.end : span.end + 2].isalpha()
    )


def _patient_not_a_care_point(covered: str) -> bool:
    """``PAC`` before words that name no town and are not capitalised is the patient (``TCE LEVE EN PAC
    ANTICOAGULADO``), not a point of continuous care (``PAC calp``, ``PAC Zuazo``)."""
    from anonimed.rules.gazetteers import towns

    words = _WORD.findall(covered)
    # A town's name may hold a hyphen (pac vila-real), and the towns' list keeps it whole.
    hyphenated = {fold(w) for w in _HYPHENATED_WORD.findall(covered)}
    return (
        len(words) > 1
        and fold(words[0]) == "pac"
        and not any(w.istitle() or fold(w) in towns() for w in words[1:] if fold(w) not in _PARTICLES)
        and not hyphenated & towns()
    )


def _no_centre_at_all(covered: str) -> bool:
    """Catalan ``cap`` before what there is none of, not a CAP (``no es troba cap altra font``, ``sense cap signe``),
    nor a bone's head (``cap bipolar``), nor the end of a while (``al cap d'unes hores``, ``al cap de tres dies``)."""
    words = covered.split()
    return (len(words) > 1 and words[0] == "cap" and fold(words[1]) in _NONE_OF) or _AFTER_A_WHILE.match(
        covered
    ) is not None


def _quantity(text: str, span: Span) -> bool:
    """A number before a unit is a quantity, not a year (``4000 Hz``, ``2000 kcal``); the minutes of a time are
    none either (``11:05h``), nor is a blood pressure, whose first number no day reaches (``mitjanes 128/76``), nor a
    fraction of a tablet (``3/4 comp``), nor a time after its key (``Hora: 11.30``)."""
    covered = text[span.start : span.end]
    return (
        (covered.isdigit() and _UNIT_AFTER.match(text, span.end) is not None)
        or (
            _MINUTES.fullmatch(covered) is not None
            and _HOUR_AND_COLON.search(text, max(0, span.start - 3), span.start) is not None
        )
        or _BLOOD_PRESSURE.search(covered) is not None
        or (_DOSE_FRACTION.fullmatch(covered) is not None and _DOSE_AFTER.match(text, span.end) is not None)
        or (
            _CLOCK_TIME.fullmatch(covered) is not None
            and _HOUR_KEY_BEFORE.search(text, max(0, span.start - 12), span.start) is not None
        )
    )


def _named_after_a_feast(text: str, span: Span) -> bool:
    """A pattern or a plant named after a feast (``placas en árbol de navidad``, ``hierba de San Juan``)."""
    return _NAMED_AFTER_A_FEAST.search(text, max(0, span.start - 16), span.start) is not None


def _prose_not_a_date(covered: str) -> bool:
    """One common word that names no date (see ``_DATE_WORDS``), in lower case or capitalised as a form's heading
    or key is (``Servei sol·licitant``)."""
    from anonimed.rules.gazetteers import CommonWords

    word = covered.strip()
    return word.isalpha() and word.lower() in CommonWords() and fold(word) not in _DATE_WORDS_AND_ABBREVIATIONS


def _no_date_at_all(covered: str) -> bool:
    """Two numbers and a slash that cannot be a date in any order (see ``_FRACTION``), or a drug's doses in the
    morning, at noon and at night (``1-0-1``, ``½-0-0``)."""
    if _DOSE_SCHEDULE.fullmatch(covered):
        return True
    match = _FRACTION.fullmatch(covered)
    if match is None:
        return False
    first, second = (int(number) for number in match.groups())
    month_and_year = 1 <= first <= 12 and (len(match[2]) == 2 or 1900 <= second <= 2100)
    year_and_month = 1900 <= first <= 2100 and 1 <= second <= 12
    return not (1 <= first <= 31 and 1 <= second <= 12) and not month_and_year and not year_and_month


def _scale_score(text: str, span: Span) -> bool:
    """A value after a scale's name (see ``_SCALE_BEFORE``)."""
    return _SCALE_BEFORE.search(text, max(0, span.start - 60), span.start) is not None


def _phone_owner(text: str, span: Span) -> bool:
    """A lower-case word in brackets after a phone number says which phone it is, not where (``976 35 17 20
    (casa)``); a given name there is whose it is (``(inmaculada)``), and stays."""
    from anonimed.rules.gazetteers import given_names

    covered = text[span.start : span.end]
    return (
        covered.islower()
        and fold(covered) not in given_names()
        and _DIGIT_THEN_BRACKET.search(text, max(0, span.start - 4), span.start) is not None
        and text[span.end : span.end + 1] == ")"
    )


def _department_only(covered: str) -> bool:
    """Department words alone are no relative (``Odontologia``); ``familia`` is one (``la familia prefiere``)."""
    words = [fold(word) for word in _own_words(covered)]
    return bool(words) and all(
        _DEPARTMENT_WORD.fullmatch(word) is not None and not word.startswith("famil") for word in words
    )


def _street_type_alone(covered: str) -> bool:
    """A street's type and articles with no name or number (``proxima ronda el martes``)."""
    return not any(c.isdigit() for c in covered) and _function_words_only(" ".join(_WORD.findall(covered)[1:]))


def _never_a_place(covered: str) -> bool:
    """Words that are never a place, alone or together (``Millor``, ``Viu sol``: lives alone)."""
    words = [fold(word) for word in _WORD.findall(covered)]
    return bool(words) and all(word in _NEVER_A_PLACE or word in _NEVER_A_NAME_OR_PLACE for word in words)


def _words_of_a_sentence(covered: str, capitalised: bool) -> bool:
    """Words of a sentence with no kinship word, modifier of one, age or name in them are no relative (``tos sin
    dificultad resp``); one word alone may be a kinship word no list knows (``iaia``, ``aita``)."""
    words = [fold(word) for word in _own_words(covered)]
    kinship = _kinship_words()
    return (
        len(words) >= 2
        and not any(c.isdigit() for c in covered)
        and not any(word in kinship or RELATIVE_MODIFIERS.fullmatch(word) or word in _AGE_UNITS for word in words)
        and (_lower_case_prose(covered) if capitalised else _common_prose(covered))
    )


@cache
def _kinship_words() -> frozenset[str]:
    """The kinship words of the shipped rules' lists (plurals and Catalan, Galician and Basque words included)."""
    from anonimed.rules.ruleset import DEFAULT_RULES_DIR, read_rule_file

    listed = read_rule_file(DEFAULT_RULES_DIR / "00-listas.yaml").gazetteers["kinship"]
    assert isinstance(listed, frozenset)  # a list of words, which the file gives
    return KINSHIP | listed


def _kinship_inside(covered: str) -> bool:
    """A place that holds a kinship word is a phrase about relatives (``la custodia dels dos fills``)."""
    return any(fold(word) in KINSHIP for word in _own_words(covered))


def _lower_case_centre_end(text: str, span: Span) -> Span | None:
    """A centre written in lower case and named by an abbreviation (``cs``, ``h.``) ends before a word that no name
    holds (``cs san blas en 48h``, ``cs con matrona``); a name written in full may hold one (``Asociación para Evitar
    la Ceguera``), and so may a Balearic town's article before a place's word (``cs es castell``, ``cs sa pobla``)."""
    covered = text[span.start : span.end]
    words = _WORD.findall(covered)
    if not covered.islower() or not words or words[0] not in _CENTRE_ABBREVIATIONS:
        return span
    if len(words) > 2 and words[1] in _BALEARIC_ARTICLES and _known(words[2]):
        return span
    return _name_part(text, span)


def _unless_prose(text: str, span: Span) -> Span | None:
    """None for a hospital or health centre that :func:`_prose_centre` finds to be prose; checked before the span's
    end is cut to its last capitalised word, which would leave too few words to tell."""
    return None if _prose_centre(text[span.start : span.end]) else span


def _headless_centre(covered: str) -> bool:
    """A "hospital" or "health centre" of three words or more with no head word of a centre and no word that names
    someone or somewhere (a heading: ``RESSONÀNCIA MAGNÈTICA CRANIAL AMB I SENSE CONTRAST``, ``HOJA DE TRIAJE -
    URGENCIAS PEDIÁTRICAS``); the centres named without their head word name someone or somewhere (``Gregorio
    Marañón``, ``Vall d'Hebron``).  Of the gold centres of MEDDOCAN train and dev and the styles sets, one (a typo,
    ``Hopital``) had neither before ``hopital`` joined the heads."""
    words = _own_words(covered)
    return (
        len(words) >= _SENTENCE_WORDS
        and not any(fold(w) in _CENTRE_HEADS for w in words)
        and not any(_known(w) for w in words)
    )


def _prose_centre(covered: str) -> bool:
    """A "centre" of three lower-case words or more and no head word of a centre: a run of prose (``Refereix menys
    dispnea. Es retira l'oxigen``, ``artroplàstia total de genoll dret``); centres without their head word are names
    (``12 de Octubre``, ``Gregorio Marañón``)."""
    words = _WORD.findall(covered)
    prose = [w for w in words if w.islower() and len(w) >= 3 and w not in _PARTICLES]
    # Initials written with dots are one head word (c.s. molina jesús marín: cs).
    heads = _WORD.findall(_DOTTED_INITIALS.sub(r"\1", covered))
    return len(prose) >= _SENTENCE_WORDS and not any(fold(w) in _CENTRE_HEADS for w in heads)


def _occupation_end(text: str, span: Span) -> Span:
    """An occupation ends before the workplace that follows it (``estudiante de derecho en la uv``)."""
    found = _WORKPLACE.search(text, span.start, span.end)
    return span if found is None else Span(span.start, found.start(), span.label, span.score, span.source)


def _occupation_complement(text: str, span: Span) -> Span:
    """An occupation takes what it is of (``maestra`` + ``de educación infantil``, ``monitor`` + ``de esquí``,
    ``mestra`` + ``d'escola bressol``): one to three words after ``de``, up to punctuation or a word that starts the
    workplace or the rest of the sentence."""
    found = _OCCUPATION_COMPLEMENT.match(text, span.end)
    if found is None:
        # A complement the tagger cut short goes on to its end (maestra de educación + infantil).
        found = _COMPLEMENT_REST.match(text, span.end) if _OF.search(text, span.start, span.end) else None
    if found is None:
        return span
    words = _WORD.findall(found.group("words"))
    kept = []
    for word in words:
        if fold(word) in _COMPLEMENT_STOPS:
            break
        kept.append(word)
    while kept and fold(kept[-1]) == "de":
        kept.pop()
    # A company's name, with its legal form, is the employer (comercial de Distribuciones Ferrer SL), another span;
    # a capitalised field of study is the job's (estudiante de Veterinaria).
    if not kept or any(word in _LEGAL_FORMS for word in words):
        return span
    end = found.start("words") + found.group("words").index(kept[-1]) + len(kept[-1])
    return Span(span.start, end, span.label, span.score, span.source)


def _with_the_word_before(text: str, span: Span) -> Span:
    """A relative keeps the ``ex`` before it (``su ex marido``), and a hospital the ``h.`` or ``hosp.`` before it
    (``trasllat a h.bellvitge``, ``hosp. sant joan de reus``), also when it was taken for a town."""
    found = _WORD_BEFORE[span.label].search(text, max(0, span.start - 7), span.start)
    if found is None:
        return span
    label = "HOSPITAL" if span.label == "TERRITORIO" else span.label
    return Span(found.start(), span.end, label, span.score, span.source)


def _with_the_country_letter(text: str, span: Span) -> Span:
    """A postal code keeps the country's letter and hyphen before it (``E-41013``, as MEDDOCAN annotates it)."""
    if not text[span.start : span.start + 1].isdigit():
        return span
    found = _COUNTRY_LETTER_BEFORE.search(text, max(0, span.start - 2), span.start)
    return span if found is None else Span(found.start(), span.end, span.label, span.score, span.source)


_TOWN_KEY_BEFORE = re.compile(
    r"(?i)(?<!\w)(?:localidad|localitat|provincia|província|municipio|municipi|poblaci[oó]n|població|ciudad|ciutat)"
    r"[ \t]*[:.][ \t]*\Z"
)


def _town_after_its_key(text: str, span: Span) -> Span:
    """A "street" without a number right after a town's key is the town (``Localidad/ Provincia: Madrid``): written
    on one line after the address, a tagger carries the street on into it."""
    if any(char.isdigit() for char in text[span.start : span.end]):
        return span
    if _TOWN_KEY_BEFORE.search(text, max(0, span.start - 30), span.start) is None:
        return span
    return replace(span, label="TERRITORIO")


def _initialled_person(text: str, span: Span) -> Span:
    """A "town" written right after an initial is a person's surname, as a report signs it (``R. Morales``): no town
    is written so, but for ``S.``, *San* (``S. Sebastián``); in a note in lower case, ``p. hidalgo``."""
    lower_case = text[span.start : span.end].islower()
    initial_before, reach = (_TITLED_LOWER_INITIAL_BEFORE, 16) if lower_case else (_INITIAL_NOT_SAN_BEFORE, 4)
    initial = initial_before.search(text, max(0, span.start - reach), span.start)
    if initial is None or not text[span.start].isalpha():
        return span
    before = text[: initial.start()].rstrip(" \t")
    if before and (before[-1].isdigit() or before[-1] in "ºª°-"):  # a floor's door: 3º A. Playamar
        return span
    return Span(span.start, span.end, "NOMBRE_PERSONAL_SANITARIO", span.score, span.source)


def _weekday_before(text: str, span: Span) -> Span:
    """A date takes the weekday written right before it (``dijous 20/11/2025``, ``martes, 14 de marzo``, ``dt
    14/5``; Catalan ``dm`` only in lower case before a day and a month: elsewhere it is diabetes, ``DM 2015``), but
    not a weekday of a list (``lunes, miércoles``: two dates)."""
    if fold(text[span.start : span.end].rstrip(".")) in _WEEKDAYS | _WEEKDAY_ABBREVIATIONS:
        return span
    found = _WEEKDAY_BEFORE.search(text, max(0, span.start - 14), span.start)
    if found is None and _DAY_AND_MONTH.match(text, span.start, span.end):
        found = _DIMARTS_BEFORE.search(text, max(0, span.start - 4), span.start)
    return span if found is None else Span(found.start(), span.end, span.label, span.score, span.source)


def _with_the_month_after(text: str, span: Span) -> Span:
    """A date that ends at its day takes the month written after it (``martes 4`` + `` nov``)."""
    month = _MONTH_AFTER.match(text, span.end)
    if month is None or _DAY_AT_END.search(text, span.start, span.end) is None:
        return span
    return Span(span.start, month.end(), span.label, span.score, span.source)


def _first_line(text: str, span: Span) -> Span | None:
    covered = text[span.start : span.end]
    cut = min((covered.find(c) for c in "\n\r\u2028\u2029\x0b\x0c" if c in covered), default=-1)
    if cut < 0:
        return span
    end = span.start + len(covered[:cut].rstrip())
    return Span(span.start, end, span.label, span.score, span.source) if end > span.start else None


def _is_key(text: str, span: Span) -> bool:
    """A span before a colon that opens its line or a column of it, or that ends a key in capitals (``DATA DEL
    TRASLLAT:``, ``MÉDICO QUE TRASLADA:``: words in capitals before it on the line, no title, no figure, and no
    word of the span that a list of names or places knows: ``REMITE JUAN LÓPEZ:`` stays a name).  A key has no
    figure: a date opening a log's entry is one (``10/2:mejoria``)."""
    if any(c.isdigit() for c in text[span.start : span.end]):
        return False
    line_start = text.rfind("\n", 0, span.start) + 1
    before = text[line_start : span.start]
    if _TAB_AND_VALUE.match(text, span.end) is not None:  # Mutua<TAB>Fremap, Fecha de la baja<TAB>03/11/2025
        # (Not a sex word: a table's row of values opens with it, Hombre<TAB>76.)
        return span.label != "SEXO_SUJETO_ASISTENCIA" and _form_key(text[line_start : span.end])
    # A key may open a column of its line as well (``Código postal: 38430          Provincia: Santa Cruz``).
    columns = list(_COLUMN_BREAK.finditer(before))
    opens = not before.strip() or bool(columns and not before[columns[-1].end() :].strip())
    # A dot leader after what opens the line makes it a form's key (MUTUA COLABORADORA ........... asepeyo).
    if opens and _DOT_LEADER_AFTER.match(text, span.end) is not None:
        return True
    if _COLON_AFTER.match(text, span.end) is None:
        # Or a "place" be a key's first word, the rest of the key in lower case (``Código de empleado:``, ``Nº
        # empleado:``); not a person's name, which may open a line of what they say (``Pere diu:``).
        one_word = len(_WORD.findall(text[span.start : span.end])) == 1
        return span.label in PLACE_TYPES and opens and one_word and _REST_OF_A_KEY.match(text, span.end) is not None
    if opens:
        return True
    words = _WORD.findall(before)
    return (
        _KEY_IN_CAPITALS.fullmatch(before) is not None
        and text[span.start : span.end].isupper()
        and not any(_known(word) for word in _own_words(text[span.start : span.end]))
        and len(words) <= 4
        and not any(fold(word) in _TITLE_WORDS for word in words)
    )


# Words that name nobody, nowhere and no centre though a capital or a list may suggest it: a letter's closing
# formula, a side of the body, a verb that says where someone lives, a history's abbreviations of diseases, days
# named by their distance, a clinician's grade and a nurse's degree (Cordialment; a l'esquerra; de 64 anys, viu a
# Reus; AP:HTA,FA; en ERTE; no va al cole demà; Metge Adjunt; Rep: Oriol Batlle (DUI)).
_NEVER_A_NAME_OR_PLACE = frozenset(
    "cordialment cordialmente atentamente atentament salutacions saludos esquerra dreta izquierda derecha viu vive"
    " hta dm dlp epoc erc irc iam tvp tep erte hoy ayer mañana avui ahir dema adjunt adjunta adjunto adjunts dui due".split()
)
# How someone lives, not where (VIVE SOLO); a surname elsewhere (Dra. Sola).
_ALONE = frozenset("solo sola solos solas sol sols soles".split())
# Contraceptives' brands, capitalised like towns (DIU Mirena, Cerazet); Yasmin is a given name too.
_CONTRACEPTIVES = frozenset("mirena kyleena jaydess cerazet nexplanon implanon yasmin nuvaring evra".split())
# Catalan words that open a sentence or name a part of the body, taken for towns (Millor. Afebril; mal de coll):
# surnames elsewhere (Dr. Coll).
# An island, a town named by what it is (s'ha desplaçat a l'illa, a media hora de la villa); low (heparina de baix pes
# molecular), which opens a comarca's name (Baix Empordà) but names none alone.
_NEVER_A_PLACE = _ALONE | frozenset("millor pitjor coll illa villa baix".split()) | _CONTRACEPTIVES
# The first word of a country's name, alone a word of prose (Nueva revisión en diciembre; Gran parte).
_COUNTRY_FIRST_WORDS = frozenset("nueva nuevo nova nou gran reino regne estados estats republica costa".split())
# A name's last word, an elided particle (``Móra d``), and the apostrophe and word that complete it (``'Ebre``).
_ELIDED_END = re.compile(r"(?<=\s)[dlDL]\Z")
_APOSTROPHE_AND_WORD = re.compile(r"['’][^\W\d_]+")
# A tab after a form's key, and its value on the same line.
_TAB_AND_VALUE = re.compile(r"\t[ \t]*\S")
# The lower-case words that end a key after its first word, and its colon (Código| de empleado:, Nº| empleado:).
_REST_OF_A_KEY = re.compile(r"(?:[ \t]+[a-zà-ÿ]+\.?){1,3}[ \t]*:")
# What makes an e-mail address one: its at sign, or the word for it (a model's "e-mail" without it: med. guardia).
_EMAIL_SIGN = re.compile(r"(?i)@|\(at\)|\[at\]|\barroba\b")
# A key's colon right after it, perhaps after a word in brackets that says whose it is (``Mòbil (fill):``).
_COLON_AFTER = re.compile(r"[ \t]*(?:\([^()\n]{1,20}\)[ \t]*)?:")
# A leader of dots between a form's key and its value (MUTUA COLABORADORA ........... asepeyo).
_DOT_LEADER_AFTER = re.compile(r"[ \t]*\.{3,}")
# The words in capitals that open a key before its last word (DATA DEL, MÉDICO QUE, Nº).
_KEY_IN_CAPITALS = re.compile(r"[ \t]*(?:[^\W\d_a-zà-ÿ]+\.?|Nº|N\.º)(?:[ \t]+[^\W\d_a-zà-ÿ]+\.?)*[ \t]+")
_NAMES_AND_PLACES = PERSON_TYPES | PLACE_TYPES
# Persons and relatives.
_PEOPLE_TYPES = PERSON_TYPES | {"FAMILIARES_SUJETO_ASISTENCIA"}
_CENTRE_TYPES = frozenset({"HOSPITAL", "CENTRO_SALUD", "INSTITUCION"})
# Initials written with dots, read as one word (c.s. → cs).
_DOTTED_INITIALS = re.compile(r"\b([^\W\d_])\.(?=[^\W\d_]\b)")
_CENTRE_ABBREVIATIONS = frozenset("cs cap abs eap h hosp hu hg hgu huc hcu hup huv csm csma".split())
# Head words of centres, folded: one of them makes a span of common words a centre's name (Hospital del Mar).
_CENTRE_HEADS = _CENTRE_ABBREVIATIONS | frozenset(
    "hospital hospitalario hospitalari clinica clinic policlinica sanatorio complejo complexo centro centre salud salut"
    " institut instituto fundacion fundacio consorci parc corporacio residencia universidad universitat ambulatorio"
    " consultorio consultori mutua ajuntament ayuntamiento colegio escola escuela ies ceip asociacion associacio"
    " sociedad societat servicio servei unidad unitat ospitale ospitalea osasun zentroa hopital materno"
    # The out-of-hours points: pac son servera, suap collado villalba (pac alone may be the patient: see
    # _patient_not_a_care_point).
    " pac suap cuap puac dccu".split()
)
# With the pronoun that opens a consent (``Yo, Silvia Moreno``) and Catalan's ``des`` (des de 2014): words that name
# nobody and nowhere.
_FUNCTION_WORDS = (
    (_PARTICLES - {"sant", "san", "santa"}) | _LEADING_FUNCTION_WORDS | _BALEARIC_ARTICLES | {"yo", "jo", "des"}
)
# The changes to a span's bounds, in order: (whether it applies to a label, the change).
_RESHAPES: tuple[tuple[Callable[[str], bool], Callable[[str, Span], Span | None]], ...] = (
    (lambda label: True, _first_line),
    (lambda label: True, _first_column),
    (lambda label: label == STREET, _town_after_its_key),
    (lambda label: label == STREET, _before_a_glued_town),
    (lambda label: label == "TERRITORIO", _initialled_person),
    (lambda label: label == "TERRITORIO", _with_the_country_letter),
    # Institutions are left alone: companies and faculties in lower case hold none of the heads (carl zeiss meditec).
    (lambda label: label in ("HOSPITAL", "CENTRO_SALUD"), _unless_prose),
    (lambda label: label in _CENTRE_TYPES, _centre_name_end),
    (lambda label: label in _WORD_BEFORE, _with_the_word_before),
    (lambda label: label in _CENTRE_TYPES, _lower_case_centre_end),
    (lambda label: label in _CENTRE_TYPES, _centre_before_its_town),
    (lambda label: label in ("HOSPITAL", "CENTRO_SALUD"), _generic_centre_with_its_name),
    (lambda label: label == "FECHAS", _date_before_an_hour),
    (lambda label: label == "FECHAS", _without_the_range_word),
    (lambda label: label == "EDAD_SUJETO_ASISTENCIA", _with_the_number_before_the_unit),
    # The code first: a name may run over a key and its number (juan perez nis 2018004417).
    (lambda label: label in PERSON_TYPES, _without_a_trailing_code),
    (lambda label: label in PERSON_TYPES, _without_a_trailing_key),
    # Not a relative's: its kinship word is PHI of its own (la filla Núria).
    (
        lambda label: label in ("NOMBRE_SUJETO_ASISTENCIA", "NOMBRE_PERSONAL_SANITARIO"),
        _without_a_word_of_no_name_before,
    ),
    (lambda label: label in ("EDAD_SUJETO_ASISTENCIA", "HOSPITAL", "CENTRO_SALUD", STREET), _before_a_glued_sentence),
    (lambda label: label in _CENTRE_TYPES, _before_a_signature),
    (lambda label: label == "TERRITORIO", _place_before_a_clause),
    (lambda label: label in ("TERRITORIO", "PAIS"), _without_a_trailing_preposition),
    (lambda label: label == "FECHAS" or label == "TERRITORIO", _date_or_code),
    (lambda label: label == "PROFESION", lambda text, span: _occupation_end(text, _occupation_complement(text, span))),
    (lambda label: label in PERSON_TYPES or label == "FECHAS", _before_a_spaced_dash),
    (lambda label: label in _NAMES_AND_PLACES - {STREET}, _before_a_glued_comma),
    (lambda label: label in _NAMES_AND_PLACES, _without_leading_function_words),
    (lambda label: label in _NAMES_AND_PLACES | _CENTRE_TYPES, _with_the_elided_word),
    # Places and centres only: Domingo is a surname (sálamo domingo).
    (lambda label: label in PLACE_TYPES | _CENTRE_TYPES, _without_a_weekday_at_the_end),
    (lambda label: label not in PHONE_TYPES, _within_brackets),  # (93) 412 00 00: a fax's area code opens none
    (lambda label: True, _within_quotes),
    (lambda label: label in _CENTRE_TYPES, _before_an_hour),
    (lambda label: label in CODE_TYPES, lambda text, span: _code_part(text, _whole_code(text, span))),
    (lambda label: label in CODE_TYPES, _before_a_word),
    (lambda label: label in CODE_TYPES, _device_serial),
    (lambda label: label in CODE_TYPES | PHONE_TYPES, _after_a_glued_phone_key),
    (lambda label: label in PERSON_TYPES, _name_part),
    (lambda label: label in PERSON_TYPES, _without_a_sentence_opener),
    (lambda label: label in PERSON_TYPES, _without_a_leading_role),
    (lambda label: label in PERSON_TYPES, _after_a_kinship_word),
    (lambda label: label in PERSON_TYPES, _whole_name),
    (lambda label: label in PERSON_TYPES, _without_the_title_of_the_next),
    (lambda label: label == "FECHAS", _weekday_before),
    (lambda label: label == "FECHAS", _with_the_month_after),
    (lambda label: label == "FAMILIARES_SUJETO_ASISTENCIA", _relative_end),
    (lambda label: label in PHONE_TYPES, lambda text, span: _with_country_code(text, _whole_phone(text, span))),
    (lambda label: label in PHONE_TYPES, _with_its_extension),
    (lambda label: label == "IDENTIF_VEHICULOS_NRSERIE_PLACAS", _whole_plate),
)


def _reshaped(text: str, span: Span | None) -> Span | None:
    """``span`` cut or grown to the value it can be (first line, first column, whole code, whole phone number...)."""
    for applies, reshape in _RESHAPES:
        if span is None:
            return None
        if applies(span.label):
            span = reshape(text, span)
    return span


def _implausible(text: str, span: Span, capitalised: bool) -> bool:
    """Whether ``span`` cannot be PHI (see the module docstring); ``capitalised``: whether the note capitalises names."""
    label, covered = span.label, text[span.start : span.end]
    names_or_places = label in PERSON_TYPES | PLACE_TYPES
    return (
        _is_key(text, span)
        or len(_ALPHANUMERIC.findall(covered)) > _MOST_WORDS.get(label, len(covered))
        or (label == STREET and not _street_shaped(covered, capitalised) and not _after_an_address_key(text, span))
        or (names_or_places and _opens_a_clause(text, span))
        # A line in capitals under a person's key is that person's name, whatever words it holds (USUARIO\nCHEN, ...).
        or (
            names_or_places and _heading(text, span) and not (label in PERSON_TYPES and _after_a_person_key(text, span))
        )
        or (names_or_places and label != STREET and capitalised and _words_of_a_heading(text, span))
        or (
            names_or_places
            and (_title_or_department(covered) or _department_or_eponym(covered))
            and not _surname_after_a_title(text, span)
            # An eponym's head is also a surname (Pacient: GRAU SOLSONA, MERITXELL).
            and not (label in PERSON_TYPES and _after_a_person_key(text, span))
        )
        or ((names_or_places or label in _CENTRE_TYPES or label == "FECHAS") and _function_words_only(covered))
        or (label == STREET and _street_type_alone(covered))
        or ((names_or_places or label in _CENTRE_TYPES) and fold(covered) in _NEVER_A_NAME_OR_PLACE)
        or (label == STREET and (_UNIT.search(covered) is not None or _SHORTHAND_WORD.search(covered) is not None))
        or (label in PHONE_TYPES and sum(c.isdigit() for c in covered) < _FEWEST_PHONE_DIGITS)
        or (label == "CORREO_ELECTRONICO" and _EMAIL_SIGN.search(covered) is None)
        or (label in CODE_TYPES and _vital_sign(covered))
        or (label in ("SEXO_SUJETO_ASISTENCIA", "FAMILIARES_SUJETO_ASISTENCIA") and _giving_not_a_woman(text, span))
        or (label == "FAMILIARES_SUJETO_ASISTENCIA" and _kinship_of_a_role(text, span))
        # A street with its number may be named after a job (c. de la Maquinista, 9).
        or (names_or_places and _job_title(covered) and not (label == STREET and _DIGIT_GROUP.search(covered)))
        or (label in PLACE_TYPES and (_language(covered) or _never_a_place(covered)))
        or ((names_or_places or label == "EDAD_SUJETO_ASISTENCIA") and _care_log(covered))
        or (label == "TERRITORIO" and (_extension(text, span) or _nanda_code(text, span)))
        or (label == "FAMILIARES_SUJETO_ASISTENCIA" and _clean_not_a_grandchild(text, span))
        or (label in ("HOSPITAL", "CENTRO_SALUD") and (_generic_centre(label, covered) or _headless_centre(covered)))
        or (label == "HOSPITAL" and (_hour(text, span) or _unit_hospital(covered)))
        or (
            label == STREET
            and (
                _vital_sign(covered)
                or _dose_or_glued(text, span)
                or _age_not_a_number(text, span)
                or _gerund_inside(covered)
            )
        )
        or (label == "ID_SUJETO_ASISTENCIA" and fold(covered) in _NEVER_AN_ORIGIN | _IDENTIFIER_KEYS | _RECORD_SYSTEMS)
        or (label == "ID_SUJETO_ASISTENCIA" and sum(c.isalnum() for c in covered) < _FEWEST_ID_CHARACTERS)
        or (label == "ID_SUJETO_ASISTENCIA" and _spoken_language(text, span))
        or (label == "INSTITUCION" and _generic_institution(covered))
        or ((label in PERSON_TYPES or label == "CENTRO_SALUD") and _CAMEL_CASE.search(covered) is not None)
        or (names_or_places and _after_an_eponym_head(text, span))
        or (label == "TERRITORIO" and _brand_in_brackets(text, span))
        or (
            label == "EDAD_SUJETO_ASISTENCIA"
            and (_inside_a_number(text, span) or _duration(text, span) or _range_start(text, span))
        )
        or (label == "PROFESION" and (_not_an_occupation(covered) or _part_of_a_key(text, span)))
        or (label == "PAIS" and fold(covered) in _COUNTRY_FIRST_WORDS)
        or (
            label == "FECHAS"
            and (
                _quantity(text, span)
                or fold(covered) in _DATE_CUES
                or _no_date_at_all(covered)
                or _prose_not_a_date(covered)
                or _named_after_a_feast(text, span)
            )
        )
        or (label in _SCORE_LOOKALIKES and _scale_score(text, span))
        or (label in ("TERRITORIO", "PAIS") and (_phone_owner(text, span) or _kinship_inside(covered)))
        or (label == "FAMILIARES_SUJETO_ASISTENCIA" and (_department_only(covered) or _calf_muscle(text, span)))
        or (label == "FAMILIARES_SUJETO_ASISTENCIA" and _cranial_nerves(text, span))
        or ((names_or_places or label == "FAMILIARES_SUJETO_ASISTENCIA") and _colour_of_a_finding(text, span))
        or (label == "FECHAS" and _glued_digits(text, span))
        or (label == "CENTRO_SALUD" and _patient_not_a_care_point(covered))
        # A time span (des de fa 15 anys) and a notice (avís domicili, where avis are grandparents) are no relatives.
        or (label == "FAMILIARES_SUJETO_ASISTENCIA" and covered[:1].isdigit() and _duration(text, span))
        or (label == "FAMILIARES_SUJETO_ASISTENCIA" and covered.lower() == "avís")
        or (label == "FAMILIARES_SUJETO_ASISTENCIA" and _words_of_a_sentence(covered, capitalised))
        or (label in _PEOPLE_TYPES and fold(covered) in _NEVER_A_PERSON)
        or (names_or_places and fold(covered) in _SCALE_NAMES and not _after_a_title(text, span))
        or (label == "CENTRO_SALUD" and _no_centre_at_all(covered))
        # Streets keep lower-case words of their own (bajo, izquierda, baixos), and are judged by their shape.
        or (
            names_or_places
            and label != STREET
            and (_lower_case_prose(covered) if capitalised else _common_prose(covered))
            and not (label in PLACE_TYPES and _after_a_street_number(text, span))
            and not (
                label in PERSON_TYPES
                and (
                    _after_a_title(text, span)
                    or _before_age_or_identifier(text, span)
                    or _after_a_person_key(text, span)
                    or _after_a_naming_verb(text, span)
                )
            )
        )
        or (label in PERSON_TYPES and capitalised and _lower_case_word(text, span))
    )


def plausible(text: str, spans: Sequence[Span]) -> list[Span]:
    """``spans`` without those that cannot be PHI (see the module docstring), cut at their first line break; two spans
    made the same (the parts of one code or date) are kept once, and a span that another of its type grew over (the
    weekday ``sáb`` that the date after it took) is dropped."""
    capitalised = _capitalises_names(text)
    ends = sorted(span.end for span in spans)
    starts = sorted(span.start for span in spans)
    kept: dict[tuple[int, int], Span] = {}
    for original in spans:
        for part in _people(text, original):
            span = _reshaped(text, part)
            if span is not None and span.label in PERSON_TYPES:
                span = _grown_up_to(span, original, starts, ends, len(text))
            if not (span is None or _implausible(text, span, capitalised)):
                kept.setdefault((span.start, span.end), span)
    held = _held_by_another_of_their_type(kept.values())
    return [span for span in kept.values() if span not in held]


def _held_by_another_of_their_type(spans: Iterable[Span]) -> set[Span]:
    """The spans that a longer span of their type holds: in order of start, the longest first, a span that ends
    before the furthest end reached so far by its type lies inside the span that reached it (one sort, not a pair of
    loops: this runs on every note)."""
    held: set[Span] = set()
    furthest: dict[str, int] = {}
    for span in sorted(spans, key=lambda span: (span.start, -span.end)):
        if furthest.get(span.label, -1) >= span.end:
            held.add(span)
        else:
            furthest[span.label] = span.end
    return held


def _grown_up_to(span: Span, original: Span, starts: Sequence[int], ends: Sequence[int], length: int) -> Span:
    """``span``, a name reshaped from ``original``, not grown on a side where it would reach into another span (of
    the note's, whose sorted ``starts`` and ``ends`` are given): Camil·la, a clinician, does not take the patient's
    Ferrer Puig after it.  (The parts of a code or a date grow into one another on purpose: each becomes the whole.)"""
    before = bisect_right(ends, original.start)
    after = bisect_left(starts, original.end)
    floor = ends[before - 1] if before else 0
    ceiling = starts[after] if after < len(starts) else length
    start = span.start if span.start >= floor else original.start
    end = span.end if span.end <= ceiling else original.end
    return span if (start, end) == (span.start, span.end) else replace(span, start=start, end=end)


def _people(text: str, span: Span) -> list[Span]:
    """A person's span cut at each slash between spaces, which parts two people (``dr.peña / mir s. ortega``)."""
    if span.label not in PERSON_TYPES:
        return [span]
    parts, start = [], span.start
    for slash in _SPACED_SLASH.finditer(text, span.start, span.end):
        parts.append(Span(start, slash.start(), span.label, span.score, span.source))
        start = slash.end()
    parts.append(Span(start, span.end, span.label, span.score, span.source))
    return [part for part in parts if part.end > part.start]


class PlausibleSpans:
    """A detector whose spans go through :func:`plausible` (name and source: the wrapped detector's)."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.name = detector.name

    def detect(self, document: Document) -> list[Span]:
        return plausible(document.text, self.detector.detect(document))
