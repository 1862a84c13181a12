"""The repository stands on its own: no tracked file names a folder of the machine it was written on.

Results files, model folders and docs are read on other machines: a path into a machine's ``work``, ``home`` or
``root`` folder there is wrong or private.  Data locations come from options or ``ANONIMED_SHARED`` (default
``../shared`` beside the repository), and recorded paths are relative (:func:`anonimed.train.data.portable_path`).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# A machine's absolute folders: a path starting at the work, root or home folder (not "framework/", "homework/").
# The examples below are built from pieces, so that this file does not trip its own test.
ABSOLUTE = re.compile(r"(?<![\w.~-])/(?:work|root|home)/")


def tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    listing = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
    ).stdout.decode("utf-8", "surrogateescape")
    return [ROOT / name for name in listing.split("\0") if name]


def test_no_tracked_text_file_holds_an_absolute_path_of_a_machine() -> None:
    offending = []
    for path in tracked_files():
        if not path.is_file():  # deleted in the working tree, not yet committed
            continue
        content = path.read_bytes()
        if b"\0" in content[:8192]:  # binary: images, model weights
            continue
        text = content.decode("utf-8", "replace")
        for number, line in enumerate(text.splitlines(), 1):
            if ABSOLUTE.search(line):
                offending.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not offending, "absolute paths of a machine in tracked files:\n" + "\n".join(offending[:30])


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ('"data": "' + "/" + 'work/shared/data/meddocan/dev/brat"', True),
        ("see " + "/" + "root/.cache/x", True),
        ("cd " + "/" + "home/ana/notes", True),
        ("`../shared/data/meddocan` beside the project", False),
        ("a framework/ folder and homework/", False),
        ("https://example.org/home/page", False),
    ],
)
def test_the_pattern_finds_machine_paths_only(line: str, found: bool) -> None:
    assert bool(ABSOLUTE.search(line)) is found
