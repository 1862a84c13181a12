"""The review page: its static files (no build step: plain HTML, CSS and JavaScript) at ``/review`` and its API at
``/v1/review/...`` (token needed, as for every ``/v1`` path; the page reads the token from its address's fragment,
``/review#token=...``, which browsers never send to a server)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.params import Depends
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from anonimed.deidentify import Deidentifier
from anonimed.detect.base import Detector
from anonimed.document import Document, Span, SpanOutOfBoundsError
from anonimed.formats.errors import FormatError
from anonimed.schema import PHI_TYPES, UnknownLabelError
from anonimed.service.review import ReviewFolder
from anonimed.service.schemas import ReviewSpans
from anonimed.service.settings import ServiceSettings

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"

# The preview shows realistic surrogates, the same ones at every refresh of a note.
_PREVIEW_SEED = 0


def review_folder(settings: ServiceSettings, detector: Callable[[], Detector]) -> ReviewFolder:
    assert settings.review_dir is not None
    return ReviewFolder(settings.review_dir, detector, settings.review_order, settings.review_by)


def mount_review(app: FastAPI, authorised: Sequence[Depends]) -> None:
    app.mount("/review/static", StaticFiles(directory=STATIC_DIR), name="review-static")
    preview = Deidentifier(operators=None, seed=_PREVIEW_SEED)

    @app.get("/review", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC_DIR / "review.html")

    @app.get("/v1/review/queue", tags=["review"], dependencies=list(authorised))
    def queue(request: Request) -> dict[str, Any]:
        """The notes in review order, which are reviewed, and the PHI types with their groups."""
        folder = _folder(request)
        reviewed = _known(folder.reviewed)
        notes = [{"id": e.id, "score": e.score, "reviewed": e.id in reviewed} for e in folder.queue]
        labels = [{"name": t.name, "group": t.group, "description": t.description} for t in PHI_TYPES.values()]
        return {"order": folder.order, "notes": notes, "reviewed": sum(n["reviewed"] for n in notes), "labels": labels}

    @app.get("/v1/review/notes/{note_id}", tags=["review"], dependencies=list(authorised))
    def note(request: Request, note_id: str) -> dict[str, Any]:
        """A note's text and spans (those of its ``.ann``, else the model's)."""
        folder = _folder(request)
        with request.app.state.detectors.lock:
            found = _known(lambda: folder.note(note_id))
        document = found.document
        return {
            "id": document.id,
            "text": document.text,
            "spans": [_span_json(span) for span in document.spans],
            "origin": found.origin,
            "reviewed": found.reviewed,
        }

    @app.put("/v1/review/notes/{note_id}", tags=["review"], dependencies=list(authorised))
    def save(request: Request, note_id: str, body: ReviewSpans) -> dict[str, Any]:
        """Write the note's ``.ann`` with these spans and mark it reviewed."""
        folder = _folder(request)
        spans = _spans(body)
        _known(lambda: folder.save(note_id, spans))
        return {"id": note_id, "reviewed": len(set(folder.reviewed()) & {e.id for e in folder.queue})}

    @app.post("/v1/review/notes/{note_id}/preview", tags=["review"], dependencies=list(authorised))
    def preview_note(request: Request, note_id: str, body: ReviewSpans) -> dict[str, Any]:
        """The note de-identified with these spans (surrogates), and where each replacement lies in the new text."""
        folder = _folder(request)
        text = _known(lambda: folder.note_text(note_id))
        spans = _spans(body)
        try:
            result = preview.transform(Document(note_id, text, spans))
        except (SpanOutOfBoundsError, ValueError) as error:
            raise HTTPException(422, f"spans do not fit the note: {type(error).__name__}") from None
        outputs = [r.output for r in result.replacements if r.output is not None]
        return {"text": result.text, "spans": [_span_json(span) for span in outputs]}


def _folder(request: Request) -> ReviewFolder:
    folder: ReviewFolder = request.app.state.review
    return folder


def _spans(body: ReviewSpans) -> list[Span]:
    """The spans of a request body; 422 for an empty or reversed span or an unknown type."""
    spans = []
    for span in body.spans:
        if span.end <= span.start:
            raise HTTPException(422, f"a span must end after it starts, got [{span.start}, {span.end})")
        if span.label not in PHI_TYPES:
            raise HTTPException(422, f"unknown PHI type {span.label!r}")
        spans.append(Span(span.start, span.end, span.label, span.score, span.source))
    return spans


def _known(action: Callable[[], Any]) -> Any:
    """Run a folder action: an unknown note is a 404; a span outside its text, an unknown type or a note's files
    that cannot be read a 422 (the reviewer's to see: the message may quote the note); any other failure a 500,
    logged by its type only."""
    try:
        return action()
    except KeyError as error:
        raise HTTPException(404, str(error.args[0])) from None
    except (SpanOutOfBoundsError, UnknownLabelError, FormatError) as error:
        raise HTTPException(422, str(error)) from None
    except Exception as error:
        log.error("review: a note could not be read or saved (%s)", type(error).__name__)
        raise HTTPException(500, f"the note could not be read or saved ({type(error).__name__})") from None


def _span_json(span: Span) -> dict[str, Any]:
    return {"start": span.start, "end": span.end, "label": span.label, "score": span.score, "source": span.source}
