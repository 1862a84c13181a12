from __future__ import annotations

import pytest

from anonimed.formats.brat import read_brat_dir
from anonimed.schema import (
    COARSE_CLASSES,
    GROUPS,
    LABELS,
    PHI_TYPES,
    UnknownLabelError,
    canonical_label,
    coarse_of,
    group_of,
)


def test_all_29_meddocan_types_with_a_group_and_a_coarse_class():
    assert len(LABELS) == 29
    assert all(t.group in GROUPS for t in PHI_TYPES.values())
    assert all(t.coarse is None or t.coarse in COARSE_CLASSES for t in PHI_TYPES.values())
    assert group_of("CALLE") == "LOCATION" and coarse_of("CALLE") == "DIR"
    assert group_of("DIREC_PROT_INTERNET") == "OTHER"
    assert coarse_of("HOSPITAL") == "INST" and coarse_of("FECHAS") == "FECHA"


def test_guideline_spellings_are_aliases_and_unknown_labels_are_refused():
    assert canonical_label("NUMERO_IDENTIF") == "OTRO_NUMERO_IDENTIF"
    with pytest.raises(UnknownLabelError, match="unknown PHI label 'NOMBRE'"):
        canonical_label("NOMBRE")


def test_training_data_shows_exactly_the_types_marked_as_seen(meddocan):
    seen = {span.label for document in read_brat_dir(meddocan / "train" / "brat") for span in document.spans}
    assert seen == {name for name, t in PHI_TYPES.items() if t.in_training_data}
    assert len(seen) == 21
