"""anonimed: de-identification of Spanish and Catalan clinical text."""

from anonimed.document import Document, Span

__all__ = ["Document", "Span"]
__version__ = "0.1.0"
