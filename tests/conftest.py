"""Shared fixtures.  Corpus tests read MEDDOCAN from ../shared (never from the project) and skip without it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Tests put fakes in place of the model in this process, which the processes of --jobs would not see: one process
# unless a test asks for more with --jobs.
os.environ.setdefault("ANONIMED_JOBS", "1")

SHARED = Path(os.environ.get("ANONIMED_SHARED", Path(__file__).resolve().parents[1].parent / "shared"))
MEDDOCAN = SHARED / "data" / "meddocan"


@pytest.fixture(scope="session")
def meddocan() -> Path:
    """The MEDDOCAN folder (train/, dev/, ...); the test is skipped when the shared data is not beside the project."""
    if not (MEDDOCAN / "train" / "brat").is_dir():
        pytest.skip(f"MEDDOCAN data not found at {MEDDOCAN} (set ANONIMED_SHARED to the shared folder)")
    return MEDDOCAN
