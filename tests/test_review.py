"""The review queue (order, notes, saving, export for ``anonimed train``) and its HTTP API."""

from __future__ import annotations

import json
import logging
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from anonimed.cli import main
from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat, read_brat_dir
from anonimed.formats.errors import FormatError
from anonimed.models import pattern_detector
from anonimed.service.review import ReviewFolder

TEXTS = {
    "b-note": "Ingreso el 03/03/2019 en Lleida.\n",
    "a-note": "Paciente: Ana Ruiz. Teléfono: 612345678.\n",
    "c-note": "Sin datos.\n",
}


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in TEXTS.items():
        (corpus / f"{name}.txt").write_text(text, encoding="utf-8")
    (corpus / "a-note.ann").write_text("T1\tNOMBRE_SUJETO_ASISTENCIA 10 18\tAna Ruiz\n", encoding="utf-8")
    return corpus


def _ranking(tmp_path: Path, ids: list[str]) -> Path:
    path = tmp_path / "ranking.json"
    documents = [{"id": name, "score": 1.0 - i / 10, "selected": True} for i, name in enumerate(ids)]
    path.write_text(json.dumps({"threshold": 0.5, "documents": documents}), encoding="utf-8")
    return path


def test_queue_orders(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert [e.id for e in ReviewFolder(folder).queue] == ["a-note", "b-note", "c-note"]
    ranked = ReviewFolder(folder, order_file=_ranking(tmp_path, ["c-note", "gone", "b-note"]))
    assert [(e.id, e.score) for e in ranked.queue] == [("c-note", 1.0), ("b-note", 0.8), ("a-note", None)]
    assert ranked.order == "ranking"

    seen: list[list[str]] = []

    def uncertainty_scores(detector: object, documents: list[Document]) -> dict[str, float]:
        seen.append([d.id for d in documents])
        return {"a-note": 0.1, "b-note": 0.7, "c-note": 0.1}

    module = types.ModuleType("anonimed.corpus.uncertainty")
    module.uncertainty_scores = uncertainty_scores  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "anonimed.corpus.uncertainty", module)
    by_model = ReviewFolder(folder, pattern_detector, by="uncertainty")
    assert [e.id for e in by_model.queue] == ["b-note", "a-note", "c-note"] and seen == [sorted(TEXTS)]


def test_queue_by_the_models_uncertainty(folder: Path) -> None:
    pytest.importorskip("anonimed.corpus.uncertainty")
    queue = ReviewFolder(folder, pattern_detector, by="uncertainty").queue
    scores = [entry.score for entry in queue]
    assert sorted(e.id for e in queue) == sorted(TEXTS) and all(isinstance(score, float) for score in scores)
    assert scores == sorted(scores, reverse=True)  # type: ignore[type-var]


def test_clear_errors_for_a_bad_order_or_folder(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"documents": [{"name": "x"}]}', encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad\.json.*corpus rank"):
        ReviewFolder(folder, order_file=bad)
    monkeypatch.setitem(sys.modules, "anonimed.corpus.uncertainty", None)  # the module is not there
    with pytest.raises(ValueError, match=r"uncertainty needs anonimed\.corpus\.uncertainty"):
        ReviewFolder(folder, pattern_detector, by="uncertainty")
    with pytest.raises(ValueError, match="not both"):
        ReviewFolder(folder, order_file=bad, by="uncertainty")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FormatError, match=r"no \.txt notes"):
        ReviewFolder(tmp_path / "empty")
    with pytest.raises(FormatError, match="not a directory"):
        ReviewFolder(tmp_path / "missing")
    # The commands fail at once, before a server starts, with the same errors.
    assert main(["review", str(tmp_path / "missing")]) == 2
    assert main(["serve", "--review", str(folder), "--order", str(bad)]) == 2


def test_notes_come_with_their_ann_or_the_models_spans(folder: Path) -> None:
    review = ReviewFolder(folder, pattern_detector)
    annotated = review.note("a-note")
    assert annotated.origin == "ann" and annotated.document.spans == [Span(10, 18, "NOMBRE_SUJETO_ASISTENCIA")]
    predicted = review.note("b-note")
    assert predicted.origin == "model" and [s.label for s in predicted.document.spans] == ["FECHAS"]
    assert not predicted.reviewed
    with pytest.raises(KeyError, match="no note"):
        review.note("../a-note")


def test_save_writes_the_ann_and_marks_the_note_reviewed(folder: Path) -> None:
    review = ReviewFolder(folder, pattern_detector)
    review.save("b-note", [Span(11, 21, "FECHAS"), Span(25, 31, "TERRITORIO")])
    saved = read_brat(folder / "b-note.txt")
    assert [(s.label, saved.span_text(s)) for s in saved.spans] == [("FECHAS", "03/03/2019"), ("TERRITORIO", "Lleida")]
    assert set(review.reviewed()) == {"b-note"} and review.note("b-note").reviewed
    assert sorted(p.name for p in folder.iterdir() if p.suffix == ".tmp") == []
    with pytest.raises(ValueError, match="ends past the text"):
        review.save("c-note", [Span(0, 500, "FECHAS")])
    with pytest.raises(ValueError, match="unknown PHI label"):
        review.save("c-note", [Span(0, 3, "NOMBRE")])
    assert not (folder / "c-note.ann").exists() and set(review.reviewed()) == {"b-note"}


