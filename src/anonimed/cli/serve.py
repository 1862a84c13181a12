"""``anonimed serve``: the HTTP service (``/v1/detect``, ``/v1/deidentify``, optionally the review page)."""

from __future__ import annotations

import argparse

from anonimed.cli.options import add_model_options
from anonimed.service.settings import DEFAULT_MAX_REQUEST_BYTES, DEFAULT_PORT, LOOPBACK, ServiceSettings, service_token


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "serve",
        help="run the HTTP service: detect and de-identify over HTTP (docs/service.md)",
        description="Serves POST /v1/detect and /v1/deidentify (every request needs 'Authorization: Bearer TOKEN'), "
        "GET /health and the OpenAPI docs at /docs. Listens on 127.0.0.1 unless told otherwise; refuses any other "
        "address without a token.",
    )
    add_server_options(parser)
    parser.add_argument("--workers", type=int, default=1, help="worker processes, each with the model (default: 1)")
    add_model_options(parser)
    parser.add_argument("--key", metavar="FILE", help="secret key file: stable surrogates when a request has no key")
    parser.add_argument(
        "--max-request-bytes",
        type=int,
        default=DEFAULT_MAX_REQUEST_BYTES,
        help=f"largest request body accepted; larger ones get 413 (default: {DEFAULT_MAX_REQUEST_BYTES:,})",
    )
    parser.add_argument("--review", metavar="DIR", help="also serve the review page over this folder of notes")
    add_review_order_options(parser)
    parser.set_defaults(run=run)


def add_server_options(parser: argparse.ArgumentParser) -> None:
    """``--host``, ``--port`` and ``--token-file``, which ``serve`` and ``review`` share."""
    parser.add_argument("--host", default=LOOPBACK, help=f"address to listen on (default: {LOOPBACK}, this machine)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default: {DEFAULT_PORT})")
    parser.add_argument(
        "--token-file",
        metavar="FILE",
        help="file holding the bearer token (default: the ANONIMED_TOKEN variable; on a loopback address without "
        "either, a random token is made up and printed)",
    )


def add_review_order_options(parser: argparse.ArgumentParser) -> None:
    order = parser.add_mutually_exclusive_group()
    order.add_argument("--order", metavar="FILE", help="review order: a ranking of 'anonimed corpus rank --json'")
    order.add_argument(
        "--by",
        choices=("name", "uncertainty"),
        default="name",
        help="review order without a ranking: file name (default) or the model's uncertainty, highest first",
    )


def run(arguments: argparse.Namespace) -> int:
    from anonimed.service.server import run_server

    token, made_up = service_token(arguments.host, arguments.token_file)
    settings = ServiceSettings(
        token=token,
        model=arguments.model,
        vote=arguments.vote,
        key_file=arguments.key,
        max_request_bytes=arguments.max_request_bytes,
        review_dir=arguments.review,
        review_order=arguments.order,
        review_by=arguments.by,
    )
    run_server(settings, arguments.host, arguments.port, arguments.workers, show_token=made_up)
    return 0
