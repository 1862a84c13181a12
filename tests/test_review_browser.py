"""The review page in a real browser (Chromium from the system's packages, driven by Playwright): open a note,
relabel a span, add one, save, and read the ``.ann`` on disk.

Skipped when no Chromium is found, unless ``ANONIMED_REQUIRE_BROWSER=1`` (CI), which makes that a failure.  With
``ANONIMED_REVIEW_SCREENSHOTS=DIR`` a last test also writes the screenshots of ``docs/img`` into DIR.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REQUIRED = os.environ.get("ANONIMED_REQUIRE_BROWSER") == "1"  # CI: a missing browser is a failure, not a skip
try:
    import playwright.sync_api as playwright_api
    import uvicorn
except ImportError as error:
    if REQUIRED:
        pytest.fail(f"ANONIMED_REQUIRE_BROWSER=1 but {error} (pip install -e '.[test]')", pytrace=False)
    pytest.skip(f"the browser tests need Playwright and uvicorn: {error}", allow_module_level=True)

from anonimed.detect.base import Detector
from anonimed.formats.brat import read_brat
from anonimed.models import pattern_detector
from anonimed.service.app import create_app
from anonimed.service.settings import ServiceSettings

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
# Without the networking flags Chromium reaches for Google's services, which a closed network refuses.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TOKEN = "browser-test-token"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# A note of the test's own, its .ann with one span mislabelled (Lleida is a town, not a country) and one missed
# (Marta, after a character outside the Basic Multilingual Plane: offsets are code points on both sides).
NOTE_A = "Paciente: Ana Ruiz Soler. Ingreso: 03/03/2019.\nVive en Lleida \U0001f3e0 con su hija Marta.\n"
ANN_A = "T1\tNOMBRE_SUJETO_ASISTENCIA 10 24\tAna Ruiz Soler\nT2\tFECHAS 35 45\t03/03/2019\nT3\tPAIS 55 61\tLleida\n"

# A byte-order mark and CRLF line ends count as characters in BRAT offsets, in Python and on the page alike.
NOTE_C = "\ufeffNombre: Ana Soler.\r\nFecha: 03/03/2019.\r\n"


def _chromium() -> str:
    """The system's Chromium (``ANONIMED_CHROMIUM`` names another): Playwright's own download cannot be reached."""
    candidates = [os.environ.get("ANONIMED_CHROMIUM"), shutil.which("chromium"), *CHROMIUM_CANDIDATES]
    found = next((path for path in candidates if path and Path(path).is_file()), None)
    if found is None:
        message = f"no Chromium found ({', '.join(CHROMIUM_CANDIDATES)}): apt-get install chromium"
        if REQUIRED:
            pytest.fail(message + " (ANONIMED_REQUIRE_BROWSER=1)")
        pytest.skip(message)
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def _serve(settings: ServiceSettings, detector: Detector | None) -> Iterator[str]:
    """Run the app on 127.0.0.1 (a free port) in a thread; yields its address, stops it afterwards."""
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(settings, detector), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the review server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    executable = _chromium()
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "nota-a.txt").write_text(NOTE_A, encoding="utf-8")
    (folder / "nota-a.ann").write_text(ANN_A, encoding="utf-8")
    (folder / "nota-b.txt").write_text("Fecha de nacimiento: 01/02/1950. Teléfono: 612345678.\n", encoding="utf-8")
    (folder / "nota-c.txt").write_bytes(NOTE_C.encode("utf-8"))  # written as is: no newline translation
    ranking = {"threshold": 0.5, "documents": [{"id": "nota-b", "score": 0.9, "selected": True}]}
    (tmp_path / "ranking.json").write_text(json.dumps(ranking), encoding="utf-8")
    return folder


@pytest.fixture()
def server(corpus: Path) -> Iterator[str]:
    settings = ServiceSettings(token=TOKEN, review_dir=str(corpus), review_order=str(corpus.parent / "ranking.json"))
    with _serve(settings, pattern_detector()) as address:
        yield address


def _select_text(page: object, start: int, end: int) -> None:
    """Select the note's characters [start, end) (code points) as a mouse would, and release the button."""
    page.evaluate(  # type: ignore[attr-defined]
        """([start, end]) => {
            const note = document.getElementById("note");
            const locate = (position) => {
                for (const piece of note.children) {
                    const from = Number(piece.dataset.from);
                    const chars = Array.from(piece.textContent);
                    if (position <= from + chars.length) {
                        return [piece.firstChild, chars.slice(0, position - from).join("").length];
                    }
                }
            };
            const range = document.createRange();
            range.setStart(...locate(start));
            range.setEnd(...locate(end));
            const selection = window.getSelection();
            selection.removeAllRanges();
            selection.addRange(range);
            note.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
        }""",
        [start, end],
    )


