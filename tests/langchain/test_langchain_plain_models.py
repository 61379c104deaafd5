"""LangChain's own fake chat models, as they ship (no ``bind_tools``, so no ``with_structured_output``), as
the judge and as the extractor: memory asks them for JSON in plain chat and reads the reply, as the
LlamaIndex adapter's ``LLMJudge`` does for an LLM without function calling.

Found wiring ``judge=``: ``TarlStore.open(judge=FakeMessagesListChatModel(...))`` (and
``GenericFakeChatModel``, ``TarlMemoryMiddleware(judge=...)``, ``extractor=``) raised LangChain's
``NotImplementedError: with_structured_output is not implemented for this model.``: any chat model
without tool calling could not be the judge or the extractor at all."""

from __future__ import annotations

import json

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage
from shared_core import Action
from shared_core.escalation import EscalatingPolicy, Uncertainty
from shared_core.policy import LearnedPolicy

from langchain_tarl import ChatModelJudge, TarlMemoryMiddleware, TarlStore

NS = ("memories", "u1")


class Recording(FakeMessagesListChatModel):
    """The stock fake (``bind_tools`` not overridden), recording what it was asked."""

    asked: list = []

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.asked.append(list(messages))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


def test_a_stock_fake_model_is_a_judge_answering_in_json(tmp_path):
    reply = json.dumps({"action": "append", "target_id": None, "rationale": "a new fact"})
    model = Recording(responses=[AIMessage(f"Here you go:\n```json\n{reply}\n```")])
    policy = EscalatingPolicy(LearnedPolicy(), ChatModelJudge(model), uncertainty=Uncertainty(threshold=0.0))
    with TarlStore.open(tmp_path, policy=policy) as store:
        d = store.put(NS, "user.home_city", {"text": "The user lives in Lisbon"})
        assert (d.action, d.decided_by, d.judge_rationale) == (Action.APPEND, "judge", "a new fact")
    [prompt] = model.asked[0]
    assert "The user lives in Lisbon" in prompt.content and "JSON" in prompt.content


async def test_judge_options_take_stock_fake_models(tmp_path):
    with TarlStore.open(tmp_path, judge=GenericFakeChatModel(messages=iter([])), share=0.2) as store:
        assert isinstance(store.engine.policy, EscalatingPolicy)
        agent = create_agent(GenericFakeChatModel(messages=iter([AIMessage("hi")])), store=store,
                             middleware=[TarlMemoryMiddleware(judge=FakeMessagesListChatModel(responses=[AIMessage("{}")]),
                                                              with_tools=False)])
        out = await agent.ainvoke({"messages": [HumanMessage("hello")]})
        assert out["messages"][-1].content == "hi"


async def test_a_stock_fake_model_is_an_extractor_answering_in_json(tmp_path):
    facts = {"facts": [{"text": "The user drives a Tesla", "source": "user", "slot": "user.car", "many": False}]}
    extractor = Recording(responses=[AIMessage(json.dumps(facts))])
    with TarlStore.open(tmp_path) as store:
        agent = create_agent(GenericFakeChatModel(messages=iter([AIMessage("Nice car!")])), store=store,
                             middleware=[TarlMemoryMiddleware(namespace=NS, extractor=extractor, with_tools=False)])
        await agent.ainvoke({"messages": [HumanMessage("I drive a Tesla.")]})
        assert store.get(NS, "user.car").value["text"] == "The user drives a Tesla"
    assert "JSON" in extractor.asked[-1][0].content
