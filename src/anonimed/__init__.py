"""anonimed: de-identification of Spanish and Catalan clinical text."""

from typing import Any

from anonimed.document import Document, Span

__all__ = ["Deidentifier", "Document", "Span"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # The de-identification API pulls in Faker and wordfreq: import it only when asked for.
    if name == "Deidentifier":
        from anonimed.deidentify import Deidentifier

        return Deidentifier
    raise AttributeError(f"module 'anonimed' has no attribute {name!r}")
