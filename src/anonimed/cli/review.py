"""``anonimed review CORPUS_DIR``: the review page over a folder of notes, or (``--export``) its reviewed notes."""

from __future__ import annotations

import argparse

from anonimed.cli.options import add_model_options
from anonimed.cli.serve import add_review_order_options, add_server_options


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "review",
        help="review, correct and approve the spans of a folder of notes in the browser",
        description="Serves the review page over CORPUS_DIR/*.txt: each note with the spans of its .ann (or the "
        "model's), to accept, delete, relabel, resize or add; saving writes the note's .ann. With --export OUT_DIR, "
        "copies the reviewed notes (.txt + .ann) to OUT_DIR for 'anonimed train --train OUT_DIR' instead.",
    )
    parser.add_argument("corpus_dir", metavar="CORPUS_DIR")
    parser.add_argument("--export", metavar="OUT_DIR", help="write the reviewed notes to OUT_DIR and exit")
    add_server_options(parser)
    add_model_options(parser)
    add_review_order_options(parser)
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    if arguments.export is not None:
        from anonimed.service.review import ReviewFolder

        count = ReviewFolder(arguments.corpus_dir).export(arguments.export)
        print(f"{count} reviewed notes written to {arguments.export}")
        return 0
    from anonimed.service.server import run_server
    from anonimed.service.settings import ServiceSettings, service_token

    token, made_up = service_token(arguments.host, arguments.token_file)
    settings = ServiceSettings(
        token=token,
        model=arguments.model,
        vote=arguments.vote,
        review_dir=arguments.corpus_dir,
        review_order=arguments.order,
        review_by=arguments.by,
    )
    run_server(settings, arguments.host, arguments.port, workers=1, show_token=made_up)
    return 0
