"""A workflow ``Context`` saved with ``to_dict`` after ``agent.run(..., memory=TarlMemory)`` is restored by
``Context.from_dict`` (LlamaIndex's documented pattern), onto the open memory holding that state. The
workflow reads the saved state lazily: on the first ``ctx.store`` access or when the run starts."""

from __future__ import annotations

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.workflow import Context, JsonSerializer

from llamaindex_tarl import TarlMemory


async def _saved_run(memory: TarlMemory, recorder) -> tuple[FunctionAgent, dict]:
    agent = FunctionAgent(tools=[], llm=recorder.llm)
    ctx = Context(agent)
    await agent.run(user_msg="I live in Porto.", memory=memory, ctx=ctx)
    return agent, ctx.to_dict(serializer=JsonSerializer())


async def _restored(agent: FunctionAgent, saved: dict) -> tuple[Context, TarlMemory]:
    ctx = Context.from_dict(agent, saved, serializer=JsonSerializer())
    return ctx, await ctx.store.get("memory")


@pytest.mark.parametrize("on_disk", [True, False])
async def test_a_saved_context_is_restored_in_the_same_process(tmp_path, recorder, on_disk):
    memory = TarlMemory.from_defaults(tmp_path if on_disk else None, namespace="u", session_id="s")
    agent, saved = await _saved_run(memory, recorder)
    ctx, restored = await _restored(agent, saved)
    assert restored.engine is memory.engine and restored.chat_store is memory.chat_store
    assert (restored.session_id, restored.namespace) == ("s", "u")
    reply = await agent.run(user_msg="Where do I live?", memory=memory, ctx=ctx)
    assert reply.response.content == "Noted."
    assert "I live in Porto." in recorder.seen()                       # the history came through
    assert [m.content for m in memory.get_all()] == ["I live in Porto.", "Noted.", "Where do I live?", "Noted."]
    memory.close()
    assert restored.closed                                              # it is the same memory


async def test_a_new_process_restores_onto_the_memory_it_opened(tmp_path, recorder):
    first = TarlMemory.from_defaults(tmp_path, namespace="u", session_id="s")
    agent, saved = await _saved_run(first, recorder)
    first.close()                                                       # as when the process ends
    with TarlMemory.from_defaults(tmp_path, namespace="u", session_id="s") as again:
        ctx, restored = await _restored(agent, saved)
        assert restored.engine is again.engine and restored.session_id == "s"
        await agent.run(user_msg="Where do I live?", memory=again, ctx=ctx)
        assert [m.content for m in again.get_all()][-2:] == ["Where do I live?", "Noted."]
        assert [e.text for e in again.engine.accepted("u")] == ["I live in Porto."]


async def test_restoring_without_the_memory_open_names_the_fix(tmp_path, recorder):
    memory = TarlMemory.from_defaults(tmp_path, namespace="u", session_id="s")
    agent, saved = await _saved_run(memory, recorder)
    memory.close()
    with pytest.raises(ValueError, match=r"namespace='u', session_id='s'.*TarlMemory.from_defaults.*before"):
        await _restored(agent, saved)                                   # the state is read on first use
    with TarlMemory.from_defaults(tmp_path, namespace="other", session_id="s"):   # another namespace: not it
        with pytest.raises(ValueError, match="no open TarlMemory"):
            await _restored(agent, saved)
