"""Every ```python block of docs/extending/*.md runs: an extension page whose example no longer works misleads more
than no example.

The blocks of one page run in order in one namespace (a later block may use what an earlier one defined), from the
repository root (the pages use ``examples/``).  A block preceded by the line ``<!-- not-run -->`` is skipped; none
should need it.
"""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs" / "extending").glob("*.md"))
BLOCK = re.compile(r"(?P<before>^[^\n]*\n)?```python\n(?P<code>.*?)^```", re.MULTILINE | re.DOTALL)
NOT_RUN = "<!-- not-run -->"


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line number, code) of every ```python block not marked ``<!-- not-run -->`` on the line above it."""
    blocks = []
    for match in BLOCK.finditer(text):
        if (match.group("before") or "").strip() == NOT_RUN:
            continue
        blocks.append((text.count("\n", 0, match.start("code")) + 1, match.group("code")))
    return blocks


def test_the_extension_pages_are_there() -> None:
    assert {page.stem for page in PAGES} >= {"recognizer", "operator", "language", "model"}
    for page in PAGES:
        assert python_blocks(page.read_text(encoding="utf-8")), f"{page.name} has no runnable python example"


@pytest.mark.parametrize("page", PAGES, ids=[page.stem for page in PAGES])
def test_every_python_block_runs(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    # A module of its own, registered while it runs: dataclasses and pickling look classes up by their module.
    module = types.ModuleType(f"docs_extending_{page.stem}")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    for line, code in python_blocks(page.read_text(encoding="utf-8")):
        # Blank lines up to the block's first line, so that a traceback names the page's own line numbers.
        exec(compile("\n" * (line - 1) + code, str(page), "exec"), module.__dict__)


def test_blocks_are_found_and_not_run_blocks_skipped() -> None:
    text = "intro\n```python\nx = 1\n```\n<!-- not-run -->\n```python\nraise SystemExit\n```\n```bash\nls\n```\n"
    assert python_blocks(text) == [(3, "x = 1\n")]
