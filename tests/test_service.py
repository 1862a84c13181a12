"""The HTTP service: predict's spans over HTTP, the token, the size limit, clear 4xx errors, no PHI in any log line,
and ``anonimed serve`` itself with two workers."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from anonimed.cli import main
from anonimed.deidentify import Deidentifier
from anonimed.document import Document, Span
from anonimed.formats.brat import read_brat_dir
from anonimed.models import load_detector, pattern_detector
from anonimed.predict import predict_dir
from anonimed.service.app import create_app
from anonimed.service.settings import (
    SETTINGS_VARIABLE,
    TOKEN_VARIABLE,
    ServiceSettings,
    is_loopback,
    read_token,
    service_token,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TOKEN = "test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
# PHI that must never reach a log line: a note's text, its span text, and (checked below) its surrogates.
SECRET_NAME = "Eustaquio Berenguer Zurbano"
NOTE = f"Paciente: {SECRET_NAME}. Fecha de ingreso: 03/03/2019. Teléfono: 612345678.\n"


class FailsOnMarker:
    """The pattern recognizers, except on a note holding FAIL, where it raises an error quoting the note's text (a
    careless detector): the service must log neither the message nor the text."""

    name = "fails-on-marker"

    def __init__(self) -> None:
        self.patterns = pattern_detector()

    def detect(self, document: Document) -> list[Span]:
        if "FAIL" in document.text:
            raise RuntimeError(f"cannot annotate {document.text!r}")
        return self.patterns.detect(document)


@pytest.fixture()
def client() -> Iterator[TestClient]:
    app = create_app(ServiceSettings(token=TOKEN, max_request_bytes=4_000), FailsOnMarker())
    with TestClient(app) as client:
        yield client


def test_detect_gives_exactly_the_spans_of_predict(tmp_path: Path) -> None:
    predict_dir(load_detector(), EXAMPLES, tmp_path)
    predicted = {d.id: [(s.label, s.start, s.end) for s in d.spans] for d in read_brat_dir(tmp_path)}
    notes = [{"id": path.stem, "text": path.read_text(encoding="utf-8")} for path in sorted(EXAMPLES.glob("*.txt"))]
    with TestClient(create_app(ServiceSettings(token=TOKEN))) as client:
        answer = client.post("/v1/detect", json={"documents": notes}, headers=AUTH).json()
        single = client.post("/v1/detect", json={"text": notes[0]["text"]}, headers=AUTH).json()
    served = {d["id"]: [(s["label"], s["start"], s["end"]) for s in d["spans"]] for d in answer["documents"]}
    assert served == predicted
    assert sum(map(len, served.values())) > 50
    assert [(s["label"], s["start"], s["end"]) for s in single["spans"]] == predicted[notes[0]["id"]]
    assert all(0 < s["score"] <= 1 for s in single["spans"])


def test_deidentify_returns_what_the_python_api_returns(client: TestClient) -> None:
    answer = client.post("/v1/deidentify", json={"text": NOTE, "seed": 7}, headers=AUTH)
    assert answer.status_code == 200
    expected = Deidentifier(model=pattern_detector(), seed=7).deidentify(NOTE)
    assert answer.json()["text"] == expected.text
    replacements = answer.json()["replacements"]
    assert [(r["input"]["start"], r["input"]["end"], r["replacement"]) for r in replacements] == [
        (r.input.start, r.input.end, r.replacement) for r in expected.replacements
    ]
    tagged = client.post("/v1/deidentify", json={"text": NOTE, "operators": ["tag"]}, headers=AUTH).json()
    assert "[FECHAS]" in tagged["text"] and "612345678" not in tagged["text"]
    keyed = [
        client.post("/v1/deidentify", json={"text": NOTE, "key": "s3cret"}, headers=AUTH).json()["text"]
        for _ in range(2)
    ]
    assert keyed[0] == keyed[1] and "03/03/2019" not in keyed[0]


def test_a_failing_document_gets_an_error_and_no_text_while_the_others_go_on(client: TestClient) -> None:
    documents = [{"id": "good", "text": NOTE}, {"id": "bad", "text": f"FAIL {SECRET_NAME}"}]
    detected = client.post("/v1/detect", json={"documents": documents}, headers=AUTH).json()["documents"]
    assert [d["id"] for d in detected] == ["good", "bad"]
    assert detected[0]["spans"] and "error" in detected[1] and "spans" not in detected[1]
    answer = client.post("/v1/deidentify", json={"documents": documents}, headers=AUTH)
    good, bad = answer.json()["documents"]
    assert "03/03/2019" not in good["text"]
    assert set(bad) == {"id", "error"} and SECRET_NAME not in bad["error"]  # fail-closed: no text at all
    single = client.post("/v1/deidentify", json={"text": f"FAIL {SECRET_NAME}"}, headers=AUTH)
    assert single.status_code == 500 and SECRET_NAME not in single.text


def test_401_without_the_right_token(client: TestClient) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}, {"Authorization": "Basic eDp5"}):
        answer = client.post("/v1/detect", json={"text": NOTE}, headers=headers)
        assert answer.status_code == 401, headers
        assert answer.headers["www-authenticate"] == "Bearer" and "token" in answer.json()["error"]
    assert client.get("/health").status_code == 200  # liveness needs no token and tells nothing


def test_413_over_the_size_limit(client: TestClient) -> None:
    big = {"text": "x" * 5_000}
    assert client.post("/v1/detect", json=big, headers=AUTH).status_code == 413
    chunks = iter([b'{"text": "', b"x" * 3_000, b"y" * 3_000, b'"}'])  # no Content-Length: counted as it comes
    answer = client.post("/v1/detect", content=chunks, headers={**AUTH, "Content-Type": "application/json"})
    assert answer.status_code == 413 and "limit of 4,000 bytes" in answer.json()["error"]
    assert client.post("/v1/detect", json={"text": "x" * 3_000}, headers=AUTH).status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        b"{not json",
        b"",
        b"[]",
        json.dumps({"text": 42}).encode(),
        json.dumps({"documents": "abc"}).encode(),
        json.dumps({"documents": []}).encode(),
        json.dumps({"documents": [{"id": "a"}]}).encode(),
        json.dumps({"documents": [{"id": "a", "text": "x"}, {"id": "a", "text": "y"}]}).encode(),
        json.dumps({"text": "x", "documents": [{"id": "a", "text": "y"}]}).encode(),
        json.dumps({"text": f"{SECRET_NAME}\x00"}).encode(),
        b'{"text": "' + SECRET_NAME.encode() + b'\\ud800"}',
        b'{"text": "' + SECRET_NAME.encode() + b'\xff\xfe"}',
        json.dumps({"text": SECRET_NAME, "colour": "red"}).encode(),
        json.dumps({"text": SECRET_NAME, "vote": "sometimes"}).encode(),
    ],
)
def test_422_for_malformed_bodies_without_echoing_them(client: TestClient, body: bytes) -> None:
    answer = client.post("/v1/detect", content=body, headers={**AUTH, "Content-Type": "application/json"})
    assert answer.status_code == 422
    assert answer.json()["error"] == "the request body is not valid" and answer.json()["details"]
    assert SECRET_NAME not in answer.text


def test_422_for_bad_deidentify_options(client: TestClient) -> None:
    for options in ({"operators": ["bogus"]}, {"seed": 1, "key": "k"}, {"seed": "x"}, {"sex": "other"}):
        answer = client.post("/v1/deidentify", json={"text": NOTE, **options}, headers=AUTH)
        assert answer.status_code == 422, options
        assert SECRET_NAME not in answer.text


def test_no_phi_in_any_log_line(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    surrogates = []
    for text in (NOTE, f"FAIL {NOTE}"):
        client.post("/v1/detect", json={"text": text}, headers=AUTH)
        answer = client.post("/v1/deidentify", json={"documents": [{"id": "n", "text": text}]}, headers=AUTH)
        surrogates += [r["replacement"] for d in answer.json()["documents"] for r in d.get("replacements") or []]
    client.post("/v1/detect", content=f'{{"text": "{SECRET_NAME}\x00"}}', headers=AUTH)
    client.post("/v1/detect", json={"text": SECRET_NAME * 200}, headers=AUTH)
    assert surrogates and any("failed" in record.getMessage() for record in caplog.records)
    for secret in [NOTE, SECRET_NAME, "03/03/2019", "612345678", *surrogates]:
        assert secret not in caplog.text


def test_logged_exceptions_keep_their_type_only() -> None:
    pytest.importorskip("uvicorn")
    import io

    from anonimed.service.logs import ExceptionTypeOnly, log_config

    config = log_config()
    assert all(handler["filters"] == ["exception_type_only"] for handler in config["handlers"].values())
    assert config["filters"]["exception_type_only"]["()"] is ExceptionTypeOnly
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ExceptionTypeOnly())
    logger = logging.getLogger("anonimed.test-exception-type-only")
    logger.addHandler(handler)
    try:
        raise RuntimeError(f"cannot annotate {NOTE!r}")
    except RuntimeError:
        logger.exception("Exception in ASGI application")
    finally:
        logger.removeHandler(handler)
    logged = stream.getvalue()
    assert "Exception in ASGI application [RuntimeError; message and traceback withheld" in logged
    assert SECRET_NAME not in logged and "Traceback" not in logged


def test_docs_and_openapi_are_served(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and "/docs/static/swagger-ui-bundle.js" in page.text
    assert "https://" not in page.text  # no CDN: the docs work on a closed network
    assert client.get("/docs/static/swagger-ui-bundle.js").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/health", "/v1/detect", "/v1/deidentify"} <= set(paths)


def test_settings_travel_to_workers_through_the_environment(tmp_path: Path) -> None:
    settings = ServiceSettings(token="abc", model="some/folder", vote="recall", max_request_bytes=10, review_dir="d")
    environment = settings.to_environment()
    assert environment[TOKEN_VARIABLE] == "abc" and "abc" not in environment[SETTINGS_VARIABLE]
    assert ServiceSettings.from_environment(environment) == settings
    with pytest.raises(ValueError, match="token"):
        ServiceSettings.from_environment({})
    token_file = tmp_path / "token"
    token_file.write_text("from-file\n", encoding="utf-8")
    assert read_token(token_file) == "from-file"
    assert read_token(None, {TOKEN_VARIABLE: "from-env"}) == "from-env"
    (tmp_path / "empty").write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="empty"):
        read_token(tmp_path / "empty")


def test_loopback_only_without_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TOKEN_VARIABLE, raising=False)
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.10")
    token, made_up = service_token("127.0.0.1", None)
    assert made_up and len(token) >= 24
    with pytest.raises(ValueError, match=r"refusing to listen on 0\.0\.0\.0 without a token"):
        service_token("0.0.0.0", None)
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    monkeypatch.setenv(TOKEN_VARIABLE, "given")
    assert service_token("0.0.0.0", None) == ("given", False)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_with_two_workers(tmp_path: Path) -> None:
    """The real command: two worker processes, the token from the environment, health after malformed requests,
    and no PHI in anything it logged (access log included)."""
    port = _free_port()
    log_path = tmp_path / "serve.log"
    environment = {**os.environ, TOKEN_VARIABLE: TOKEN}
    command = [sys.executable, "-m", "anonimed", "serve", "--port", str(port), "--workers", "2"]
    with open(log_path, "w") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environment)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.3)
        with httpx.Client(base_url=base, headers=AUTH, timeout=60) as http:
            detected = http.post("/v1/detect", json={"text": NOTE})
            assert detected.status_code == 200 and detected.json()["spans"]
            surrogates = [
                r["replacement"] for r in http.post("/v1/deidentify", json={"text": NOTE}).json()["replacements"]
            ]
            assert http.post("/v1/detect", json={"text": NOTE}, headers={"Authorization": "x"}).status_code == 401
            for body in (b"{", b'{"text": 1}', b"\xff\xfe", b'{"documents": [null]}'):
                assert http.post("/v1/detect", content=body).status_code == 422
            assert http.post("/v1/detect", json={"text": "x" * 2_000_000}).status_code == 413
            assert http.get("/health").json()["status"] == "ok"
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    logged = log_path.read_text()
    assert logged.count("Started server process") == 2
    for secret in [SECRET_NAME, "03/03/2019", "612345678", *surrogates]:
        assert secret not in logged
