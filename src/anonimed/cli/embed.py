"""``anonimed embed --corpus PATH... --out FILE``: train our own subword word embeddings (needs gensim), or with
``--char-lm forward|backward`` a character language model into the folder ``--out`` (needs torch; resumes)."""

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
    char_lm = parser.add_argument_group(
        "character language model", "contextual character features (see docs/neural.md); --out is then a folder"
    )
    char_lm.add_argument(
        "--char-lm",
        choices=("forward", "backward"),
        help="train a character language model reading the text in this direction (a run resumes from the "
        "checkpoint in --out)",
    )
    char_lm.add_argument("--hidden", type=int, default=256, help="LSTM state size (default 256)")
    char_lm.add_argument("--minutes", type=float, default=60.0, help="this run's time budget (default 60)")
    char_lm.add_argument("--steps", type=int, default=0, help="stop after this many steps in all (default: time only)")
    char_lm.add_argument(
        "--streams", type=int, default=32, help="parallel slices of the corpus, the batch (default 32)"
    )
    char_lm.add_argument(
        "--dropout", type=float, default=0.0, help="dropout before the next-character scores (default 0)"
    )
    char_lm.add_argument("--device", default="cpu", help="where torch trains: cpu (default), cuda, cuda:1…")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    if arguments.char_lm:
        return _train_char_lm(arguments)
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


def _train_char_lm(arguments: argparse.Namespace) -> int:
    from anonimed.detect.neural.charlm import CharLmConfig, train_char_lm  # torch: a training dependency

    config = CharLmConfig(
        direction=arguments.char_lm,
        hidden=arguments.hidden,
        max_minutes=arguments.minutes,
        max_steps=arguments.steps,
        streams=arguments.streams,
        dropout=arguments.dropout,
        device=arguments.device,
        seed=arguments.seed,
    )
    manifest = train_char_lm(arguments.corpus, arguments.out, config)
    last = manifest["history"][-1]
    print(
        f"{arguments.char_lm} character LM in {arguments.out}: step {last['step']} ({last['epochs']} epochs), "
        f"held-out perplexity {last['perplexity']:.3f}"
    )
    return 0