def test_relabel_add_and_save_writes_the_ann(browser: object, server: str, corpus: Path) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 800})  # type: ignore[attr-defined]
    page.goto(f"{server}/review#token={TOKEN}")
    # The ranking puts nota-b first, and the page opens the first note not reviewed yet.
    page.wait_for_selector("#note mark")
    assert page.inner_text("#note-id") == "nota-b"
    assert page.inner_text("#progress-text") == "0 of 3 notes reviewed"
    assert "token" not in page.url  # the token left the address bar

    page.click("#queue li[data-id='nota-a']")
    page.wait_for_function("document.getElementById('note-id').textContent === 'nota-a'")
    page.click("#note mark[title='PAIS']")
    page.keyboard.press("l")
    page.fill("#picker-filter", "territorio")
    page.keyboard.press("Enter")
    assert page.locator("#note mark[title='TERRITORIO']").inner_text() == "Lleida"

    marta = NOTE_A.index("Marta")
    _select_text(page, marta - 1, marta + len("Marta"))  # the space before it is trimmed
    page.fill("#picker-filter", "familiares")
    page.keyboard.press("Enter")
    assert page.locator("#note mark[title='FAMILIARES_SUJETO_ASISTENCIA']").inner_text() == "Marta"
    assert "unsaved" in page.inner_text("#note-status")
    # The preview follows: the note with surrogates in place of every span, the new one included.
    page.wait_for_function("document.querySelectorAll('#preview mark').length === 4")
    assert "Ana Ruiz Soler" not in page.inner_text("#preview")

    page.keyboard.press("Shift+S")  # save, then the next note not reviewed yet after it: nota-c
    page.wait_for_function("document.getElementById('progress-text').textContent.startsWith('1 of 3')")
    page.wait_for_function("document.getElementById('note-id').textContent === 'nota-c'")
    saved = read_brat(corpus / "nota-a.txt")
    assert [(s.label, s.start, s.end) for s in saved.spans] == [
        ("NOMBRE_SUJETO_ASISTENCIA", 10, 24),
        ("FECHAS", 35, 45),
        ("TERRITORIO", 55, 61),
        ("FAMILIARES_SUJETO_ASISTENCIA", marta, marta + 5),
    ]
    assert saved.span_text(saved.spans[-1]) == "Marta"
    assert "nota-a" in json.loads((corpus / ".anonimed-review.json").read_text(encoding="utf-8"))["reviewed"]
    page.close()


def test_offsets_count_a_bom_and_crlf(browser: object, server: str, corpus: Path) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(f"{server}/review#token={TOKEN}")
    page.wait_for_selector("#note mark")
    page.click("#queue li[data-id='nota-c']")
    page.wait_for_function("document.getElementById('note-id').textContent === 'nota-c'")
    start = NOTE_C.index("Ana Soler")
    _select_text(page, start, start + len("Ana Soler"))
    page.keyboard.press("1")  # quick type 1: the patient's name
    page.keyboard.press("s")
    page.wait_for_function("document.getElementById('note-status').textContent.includes('saved to')")
    saved = read_brat(corpus / "nota-c.txt")
    names = [saved.span_text(s) for s in saved.spans if s.label == "NOMBRE_SUJETO_ASISTENCIA"]
    assert names == ["Ana Soler"]
    page.close()


def test_api_docs_render_without_internet(browser: object, server: str) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(f"{server}/docs")
    page.wait_for_selector(".swagger-ui .information-container .title")
    assert "anonimed API" in page.title() and "/v1/detect" in page.inner_text(".swagger-ui")
    page.close()


def test_keyboard_delete_and_resize(browser: object, server: str, corpus: Path) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 800})  # type: ignore[attr-defined]
    page.goto(f"{server}/review#token={TOKEN}")
    page.wait_for_selector("#note mark")
    assert page.inner_text("#note-origin") == "spans found by the model"  # nota-b has no .ann
    assert page.locator("#note mark.selected").inner_text() == "01/02/1950"
    page.keyboard.press("d")
    assert page.locator("#note mark.selected").inner_text() == "612345678"
    page.keyboard.press("Shift+ArrowLeft")  # the end one character back
    page.keyboard.press("Alt+ArrowRight")  # the start one character on
    assert page.locator("#note mark.selected").inner_text() == "1234567"
    page.keyboard.press("Control+s")
    page.wait_for_function("document.getElementById('note-status').textContent.includes('saved to')")
    saved = read_brat(corpus / "nota-b.txt")
    assert [(s.label, saved.span_text(s)) for s in saved.spans] == [("NUMERO_TELEFONO", "1234567")]
    page.close()


def test_screenshots(browser: object, tmp_path: Path) -> None:
    """The README's screenshots: the bundled example notes with the shipped model's spans."""
    target = os.environ.get("ANONIMED_REVIEW_SCREENSHOTS")
    if not target:
        pytest.skip("set ANONIMED_REVIEW_SCREENSHOTS=DIR to write the review page's screenshots")
    folder = tmp_path / "examples"
    folder.mkdir()
    for note in sorted(EXAMPLES.glob("*.txt")):
        shutil.copy(note, folder / note.name)
    with _serve(ServiceSettings(token=TOKEN, review_dir=str(folder)), None) as address:
        page = browser.new_page(viewport={"width": 1500, "height": 860})  # type: ignore[attr-defined]
        page.goto(f"{address}/review#token={TOKEN}")
        page.wait_for_selector("#preview mark")
        page.keyboard.press("j")
        page.keyboard.press("a")
        page.wait_for_timeout(400)
        page.screenshot(path=str(Path(target) / "review.png"))
        page.click("#note mark[title='FECHAS']")
        page.keyboard.press("l")
        page.fill("#picker-filter", "fe")
        page.screenshot(path=str(Path(target) / "review-picker.png"))
        page.close()
