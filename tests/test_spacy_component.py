"""The ``anonimed`` spaCy component: registered by name (decorator and entry point), every PHI span on
``doc.spans``, exact offsets kept, non-overlapping ``doc.ents``, ``nlp.pipe``, config options, save and reload."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

spacy = pytest.importorskip("spacy", reason="spaCy is not installed (pip install .[spacy])")

from spacy.tokens import Span as SpacySpan

from anonimed.document import Document, Span
from anonimed.integrations.spacy import AnonimedComponent
from anonimed.models import load_detector

NOTE = "Paciente: Ernesto Rivera Bueno, ingresa el 03/03/2019 en el Hospital La Paz. Tel: 912345678."


class FixedDetector:
    """Gives the spans it was made with, whatever the note: offsets that split tokens, cover white space only, or
    overlap each other."""

    name = "fixed"

    def __init__(self, spans: list[Span]) -> None:
        self.spans = spans
        self.calls = 0

    def detect(self, document: Document) -> list[Span]:
        self.calls += 1
        return [span for span in self.spans if span.end <= len(document.text)]


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("es")
    nlp.add_pipe("anonimed", config={"model": "default", "vote": None, "label_key": "phi"})
    return nlp


def test_spans_are_the_detectors(nlp) -> None:
    doc = nlp(NOTE)
    expected = sorted(load_detector("default").detect(Document("spacy", NOTE)))
    assert expected, "the default model finds PHI in this note"
    group = doc.spans["phi"]
    assert [(s.start, s.end, s.label, s.score) for s in expected] == group.attrs["offsets"]
    assert [s.label_ for s in group] == [s.label for s in expected]
    for span, found in zip(group, expected):
        assert span.start_char <= found.start and found.end <= span.end_char  # expanded, never cut
    assert "Ernesto Rivera Bueno" in [s.text for s in group]
    assert {"FECHAS", "NUMERO_TELEFONO"} <= {s.label_ for s in doc.ents}


def test_pipe_gives_what_call_gives(nlp) -> None:
    texts = [NOTE, "Sin datos.", "", "Remitido por la Dra. Marta Soler desde Girona el 2 de mayo de 2020."]
    one_by_one = [_spans(nlp(text)) for text in texts]
    batched = [_spans(doc) for doc in nlp.pipe(texts, batch_size=2)]
    assert batched == one_by_one
    assert one_by_one[1] == [] and one_by_one[2] == []


def _spans(doc) -> list[tuple[int, int, str]]:
    return [(s.start_char, s.end_char, s.label_) for s in doc.spans["phi"]]


def test_no_span_is_lost_and_ents_do_not_overlap() -> None:
    text = "Dr.  Ernesto RiveraBueno, 03/03/2019 x"
    spans = [
        Span(4, 5, "NOMBRE_PERSONAL_SANITARIO"),  # only the second of two spaces (its own token in spaCy)
        Span(3, 4, "NOMBRE_PERSONAL_SANITARIO"),  # only the trailing white space of "Dr."
        Span(6, 19, "NOMBRE_PERSONAL_SANITARIO"),  # starts and ends inside tokens
        Span(19, 24, "NOMBRE_PERSONAL_SANITARIO"),  # the rest of the same token: overlaps the span before
        Span(26, 36, "FECHAS"),
    ]
    nlp = spacy.blank("es")
    component = AnonimedComponent(nlp, detector=FixedDetector(spans))
    doc = component(nlp.make_doc(text))
    group = doc.spans["phi"]
    assert len(group) == len(spans)
    assert all(len(span) > 0 for span in group)
    for span, original in zip(group, sorted(spans)):
        assert span.start_char <= original.start or text[original.start : span.start_char].isspace()
        assert span.end_char >= original.end or text[span.end_char : original.end].isspace()
    assert [(s[0], s[1]) for s in group.attrs["offsets"]] == [(s.start, s.end) for s in sorted(spans)]
    tokens = [token for ent in doc.ents for token in range(ent.start, ent.end)]
    assert len(tokens) == len(set(tokens))
    assert "03/03/2019" in [ent.text for ent in doc.ents]


def test_existing_entities_kept_unless_they_clash() -> None:
    text = "Ernesto vive en Madrid con diabetes."
    nlp = spacy.blank("es")
    component = AnonimedComponent(nlp, detector=FixedDetector([Span(16, 22, "TERRITORIO")]))
    doc = nlp.make_doc(text)
    doc.ents = [SpacySpan(doc, 0, 1, label="PER"), SpacySpan(doc, 3, 4, label="LOC"), SpacySpan(doc, 5, 6, label="DIS")]
    doc = component(doc)
    assert [(e.text, e.label_) for e in doc.ents] == [("Ernesto", "PER"), ("Madrid", "TERRITORIO"), ("diabetes", "DIS")]
    assert [(s.text, s.label_) for s in doc.spans["phi"]] == [("Madrid", "TERRITORIO")]


def test_options_label_key_and_no_ents() -> None:
    nlp = spacy.blank("es")
    nlp.add_pipe("anonimed", config={"label_key": "sensible", "set_ents": False, "vote": "recall"})
    doc = nlp(NOTE)
    assert "phi" not in doc.spans and len(doc.spans["sensible"]) > 0
    assert doc.ents == ()


def test_unknown_model_is_a_clear_error() -> None:
    nlp = spacy.blank("es")
    with pytest.raises(ValueError, match="not a model"):
        nlp.add_pipe("anonimed", config={"model": "no-such-model"})


def test_detector_loaded_once_per_component() -> None:
    nlp = spacy.blank("es")
    detector = FixedDetector([Span(0, 3, "FECHAS")])
    nlp.add_pipe("anonimed")
    nlp.get_pipe("anonimed").detector = detector
    list(nlp.pipe(["uno", "dos", "tres"]))
    assert detector.calls == 3


def test_registered_in_a_fresh_process_and_reloads_from_disk(tmp_path: Path) -> None:
    """Without importing anonimed first: spaCy finds the factory through the installed package's entry point, and a
    saved pipeline builds its component again."""
    script = (
        "import json, sys, spacy\n"
        "nlp = spacy.blank('es')\n"
        "nlp.add_pipe('anonimed', config={'model': 'default', 'vote': None, 'label_key': 'phi'})\n"
        "nlp.to_disk(sys.argv[1])\n"
        "again = spacy.load(sys.argv[1])\n"
        "doc = again(sys.argv[2])\n"
        "print(json.dumps([[s.start_char, s.end_char, s.label_] for s in doc.spans['phi']]))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "pipeline"), NOTE], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr[-2000:]
    spans = json.loads(run.stdout)
    assert [43, 53, "FECHAS"] in spans and NOTE[43:53] == "03/03/2019"
    assert 'factory = "anonimed"' in (tmp_path / "pipeline" / "config.cfg").read_text()
