"""The HTTP service: ``/health``, ``/v1/detect``, ``/v1/deidentify`` and, with a review folder, the review page.

Each uvicorn worker builds its own app from the environment (:func:`create_app_from_environment`, the factory that
``anonimed serve`` names) and loads the model once, at start-up.  The model runs on the worker's event loop, one
note at a time: the work is CPU-bound, and a worker busy with a note accepts no new connection, so the kernel hands
it to an idle worker (with a thread pool every worker would accept its share and queue it, idle ones or not).  A
lock keeps the review page's calls, which run in threads, from overlapping them (the detectors keep per-note
state).  No note text, span text or surrogate is ever logged: errors are logged by their type only, and 4xx answers
never echo the request's values.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from anonimed import __version__
from anonimed.deidentify import Deidentifier, Result, load_model
from anonimed.detect.base import Detector
from anonimed.document import Document, Span
from anonimed.predict import predict_document
from anonimed.service.limits import BodySizeLimit
from anonimed.service.schemas import (
    DeidentifiedDocument,
    DeidentifyRequest,
    DeidentifyResponse,
    DetectedDocument,
    DetectRequest,
    DetectResponse,
    OutputSpan,
    ReplacementOut,
    SpanOut,
)
from anonimed.service.settings import ServiceSettings
from anonimed.transform import build_config, read_key

log = logging.getLogger(__name__)

SWAGGER_UI_DIR = Path(__file__).resolve().parent / "static" / "swagger-ui"


class Detectors:
    """The detectors of one worker, loaded once each: ``predict``'s for detection, ``deidentify``'s (an ensemble's
    recall vote) for de-identification, and any other vote a request names, on first use.

    ``fixed``: one detector for everything (an app embedded with a model of its own; it takes no vote).
    """

    def __init__(self, settings: ServiceSettings, fixed: Detector | None = None) -> None:
        self.settings = settings
        self.fixed = fixed
        self.lock = threading.RLock()  # one model call at a time in this worker (re-entered while loading)
        self._loaded: dict[tuple[str, str | None], Detector] = {}

    def load_defaults(self) -> None:
        self.for_detect(None)
        self.for_deidentify(None)

    def for_detect(self, vote: str | None) -> Detector:
        from anonimed.models import load_detector  # deferred: the service module imports without loading models

        return self._get("detect", vote or self.settings.vote, load_detector)

    def for_deidentify(self, vote: str | None) -> Detector:
        return self._get("deidentify", vote or self.settings.vote, load_model)

    def _get(self, purpose: str, vote: str | None, load: Callable[[str | None, str | None], Detector]) -> Detector:
        if self.fixed is not None:
            if vote is not None:
                raise HTTPException(422, "this server's model has no vote settings")
            return self.fixed
        with self.lock:
            if (purpose, vote) not in self._loaded:
                self._loaded[purpose, vote] = load(self.settings.model, vote)
            return self._loaded[purpose, vote]


def create_app(settings: ServiceSettings, detector: Detector | None = None) -> FastAPI:
    """The service app; ``detector`` replaces the model of ``settings`` (one detector for every endpoint)."""
    detectors = Detectors(settings, detector)
    server_key = read_key(settings.key_file) if settings.key_file else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        detectors.load_defaults()
        if settings.review_dir is not None:
            from anonimed.service.review_api import review_folder

            app.state.review = review_folder(settings, lambda: detectors.for_detect(None))
        log.info("anonimed service ready (model: %s)", settings.model or "default")
        yield

    app = FastAPI(
        title="anonimed",
        version=__version__,
        description="De-identification of Spanish and Catalan clinical text. Every /v1 request needs "
        "`Authorization: Bearer TOKEN`.",
        lifespan=lifespan,
        docs_url=None,  # served below with Swagger UI's own files, not a CDN's: hospital networks are often closed
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.detectors = detectors
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_request_bytes)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(StarletteHTTPException, _http_error)  # FastAPI's and the size limit's
    authorised = [Depends(bearer_token)]

    app.mount("/docs/static", StaticFiles(directory=SWAGGER_UI_DIR), name="docs-static")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title="anonimed API",
            swagger_js_url="/docs/static/swagger-ui-bundle.js",
            swagger_css_url="/docs/static/swagger-ui.css",
            swagger_favicon_url="data:,",
        )

    @app.get("/health", tags=["service"])
    async def health() -> dict[str, str]:
        """Liveness: answers without a token and says nothing about any note."""
        return {"status": "ok", "version": __version__}

    @app.post("/v1/detect", tags=["service"], dependencies=authorised, response_model_exclude_none=True)
    async def detect(request: DetectRequest) -> DetectResponse:
        """The PHI spans of a text or of each document, exactly as ``anonimed predict`` finds them."""
        model = detectors.for_detect(request.vote)
        if request.text is not None:
            return DetectResponse(spans=_spans_out(_detected(detectors, model, Document("text", request.text))))
        assert request.documents is not None
        answers = []
        for note in request.documents:
            try:
                spans = _detected(detectors, model, Document(note.id, note.text))
            except HTTPException as error:
                answers.append(DetectedDocument(id=note.id, error=str(error.detail)))
                continue
            answers.append(DetectedDocument(id=note.id, spans=_spans_out(spans)))
        return DetectResponse(documents=answers)

    @app.post("/v1/deidentify", tags=["service"], dependencies=authorised, response_model_exclude_none=True)
    async def deidentify(request: DeidentifyRequest) -> DeidentifyResponse:
        """The de-identified text of a text or of each document, and every replacement made."""
        key = request.key.encode("utf-8") if request.key is not None else None
        if key is None and request.seed is None:
            key = server_key
        choices = {name: value for name, value in (("sex", request.sex), ("kinship", request.kinship)) if value}
        try:
            config = build_config(request.operators, choices, key)
        except ValueError as error:  # an operator spec the CLI would refuse too; it holds no note text
            raise HTTPException(422, str(error)) from None
        deidentifier = Deidentifier(
            model=detectors.for_deidentify(request.vote), operators=config, key=key, seed=request.seed
        )
        if request.text is not None:
            result = _deidentified(detectors, deidentifier, request.text, "text", None)
            return DeidentifyResponse(text=result.text, replacements=_replacements_out(result))
        assert request.documents is not None
        answers = []
        for note in request.documents:
            try:
                result = _deidentified(detectors, deidentifier, note.text, note.id, note.patient)
            except HTTPException as error:  # fail-closed: no text at all for this document
                answers.append(DeidentifiedDocument(id=note.id, error=str(error.detail)))
                continue
            answers.append(DeidentifiedDocument(id=note.id, text=result.text, replacements=_replacements_out(result)))
        return DeidentifyResponse(documents=answers)

    if settings.review_dir is not None:
        from anonimed.service.review_api import mount_review

        mount_review(app, authorised)
    return app


def create_app_from_environment() -> FastAPI:
    """The factory each uvicorn worker calls: the settings ``anonimed serve`` put in the environment."""
    return create_app(ServiceSettings.from_environment())


_bearer = HTTPBearer(auto_error=False, description="the token of ANONIMED_TOKEN or --token-file")


def bearer_token(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> None:
    """401 unless the request carries ``Authorization: Bearer TOKEN`` with the server's token."""
    expected: str = request.app.state.settings.token
    given = credentials.credentials if credentials is not None else ""
    if not secrets.compare_digest(given.encode("utf-8"), expected.encode("utf-8")):
        raise HTTPException(
            401, "missing or wrong token: send 'Authorization: Bearer TOKEN'", {"WWW-Authenticate": "Bearer"}
        )


