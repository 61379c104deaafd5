"""TarlMemory learning from its own sessions: an AdaptiveScorer passed as ``scorer`` records the
history each ``get`` trims (whole conversation, also when it fits) and refits from self-labels."""

from __future__ import annotations

from llama_index.core.base.llms.types import ChatMessage

from llamaindex_tarl import TarlMemory
from shared_core.lre.adaptive import AdaptiveScorer


def test_memory_records_history_and_falls_back_until_enough_labels(tmp_path):
    recorder = AdaptiveScorer.beside(tmp_path / "store.db", refit_every=10**6, min_positives=10**6)
    memory = TarlMemory.from_defaults(namespace="user:own", token_limit=400)
    memory.scorer = recorder
    for i in range(20):
        memory.put(ChatMessage(role="user", content=f"Shipment SHP-{500 + i % 4} goes to dock {i}."))
        memory.put(ChatMessage(role="assistant", content=f"Logged SHP-{500 + i % 4} for dock {i}."))
        memory.get()
    assert len(recorder.histories()) == 1 and len(recorder.histories()[0]) == 40  # the core's units: one per message
    assert recorder.refit() is False and recorder.version == 0   # too few labels: the shipped scorer stays
    memory.engine.close()


def test_memory_scores_each_turn_once_and_trims_like_a_cold_trim():
    """The session keeps a StreamingScorer: a later ``get`` featurises only the new turns, and what it
    keeps is exactly what a fresh memory (cold trim) keeps."""
    memory = TarlMemory.from_defaults(namespace="user:warm", token_limit=300)
    for i in range(30):
        memory.put(ChatMessage(role="user", content=f"Parcel PCL-{900 + i} left hub {i % 5} today."))
        memory.put(ChatMessage(role="assistant", content="Noted."))
        kept = memory.get()
    stream = memory._unit_scorer()
    assert stream is memory._unit_scorer() and len(stream._scores) > 0
    cold = TarlMemory.from_defaults(engine=memory.engine, namespace="user:warm", token_limit=300,
                                    chat_history=memory.get_all())
    assert [m.content for m in cold.get()] == [m.content for m in kept]
    memory.engine.close()
