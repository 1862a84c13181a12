"""How the service is set up: its model, token, limits and review folder, handed from ``anonimed serve`` to every
uvicorn worker through the environment (a worker process builds its app from there, see
:func:`anonimed.service.app.create_app_from_environment`)."""

from __future__ import annotations

import ipaddress
import json
import os
import secrets
import socket
from dataclasses import asdict, dataclass, field
from pathlib import Path

#: The bearer token every request to ``/v1/...`` must carry.
TOKEN_VARIABLE = "ANONIMED_TOKEN"
#: The other settings, as JSON (no secret in it: the token travels in its own variable, a key file by its path).
SETTINGS_VARIABLE = "ANONIMED_SERVICE_SETTINGS"

DEFAULT_MAX_REQUEST_BYTES = 1_000_000
DEFAULT_PORT = 8000
LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class ServiceSettings:
    """``model``/``vote``: the detector (the shipped model by default; ``predict``'s vote for ``/v1/detect`` and
    ``deidentify``'s for ``/v1/deidentify`` unless ``vote`` names one).  ``key_file``: the server's secret for keyed
    surrogates when a request brings no key of its own.  ``review_dir``: the folder the review page works on (no
    review page without one); ``review_order``: a ranking JSON of ``anonimed corpus rank --json``; ``review_by``:
    ``name`` or ``uncertainty``."""

    token: str = field(repr=False)
    model: str | None = None
    vote: str | None = None
    key_file: str | None = None
    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES
    review_dir: str | None = None
    review_order: str | None = None
    review_by: str = "name"

    def __post_init__(self) -> None:
        if not self.token:
            raise ValueError("the service needs a token (set ANONIMED_TOKEN or give --token-file)")
        if self.max_request_bytes <= 0:
            raise ValueError(f"the request size limit must be positive, got {self.max_request_bytes}")

    def to_environment(self) -> dict[str, str]:
        """The variables that let a worker process rebuild these settings (:meth:`from_environment`)."""
        others = {name: value for name, value in asdict(self).items() if name != "token"}
        return {TOKEN_VARIABLE: self.token, SETTINGS_VARIABLE: json.dumps(others)}

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> ServiceSettings:
        environ = dict(os.environ if environ is None else environ)
        others = json.loads(environ.get(SETTINGS_VARIABLE, "{}"))
        return cls(token=environ.get(TOKEN_VARIABLE, ""), **others)


def read_token(token_file: str | Path | None, environ: dict[str, str] | None = None) -> str | None:
    """The token of ``token_file`` (its content, stripped) or else of ``ANONIMED_TOKEN``; None when neither is set."""
    if token_file is not None:
        path = Path(token_file)
        try:
            token = path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"{path}: cannot read the token file: {error}") from None
        if not token:
            raise ValueError(f"{path}: the token file is empty")
        return token
    token = (os.environ if environ is None else environ).get(TOKEN_VARIABLE, "").strip()
    return token or None


def new_token() -> str:
    return secrets.token_urlsafe(24)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or a name) only ever means this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:  # a name: loopback only when every address it resolves to is
        addresses = {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
    except OSError:
        return False
    return bool(addresses) and all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addresses)


def service_token(host: str, token_file: str | Path | None) -> tuple[str, bool]:
    """The token to serve with, and whether it was made up here.

    On a loopback address a missing token is replaced by a fresh random one (printed for the user); anywhere else
    the service refuses to start without one.
    """
    token = read_token(token_file)
    if token is not None:
        return token, False
    if not is_loopback(host):
        raise ValueError(
            f"refusing to listen on {host} without a token: set {TOKEN_VARIABLE} or give --token-file "
            "(only a loopback address may run with a token made up at start)"
        )
    return new_token(), True