def test_export_is_what_train_reads(folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    review = ReviewFolder(folder)
    review.save("a-note", [Span(10, 18, "NOMBRE_SUJETO_ASISTENCIA"), Span(30, 39, "NUMERO_TELEFONO")])
    review.save("c-note", [])
    out = tmp_path / "reviewed"
    assert main(["review", str(folder), "--export", str(out)]) == 0
    assert "2 reviewed notes written" in capsys.readouterr().out
    exported = {d.id: d for d in read_brat_dir(out)}  # what anonimed train --train reads
    assert set(exported) == {"a-note", "c-note"}
    assert exported["a-note"].text == TEXTS["a-note"] and len(exported["a-note"].spans) == 2
    assert exported["c-note"].spans == []
    with pytest.raises(ValueError, match="must differ"):
        review.export(folder)


@pytest.fixture()
def client(folder: Path) -> Iterator[object]:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from anonimed.service.app import create_app
    from anonimed.service.settings import ServiceSettings

    app = create_app(ServiceSettings(token="t", review_dir=str(folder)), pattern_detector())
    with TestClient(app, headers={"Authorization": "Bearer t"}) as client:
        yield client


def test_review_api(client: object, folder: Path) -> None:
    http = client  # a TestClient
    queue = http.get("/v1/review/queue").json()  # type: ignore[attr-defined]
    assert [n["id"] for n in queue["notes"]] == ["a-note", "b-note", "c-note"] and queue["reviewed"] == 0
    assert len(queue["labels"]) == 29 and {"name", "group", "description"} <= set(queue["labels"][0])
    note = http.get("/v1/review/notes/b-note").json()  # type: ignore[attr-defined]
    assert note["text"] == TEXTS["b-note"] and note["origin"] == "model" and note["spans"][0]["label"] == "FECHAS"
    spans = {"spans": [{"start": 11, "end": 21, "label": "FECHAS"}]}
    preview = http.post("/v1/review/notes/b-note/preview", json=spans).json()  # type: ignore[attr-defined]
    assert "03/03/2019" not in preview["text"] and len(preview["spans"]) == 1
    saved = http.put("/v1/review/notes/b-note", json=spans)  # type: ignore[attr-defined]
    assert saved.status_code == 200 and saved.json()["reviewed"] == 1
    assert (folder / "b-note.ann").read_text(encoding="utf-8") == "T1\tFECHAS 11 21\t03/03/2019\n"
    assert http.get("/review").status_code == 200  # type: ignore[attr-defined]
    assert "review.js" in http.get("/review").text  # type: ignore[attr-defined]


def test_review_api_never_logs_a_note(
    client: object, folder: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    (folder / "b-note.ann").write_text("T1\tTERRITORIO 25 31\tLeida\n", encoding="utf-8")  # a covered text gone wrong
    answer = client.get("/v1/review/notes/b-note")  # type: ignore[attr-defined]
    assert answer.status_code == 422 and "b-note.ann" in answer.json()["error"]

    def fails(note_id: str) -> None:
        raise RuntimeError(f"cannot read {TEXTS['a-note']!r}")

    monkeypatch.setattr(ReviewFolder, "note", lambda self, note_id: fails(note_id))
    answer = client.get("/v1/review/notes/a-note")  # type: ignore[attr-defined]
    assert answer.status_code == 500 and "Ana Ruiz" not in answer.text
    assert "RuntimeError" in caplog.text
    for secret in ("Lleida", "Leida", "Ana Ruiz", "612345678"):
        assert secret not in caplog.text


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("get", "/v1/review/notes/nope", None, 404),
        ("put", "/v1/review/notes/c-note", {"spans": [{"start": 0, "end": 99, "label": "FECHAS"}]}, 422),
        ("put", "/v1/review/notes/c-note", {"spans": [{"start": 3, "end": 1, "label": "FECHAS"}]}, 422),
        ("put", "/v1/review/notes/c-note", {"spans": [{"start": 0, "end": 3, "label": "NOMBRE"}]}, 422),
        ("put", "/v1/review/notes/c-note", {"spans": "none"}, 422),
        ("post", "/v1/review/notes/c-note/preview", {"spans": [{"start": 0, "end": 99, "label": "FECHAS"}]}, 422),
    ],
)
def test_review_api_errors(client: object, folder: Path, method: str, path: str, body: object, status: int) -> None:
    kwargs = {} if body is None else {"json": body}
    answer = getattr(client, method)(path, **kwargs)
    assert answer.status_code == status and answer.json()["error"]
    assert not (folder / "c-note.ann").exists()


def test_review_api_needs_the_token(client: object) -> None:
    answer = client.get("/v1/review/queue", headers={"Authorization": "Bearer wrong"})  # type: ignore[attr-defined]
    assert answer.status_code == 401
