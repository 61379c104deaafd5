"""End to end: LlamaIndex chat engines with TarlMemory across two sessions, on a real on-disk store."""

from __future__ import annotations

from llama_index.core.chat_engine import CondensePlusContextChatEngine, SimpleChatEngine

from llamaindex_tarl import TarlMemory, TarlRetriever
from shared_core import Ledger, MemoryEngine, Reason
from shared_core.policy import RulePolicy

NS = "user:ana"
SESSION_1 = [
    "My order id is A-7731.",             # remember
    "I live in Lisbon.",
    "Actually my order id is now A-7740.",  # revise: same source, said later
    "I think my order id is B-1234.",       # hedged contradiction: rejected, the accepted id stays
]


def _open(path) -> MemoryEngine:
    return MemoryEngine.open(path, policy=RulePolicy())     # rules: every expected action is explainable


def _check_ledgers(engine: MemoryEngine) -> None:
    accepted = {e.text for e in engine.accepted(NS)}
    assert accepted == {"Actually my order id is now A-7740.", "I live in Lisbon."}
    history = {e.text: e.reason for e in engine.history(NS)}
    assert history == {"My order id is A-7731.": Reason.SUPERSEDED, "I think my order id is B-1234.": Reason.REJECTED}


def _check_session_2(recorder) -> None:
    system = recorder.system()
    assert "A-7740" in system                       # the revised fact reached the LLM
    assert "A-7731" not in recorder.seen() and "B-1234" not in recorder.seen()
    assert recorder.calls[-1][-1].content == "What is my order id?"


def test_simple_chat_engine_two_sessions_sync(tmp_path, recorder):
    engine = _open(tmp_path)
    memory = TarlMemory.from_defaults(engine=engine, namespace=NS, session_id="monday")
    chat = SimpleChatEngine.from_defaults(llm=recorder.llm, memory=memory, system_prompt="Be brief.")
    for text in SESSION_1:
        chat.chat(text)
    assert len(recorder.calls) == 4
    assert recorder.calls[0][0].content == "Be brief."
    _check_ledgers(engine)
    engine.close()

    engine = _open(tmp_path)                        # a new process would do the same: reopen the store
    tuesday = TarlMemory.from_defaults(engine=engine, namespace=NS, session_id="tuesday")
    chat = SimpleChatEngine.from_defaults(llm=recorder.llm, memory=tuesday, system_prompt="Be brief.")
    chat.chat("What is my order id?")
    _check_session_2(recorder)
    assert [m.content for m in tuesday.get_all()] == ["What is my order id?", "Noted."]   # fresh history
    _check_ledgers(engine)                          # a question is not a claim
    engine.close()


async def test_simple_chat_engine_two_sessions_async(tmp_path, recorder):
    engine = _open(tmp_path)
    memory = TarlMemory.from_defaults(engine=engine, namespace=NS, session_id="monday")
    chat = SimpleChatEngine.from_defaults(llm=recorder.llm, memory=memory)
    for text in SESSION_1:
        await chat.achat(text)
    _check_ledgers(engine)
    tuesday = TarlMemory.from_defaults(engine=engine, namespace=NS, session_id="tuesday")
    await SimpleChatEngine.from_defaults(llm=recorder.llm, memory=tuesday).achat("What is my order id?")
    _check_session_2(recorder)
    engine.close()


def test_from_defaults_path_persists_long_term_memory(tmp_path, recorder):
    memory = TarlMemory.from_defaults(tmp_path / "store", namespace=NS, session_id="s1")
    SimpleChatEngine.from_defaults(llm=recorder.llm, memory=memory).chat("My cat is called Miso.")
    memory.engine.close()
    again = TarlMemory.from_defaults(tmp_path / "store", namespace=NS, session_id="s2")
    assert again.get_all() == []
    assert "Miso" in again.get(input="what is my cat called?")[0].content
    again.engine.close()


def test_condense_plus_context_with_retriever(tmp_path, recorder):
    engine = _open(tmp_path)
    memory = TarlMemory.from_defaults(engine=engine, namespace=NS, session_id="monday")
    chat = CondensePlusContextChatEngine.from_defaults(
        retriever=TarlRetriever(engine, NS), llm=recorder.llm, memory=memory, skip_condense=True)
    chat.chat("Hello there")                        # nothing remembered yet: the LLM is still called
    assert len(recorder.calls) == 1 and "No relevant long-term memories." in recorder.system()
    chat.chat("My order id is A-7731.")
    chat.chat("What is my order id?")
    assert "A-7731" in recorder.system()            # retrieved into the context prompt
    assert "entry_id" not in recorder.seen()        # provenance metadata stays out of the prompt
    assert [e.text for e in engine.accepted(NS)] == ["My order id is A-7731."]   # chit-chat is noop (tarl_labels.md)
    engine.close()


async def test_condense_plus_context_async_with_condensing(recorder):
    def script(messages, kwargs):                   # the condense call gets one prompt; answer it plainly
        from llama_index.core.base.llms.types import ChatMessage

        return ChatMessage(role="assistant", content="what is the order id" if len(messages) == 1 else "Noted.")

    recorder.script = script
    memory = TarlMemory.from_defaults(namespace=NS, session_id="s")
    await memory.engine.awrite({"text": "The order id is A-7731", "namespace": NS})
    chat = CondensePlusContextChatEngine.from_defaults(retriever=memory.as_retriever(), llm=recorder.llm,
                                                       memory=memory)
    await chat.achat("hi")
    await chat.achat("and the id?")
    assert "A-7731" in recorder.system()
    memory.engine.close()
