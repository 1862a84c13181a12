"""``anonimed embed --corpus PATH... --out FILE``: train our own subword word embeddings (needs gensim)."""

from __future__ import annotations

import argparse

from anonimed.embeddings import train_embeddings


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "embed",
        help="train fastText-style word embeddings on unlabeled text (gensim)",
        description="Trains skip-gram subword embeddings and stores them compactly (float16, capped vocabulary).",
    )
    parser.add_argument(
        "--corpus", nargs="+", required=True, help=".txt files, folders of them, or .jsonl(.gz) with a 'text' field"
    )
    parser.add_argument("--out", required=True, help="the .npz file to write")
    parser.add_argument("--dim", type=int, default=100)
    parser.add_argument("--vocabulary", type=int, default=30_000, help="most frequent words kept (default 30000)")
    parser.add_argument("--buckets", type=int, default=30_000, help="character n-gram buckets (default 30000)")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=13)
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    embeddings = train_embeddings(
        arguments.corpus,
        dim=arguments.dim,
        vocabulary=arguments.vocabulary,
        buckets=arguments.buckets,
        epochs=arguments.epochs,
        seed=arguments.seed,
    )
    embeddings.save(arguments.out)
    print(f"{len(embeddings.words)} words × {embeddings.dim} dimensions written to {arguments.out}")
    return 0
