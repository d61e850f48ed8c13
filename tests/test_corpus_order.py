"""Whoosh hits are listed in corpus order: by the document numbers when they follow the corpus (a fresh
build), by each document's corpus number when they do not."""

from __future__ import annotations

import numpy as np
import pytest
from paranon.search_portal.backends import corpus_order

ORDERS = [  # each document's corpus number, by document number
    [0, 1, 2, 3, 4, 5],  # a fresh build: the numbers follow the corpus
    [5, 4, 3, 2, 1, 0],  # the corpus backwards
    [2, 0, 4, 1, 5, 3],  # shuffled
]
HITS = [[], [3], [1, 3, 4], [4, 1, 3], [0, 1, 2, 3, 4, 5], [5, 0, 2]]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("hits", HITS)
def test_hits_come_back_in_corpus_order(order, hits):
    order, docs = np.array(order, dtype=np.int64), np.array(hits, dtype=np.int64)
    in_order = bool(np.all(order[1:] > order[:-1]))
    got = corpus_order(docs, order, in_order)
    assert sorted(got.tolist()) == sorted(hits)
    assert order[got].tolist() == sorted(order[docs].tolist())
