"""``ReActAgent`` with ``TarlMemory`` across sessions, driven by a scripted text model (ReAct has no tool
calls: it parses "Action: ... Action Input: {...}" from the text).

ReActAgent (llama-index-core 0.14) drops the first message memory returns when it is a system message
(it expects the agent's own ``system_prompt`` there), so memories inserted as a leading system message
reach the model only when the agent has a ``system_prompt``, or with ``insert_method="user"``; LlamaIndex's
own ``Memory`` blocks are lost the same way. The README says so; these tests hold both ways to it."""

from __future__ import annotations

from typing import Any

import pytest
from llama_index.core.agent.workflow import ReActAgent
from llama_index.core.base.llms.types import ChatMessage, ChatResponse, LLMMetadata
from llama_index.core.llms import MockLLM
from llama_index.core.llms.callbacks import llm_chat_callback
from llama_index.core.memory import InsertMethod

from llamaindex_tarl import TarlMemory

NS = "user:bo"
REMEMBER = ('Thought: I should remember this.\nAction: remember\nAction Input: {"fact": "The user\'s dog is named '
            'Rex", "source": "user", "slot": "user.dog_name"}')


class ScriptedReAct(MockLLM):
    """A chat model whose replies are ``script``'s, in order; every prompt it gets is kept in ``prompts``."""

    script: list[str] = []
    prompts: list[list[ChatMessage]] = []

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(is_chat_model=True)

    @llm_chat_callback()
    def chat(self, messages: Any, **kwargs: Any) -> ChatResponse:
        self.prompts.append(list(messages))
        return ChatResponse(message=ChatMessage(role="assistant", content=self.script.pop(0)))

    @llm_chat_callback()
    async def achat(self, messages: Any, **kwargs: Any) -> ChatResponse:
        return self.chat(messages, **kwargs)

    @llm_chat_callback()
    async def astream_chat(self, messages: Any, **kwargs: Any) -> Any:
        reply = self.chat(messages, **kwargs)

        async def gen() -> Any:
            yield ChatResponse(message=reply.message, delta=reply.message.content)
        return gen()


def scripted(*replies: str) -> ScriptedReAct:
    llm = ScriptedReAct()
    llm.script, llm.prompts = list(replies), []
    return llm


def seen(prompt: list[ChatMessage]) -> str:
    return "\n".join(m.content or "" for m in prompt)


@pytest.mark.parametrize("way", [{"system_prompt": "You help Bo."}, {"insert_method": InsertMethod.USER}])
async def test_react_agent_remembers_in_one_session_and_recalls_in_the_next(tmp_path, way):
    llm = scripted(REMEMBER, "Thought: I can answer.\nAnswer: Noted, Rex.", "Thought: I can answer.\nAnswer: Your dog is Rex.")
    prompt = {"system_prompt": way.get("system_prompt")}
    options = {"insert_method": way["insert_method"]} if "insert_method" in way else {}
    with TarlMemory.from_defaults(path=tmp_path, namespace=NS, session_id="monday", **options) as memory:
        reply = await ReActAgent(tools=memory.tools(), llm=llm, **prompt).run(user_msg="My dog is named Rex",
                                                                              memory=memory)
        assert str(reply.response.content) == "Noted, Rex."
        assert "Observation: append" in seen(llm.prompts[1])        # the tool ran and said what memory did
        assert [e.text for e in memory.engine.accepted(NS)] == ["The user's dog is named Rex"]
    with TarlMemory.from_defaults(path=tmp_path, namespace=NS, session_id="tuesday", **options) as memory:
        await ReActAgent(tools=memory.tools(), llm=llm, **prompt).run(user_msg="What is my dog's name?", memory=memory)
        assert "The user's dog is named Rex" in seen(llm.prompts[-1])


async def test_without_a_system_prompt_react_drops_the_leading_memories_message():
    """The documented pitfall, pinned: if LlamaIndex stops dropping it, the README's advice can go."""
    llm = scripted("Thought: I can answer.\nAnswer: ?")
    with TarlMemory.from_defaults(namespace=NS) as memory:
        memory.engine.write({"text": "The user's dog is named Rex", "namespace": NS})
        await ReActAgent(tools=[], llm=llm).run(user_msg="What is my dog's name?", memory=memory)
        assert "Rex" not in seen(llm.prompts[0])
