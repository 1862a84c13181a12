"""Cuts the network of neural model folders written before anonimed read it in two parts (tagger.onnx, the whole
network, becomes char_encoder.onnx and tagger.onnx from the token features on: anonimed.detect.neural.onnx_split),
in place; a folder already cut is left alone.  Needs the onnx package (pip install .[train]).

    .venv/bin/python scripts/split_neural_onnx.py FOLDER [FOLDER...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from anonimed.detect.neural.inference import NETWORK_FILE
from anonimed.detect.neural.onnx_split import CHAR_ENCODER_FILE, reads_characters, split_network
from anonimed.formats.textio import write_bytes_atomic


def main(folders: list[str]) -> int:
    if not folders:
        print(__doc__, file=sys.stderr)
        return 2
    for name in folders:
        folder = Path(name)
        if not (folder / NETWORK_FILE).is_file():
            print(f"{folder}: no {NETWORK_FILE}: not a neural model folder", file=sys.stderr)
            return 2
        if not reads_characters((folder / NETWORK_FILE).read_bytes()):
            print(f"{folder}: cut already")
            continue
        char_encoder, network = split_network((folder / NETWORK_FILE).read_bytes())
        # The encoder first: stopped in between, the folder holds the whole network still, which a new run cuts.
        write_bytes_atomic(folder / CHAR_ENCODER_FILE, char_encoder)
        write_bytes_atomic(folder / NETWORK_FILE, network)
        print(f"{folder}: {CHAR_ENCODER_FILE} {len(char_encoder):,} bytes, {NETWORK_FILE} {len(network):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
