"""Spans that cannot be PHI by their shape or place in the note, and the rules a model folder names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anonimed.detect.plausible import PlausibleSpans, plausible
from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat_dir
from anonimed.formats.errors import FormatError
from anonimed.models import DEFAULT_MODEL_DIR, folder_rules


def kept(text: str, *spans: tuple[int, int, str]) -> list[str]:
    return [text[s.start : s.end] for s in plausible(text, [Span(a, b, label) for a, b, label in spans])]


def test_no_span_crosses_a_line_break() -> None:
    text = "DNI: 67539363R\nFecha: 3/3/2019"
    start = text.index("67539363R")
    assert kept(text, (start, text.index("Fecha") + 5, "ID_SUJETO_ASISTENCIA")) == ["67539363R"]


def test_a_key_is_layout_not_its_value() -> None:
    text = "Telèfon: 93 555 12 12\n"
    assert kept(text, (0, 7, "CALLE")) == []


def test_a_heading_in_capitals_is_not_a_name() -> None:
    text = "Ingresa por dolor.\nCURS CLÍNIC\nEvolució favorable amb la Dra. Pons."
    start = text.index("CURS")
    assert kept(text, (start, start + len("CURS CLÍNIC"), "NOMBRE_SUJETO_ASISTENCIA")) == []


def test_a_sentence_opening_verb_is_not_a_name_but_a_known_name_is() -> None:
    text = "Dolor torácico.\nRefiere dolor desde ayer. Carmen acude con su hija."
    verb = text.index("Refiere")
    name = text.index("Carmen")
    found = kept(text, (verb, verb + 7, "NOMBRE_SUJETO_ASISTENCIA"), (name, name + 6, "NOMBRE_SUJETO_ASISTENCIA"))
    assert found == ["Carmen"]


def test_lower_case_prose_is_no_place_in_a_note_that_capitalises_names() -> None:
    text = "La paciente, María Pons, vive en Olot. A efectos de su empresa firmo el presente."
    prose = text.index("efectos de su empresa")
    town = text.index("Olot")
    found = kept(text, (prose, prose + len("efectos de su empresa"), "TERRITORIO"), (town, town + 4, "TERRITORIO"))
    assert found == ["Olot"]


def _one(text: str, covered: str, label: str) -> list[str]:
    start = text.index(covered)
    return kept(text, (start, start + len(covered), label))


@pytest.mark.parametrize(
    ("text", "covered", "label", "expected"),
    [
        # A key in capitals ends at its colon; a known name before a colon stays a name.
        ("DATA DEL TRASLLAT:\n17/01/2025", "TRASLLAT", "TERRITORIO", []),
        ("MÉDICO QUE TRASLADA:   Dra. Carmen Ortega", "TRASLADA", "NOMBRE_PERSONAL_SANITARIO", []),
        ("REMITE JUAN LÓPEZ:\n", "JUAN LÓPEZ", "NOMBRE_PERSONAL_SANITARIO", ["JUAN LÓPEZ"]),
        ("Dr. GARCÍA: recomienda reposo", "GARCÍA", "NOMBRE_PERSONAL_SANITARIO", ["GARCÍA"]),
        ("sem 32+4\n11/09:to 120/75,au 29cm", "11/09", "FECHAS", ["11/09"]),
        # A scale's score is no street; a post-office box is an address.
        ("Escala PPS 30 %. Barthel 25.", "Barthel 25", "CALLE", []),
        (
            "roberto llarena apartado de correos 20134 48080 bilbao.",
            "apartado de correos 20134",
            "CALLE",
            ["apartado de correos 20134"],
        ),
        # A street ends before the town glued to it by a comma, not before its floor.
        ("domicili actual:c/ des born 7,inca.\ninf", "c/ des born 7,inca", "CALLE", ["c/ des born 7"]),
        ("viu al c/ mayor 41,3º 2ª.", "c/ mayor 41,3º 2ª", "CALLE", ["c/ mayor 41,3º 2ª"]),
        # A postal code keeps its country letter; Catalan dm before a day and month is a weekday, DM before a year
        # is diabetes.
        ("avenida fuerzas armadas, 2 e-18014 granada", "18014", "TERRITORIO", ["e-18014"]),
        ("consulta telefònica dm 18/2 10:20h", "18/2", "FECHAS", ["dm 18/2"]),
        ("antecedentes: DM 2015, HTA", "2015", "FECHAS", ["2015"]),
        # A dash parts the values of a line in capitals; a lone first word of a country is prose.
        ("HOSPITAL CAN MISSES - EIVISSA\nRADIODIAGNÒSTIC", "EIVISSA", "TERRITORIO", ["EIVISSA"]),
        ("Entrega copia. Nueva revisión en diciembre.", "Nueva", "PAIS", []),
        # A lower-case name before the age or an identifier's key is the patient's, even in a note that capitalises
        # other names; not a lone common word elsewhere.
        (
            "consulta matrona\nyesenia mamani quispe,26a,boliviana,natural de Cochabamba. Dra. Begoña Rey",
            "yesenia mamani quispe",
            "NOMBRE_SUJETO_ASISTENCIA",
            ["yesenia mamani quispe"],
        ),
        (
            "revision\nmarcos,18 meses,tis EX0034127659. Hospital Materno",
            "marcos",
            "NOMBRE_SUJETO_ASISTENCIA",
            ["marcos"],
        ),
        (
            "Visto en Cardiología por la Dra. Pérez. dolor en los marcos de la puerta",
            "marcos",
            "NOMBRE_SUJETO_ASISTENCIA",
            [],
        ),
        ("Interna (sala 5a) por la Dra. Pérez y el Dr. Gil", "sala", "NOMBRE_SUJETO_ASISTENCIA", []),
        (
            "Larrea: cama 2 koldo arbizu 19a cornada. Iñigo Larrea",
            "koldo arbizu",
            "NOMBRE_SUJETO_ASISTENCIA",
            ["koldo arbizu"],
        ),
        # A range is two dates; a word that says a date follows is none.
        ("ingresada del 9 al 14 de abril por asma", "9 al", "FECHAS", ["9"]),
        ("SIP 40218873   nascut 07/10/2021", "nascut", "FECHAS", []),
        ("Data: 22/11   Hora: 11.30\nPacient", "11.30", "FECHAS", []),
        # The calf muscle is no twin; an age's unit alone is no relative; Catalan cap before what there is none of.
        ("sigue irradiación a gemelo izq y no tolera", "gemelo", "FAMILIARES_SUJETO_ASISTENCIA", []),
        ("embarazo de gemelos. El gemelo mayor", "gemelo", "FAMILIARES_SUJETO_ASISTENCIA", ["gemelo"]),
        ("pròxima revisió en 2 anys", "anys", "FAMILIARES_SUJETO_ASISTENCIA", []),
        ("No es troba cap altra font embolígena.", "cap altra font", "CENTRO_SALUD", []),
        ("Derivada al cap Sant Andreu.", "cap Sant Andreu", "CENTRO_SALUD", ["cap Sant Andreu"]),
        # A care point's town may hold a hyphen, and an abbreviated head in capitals keeps its lower-case name.
        ("pac vila-real 9/7/24 17:50\npac. varon 38a", "pac vila-real", "CENTRO_SALUD", ["pac vila-real"]),
        ("PAC son pisà  sábado 9/3 21:10\nwang", "PAC son pisà", "CENTRO_SALUD", ["PAC son pisà"]),
        # A NANDA code opening a list's line is no postal code; a foreign postal code before its town stays one.
        ("DIAGNÒSTICS (NANDA)\n00103 Deglució deteriorada.\n", "00103", "TERRITORIO", []),
        ("Via Appia 3\n00185 Roma\n", "00185", "TERRITORIO", ["00185"]),
        # A form's key before its dot leader.
        (
            "EMPRESA ...... Autobuses Nalón\nMUTUA COLABORADORA ........... asepeyo\n",
            "MUTUA COLABORADORA",
            "INSTITUCION",
            [],
        ),
        # The shared clinical record is no one's identifier.
        ("PDA registrada a HC3: vol morir a casa.", "HC3", "ID_SUJETO_ASISTENCIA", []),
        ("Queda registrat a la HC 3.", "3", "ID_SUJETO_ASISTENCIA", []),
        ("la troba al cap d'unes hores. Ve", "cap d'unes hores", "CENTRO_SALUD", []),
        ("millora al cap de tres dies", "cap de tres dies", "CENTRO_SALUD", []),
        # A name on a capitalised line ends before an identifier's key; a key alone is no name, nor a column's key.
        ("PACIENTE: IONUT CRACIUN  NIE X7742019Q", "IONUT CRACIUN  NIE", "NOMBRE_SUJETO_ASISTENCIA", ["IONUT CRACIUN"]),
        ("Paciente\t\t\tNHC\t\tTSI\n", "NHC", "NOMBRE_SUJETO_ASISTENCIA", []),
        ("Código postal: 38430          Provincia: Santa Cruz", "Provincia", "TERRITORIO", []),
        # A duration after a follow-up is no age; a span of function words is no centre.
        ("prox ctrl 3 meses con enfermeria.", "3 meses", "EDAD_SUJETO_ASISTENCIA", []),
        # A place ends before the preposition after it; a street's number before an age's unit is an age, and the unit
        # alone takes its number; a newborn's feeding is no origin; a scale's score is no street.
        ("home 52 a,pakistanès,a Barcelona des del 2009", "Barcelona des", "TERRITORIO", ["Barcelona"]),
        ("Laia Comas Riera, 34 anys. NHC 3104877", "Laia Comas Riera, 34", "CALLE", []),
        ("Laia Comas Riera, 34 anys. NHC 3104877", "anys", "EDAD_SUJETO_ASISTENCIA", ["34 anys"]),
        ("peso estable. Lactancia materna exclusiva", "Lactancia", "ID_SUJETO_ASISTENCIA", []),
        (
            "alta cuando este sobria,pasaporte PA4471932 en el cajetin",
            "PA4471932",
            "ID_SUJETO_ASISTENCIA",
            ["PA4471932"],
        ),
        ("constantes: PA 120/80, FC 80", "PA 120", "ID_SUJETO_ASISTENCIA", []),
        ("accidente en la N-502 a la altura de Calera", "N-502", "CALLE", ["N-502"]),
        ("cervezas al día. CAGE 4/4, AUDIT 31. Episodio", "CAGE 4/4, AUDIT 31", "CALLE", []),
        ("la Dra. Amparo Sanchis del Centre de Salut", "del", "INSTITUCION", []),
        # A key glued to its identifier where the case changes is not part of it; a code's digits before a comma are
        # no decimal that an age continues.
        ("pac. SOL AGUILERA nuhsaAN0417726390 ,73a", "nuhsaAN0417726390", "ID_SUJETO_ASISTENCIA", ["AN0417726390"]),
        ("Iván Lahoz 38 a dni73001842-K nass", "dni73001842-K", "ID_SUJETO_ASISTENCIA", ["73001842-K"]),
        ("Echarri Urra,83a,CIPNA 1004587321. vive", "CIPNA 1004587321", "ID_SUJETO_ASISTENCIA", ["1004587321"]),
        ("resident a Encamp, núm. CASS 183245-B, amb", "CASS 183245-B", "ID_ASEGURAMIENTO", ["183245-B"]),
        ("pac vicent peris,sip18730562,19 anys,treballa", "19 anys", "EDAD_SUJETO_ASISTENCIA", ["19 anys"]),
        ("pes 3.240 g al naixement", "240 g", "EDAD_SUJETO_ASISTENCIA", []),
        # A place's kind word goes with its name, but is none alone; a consent's pronoun, a department's adjective, a
        # scale named alone, a nurse's title and a time's minutes are no PHI; c/ before a drug's dose is "with".
        ("Viu a Ripoll, a la comarca del Ripollès. Va", "comarca del Ripollès", "TERRITORIO", ["comarca del Ripollès"]),
        ("Viu a Ripoll, a la comarca del Ripollès. Va", "comarca", "TERRITORIO", []),
        ("Yo, Silvia Moreno Castán, como madre", "Yo", "TERRITORIO", []),
        ("XÀTIVA\nServei d'Urgències Pediàtriques\nINFORME", "Pediàtriques", "TERRITORIO", []),
        ("vores de color rosa, apòsit sec. Braden", "Braden", "NOMBRE_PERSONAL_SANITARIO", []),
        ("medico Jose A. Galvez · due Rocio Palma", "due", "NOMBRE_PERSONAL_SANITARIO", []),
        ("urgencia 11:05h 20/01/2025", "05h", "FECHAS", []),
        ("fa anticoagulada c/ apixaban 2.5/12h,parkinson", "c/ apixaban 2", "CALLE", []),
        ("FA ANTICOAGULADO C/ APIXABAN 2.5 C/12H,PARKINSON", "C/ APIXABAN 2", "CALLE", []),
        ("ctrl dm2 (dx 2011) en tto", "dx", "FECHAS", []),
        # A name in capitals written surnames first takes the given names after the comma, not a department.
        (
            "FDO. DR. HERRERO BLANCO, LUIS ÁNGEL. COL. 4949061",
            "HERRERO BLANCO",
            "NOMBRE_PERSONAL_SANITARIO",
            ["HERRERO BLANCO, LUIS ÁNGEL"],
        ),
        ("DR. GARCÍA LÓPEZ, CARDIOLOGÍA, HOSPITAL", "GARCÍA LÓPEZ", "NOMBRE_PERSONAL_SANITARIO", ["GARCÍA LÓPEZ"]),
        ("Dr. García López, Luis.", "García López", "NOMBRE_PERSONAL_SANITARIO", ["García López"]),
        # A name ends before a code glued to its key; a Basque centre's head follows its name.
        (
            "dr iñaki sol bermejo col282856431\n",
            "iñaki sol bermejo col282856431",
            "NOMBRE_PERSONAL_SANITARIO",
            ["iñaki sol bermejo"],
        ),
        (
            "Lasarte-Oria osasun zentroa - pediatria",
            "Lasarte-Oria osasun zentroa",
            "CENTRO_SALUD",
            ["Lasarte-Oria osasun zentroa"],
        ),
        # A name that runs over an identifier's key in lower case and its number ends before both; a key qualified in
        # brackets is still a key; a name cut on an elided particle takes the word it is elided before.
        (
            "pac. juan perez nis 2018004417,varon",
            "juan perez nis 2018004417",
            "NOMBRE_SUJETO_ASISTENCIA",
            ["juan perez"],
        ),
        ("Telèfon: 972 23 48 19      Mòbil (fill): 661 407 233", "Mòbil", "TERRITORIO", []),
        ("agenda inf. - abs móra d'ebre - dijous 3/2", "abs móra d", "CENTRO_SALUD", ["abs móra d'ebre"]),
        (
            "nom: camille dupuis  passaport 19AV45812",
            "camille dupuis  passaport",
            "NOMBRE_SUJETO_ASISTENCIA",
            ["camille dupuis"],
        ),
        # A form's key before a tab is layout, and a span that opens with one is its value; a table's row of values
        # may open with a sex word.
        ("Régimen\tGeneral\nMutua\tFremap\n", "Mutua\tFremap", "INSTITUCION", ["Fremap"]),
        ("Empresa\tAutocares Hermanos Castillo S.L.\n", "Empresa", "OTROS_SUJETO_ASISTENCIA", []),
        ("Sexo\t\tEdad\nHombre\t\t76\n", "Hombre", "SEXO_SUJETO_ASISTENCIA", ["Hombre"]),
        # A side of the body, a letter's closing formula, Catalan's des, a time span and a notice name nobody.
        ("Lasègue positiu a 40º a l'esquerra, reflex", "esquerra", "TERRITORIO", []),
        ("dubte: lgomez@saas.ad\n\nCordialment,\nDra. Laura Gómez", "Cordialment", "TERRITORIO", []),
        ("resident a Andorra des de 2014.", "des", "FECHAS", []),
        ("viu a pedreguer des de fa 15 anys.\nva", "15 anys", "FAMILIARES_SUJETO_ASISTENCIA", []),
        ("pac dalt sant joan - maó. avís domicili", "avís", "FAMILIARES_SUJETO_ASISTENCIA", []),
        # Catalan's grandchild after a contracted article; a quote that closes a quoted report; a time after an
        # out-of-hours point; a relative's name after the kinship word; a Balearic article and its conjunction.
        ("amb el suport del nét, que puja", "nét", "FAMILIARES_SUJETO_ASISTENCIA", ["nét"]),
        (
            'PRIMARIA.\nDra. E. Beltrán Querol"\nhoy',
            'E. Beltrán Querol"',
            "NOMBRE_PERSONAL_SANITARIO",
            ["E. Beltrán Querol"],
        ),
        ('dijo: "lo vio la Dra. Sala"', "Sala", "NOMBRE_PERSONAL_SANITARIO", ["Sala"]),
        ("PAC 23:50\nAcude por dolor", "PAC 23", "CENTRO_SALUD", []),
        ("Visto en PAC Teror 23:50 h", "PAC Teror 23", "CENTRO_SALUD", ["PAC Teror"]),
        ("urg cs lepe 14:20h 28/5", "cs lepe 14", "CENTRO_SALUD", ["cs lepe"]),
        ("sad del ayuntamiento de león 2h/dia", "ayuntamiento de león 2", "CENTRO_SALUD", ["ayuntamiento de león"]),
        ("ref. o'sullivan 14/8:128 (neg)", "14/8", "FECHAS", ["14/8"]),
        (
            "AVISADA HIJA Mª JESUS DEL POZO GARCIA TLF 659",
            "AVISADA HIJA Mª JESUS DEL POZO GARCIA",
            "NOMBRE_SUJETO_ASISTENCIA",
            ["Mª JESUS DEL POZO GARCIA"],
        ),
        ("Acude Ana Pareja Ruiz por tos", "Ana Pareja Ruiz", "NOMBRE_SUJETO_ASISTENCIA", ["Ana Pareja Ruiz"]),
        ('Viene el abuelo, el "Tío Quico" (Francisco)', "Tío Quico", "NOMBRE_SUJETO_ASISTENCIA", ["Tío Quico"]),
        ("amb sa filla Margalida i es gendre.", "i es", "TERRITORIO", []),
        ("AP:HTA,FA EN TTO CON SINTROM", "HTA", "TERRITORIO", []),
        ("S.A. (Ontinyent), en ERTE desde gener", "ERTE", "TERRITORIO", []),
        # Cranial nerves, a colour of a finding, a lot number's digits and a patient after PAC name nobody.
        ("isocoricas y reactivas,pares craneales ok", "pares", "FAMILIARES_SUJETO_ASISTENCIA", []),
        ("vino la hija Rosa.\neritema rosa palido en talon", "rosa", "FAMILIARES_SUJETO_ASISTENCIA", []),
        ("dosi 3,cuixa esq,lot AH5127\n", "5127", "FECHAS", []),
        ("en 2025 vacunada", "2025", "FECHAS", ["2025"]),
        ("TCE LEVE EN PAC ANTICOAGULADO.", "PAC ANTICOAGULADO", "CENTRO_SALUD", []),
        ("PAC calp - urgencias", "PAC calp", "CENTRO_SALUD", ["PAC calp"]),
        ("VIOLENCIA DE GENERO - PAC Zuazo\nsabado", "PAC Zuazo", "CENTRO_SALUD", ["PAC Zuazo"]),
        ("contrafrente.\nbuenos aires.\nb1827.\n", "1827", "FECHAS", ["1827"]),
        # Batch 48: a floor's word is no sentence word, a date takes its month's abbreviation, a capitalised name
        # ends before its verb, a range's start is no age, a street ends at a sentence glued to its number.
        (
            "domicilio c/ loma del viento 8 bajo,04700",
            "c/ loma del viento 8 bajo",
            "CALLE",
            ["c/ loma del viento 8 bajo"],
        ),
        ("agenda enf. martes 4 nov - consulta 3", "martes 4", "FECHAS", ["martes 4 nov"]),
        ("el 12 mar era", "12", "FECHAS", ["12"]),
        ("enf Marta Álvarez vendra lunes", "Marta Álvarez vendra", "NOMBRE_PERSONAL_SANITARIO", ["Marta Álvarez"]),
        ("Dra. Ana de la fuente", "Ana de la fuente", "NOMBRE_PERSONAL_SANITARIO", ["Ana de la fuente"]),
        ("flexión de 0 a 45 grados", "0 a", "EDAD_SUJETO_ASISTENCIA", []),
        ("varón de 45 a, fiebre", "45 a", "EDAD_SUJETO_ASISTENCIA", ["45 a"]),
        ("vive solo,c/ san roque 12.antes pastor.", "c/ san roque 12.antes pastor", "CALLE", ["c/ san roque 12"]),
        # Batch 50: a job's complement stays in its column, a word before a key's colon is no job, "solo" no place.
        (
            "Ocupació: operari de planta química    Empresa: Químiques",
            "operari de planta química    Empresa",
            "PROFESION",
            ["operari de planta química"],
        ),
        ("Profesión declarada: agricultor", "declarada", "PROFESION", []),
        ("VIVE SOLO.NO SABE", "SOLO", "TERRITORIO", []),
        # Batch 49: a blood pressure is no date.
        ("porta mapa.mitjanes 128/76.ok", "mitjanes 128/76", "FECHAS", []),
        ("visto el 12/06 en", "12/06", "FECHAS", ["12/06"]),
        # Batches 52-54: a weekday of a list takes no weekday before it, the word hospital or dia alone is no PHI,
        # nor a document's name an identifier, and a lower-case name before a phone's key is the patient's.
        ("curas lunes, miércoles y viernes", "miércoles", "FECHAS", ["miércoles"]),
        ("visto el martes, 14 de marzo", "14 de marzo", "FECHAS", ["martes, 14 de marzo"]),
        ("llegada 19:58 · hospital 20:40", "hospital", "HOSPITAL", []),
        ("ef: placa eritematosa 1,2 cm", "placa eritematosa 1,2", "CALLE", []),
        ("nhc 00482113/cip:PUMA0160305003", "00482113", "ID_SUJETO_ASISTENCIA", ["00482113"]),
        (
            "Adreça: c. de la Maquinista, 9, 4t 1a",
            "c. de la Maquinista, 9, 4t 1a",
            "CALLE",
            ["c. de la Maquinista, 9, 4t 1a"],
        ),
        ("viu a la plaça Major 3, 2n", "plaça Major 3", "CALLE", ["plaça Major 3"]),
        ("grapes a retirar el dia 24/06", "dia", "FECHAS", []),
        ("doc: pasaporte 554019827, GHIC 8062", "pasaporte", "ID_SUJETO_ASISTENCIA", []),
        (
            "Sant Pau · urg. dl 26/8\npac mamadou diallo,tlf:632118450",
            "mamadou diallo",
            "NOMBRE_SUJETO_ASISTENCIA",
            ["mamadou diallo"],
        ),
        # A lower-case name after a person's key stays in a note that capitalises other names.
        (
            "Hospital de Tortosa\npacient: teresa ferré bel    edat: 79 a\nViu a Deltebre amb la Sílvia.",
            "teresa ferré bel",
            "NOMBRE_SUJETO_ASISTENCIA",
            ["teresa ferré bel"],
        ),
        # A phone takes its extension; a plate its letters; words of a sentence are no relative, a relative's age is.
        ("telèfon PADES: 972 26 19 00 ext 3.", "972 26 19 00", "NUMERO_TELEFONO", ["972 26 19 00 ext 3"]),
        ("UCI: 985 18 50 00 ext 38120\n", "985 18 50 00 ext", "NUMERO_TELEFONO", ["985 18 50 00 ext 38120"]),
        ("Central 93 227 54 00 (ext. 2231)", "93 227 54 00", "NUMERO_TELEFONO", ["93 227 54 00"]),
        ("un turisme (matrícula 4821 KLP) que", "4821", "IDENTIF_VEHICULOS_NRSERIE_PLACAS", ["4821 KLP"]),
        (
            "viene con la madre (Tania), van a la guarde de La Corredoria\ntos sin dificultad resp. come",
            "dificultad resp",
            "FAMILIARES_SUJETO_ASISTENCIA",
            [],
        ),
        ("La filla gran, de set anys, es queda", "set anys", "FAMILIARES_SUJETO_ASISTENCIA", ["set anys"]),
        ("Viu amb els avis paterns a Canals.", "avis paterns", "FAMILIARES_SUJETO_ASISTENCIA", ["avis paterns"]),
        # A form's key names no hospital; eponyms and a nursing diagnosis' code name no place; a street type alone
        # is no street.
        ("HOSPITAL DE ORIGEN\nHospital de Cabueñes", "HOSPITAL DE ORIGEN", "HOSPITAL", []),
        ("infarto pulmonar (joroba de Hampton).", "Hampton", "TERRITORIO", []),
        ("se coloca DIU Mirena sin incidencias", "Mirena", "TERRITORIO", []),
        ("pròtesi parcial amb cap bipolar de 46 mm", "cap bipolar", "CENTRO_SALUD", []),
        ("Dissecció de la Bossa de Hartmann i", "Bossa de Hartmann", "TERRITORIO", []),
        ("NIHSS aprox 14, Cincinnati +", "Cincinnati", "TERRITORIO", []),
        ("- [00155] Risc de caigudes", "00155", "TERRITORIO", []),
        ("Dx 00046 Deteriorament de la integritat cutània", "00046", "TERRITORIO", []),
        ("Viu a Roma.\nDx 00185 Roma", "00185", "TERRITORIO", ["00185"]),
        ("proxima ronda el martes", "ronda el", "CALLE", []),
        (
            "Exploració normal.\nlorenzo (MIR 2º) / sup. dra. Rosa Mata",
            "lorenzo",
            "NOMBRE_PERSONAL_SANITARIO",
            ["lorenzo"],
        ),
        (
            "tis GLPR340915918017\ndom. r/ ervedelo 41 1ºdcha (o couto)",
            "r/ ervedelo 41 1ºdcha",
            "CALLE",
            ["r/ ervedelo 41 1ºdcha"],
        ),
        (
            "domicilio: Generosa Rey (92a), lugar de Rubián de Cima, 3. encamada",
            "lugar de Rubián de Cima, 3",
            "CALLE",
            ["lugar de Rubián de Cima, 3"],
        ),
        ("Vive con Ana Ruiz. en lugar de Sintrom 4 mg", "lugar de Sintrom 4", "CALLE", []),
        ("Dr. Joan Climent (Oncología Radioterápica), Dra. Mata", "Oncología Radioterápica", "TERRITORIO", []),
        ("Killip I. Passa directe a Box de Critics amb monitor", "Box de Critics", "TERRITORIO", []),
        ("no embaràs (DUM 14/2, regular)", "DUM", "FECHAS", []),
        ("Osteoporosi. Viu sol; la germana ve cada dia", "Viu sol", "TERRITORIO", []),
        ("Domicili: av. de la Pau, 19, 46730 Grau de Gandia\n", "Grau de Gandia", "TERRITORIO", ["Grau de Gandia"]),
        ("Artrosi, Grau de Kellgren 3.", "Grau de Kellgren", "TERRITORIO", []),
        ("Derivació al Centre de Salut Mental d'Adults per", "Centre de Salut Mental d'Adults", "CENTRO_SALUD", []),
        ('Viu amb Ana Puig.\nFrancisco Moreno Sánchez ("paco"), 76a', "paco", "NOMBRE_SUJETO_ASISTENCIA", ["paco"]),
        ('Viu amb Ana Puig.\nla dosis "de rescate" de morfina', "rescate", "NOMBRE_SUJETO_ASISTENCIA", []),
        ("Eliquis 2,5 mg comp. - 1-0-1 - 05/11/2023", "1-0-1", "FECHAS", []),
        ("control el 1-3-2024 en consulta", "1-3-2024", "FECHAS", ["1-3-2024"]),
        ("llamar al 649 31 27 05. Mañana (jueves) tiene eco", "Mañana", "TERRITORIO", []),
        ("Si febre o mal de coll: hemograma", "coll", "TERRITORIO", []),
        ("Visita amb la Dra. Coll dilluns", "Coll", "NOMBRE_PERSONAL_SANITARIO", ["Coll"]),
        ("Vive con Ana Ruiz. citologia 2022 (cribado cada 3 años).", "cribado cada", "NOMBRE_SUJETO_ASISTENCIA", []),
    ],
)
def test_checks_written_from_the_blind_batches(text: str, covered: str, label: str, expected: list[str]) -> None:
    assert _one(text, covered, label) == expected


def test_a_weekday_that_the_date_after_it_took_is_not_kept_twice() -> None:
    text = "PAC Burjassot\nsáb 22/03/2025 21:40"
    spans = [Span(14, 17, "FECHAS"), Span(18, 28, "FECHAS")]
    assert [text[s.start : s.end] for s in plausible(text, spans)] == ["sáb 22/03/2025"]


def test_the_wrapper_keeps_its_detector_name() -> None:
    class Fixed:
        name = "model"

        def detect(self, document: Document) -> list[Span]:
            return [Span(0, 9, "ID_SUJETO_ASISTENCIA")]

    wrapped = PlausibleSpans(Fixed())
    assert wrapped.name == "model"
    assert wrapped.detect(Document("n", "67539363R\nFecha")) == [Span(0, 9, "ID_SUJETO_ASISTENCIA")]


def test_gold_spans_are_plausible(meddocan: Path) -> None:
    """The rules hold for the annotated notes: almost every gold span of MEDDOCAN train survives them."""
    documents = read_brat_dir(meddocan / "train" / "brat")
    total = sum(len(d.spans) for d in documents)
    dropped = sum(len(d.spans) - len(plausible(d.text, d.spans)) for d in documents)
    assert total > 10_000
    assert dropped / total < 0.002


def test_a_model_folder_names_its_rules(tmp_path: Path) -> None:
    assert folder_rules(DEFAULT_MODEL_DIR) == ["default"]
    (tmp_path / "model.json").write_text(json.dumps({"kind": "crf", "rules": ["site.yaml", "default"]}))
    assert folder_rules(tmp_path) == [tmp_path / "site.yaml", "default"]
    (tmp_path / "model.json").write_text(json.dumps({"kind": "crf", "rules": 3}))
    with pytest.raises(FormatError, match="'rules' must be"):
        folder_rules(tmp_path)
    (tmp_path / "model.json").write_text(json.dumps({"kind": "crf"}))
    assert folder_rules(tmp_path) == []


def test_a_name_ends_before_a_word_that_no_name_holds() -> None:
    text = "SE COMUNICA AL DR. GALINDO POR TELÉFONO (967 59 71 00)."
    start = text.index("GALINDO")
    assert kept(text, (start, text.index(" (967"), "NOMBRE_PERSONAL_SANITARIO")) == ["GALINDO"]
    name = "María El Kadaoui Calvo"
    assert kept(name, (0, len(name), "NOMBRE_SUJETO_ASISTENCIA")) == [name]
    # Nor in the age that follows it in a telegraphic note.
    text = "juan perez 72a nhc 30419276"
    assert kept(text, (0, text.index("a nhc"), "NOMBRE_SUJETO_ASISTENCIA")) == ["juan perez"]


def test_prose_in_a_lower_case_note_is_no_place_but_a_lower_case_town_is() -> None:
    text = "pac. de 34a.\nse recomienda q acuda a su cs.\nvive en alcala de henares."
    prose = text.index("se recomienda q")
    town = text.index("alcala de henares")
    found = kept(text, (prose, prose + len("se recomienda q"), "TERRITORIO"), (town, town + 17, "TERRITORIO"))
    assert found == ["alcala de henares"]


def test_a_street_needs_a_street_type_or_a_capitalised_word() -> None:
    text = "ef:sequedad mucosas,ta 100/60,fc 98.\nVive en Irunlarrea, 3 y en c/ rey 14 bajo."
    lab = text.index("ta 100/60")
    street = text.index("Irunlarrea, 3")
    lower = text.index("c/ rey 14 bajo")
    found = kept(text, (lab, lab + 9, "CALLE"), (street, street + 13, "CALLE"), (lower, lower + 14, "CALLE"))
    assert found == ["Irunlarrea, 3", "c/ rey 14 bajo"]


def test_a_street_without_a_number_after_a_town_key_is_the_town() -> None:
    text = "Domicilio: C/ Gonu, 28, Bajo A. Localidad/ Provincia: Madrid. CP: 28001. Localidad: Av. Sol 3."
    town = text.index("Madrid")
    street = text.index("Av. Sol 3")
    found = plausible(text, [Span(town, town + 6, "CALLE"), Span(street, street + 9, "CALLE")])
    assert [(text[s.start : s.end], s.label) for s in found] == [("Madrid", "TERRITORIO"), ("Av. Sol 3", "CALLE")]


def test_a_lower_case_name_after_a_title_is_a_signature_in_a_capitalised_note() -> None:
    text = "Viu amb la filla Montse al carrer Major.\ndra. s. puigvert - cap banyoles\nla font de la febre"
    signed = text.index("s. puigvert")
    prose = text.index("font de la febre")
    found = kept(
        text, (signed, signed + 11, "NOMBRE_PERSONAL_SANITARIO"), (prose, prose + 16, "NOMBRE_SUJETO_ASISTENCIA")
    )
    assert found == ["s. puigvert"]


def test_nothing_grows_across_a_line_break() -> None:
    # "I." ends the line before: an initial right before a name, but on another line (the span stays on its own).
    text = "ANGLE ALFA 64º. TIPUS I.\nMALUC ESQUERRE\nDr. R. Morales"
    name = text.index("MALUC")
    signed = text.index("Morales")
    found = kept(text, (name, name + 5, "NOMBRE_PERSONAL_SANITARIO"), (signed, signed + 7, "NOMBRE_PERSONAL_SANITARIO"))
    assert found == ["MALUC", "R. Morales"]


def test_a_phone_number_keeps_its_country_code() -> None:
    text = "Teléfono móvil: +34 676 902 118\nFax: (0034) 93 555 12 12\nTel. 612 345 678"
    mobile = text.index("676")
    fax = text.index("93 555")
    plain = text.index("612")
    found = kept(
        text,
        (mobile, mobile + 11, "NUMERO_TELEFONO"),
        (fax, fax + 12, "NUMERO_FAX"),
        (plain, plain + 11, "NUMERO_TELEFONO"),
    )
    assert found == ["+34 676 902 118", "(0034) 93 555 12 12", "612 345 678"]
    text = "Móvil: +34 620 88 14 37"
    start = text.index("34 620")
    assert kept(text, (start, len(text), "NUMERO_TELEFONO")) == ["+34 620 88 14 37"]


def spans_of(text: str, *labelled: tuple[str, str]) -> list[tuple[int, int, str]]:
    """(start, end, label) of each (covered text, label), found left to right in ``text``."""
    found, start = [], 0
    for covered, label in labelled:
        start = text.index(covered, start)
        found.append((start, start + len(covered), label))
    return found


def test_a_number_holds_a_digit_and_ends_before_a_glued_word() -> None:
    text = "dona 52a,dni 45128876k.ve x dolor. Vacunacion correcta. Fax: consulta"
    found = kept(
        text,
        *spans_of(
            text,
            ("45128876k.ve", "ID_SUJETO_ASISTENCIA"),
            ("Vacunacion correcta", "ID_SUJETO_ASISTENCIA"),
            ("consulta", "NUMERO_FAX"),
        ),
    )
    # The patient's identifier type is also MEDDOCAN's type for descriptions (raza blanca), so it needs no digit.
    assert found == ["45128876k", "Vacunacion correcta"]


def test_a_span_ends_at_a_bracket_it_did_not_open_and_at_a_column_break() -> None:
    text = "hija (Puri) tlf 622 10 45 87\nPaciente: MARÍA DEL CARMEN SUÁREZ   NHC 600128\n| NHC | H-0094471 |"
    found = kept(
        text,
        *spans_of(
            text,
            ("Puri) tlf", "FAMILIARES_SUJETO_ASISTENCIA"),
            ("MARÍA DEL CARMEN SUÁREZ   NHC", "NOMBRE_SUJETO_ASISTENCIA"),
            ("NHC | H-0094471 |", "ID_SUJETO_ASISTENCIA"),
        ),
    )
    # The identifier cut at its column break is left with its key alone, which identifies nobody.
    assert found == ["Puri", "MARÍA DEL CARMEN SUÁREZ"]


def test_an_hour_is_no_hospital_but_a_hospital_is() -> None:
    text = "AAS 100 mg/24 h. Ticagrelor 90 mg. Trasllat a h. Bellvitge."
    found = kept(text, *spans_of(text, ("h. Ticagrelor", "HOSPITAL"), ("h. Bellvitge", "HOSPITAL")))
    assert found == ["h. Bellvitge"]


def test_titles_departments_and_jobs_are_no_names_and_articles_are_not_part_of_one() -> None:
    text = (
        "Parlem amb la germana, la Roser. Visita a Endocrinologia. Consulta con el Dr. Moreno.\n"
        "Cargo del médico: Facultativo Especialista de Área\nRadiòloga\nNom: Oriol   Cognoms: Rey Cabeza\n"
        "coordinat amb la metgessa de família."
    )
    found = kept(
        text,
        *spans_of(
            text,
            ("la Roser", "TERRITORIO"),
            ("Endocrinologia", "TERRITORIO"),
            ("con el Dr", "NOMBRE_PERSONAL_SANITARIO"),
            ("Moreno", "NOMBRE_PERSONAL_SANITARIO"),
            ("Facultativo Especialista de Área", "NOMBRE_PERSONAL_SANITARIO"),
            ("Radiòloga", "NOMBRE_PERSONAL_SANITARIO"),
            ("Oriol", "NOMBRE_SUJETO_ASISTENCIA"),
            ("Rey Cabeza", "NOMBRE_SUJETO_ASISTENCIA"),
            ("metgessa de família", "TERRITORIO"),
        ),
    )
    assert found == ["Roser", "Moreno", "Oriol", "Rey Cabeza"]


def test_a_street_is_no_sentence() -> None:
    text = "Tolera dieta blanda. Refiere dolor. niño 18m.acude c/ madre x fiebre de 24h y rechazo de tomas.\n"
    text += "c/ de la rambla just oliveras 48 1r 2a. Irunlarrea, 3. HbA1c 8.4 (previa 7.6 en enero).peso 94kg,imc 33"
    found = kept(
        text,
        *spans_of(
            text,
            ("Tolera dieta blanda. Refiere", "CALLE"),
            ("c/ madre x fiebre de 24h y rechazo de tomas", "CALLE"),
            ("c/ de la rambla just oliveras 48 1r 2a", "CALLE"),
            ("Irunlarrea, 3", "CALLE"),
            ("HbA1c 8.4 (previa 7.6 en enero).peso 94kg,imc 33", "CALLE"),
        ),
    )
    assert found == ["c/ de la rambla just oliveras 48 1r 2a", "Irunlarrea, 3"]


def test_a_value_alone_on_its_line_after_its_key_is_no_heading() -> None:
    """A heading fills its line; a value in capitals that ends in a full stop (a radiology layout's ``ERNESTINA.``
    under ``NOMBRE / NOM:``) is a value."""
    text = "NOMBRE / NOM:\nERNESTINA.\nDOMICILIO / DOMICILI:\nCALLE LOS PRADOS, 25.\n"
    found = kept(text, *spans_of(text, ("ERNESTINA", "NOMBRE_SUJETO_ASISTENCIA"), ("CALLE LOS PRADOS, 25", "CALLE")))
    assert found == ["ERNESTINA", "CALLE LOS PRADOS, 25"]


def test_gold_spans_of_the_styles_set_are_plausible() -> None:
    """The rules hold for notes of other styles too: almost every gold span of our styles set survives them whole."""
    documents = read_brat_dir(Path(__file__).parent.parent / "benchmarks" / "styles")
    total = sum(len(d.spans) for d in documents)
    changed = sum(
        len({(s.start, s.end) for s in d.spans} - {(s.start, s.end) for s in plausible(d.text, d.spans)})
        for d in documents
    )
    assert total > 1000
    assert changed / total < 0.01


def test_a_code_is_whole_and_a_phone_number_has_its_nine_digits() -> None:
    text = "CIP ARCALA780915013. CIPA: nhc-150679. NHC HUBU-0193847. Truqueu-la (636 554 218). Col. 07/04.561."
    found = plausible(
        text,
        [
            Span(*spans_of(text, ("780915013", "NUMERO_TELEFONO"))[0]),
            Span(*spans_of(text, ("150679", "ID_SUJETO_ASISTENCIA"))[0]),
            Span(*spans_of(text, ("0193847", "ID_SUJETO_ASISTENCIA"))[0]),
            Span(*spans_of(text, ("554 218", "NUMERO_TELEFONO"))[0]),
            Span(*spans_of(text, ("07/04", "ID_TITULACION_PERSONAL_SANITARIO"))[0]),
        ],
    )
    assert [(text[s.start : s.end], s.label) for s in found] == [
        ("ARCALA780915013", "ID_SUJETO_ASISTENCIA"),  # a phone number has no letters
        ("150679", "ID_SUJETO_ASISTENCIA"),  # the key glued to it is not part of it
        ("HUBU-0193847", "ID_SUJETO_ASISTENCIA"),
        ("636 554 218", "NUMERO_TELEFONO"),
        ("07/04.561", "ID_TITULACION_PERSONAL_SANITARIO"),  # a full stop between digits joins, the last one ends
    ]


def test_a_run_of_prose_is_no_place_even_when_a_known_town_closes_it() -> None:
    text = "pac. 34a.\nabstinencia hasta fin de tto.info sobre prep en el centro de its de valencia.\nvive en valencia."
    prose = spans_of(
        text, ("abstinencia hasta fin de tto.info sobre prep en el centro de its de valencia", "TERRITORIO")
    )
    town = spans_of(text, ("vive en valencia", "TERRITORIO"))[0]
    found = kept(text, *prose, (town[0] + 8, town[1], "TERRITORIO"))
    assert found == ["valencia"]
    text = "notificacion a salud publica.estudio de contactos"
    assert kept(text, (0, len(text), "TERRITORIO")) == []


def test_a_spaced_dash_ends_a_name_or_a_date_and_a_time_holds_no_age() -> None:
    text = "DRA. CLARA MIRALLES - NEUROPEDIATRIA\n14/01 - Tercer dia. FECHA: 16/08/2025 03:12 H. Nena de 3.240 g."
    found = kept(
        text,
        *spans_of(
            text,
            ("CLARA MIRALLES - NEUROPEDIATRIA", "NOMBRE_PERSONAL_SANITARIO"),
            ("14/01 - Tercer", "FECHAS"),
            ("12", "EDAD_SUJETO_ASISTENCIA"),
            ("3", "EDAD_SUJETO_ASISTENCIA"),
        ),
    )
    assert found == ["CLARA MIRALLES", "14/01"]
    street = "Ctra. Torrevieja - San Miguel de Salinas"
    assert kept(street, (0, len(street), "CALLE")) == [street]


def test_a_department_is_no_place() -> None:
    text = "Seguimiento en la Unidad de Melanoma. Vive en Olot."
    found = kept(text, *spans_of(text, ("Unidad de Melanoma", "TERRITORIO"), ("Olot", "TERRITORIO")))
    assert found == ["Olot"]


def test_a_name_takes_its_initials_and_known_surnames_and_a_date_its_weekday() -> None:
    text = "LECTOR 2: M. J. PRIEGO\nPACIENTE: BENITO CABEZA REY\nDr. Francisco Torres Gómez Plaza de España, 3\n"
    text += "Data: dijous 20/11/2025. Firmado: Dra. C. Ariño     Zaragoza"
    found = kept(
        text,
        *spans_of(
            text,
            ("PRIEGO", "NOMBRE_PERSONAL_SANITARIO"),
            ("BENITO CABEZA", "NOMBRE_SUJETO_ASISTENCIA"),
            ("Francisco Torres Gómez", "NOMBRE_PERSONAL_SANITARIO"),
            ("20/11/2025", "FECHAS"),
            ("Ariño", "NOMBRE_PERSONAL_SANITARIO"),
        ),
    )
    assert found == ["M. J. PRIEGO", "BENITO CABEZA REY", "Francisco Torres Gómez", "dijous 20/11/2025", "C. Ariño"]


def test_a_town_after_an_initial_is_a_signature_but_not_after_a_door_or_san() -> None:
    text = "Sin cambios.\n\nR. Morales\nC/ Fedra, 3, 3º A. Playamar. Vive en S. Sebastián."
    spans = spans_of(text, ("Morales", "TERRITORIO"), ("Playamar", "TERRITORIO"), ("Sebastián", "TERRITORIO"))
    found = plausible(text, [Span(a, b, label) for a, b, label in spans])
    assert [(text[s.start : s.end], s.label) for s in found] == [
        ("R. Morales", "NOMBRE_PERSONAL_SANITARIO"),
        ("Playamar", "TERRITORIO"),
        ("Sebastián", "TERRITORIO"),
    ]


def test_roles_articles_eponyms_and_lab_results_are_no_phi() -> None:
    text = (
        "Metgessa de família: Dra. Pons. La seva familia ho sap. La filla, la Núria. Escala de Braden 12. "
        "Àcid úric 9,4 mg/dL. Vive en Calle 25 no 1g-89. CP E-28015. Setmana Santa."
    )
    found = kept(
        text,
        *spans_of(
            text,
            ("família", "FAMILIARES_SUJETO_ASISTENCIA"),
            ("familia", "FAMILIARES_SUJETO_ASISTENCIA"),
            ("La", "TERRITORIO"),
            ("Escala de Braden", "TERRITORIO"),
            ("Àcid úric 9,4 mg/d", "CALLE"),
            ("Calle 25 no 1g-89", "CALLE"),
            ("E-28015", "TERRITORIO"),
            ("Santa", "TERRITORIO"),
        ),
    )
    assert found == ["familia", "Calle 25 no 1g-89", "E-28015", "Santa"]


def test_a_centre_ends_at_its_last_capitalised_word_and_a_description_is_short() -> None:
    text = (
        "a l'Hospital Vall d'Hebron per a empelts. Al Hospital Universitario 12 de octubre. "
        "La mare perquè s'ha caigut del patinet i s'ha donat un cop."
    )
    found = kept(
        text,
        *spans_of(
            text,
            ("Hospital Vall d'Hebron per a empelts", "HOSPITAL"),
            ("Hospital Universitario 12 de octubre", "HOSPITAL"),
            ("mare perquè s'ha caigut del patinet i s'ha donat", "OTROS_SUJETO_ASISTENCIA"),
        ),
    )
    assert found == ["Hospital Vall d'Hebron", "Hospital Universitario 12 de octubre"]


def test_telegraphic_notes_shorthand_hours_short_numbers_and_two_people() -> None:
    text = (
        "acude c/ madre x fiebre 39.4. control en el cs san blas en 48h. fecha:sabado 14 de junio 05:10h. "
        "si no mejora en 48-72h. dr.peña / mir s. ortega\n"
    )
    found = kept(
        text,
        *spans_of(
            text,
            ("c/ madre x fiebre 39", "CALLE"),
            ("cs san blas en 48h", "CENTRO_SALUD"),
            ("sabado 14 de junio 05", "FECHAS"),
            ("48-72h", "NUMERO_FAX"),
            ("peña / mir s. ortega", "NOMBRE_PERSONAL_SANITARIO"),
        ),
    )
    # The resident's role (mir) is no part of her name.
    assert found == ["cs san blas", "sabado 14 de junio", "peña", "s. ortega"]


def test_a_lower_case_centre_keeps_a_balearic_towns_article_and_drops_a_verb() -> None:
    text = "cs es castell - demanda espontània. el cs es pequeño\n"
    found = kept(
        text,
        *spans_of(text, ("cs es castell", "CENTRO_SALUD"), ("cs es pequeño", "CENTRO_SALUD")),
    )
    assert found == ["cs es castell", "cs"]


def test_a_signature_loses_its_role_and_keeps_its_initial() -> None:
    text = "passa a box 4.\ninf ped nerea b.\nmatrona encarni\ndra p. hidalgo\nDra. E. Bosch / R2 Gerard Pla\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("inf ped nerea b.", "NOMBRE_PERSONAL_SANITARIO"),
            ("matrona encarni", "NOMBRE_PERSONAL_SANITARIO"),
            ("hidalgo", "TERRITORIO"),  # a surname after an initial is a person, in lower case too
            ("R2 Gerard Pla", "NOMBRE_PERSONAL_SANITARIO"),
        ),
    )
    assert found == ["nerea b.", "encarni", "p. hidalgo", "Gerard Pla"]


def test_vital_signs_the_verb_dona_departments_and_eponyms() -> None:
    text = (
        "Exploració: T 37,8 ºC, FR 58. Es dona informació a la seva dona. Sala de Parts - planta de Maternitat. "
        "Quist de Baker. Viu al barri de Sant Roc.\n"
    )
    found = kept(
        text,
        *spans_of(
            text,
            ("T 37", "ID_CONTACTO_ASISTENCIAL"),
            ("FR 58", "ID_CONTACTO_ASISTENCIAL"),
            ("dona", "FAMILIARES_SUJETO_ASISTENCIA"),
            ("Maternitat", "TERRITORIO"),
            ("Quist de Baker", "TERRITORIO"),
            ("barri de Sant Roc", "TERRITORIO"),  # a neighbourhood with its word, as guideline P12.4's example
        ),
    )
    assert found == ["barri de Sant Roc"]
    wife = text.rindex("dona")
    assert kept(text, (wife, wife + 4, "FAMILIARES_SUJETO_ASISTENCIA")) == ["dona"]


def test_a_country_or_an_initialled_name_in_lower_case_is_no_prose() -> None:
    text = "el marit segueix a ucraïna.\ninf m. ventura - cap la garriga\n"
    found = kept(text, *spans_of(text, ("ucraïna", "PAIS"), ("m. ventura", "NOMBRE_PERSONAL_SANITARIO")))
    assert found == ["ucraïna", "m. ventura"]


def test_a_door_letter_is_no_unit_and_a_centre_in_full_keeps_its_words() -> None:
    text = "domicilio: av. brasil 34, 1g.\nasociación para evitar la ceguera en méxico c/ vicente garcía torres 3\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("av. brasil 34, 1g", "CALLE"),
            ("asociación para evitar la ceguera en méxico", "INSTITUCION"),
        ),
    )
    assert found == ["av. brasil 34, 1g", "asociación para evitar la ceguera en méxico"]


def test_a_relative_keeps_its_ex_and_a_hospital_its_glued_abbreviation() -> None:
    text = "problemas con su ex marido,tiene orden. trasllat a h.bellvitge.\n"
    found = kept(text, *spans_of(text, ("marido", "FAMILIARES_SUJETO_ASISTENCIA"), ("bellvitge", "HOSPITAL")))
    assert found == ["ex marido", "h.bellvitge"]


def test_an_occupation_ends_before_its_workplace() -> None:
    text = "varon 24a,estudiante de derecho en la uv. trabajador en canteras.\n"
    found = kept(
        text,
        *spans_of(text, ("estudiante de derecho en la uv", "PROFESION"), ("trabajador en canteras", "PROFESION")),
    )
    assert found == ["estudiante de derecho", "trabajador en canteras"]


def test_a_hospital_of_prose_is_none_but_one_named_without_its_head_word_stays() -> None:
    text = "Refereix menys dispnea. Es retira l'oxigen. Ingresa en el 12 de Octubre. Control en Hospital del Mar.\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("Refereix menys dispnea. Es retira l'oxigen", "HOSPITAL"),
            ("12 de Octubre", "HOSPITAL"),
            ("Hospital del Mar", "HOSPITAL"),
        ),
    )
    assert found == ["12 de Octubre", "Hospital del Mar"]


def test_a_centre_headed_by_dotted_initials_is_no_prose() -> None:
    text = "urgencias atención primaria c.s. molina jesús marín 07.04.25 16:25\n"
    found = kept(text, *spans_of(text, ("c.s. molina jesús marín", "CENTRO_SALUD")))
    assert found == ["c.s. molina jesús marín"]


def test_in_a_note_without_capitals_names_streets_and_articles_stay() -> None:
    text = "datos del paciente.\nnombre: abdul.\ndomicilio: teatinos 180.\nlocalidad: la coruña.\nmédico: nora olazabal eizaguirre.\ntto 3 dias. ta 148/86.\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("teatinos 180", "CALLE"),
            ("la coruña", "TERRITORIO"),
            ("nora olazabal eizaguirre", "NOMBRE_PERSONAL_SANITARIO"),
            ("tto 3 dias", "CALLE"),
            ("ta 148/86", "CALLE"),
        ),
    )
    assert found == ["teatinos 180", "la coruña", "nora olazabal eizaguirre"]


def test_a_dose_in_a_note_without_capitals_is_no_street() -> None:
    text = "tto:ceftriaxona 1g im + doxiciclina 100/12h 7d.\nrevisio nen sa 2a.ve amb el pare\n"
    found = kept(text, *spans_of(text, ("doxiciclina 100/12h 7d", "CALLE"), ("revisio nen sa 2a", "CALLE")))
    assert found == []


def labelled(text: str, *spans: tuple[int, int, str]) -> list[tuple[str, str]]:
    return [(text[s.start : s.end], s.label) for s in plausible(text, [Span(a, b, label) for a, b, label in spans])]


def test_a_date_or_a_postal_code_inside_a_code_is_the_whole_code() -> None:
    text = "Episodio: AP-2025-77810\nFecha: 03-ABR-2025\nNHC 55120984 · Episodi 2025/118440\nCP 08005-Barcelona\n"
    found = labelled(
        text,
        *spans_of(
            text,
            ("AP-2025", "FECHAS"),
            ("77810", "TERRITORIO"),
            ("03", "FECHAS"),
            ("ABR-2025", "FECHAS"),
            ("55120984 · Episodi", "ID_SUJETO_ASISTENCIA"),
            ("2025/118440", "FECHAS"),
            ("08005", "TERRITORIO"),
            ("Barcelona", "TERRITORIO"),
        ),
    )
    assert found == [
        ("AP-2025-77810", "ID_CONTACTO_ASISTENCIAL"),
        ("03-ABR-2025", "FECHAS"),
        ("55120984", "ID_SUJETO_ASISTENCIA"),
        ("2025/118440", "ID_CONTACTO_ASISTENCIAL"),
        ("08005", "TERRITORIO"),
        ("Barcelona", "TERRITORIO"),
    ]


def test_a_phone_keeps_its_extension_and_a_description_its_words() -> None:
    text = "Tel. 986413144 ext 1530. Es la menor de tres.\n"
    found = labelled(
        text, *spans_of(text, ("986413144 ext 1530", "NUMERO_TELEFONO"), ("la menor", "ID_SUJETO_ASISTENCIA"))
    )
    assert found == [("986413144 ext 1530", "NUMERO_TELEFONO"), ("la menor", "ID_SUJETO_ASISTENCIA")]


def test_a_time_span_is_no_age() -> None:
    text = "Próxima revisión en dos años. Diabetes desde hace 3 años. Lleva ocho años aquí. Paciente de 54 años.\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("dos años", "EDAD_SUJETO_ASISTENCIA"),
            ("3 años", "EDAD_SUJETO_ASISTENCIA"),
            ("ocho años", "EDAD_SUJETO_ASISTENCIA"),
            ("54 años", "EDAD_SUJETO_ASISTENCIA"),
        ),
    )
    assert found == ["54 años"]


def test_words_of_a_heading_in_a_note_with_capitalised_names_are_no_name() -> None:
    text = (
        "Hospital de la Santa Creu i Sant Pau\nDIAGNÒSTIC PER LA IMATGE\nMÉDICO SOLICITANTE\n"
        "Pacient: Joan Puig Soler. Remès per la Dra. Vidal.\nSAN LUCAS, COYOACAN, CDMX.\n"
    )
    found = kept(
        text,
        *spans_of(
            text,
            ("IMATGE", "NOMBRE_SUJETO_ASISTENCIA"),
            ("SOLICITANTE", "NOMBRE_PERSONAL_SANITARIO"),
            ("Joan Puig Soler", "NOMBRE_SUJETO_ASISTENCIA"),
            ("CDMX", "TERRITORIO"),
        ),
    )
    assert found == ["Joan Puig Soler", "CDMX"]


def test_languages_generic_centres_and_catalan_clean_are_no_phi() -> None:
    text = (
        "Full informatiu en català i en castellà. L'acompanya el net, en Marc. Ferida neta, sense exsudat.\n"
        "Seguirá controles en su Centro de Salud Mental. Vive en valencia.\n"
    )
    found = kept(
        text,
        *spans_of(
            text,
            ("català", "TERRITORIO"),
            ("net", "FAMILIARES_SUJETO_ASISTENCIA"),
            ("neta", "FAMILIARES_SUJETO_ASISTENCIA"),
            ("Centro de Salud Mental", "CENTRO_SALUD"),
            ("valencia", "TERRITORIO"),
        ),
    )
    assert found == ["net", "valencia"]


def test_a_relative_ends_after_its_kinship_word_and_a_name_after_a_sentence_opener() -> None:
    text = "Se explica al fill pauta de laxant. El hijo mayor vino.\n\nVuelve Xosé Manuel a consulta. Dr. Orlando Rodríguez Faba.\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("fill pauta", "FAMILIARES_SUJETO_ASISTENCIA"),
            ("hijo mayor", "FAMILIARES_SUJETO_ASISTENCIA"),
            ("Vuelve Xosé Manuel", "NOMBRE_SUJETO_ASISTENCIA"),
            ("Orlando Rodríguez Faba", "NOMBRE_PERSONAL_SANITARIO"),
        ),
    )
    assert found == ["fill", "hijo mayor", "Xosé Manuel", "Orlando Rodríguez Faba"]


def test_an_occupation_takes_what_it_is_of() -> None:
    text = "Maestra de educación infantil en un colegio. Cuiner d'un restaurant. Fuster de professió. Mestra d'escola bressol.\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("Maestra", "PROFESION"),
            ("Cuiner", "PROFESION"),
            ("Fuster", "PROFESION"),
            ("Mestra", "PROFESION"),
        ),
    )
    assert found == ["Maestra de educación infantil", "Cuiner", "Fuster", "Mestra d'escola bressol"]
    # Not the employer, a company with its legal form; but a field of study, capitalised or not.
    text = "38a, comercial de Distribuciones Ferrer SL, viaja. Es estudiante de Veterinaria.\n"
    found = kept(text, *spans_of(text, ("comercial", "PROFESION"), ("estudiante", "PROFESION")))
    assert found == ["comercial", "estudiante de Veterinaria"]


def test_a_lab_result_a_walk_and_an_extension_are_no_address() -> None:
    text = "Creatinina 1,9. Se pacta paseo 30 min/d. Trucar al 93 274 60 00 (ext. 4412). Calle Correo 29, 5,1\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("Creatinina 1,9", "CALLE"),
            ("paseo 30 min/d", "CALLE"),
            ("4412", "TERRITORIO"),
            ("Calle Correo 29, 5,1", "CALLE"),
        ),
    )
    assert found == ["Calle Correo 29, 5,1"]


def test_codes_with_letters_hospitals_after_hosp_hyphenated_names_and_hours() -> None:
    text = (
        "Nº de estudio: AR-2025-1143\nNº EPISODIO\nEP-2025-RH-7701\ncontrol hosp. sant joan de reus dimarts.\n"
        "La pacient Nuria Vall-llosera Soler, de 77 anys. Prox sesion viernes 10h.\n"
    )
    found = labelled(
        text,
        *spans_of(
            text,
            ("2025-1143", "FECHAS"),
            ("EP-2025", "FECHAS"),
            ("sant joan de reus", "HOSPITAL"),
            ("Nuria Vall-llosera Soler", "NOMBRE_SUJETO_ASISTENCIA"),
            ("viernes 10", "FECHAS"),
        ),
    )
    assert found == [
        ("AR-2025-1143", "ID_CONTACTO_ASISTENCIAL"),
        ("EP-2025-RH-7701", "ID_CONTACTO_ASISTENCIAL"),
        ("hosp. sant joan de reus", "HOSPITAL"),
        ("Nuria Vall-llosera Soler", "NOMBRE_SUJETO_ASISTENCIA"),
        ("viernes", "FECHAS"),
    ]


def test_a_place_ends_before_a_weekday_and_a_town_takes_its_hosp() -> None:
    text = "control oftalmologia hosp. sant joan de reus dimarts.\nsálamo domingo.\n"
    found = labelled(
        text,
        *spans_of(text, ("sant joan de reus dimarts", "TERRITORIO"), ("sálamo domingo", "NOMBRE_SUJETO_ASISTENCIA")),
    )
    assert found == [("hosp. sant joan de reus", "HOSPITAL"), ("sálamo domingo", "NOMBRE_SUJETO_ASISTENCIA")]


def test_a_relative_is_no_place_and_a_name_ends_before_a_separator() -> None:
    text = "la nuera se encarga de las citas.\nMetgessa: Dra. Núria Campos · Núm. col. 08-44712\nTriaje de Urgencias, 03:40 h.\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("la nuera", "TERRITORIO"),
            ("Núria Campos ·", "NOMBRE_PERSONAL_SANITARIO"),
            ("Triaje de Urgencias", "NOMBRE_SUJETO_ASISTENCIA"),
        ),
    )
    assert found == ["Núria Campos"]


def test_a_name_ends_before_a_comma_glued_to_the_next_word() -> None:
    text = "nihss 2 al alta.\ncamina sola,disartria leve.\nApellidos, nombre: Vázquez Iglesias, Maruxa\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("camina sola,disartria leve", "NOMBRE_SUJETO_ASISTENCIA"),
            ("Vázquez Iglesias, Maruxa", "NOMBRE_SUJETO_ASISTENCIA"),
        ),
    )
    assert found == ["Vázquez Iglesias, Maruxa"]  # camina sola, cut at the comma, is prose


def test_an_occupation_cut_short_goes_on_to_its_end() -> None:
    text = "Paciente de 41 años, maestra de educación infantil. Camarero de hotel en Lloret.\n"
    found = kept(text, *spans_of(text, ("maestra de educación", "PROFESION"), ("Camarero de hotel", "PROFESION")))
    assert found == ["maestra de educación infantil", "Camarero de hotel"]


def test_a_kind_of_hospital_takes_the_name_after_it() -> None:
    text = "Centre realitzador: Hospital Comarcal de l'Alt Penedès\n\nInformació clínica\n"
    assert kept(text, *spans_of(text, ("Hospital Comarcal", "HOSPITAL"))) == ["Hospital Comarcal de l'Alt Penedès"]


def test_a_centre_longer_than_any_annotated_is_prose() -> None:
    text = "de vacances a Cadaqués amb la seva parella, acudeix al consultori per picada de medusa al turmell.\n"
    assert kept(text, (0, len(text) - 2, "HOSPITAL")) == []


def test_a_centre_with_no_head_word_and_no_name_is_a_heading() -> None:
    text = "RESSONÀNCIA MAGNÈTICA CRANIAL AMB I SENSE CONTRAST\nHospital de Gregorio Marañón\nVall d'Hebron\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("RESSONÀNCIA MAGNÈTICA CRANIAL AMB I SENSE CONTRAST", "HOSPITAL"),
            ("Gregorio Marañón", "HOSPITAL"),
            ("Vall d'Hebron", "HOSPITAL"),
        ),
    )
    assert found == ["Gregorio Marañón", "Vall d'Hebron"]


def test_a_line_in_capitals_of_words_no_list_knows_is_a_name_not_a_heading() -> None:
    text = (
        "SOLICITUD DE INTERCONSULTA\nPACIENTE\nBABAJIDE OLUWASEUN ADEYEMI\nNUHSA\nAN0318822790\nExploració: ECOG 1.\n"
    )
    found = kept(
        text,
        *spans_of(
            text,
            ("SOLICITUD DE INTERCONSULTA", "NOMBRE_SUJETO_ASISTENCIA"),
            ("BABAJIDE OLUWASEUN ADEYEMI", "NOMBRE_SUJETO_ASISTENCIA"),
            ("ECOG 1", "ID_CONTACTO_ASISTENCIAL"),
        ),
    )
    assert found == ["BABAJIDE OLUWASEUN ADEYEMI"]


def test_an_eponym_after_its_head_is_no_place_or_person() -> None:
    text = "Rx canell: fractura de Colles. Cumple criterios de Seattle. Vive en Colles de Arriba."
    assert kept(text, *spans_of(text, ("Colles", "TERRITORIO"), ("Seattle", "TERRITORIO"))) == []
    rules = "reglas de ottawa negativas. Dissecció del triangle de Calot."
    assert kept(rules, *spans_of(rules, ("ottawa", "TERRITORIO"), ("Calot", "TERRITORIO"))) == []
    assert kept(text, *spans_of(text, ("Colles de Arriba", "TERRITORIO"))) == ["Colles de Arriba"]


def test_a_surname_that_heads_an_eponym_is_a_name_after_a_person_key() -> None:
    text = "Pacient: GRAU SOLSONA, MERITXELL\nCIP: GRSO1720415003\nLesió de Grau Solsona."
    assert kept(text, *spans_of(text, ("GRAU SOLSONA, MERITXELL", "NOMBRE_SUJETO_ASISTENCIA"))) == [
        "GRAU SOLSONA, MERITXELL"
    ]
    assert kept(text, *spans_of(text, ("Grau Solsona", "TERRITORIO"))) == []


def test_a_lower_case_name_after_the_word_for_the_patient_is_kept_in_a_note_that_capitalises() -> None:
    text = "Visto por Dr. Rey y Dra. Soler.\npac mamadou diallo sow.habla wolof\ncon dolor toracico"
    assert kept(text, *spans_of(text, ("mamadou diallo sow", "NOMBRE_SUJETO_ASISTENCIA"))) == ["mamadou diallo sow"]
    assert kept(text, *spans_of(text, ("dolor toracico", "NOMBRE_SUJETO_ASISTENCIA"))) == []


def test_a_role_before_a_clinician_is_cut_and_a_name_before_sex_and_age_in_brackets_is_kept() -> None:
    text = "Visto por Dr. Rey y Dra. Soler.\nhigienista Bàrbara Oliver / odontóloga\nwang lihua (dona, 63a), china."
    assert kept(text, *spans_of(text, ("higienista Bàrbara Oliver", "NOMBRE_PERSONAL_SANITARIO"))) == ["Bàrbara Oliver"]
    assert kept(text, *spans_of(text, ("wang lihua", "NOMBRE_SUJETO_ASISTENCIA"))) == ["wang lihua"]


def test_a_name_sheds_the_sex_or_title_word_a_member_took_in_but_a_relative_keeps_its_kinship_word() -> None:
    text = "Visto por Dr. Rey y Dra. Soler.\nQue la nena Aina Ferrà Vidal, amb targeta. Ve amb la filla Núria Puig."
    assert kept(text, *spans_of(text, ("nena Aina Ferrà Vidal", "NOMBRE_SUJETO_ASISTENCIA"))) == ["Aina Ferrà Vidal"]
    assert kept(text, *spans_of(text, ("filla Núria Puig", "FAMILIARES_SUJETO_ASISTENCIA"))) == ["filla Núria Puig"]


def test_the_value_of_an_address_key_is_a_street_whatever_its_type() -> None:
    text = "adreça: pujada del Rei Martí, 8, 2n\nTolera pujada de dosi 8"
    assert kept(text, *spans_of(text, ("pujada del Rei Martí, 8, 2n", "CALLE"), ("pujada de dosi 8", "CALLE"))) == [
        "pujada del Rei Martí, 8, 2n"
    ]


def test_a_brand_alone_in_brackets_is_no_place_but_a_known_town_is() -> None:
    text = "Edoxabán (Lixiana) 60 mg. Hospital Virgen del Castañar (Béjar). Població: Vic (Osona). Su hija (Carme)."
    assert kept(text, *spans_of(text, ("Lixiana", "TERRITORIO"))) == []
    assert kept(text, *spans_of(text, ("Béjar", "TERRITORIO"), ("Osona", "TERRITORIO"))) == ["Béjar", "Osona"]
    assert kept(text, *spans_of(text, ("Carme", "FAMILIARES_SUJETO_ASISTENCIA"))) == ["Carme"]


def test_vital_signs_are_no_street() -> None:
    text = "Constants: TA 124/70, FC 82, Tª 36,9. Vive en C/ Mayor 3."
    assert kept(text, *spans_of(text, ("TA 124/70, FC 82", "CALLE"))) == []
    assert kept(text, *spans_of(text, ("C/ Mayor 3", "CALLE"))) == ["C/ Mayor 3"]


def test_a_day_hospital_named_by_what_it_treats_is_a_unit() -> None:
    text = "Alta del Hospital de Día Geriátrico. Control en el Hospital de Día de Getafe."
    assert kept(text, *spans_of(text, ("Hospital de Día Geriátrico", "HOSPITAL"))) == []
    assert kept(text, *spans_of(text, ("Hospital de Día de Getafe", "HOSPITAL"))) == ["Hospital de Día de Getafe"]


def test_a_department_with_its_unit_acronym_and_an_eponym_of_lines_are_no_places() -> None:
    text = (
        "Solicita: Dr. Aitor Zubizarreta (Cirugía HBP). Dra. Uxía Blanco (Dixestivo). Línies B de Kerley. (Cirugía Ana)"
    )
    found = kept(
        text,
        *spans_of(
            text,
            ("Cirugía HBP", "TERRITORIO"),
            ("Dixestivo", "TERRITORIO"),
            ("Línies B de Kerley", "TERRITORIO"),
            ("Cirugía Ana", "NOMBRE_PERSONAL_SANITARIO"),
        ),
    )
    # An acronym only completes a department: a name after one is no acronym.
    assert found == ["Cirugía Ana"]


def test_c_slash_makes_a_street_only_where_it_opens_one() -> None:
    text = "ap:epoc gold 3,icc,acxfa anticoag c/ sintrom.\nvive en c/ mayor 3 2ºb,burjassot."
    found = kept(
        text,
        *spans_of(text, ("epoc gold 3,icc,acxfa anticoag c/ sintrom", "CALLE"), ("c/ mayor 3 2ºb", "CALLE")),
    )
    assert found == ["c/ mayor 3 2ºb"]


def test_a_lower_case_span_with_a_word_of_the_care_logged_is_no_name_place_or_age() -> None:
    text = "prox cura jueves.\n1a visita (derivada)\nvive con su hija rosa.\nprox cita matrona sg 32.\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("prox cura jueves", "NOMBRE_PERSONAL_SANITARIO"),
            ("1a visita", "EDAD_SUJETO_ASISTENCIA"),
            ("rosa", "FAMILIARES_SUJETO_ASISTENCIA"),
            ("prox cita matrona sg 32", "CALLE"),
        ),
    )
    assert found == ["rosa"]


def test_a_number_glued_to_a_phone_key_is_the_phone_and_a_dose_is_no_street() -> None:
    text = "avisar a su hijo tlf928705513 para.\ncura c/ mepilex cada 72h\nhba1c.inicio metformina 425\nc/ mayor 3"
    found = kept(
        text,
        *spans_of(
            text,
            ("tlf928705513", "ID_SUJETO_ASISTENCIA"),
            ("c/ mepilex cada 72", "CALLE"),
            ("c.inicio metformina 425", "CALLE"),
            ("c/ mayor 3", "CALLE"),
        ),
    )
    assert found == ["928705513", "c/ mayor 3"]


def test_a_lone_lower_case_word_is_no_person_in_a_note_that_capitalises_names() -> None:
    text = (
        "Pacient: Jordi Font Serra. La font de la febre és urinària. Abdomen moll i depressible. Viu a valencia.\n"
        "Avisat el dr. cabrera.\naurelio (mf)\n"
    )
    found = labelled(
        text,
        *spans_of(
            text,
            ("Jordi Font Serra", "NOMBRE_SUJETO_ASISTENCIA"),
            ("font", "NOMBRE_PERSONAL_SANITARIO"),
            ("moll", "NOMBRE_PERSONAL_SANITARIO"),
            ("valencia", "TERRITORIO"),
            ("cabrera", "NOMBRE_PERSONAL_SANITARIO"),
            ("aurelio", "NOMBRE_PERSONAL_SANITARIO"),
        ),
    )
    # A name signing before its role in brackets is one, common word or not.
    assert found == [
        ("Jordi Font Serra", "NOMBRE_SUJETO_ASISTENCIA"),
        ("valencia", "TERRITORIO"),
        ("cabrera", "NOMBRE_PERSONAL_SANITARIO"),
        ("aurelio", "NOMBRE_PERSONAL_SANITARIO"),
    ]


def test_a_name_does_not_grow_into_another_span() -> None:
    """A name takes the known surnames after it, but not those that another span already holds."""
    text = "Dra. Pilar Ferrer Puig\n"
    alone = labelled(text, *spans_of(text, ("Pilar", "NOMBRE_PERSONAL_SANITARIO")))
    assert alone == [("Pilar Ferrer Puig", "NOMBRE_PERSONAL_SANITARIO")]
    found = labelled(
        text, *spans_of(text, ("Pilar", "NOMBRE_PERSONAL_SANITARIO"), ("Ferrer Puig", "NOMBRE_SUJETO_ASISTENCIA"))
    )
    assert found == [("Pilar", "NOMBRE_PERSONAL_SANITARIO"), ("Ferrer Puig", "NOMBRE_SUJETO_ASISTENCIA")]


def test_a_date_takes_an_abbreviated_weekday() -> None:
    text = "visita domiciliària dt 14/5\ncontrol mie. 12/03 i dc 5 de març; dosi 2/3\n"
    found = kept(text, *spans_of(text, ("14/5", "FECHAS"), ("12/03", "FECHAS"), ("5 de març", "FECHAS")))
    assert found == ["dt 14/5", "mie. 12/03", "dc 5 de març"]


def test_a_doctors_surname_that_is_a_department_word_is_kept_after_the_title() -> None:
    text = "coordinat amb dra. Guàrdia (metgessa de família). Avisado el médico de Guardia."
    guardia = text.rindex("Guardia")
    found = kept(
        text,
        *spans_of(text, ("Guàrdia", "NOMBRE_PERSONAL_SANITARIO")),
        (guardia, guardia + len("Guardia"), "NOMBRE_PERSONAL_SANITARIO"),
    )
    assert found == ["Guàrdia"]


def test_the_first_word_of_a_key_in_a_column_is_no_place() -> None:
    text = "Nº col.: 32/07411     Código de empleado: 044821\nNº colegiado: 24/09871     Nº empleado: E-205118\n"
    second = text.rindex("Nº")
    found = kept(
        text,
        *spans_of(text, ("Código", "TERRITORIO")),
        (second, second + 2, "TERRITORIO"),
    )
    assert found == []
    said = "Pere diu: que no vol anar-hi\n"
    assert kept(said, (0, 4, "NOMBRE_SUJETO_ASISTENCIA")) == ["Pere"]


def test_a_capitalising_notes_lower_case_street_with_its_type_and_a_signature_after_a_roles_second_word() -> None:
    text = (
        "Pac: Quimet Sala, rda. rafael casanova 33 bjo, Torelló. Domicilio: nagusia kalea 21 3º izda, Hondarribia.\n"
        "Valorado por la Dra. Olga Ballarín en Pediatría.\nmed. guardia j.m. lasierra\ntlf 624 093 118 (madre)\n"
        "ped. ramos / enf. Inés Cordero\n"
    )
    found = kept(
        text,
        *spans_of(
            text,
            ("rda. rafael casanova 33 bjo", "CALLE"),
            ("nagusia kalea 21 3º izda", "CALLE"),
            ("j.m. lasierra", "NOMBRE_PERSONAL_SANITARIO"),
            ("ramos", "NOMBRE_PERSONAL_SANITARIO"),
        ),
    )
    assert found == ["rda. rafael casanova 33 bjo", "nagusia kalea 21 3º izda", "j.m. lasierra", "ramos"]


def test_an_email_address_has_its_at_sign() -> None:
    text = "med. guardia j.m. lasierra. correo: pau.vidal@gmail.com, o pau.vidal arroba gmail.com\n"
    found = kept(
        text,
        *spans_of(
            text,
            ("guardia", "CORREO_ELECTRONICO"),
            ("pau.vidal@gmail.com", "CORREO_ELECTRONICO"),
            ("pau.vidal arroba gmail.com", "CORREO_ELECTRONICO"),
        ),
    )
    assert found == ["pau.vidal@gmail.com", "pau.vidal arroba gmail.com"]


@pytest.mark.parametrize(
    ("text", "covered", "label"),
    [
        ("Tractament: Janumet 50/1000 1-0-1.", "Janumet 50/1000", "FECHAS"),  # no day 50, no month 50
        ("Llei 39/2006 de dependència", "39/2006", "FECHAS"),
        ("MEC de Lobo .............. 21/35\n", "21/35", "FECHAS"),
        ("Lawton ................... 2/8\n", "2/8", "FECHAS"),  # a date's shape, a scale's score
        ("Barthel previ ............ 70\n", "70", "EDAD_SUJETO_ASISTENCIA"),
        ("Yesavage ................. 6/15\n", "Yesavage", "TERRITORIO"),
    ],
)
def test_a_score_or_a_dose_is_no_date_nor_age(text: str, covered: str, label: str) -> None:
    assert _one(text, covered, label) == []


@pytest.mark.parametrize(
    ("text", "covered"),
    [("Pfeiffer el 12/03/2024 normal.", "12/03/2024"), ("control en 6/15 y", "6/15"), ("visto 2019/05.", "2019/05")],
)
def test_a_date_after_a_scale_or_in_any_order_of_its_parts_stays(text: str, covered: str) -> None:
    assert _one(text, covered, "FECHAS") == [covered]


def test_a_user_is_a_role_before_the_name() -> None:
    text = "usuaria Pilar Gimeno Lasheras, 79 años"
    assert _one(text, "usuaria Pilar Gimeno Lasheras", "NOMBRE_SUJETO_ASISTENCIA") == ["Pilar Gimeno Lasheras"]


def of(text: str, needle: str, label: str) -> tuple[int, int, str]:
    start = text.index(needle)
    return start, start + len(needle), label


@pytest.mark.parametrize(
    ("text", "needle", "label", "expected"),
    [
        # A common word in lower case that names no date is prose; a month, a season or a feast stays a date.
        ("depenen dels diners que ell envia", "diners", "FECHAS", []),
        ("el timbre no va", "timbre", "FECHAS", []),
        ("es va trencar el canell a l'estiu", "estiu", "FECHAS", ["estiu"]),
        ("vuelve por navidad", "navidad", "FECHAS", ["navidad"]),
        ("cita dc i dj", "dc", "FECHAS", ["dc"]),
        # Being retired is no occupation; the job is.
        ("home de 86 anys, jubilat, havia estat pagès", "jubilat", "PROFESION", []),
        ("home de 86 anys, jubilat, havia estat pagès", "pagès", "PROFESION", ["pagès"]),
        # Five digits opening with 00 in brackets are a nursing diagnosis' code, not a postal code (a foreign one stays).
        ("- Risc de caigudes (00155)", "00155", "TERRITORIO", []),
        ("08015 Barcelona", "08015", "TERRITORIO", ["08015"]),
        ("66260 Saint-Laurent-de-Cerdans", "66260", "TERRITORIO", ["66260"]),
        # In a note that capitalises names, a lower-case town after a street and its number is still the town.
        (
            "Aquilino Suárez Llaneza\nvive en c/ la vega 14 bajo, santullano. viene con Covadonga",
            "santullano",
            "TERRITORIO",
            ["santullano"],
        ),
        ("Aquilino Suárez Llaneza\nrefiere dolor, santullano. viene con Covadonga", "santullano", "TERRITORIO", []),
        # A known given name opening its line before the age is the patient's, in a note that capitalises others.
        (
            "PEDIATRIA - CS El Porvenir (Sevilla)\nlucía 5a 3m nuhsa AN0482251937",
            "lucía",
            "NOMBRE_SUJETO_ASISTENCIA",
            ["lucía"],
        ),
        ("placas rosadas en arbol de navidad. pitiriasis", "navidad", "FECHAS", []),
        ("empeora después de navidad. pitiriasis", "navidad", "FECHAS", ["navidad"]),
        ("toma por su cuenta hierba de San Juan para los nervios", "San Juan", "FECHAS", []),
        ("tose desde San Juan. Sin fiebre", "San Juan", "FECHAS", ["San Juan"]),
        # A form's capitalised word is no date; a feast's is.
        ("FULL D'INTERCONSULTA\nServei sol·licitant: Medicina Interna", "Servei", "FECHAS", []),
        ("ingressa per Corpus amb febre", "Corpus", "FECHAS", ["Corpus"]),
        # A clinician's grade, an island, a product in camel case: no one and nowhere.
        ("Dra. Rosa Ferris\nFacultatiu Especialista Adjunt · Col. 46/09871", "Adjunt", "NOMBRE_PERSONAL_SANITARIO", []),
        ("viu a Hamburg i s'ha desplaçat a l'illa; prefereix", "illa", "TERRITORIO", []),
        ("Generador Medtronic Azure XT DR MRI SureScan, model W1DR01", "MRI SureScan", "NOMBRE_PERSONAL_SANITARIO", []),
        ("Electrode auricular: CapSureFix Novus 5076 (52 cm)", "CapSureFix Novus 5076", "CENTRO_SALUD", []),
        ("explorado por el Dr. McKenzie en consulta", "McKenzie", "NOMBRE_PERSONAL_SANITARIO", ["McKenzie"]),
        # A language spoken is no origin; the patient's nationality is.
        ("Informació donada en francès amb l'ajuda", "francès", "ID_SUJETO_ASISTENCIA", []),
        ("Nen francès de 9 anys, de vacances", "francès", "ID_SUJETO_ASISTENCIA", ["francès"]),
        # Social services named by their generic words are no one body; a district's are.
        ("es recomana sol·licitar-la a Serveis Socials.", "Serveis Socials", "INSTITUCION", []),
        (
            "derivada a Serveis Socials de Nou Barris.",
            "Serveis Socials de Nou Barris",
            "INSTITUCION",
            ["Serveis Socials de Nou Barris"],
        ),
        # A Balearic article before net/neta makes it a grandchild; the years of a working life are no age.
        ("demà matí vindrà sa neta.", "neta", "FAMILIARES_SUJETO_ASISTENCIA", ["neta"]),
        ("Jubilat; va treballar 32 anys de conductor", "32 anys", "EDAD_SUJETO_ASISTENCIA", []),
        # A lower-case name in a note that capitalises others: a patient's after a bed or a naming verb.
        (
            "pase residencia os bidueiros (Vilalba)\nhab 104 dolores 89a.barthel 15, Norton 9",
            "dolores",
            "NOMBRE_SUJETO_ASISTENCIA",
            ["dolores"],
        ),
        (
            "relevo Urgencias Mérida\nbox5 varón,dice llamarse luis,portugués. Comentado con Unidad de Ictus",
            "luis",
            "NOMBRE_SUJETO_ASISTENCIA",
            ["luis"],
        ),
        ("Sintrom suspès; rep heparina de baix pes molecular", "baix", "TERRITORIO", []),
        ("propera dosi al seu CSMA de referència.", "CSMA de referència", "CENTRO_SALUD", []),
        ("ofrece respiro en residencia DomusVi Lugo.", "DomusVi Lugo", "INSTITUCION", ["DomusVi Lugo"]),
        # A fraction of a tablet is a dose, not a day and month.
        ("nova pauta: 3/4 comp dilluns", "3/4", "FECHAS", []),
        ("control el 3/4 amb analítica", "3/4", "FECHAS", ["3/4"]),
        # A scale's value after de, and c/ meaning con before a gerund, are no streets.
        ("Hamilton de 24 y Beck de 31. Sin", "Hamilton de 24 y Beck de 31", "CALLE", []),
        (
            "se inmoviliza c/ ferula antebraquial incluyendo 1er dedo",
            "c/ ferula antebraquial incluyendo 1",
            "CALLE",
            [],
        ),
        (
            "vive en c/ fernando el catolico 12, 2º",
            "c/ fernando el catolico 12, 2º",
            "CALLE",
            ["c/ fernando el catolico 12, 2º"],
        ),
    ],
)
def test_words_and_numbers_that_only_look_like_phi(text: str, needle: str, label: str, expected: list[str]) -> None:
    assert kept(text, of(text, needle, label)) == expected
