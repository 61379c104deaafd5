"""LRETrimMiddleware learning from its own traffic: an AdaptiveScorer passed as ``scorer`` records
every trimmed history of a real agent run, refits beside the store, and rolls back in one call."""

from __future__ import annotations

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langchain_tarl.testing import scripted

from langchain_tarl import LRETrimMiddleware
from shared_core.lre.adaptive import AdaptiveScorer


def test_middleware_records_the_conversation_and_refits(tmp_path):
    recorder = AdaptiveScorer.beside(tmp_path / "store.db", refit_every=10**6, min_positives=2)
    turns = [f"Ticket REF-{100 + i} is about the printer on floor {i}; please note it." for i in range(12)]
    turns += [f"What did I say about REF-{100 + i % 3}?" for i in range(12)]
    model = scripted(*(AIMessage(f"Noted, REF-{100 + i % 3} is the printer ticket.") for i in range(len(turns))))
    agent = create_agent(model, middleware=[LRETrimMiddleware(budget=300, scorer=recorder)],
                         checkpointer=InMemorySaver())
    for text in turns:
        agent.invoke({"messages": [HumanMessage(text)]}, {"configurable": {"thread_id": "t1"}})
    histories = recorder.histories()
    assert len(histories) == 1 and len(histories[0]) == 2 * len(turns) - 1  # the last answer is not trimmed yet
    assert recorder.refit() and recorder.version == 1
    assert (tmp_path / "store.db.lre" / "scorer-v1.json").exists()
    assert recorder.rollback() == 0
