"""Shared document frequencies (search's query weighting on a Chroma server) are exactly those of the
namespace's open entries, however they were folded: from nothing, from a snapshot, interleaved with
another process's writes."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.engine import MemoryEngine
from shared_core.executor import Step
from shared_core.index import QueryIDF
from shared_core.index.terms import SharedTerms
from shared_core.schema import Action, Claim, Ledger, Reason

WORDS = ["Ana", "Ben", "Rome", "Oslo", "tea", "jazz", "bakery", "order", "#A-1042", "chess"]
OPS = st.lists(st.tuples(st.sampled_from(["append", "pending", "close", "promote", "other_ns"]),
                         st.lists(st.sampled_from(WORDS), min_size=1, max_size=4), st.integers(0, 50)),
               min_size=1, max_size=30)


def _truth(engine: MemoryEngine, ns: str) -> QueryIDF:
    open_ = [e.text for lg in (Ledger.ACCEPTED, Ledger.PENDING) for e in engine.store.ledger(ns, lg)]
    idf = QueryIDF(engine.index.embedder.dim)
    if open_:
        idf.add(engine.index.embed(open_))
    return idf


def _apply(engine: MemoryEngine, op: str, words: list[str], pick: int) -> None:
    claim = Claim(text=" ".join(words), namespace="other" if op == "other_ns" else "u")
    if op in ("append", "other_ns"):
        engine.apply(claim.namespace, [Step(Action.APPEND, claim)])
    elif op == "pending":
        engine.apply("u", [Step(Action.DEFER_VERIFY, claim)])
    else:
        ledger = Ledger.PENDING if op == "promote" else Ledger.ACCEPTED
        found = engine.store.ledger("u", ledger)
        if found:
            target = found[pick % len(found)].id
            step = Step(Action.PROMOTE, target_id=target) if op == "promote" else \
                Step(Action.CLOSE, target_id=target, reason=Reason.RETRACTED)
            engine.apply("u", [step])


@settings(max_examples=25, deadline=None)
@given(first=OPS, then=OPS)
def test_folded_frequencies_equal_those_of_the_open_entries(first, then):
    with MemoryEngine.open() as engine:
        terms = SharedTerms(engine.store, engine.index.embed, engine.index.embedder.dim, "test")
        for op in first:
            _apply(engine, *op)
        early = terms.current("u", save=True)                       # folded from nothing, snapshot left
        truth = _truth(engine, "u")
        assert early.n_docs == truth.n_docs and np.array_equal(early.doc_freq, truth.doc_freq)
        for op in then:
            _apply(engine, *op)
        fresh = SharedTerms(engine.store, engine.index.embed, engine.index.embedder.dim, "test")
        truth = _truth(engine, "u")
        for folded in (terms.current("u"), fresh.current("u")):     # forward, and from the snapshot
            assert folded.n_docs == truth.n_docs and np.array_equal(folded.doc_freq, truth.doc_freq)
