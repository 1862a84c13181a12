"""Running the service: the settings go into the environment, and uvicorn starts ``workers`` processes that each
build the app from there (``factory=True``) and load the model once."""

from __future__ import annotations

import os
import sys

from anonimed.service.logs import log_config
from anonimed.service.settings import ServiceSettings

APP_FACTORY = "anonimed.service.app:create_app_from_environment"


def run_server(
    settings: ServiceSettings, host: str, port: int, workers: int = 1, show_token: bool = False, log_level: str = "info"
) -> None:
    """Serve until interrupted.  ``show_token``: print the token (one made up at start) for the user to send."""
    import uvicorn  # deferred: only the service needs it (pip install .[serve])

    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    if settings.review_dir is not None:  # one clear error now rather than a failed start-up in every worker
        from anonimed.service.review import ReviewFolder

        ReviewFolder.check(settings.review_dir, settings.review_order, settings.review_by)
    if settings.key_file is not None:
        from anonimed.transform import read_key

        read_key(settings.key_file)
    os.environ.update(settings.to_environment())  # read back by each worker; never logged
    address = f"http://{host if ':' not in host else f'[{host}]'}:{port}"
    if show_token:
        print(f"anonimed: token for this run (send 'Authorization: Bearer TOKEN'): {settings.token}", file=sys.stderr)
    if settings.review_dir is not None:
        fragment = f"#token={settings.token}" if show_token else ""
        print(f"anonimed: review page at {address}/review{fragment}", file=sys.stderr)
    print(f"anonimed: API docs at {address}/docs", file=sys.stderr)
    uvicorn.run(
        APP_FACTORY,
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_config=log_config(log_level),
        log_level=log_level,
        server_header=False,
    )
