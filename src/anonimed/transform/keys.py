"""Keyed randomness: every random choice is derived from a secret and the thing being replaced.

Deriving the generator from ``HMAC(secret, parts)`` instead of drawing from one shared stream is what makes a
surrogate depend only on the original (the same name gives the same surrogate wherever and whenever it occurs) and
not on the order in which documents or spans are processed.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import random
from pathlib import Path


class Keyring:
    """The secret behind every keyed choice.

    ``key`` (bytes or a key file) makes choices stable across documents and runs; ``seed`` alone makes them
    reproducible per document; neither gives a fresh random secret.  ``cross_document`` says whether an entity may
    get the same surrogate in different documents (only with a key: without one, linking notes through their
    surrogates must not be possible).
    """

    def __init__(self, key: bytes | str | Path | None = None, seed: int | None = None) -> None:
        if key is not None:
            self.secret = read_key(key)
        elif seed is not None:
            self.secret = hashlib.sha256(f"anonimed-seed:{seed}".encode()).digest()
        else:
            self.secret = os.urandom(32)
        self.cross_document = key is not None
        self.has_stable_secret = key is not None or seed is not None

    def digest(self, *parts: str) -> bytes:
        return hmac.new(self.secret, "\x1f".join(parts).encode("utf-8"), hashlib.sha256).digest()

    def random(self, *parts: str) -> random.Random:
        return random.Random(int.from_bytes(self.digest(*parts), "big"))


def read_key(key: bytes | str | Path) -> bytes:
    """The secret of a key given as bytes or as the path of a key file (its whole content, which must not be empty)."""
    if isinstance(key, bytes):
        secret = key
    else:
        path = Path(key)
        try:
            secret = path.read_bytes()
        except OSError as error:
            raise ValueError(f"{path}: cannot read the key file: {error.strerror or error}") from None
        secret = secret.strip()
    if not secret:
        raise ValueError(f"{key!r}: the key is empty")
    return secret
