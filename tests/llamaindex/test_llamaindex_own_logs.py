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
    assert len(recorder.histories()) == 1 and len(recorder.histories()[0]) == 20  # one unit per turn
    assert recorder.refit() is False and recorder.version == 0   # too few labels: the shipped scorer stays
    memory.engine.close()