def _detected(detectors: Detectors, model: Detector, document: Document) -> list[Span]:
    try:
        with detectors.lock:
            return predict_document(model, document).spans
    except Exception as error:
        log.error("the model failed on a note (%s)", type(error).__name__)
        raise HTTPException(500, f"the model failed on this text ({type(error).__name__})") from None


def _deidentified(
    detectors: Detectors, deidentifier: Deidentifier, text: str, document_id: str, patient: str | None
) -> Result:
    try:
        with detectors.lock:
            return deidentifier.deidentify(text, document_id, patient)
    except Exception as error:
        log.error("de-identification failed on a note (%s)", type(error).__name__)
        raise HTTPException(500, f"de-identification failed on this text ({type(error).__name__})") from None


def _spans_out(spans: list[Span]) -> list[SpanOut]:
    return [SpanOut(start=s.start, end=s.end, label=s.label, score=s.score) for s in spans]


def _replacements_out(result: Result) -> list[ReplacementOut]:
    return [
        ReplacementOut(
            input=_spans_out([r.input])[0],
            output=OutputSpan(start=r.output.start, end=r.output.end) if r.output is not None else None,
            operator=r.operator,
            original=r.original,
            replacement=r.replacement,
        )
        for r in result.replacements
    ]


async def _invalid_request(request: Request, error: Exception) -> JSONResponse:
    """422 naming where each problem is, without echoing the values sent (they may be note text)."""
    assert isinstance(error, RequestValidationError)
    details = [
        {"location": list(problem.get("loc", ())), "problem": problem.get("msg", ""), "type": problem.get("type", "")}
        for problem in error.errors()
    ]
    return JSONResponse({"error": "the request body is not valid", "details": details}, status_code=422)


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    if error.status_code == 400 and isinstance(error.__cause__, UnicodeDecodeError):
        # FastAPI answers a body that does not decode with a bare 400; it is a malformed body like any other.
        problem = {
            "location": ["body"],
            "problem": "not JSON text: it does not decode as UTF-8",
            "type": "json_invalid",
        }
        return JSONResponse({"error": "the request body is not valid", "details": [problem]}, status_code=422)
    return JSONResponse({"error": error.detail}, status_code=error.status_code, headers=error.headers)
