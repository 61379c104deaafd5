"""ChatModelJudge on LangChain's own fake chat model (structured output through a scripted tool call),
behind a real TarlStore; and slot-naming extraction through create_agent end to end."""

from __future__ import annotations

import threading

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_tarl.testing import ScriptedToolModel, call, scripted
from shared_core import Action, Ledger
from shared_core.escalation import EscalatingPolicy, Uncertainty
from shared_core.extraction import ExtractedFacts
from shared_core.judging import JudgeAnswer
from shared_core.policy import LearnedPolicy

from langchain_tarl import ChatModelJudge, TarlMemoryMiddleware, TarlStore

NS = ("memories", "u1")
ALWAYS = Uncertainty(threshold=0.0)


def answer(call_id: str, **args) -> AIMessage:
    return call(JudgeAnswer.__name__, call_id, **args)


def escalating_store(model, **options) -> TarlStore:
    policy = EscalatingPolicy(LearnedPolicy(), ChatModelJudge(model), uncertainty=ALWAYS, **options)
    return TarlStore.open(policy=policy, ground_across_keys=True)


def test_a_valid_answer_is_applied():
    model = scripted(answer("j1", action="append", target_id=None, rationale="a new fact"))
    with escalating_store(model) as store:
        d = store.put(NS, "user.home_city", {"text": "The user lives in Lisbon"})
        assert (d.action, d.decided_by, d.judge_rationale) == (Action.APPEND, "judge", "a new fact")
        [tx] = store.engine.log("memories.u1")
        assert tx.decision.decided_by == "judge"
    assert "The user lives in Lisbon" in model.prompts[0][0].content          # the core's one prompt


class Failing(ScriptedToolModel):
    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        raise RuntimeError("rate limited")


RELEASE = threading.Event()


class Hanging(ScriptedToolModel):
    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        RELEASE.wait(5)
        raise RuntimeError("too late")


@pytest.mark.parametrize("model, why", [
    (scripted(answer("j", action="overwrite", target_id=None)), "invalid answer: answer.action='overwrite'"),
    (scripted(answer("j", action="revise", target_id="nope")), "target_id='nope' is not one of the candidates"),
    (scripted(answer("j", action="reject_conflict", target_id=None)), "needs an Accepted target"),
    (scripted(AIMessage("I think it should be appended")), "invalid answer: answer is not JSON"),
    (Failing(disable_streaming=True, messages=iter([])), "judge raised RuntimeError: rate limited"),
    (Hanging(disable_streaming=True, messages=iter([])), "judge timed out"),
])
def test_bad_answers_errors_and_timeouts_fall_back(model, why):
    RELEASE.clear()
    store = escalating_store(model, timeout=0.2)
    with store:
        d = store.put(NS, "user.manager", {"text": "The user's manager is Priya"})
        assert d.decided_by == "fallback" and why in d.judge_rationale
        assert store.get(NS, "user.manager") is not None or d.action is Action.DEFER_VERIFY   # never lost
        assert store.engine.log("memories.u1")[-1].decision.decided_by == "fallback"
    RELEASE.set()


def test_open_with_a_chat_model_escalates_only_when_unsure():
    model = scripted()
    with TarlStore.open(judge=model) as store:
        assert isinstance(store.engine.policy, EscalatingPolicy)
        assert isinstance(store.engine.policy.judge, ChatModelJudge)
        d = store.put(NS, "user.home_city", {"text": "The user lives in Lisbon"})   # empty memory: confident
        assert d.decided_by == "policy"
    assert model.prompts == []


async def test_async_paths_use_the_model_asynchronously():
    model = scripted(answer("j1", action="append", target_id=None, rationale="new"),
                     answer("j2", action="defer_verify", target_id=None, rationale="hedged"))
    with escalating_store(model) as store:
        d = await store.aput(NS, "user.home_city", {"text": "The user lives in Lisbon"})
        assert d.decided_by == "judge"
        from shared_core import Claim
        from shared_core.grounding import ground

        claim = Claim(text="maybe moving to Oslo", namespace="memories.u1")
        d = await store.engine.policy.adecide(claim, ground(claim, []), None)
        assert (d.action, d.decided_by) == (Action.DEFER_VERIFY, "judge")


def test_middleware_judge_is_attached_to_the_agents_store():
    with TarlStore.open() as store:
        agent = create_agent(scripted(AIMessage("hi")), store=store,
                             middleware=[TarlMemoryMiddleware(judge=scripted(), with_tools=False, k=1)])
        agent.invoke({"messages": [HumanMessage("hello there")]})
        assert isinstance(store.engine.policy, EscalatingPolicy)


def test_remember_with_slots_revises_the_same_attribute_and_keeps_distinct_subjects():
    model = scripted(
        call("remember", "c1", fact="The user's manager is Priya", source="user", slot="user.manager"),
        call("remember", "c2", fact="Ticket ZX-4410 is open", source="user", slot="ticket_zx4410.status"),
        AIMessage("Noted."),
        call("remember", "c3", fact="The user's manager is Daniel", source="user", slot="User.Manager"),
        call("remember", "c4", fact="Ticket ZX-4452 is open", source="user", slot="ticket_zx4452.status"),
        AIMessage("Updated."),
    )
    with TarlStore.open() as store:
        agent = create_agent(model, store=store, middleware=[TarlMemoryMiddleware(namespace=NS, k=0)])
        agent.invoke({"messages": [HumanMessage("My manager is Priya. Ticket ZX-4410 is open.")]})
        agent.invoke({"messages": [HumanMessage("New manager: Daniel. Also ZX-4452 is open.")]})
        accepted = {e.slot: e.text for e in store.engine.accepted("memories.u1")}
        assert accepted == {"user.manager": "The user's manager is Daniel",
                            "ticket_zx4410.status": "Ticket ZX-4410 is open",
                            "ticket_zx4452.status": "Ticket ZX-4452 is open"}
        [old] = store.engine.history("memories.u1")
        assert old.text == "The user's manager is Priya" and old.ledger is Ledger.HISTORY


async def test_extraction_names_slots_and_a_second_value_revises_the_first():
    extractor = scripted(
        call(ExtractedFacts.__name__, "x1", facts=[
            {"text": "The user's manager is Priya", "source": "user", "slot": "user.manager", "many": False},
            {"text": "The user likes sushi", "source": "user", "slot": "user.likes_food", "many": True}]),
        call(ExtractedFacts.__name__, "x2", facts=[
            {"text": "The user's manager is Daniel", "source": "user", "slot": "user.manager", "many": False},
            {"text": "The user likes ramen", "source": "user", "slot": "user.likes_food", "many": True},
            {"text": "The user's badge is blue", "source": "user", "slot": "3f2a9c1b7d4e5f60a1b2c3d4"}]))
    with TarlStore.open() as store:
        agent = create_agent(scripted(AIMessage("ok"), AIMessage("ok")), store=store,
                             middleware=[TarlMemoryMiddleware(namespace=NS, extractor=extractor, with_tools=False)])
        await agent.ainvoke({"messages": [HumanMessage("My manager is Priya and I love sushi")]})
        await agent.ainvoke({"messages": [HumanMessage("Daniel is my manager now; ramen is great too. Blue badge.")]})
        accepted = sorted((e.slot or "", e.text) for e in store.engine.accepted("memories.u1"))
        assert ("user.manager", "The user's manager is Daniel") in accepted
        assert ("user.likes_food", "The user likes sushi") in accepted       # a further value revises nothing
        kept = store.engine.state("memories.u1")
        assert "The user likes ramen" in {e.text for e in (*kept.accepted, *kept.pending)}
        assert ("", "The user's badge is blue") in accepted                 # a random id is never a slot
        assert [e.text for e in store.engine.history("memories.u1")] == ["The user's manager is Priya"]
    assert "subject.attribute" in extractor.prompts[0][0].content
    shown = extractor.prompts[1][0].content         # the second turn's extraction sees the first's slots
    assert "- user.manager (one value): The user's manager is Priya" in shown
    assert "- user.likes_food (several values): The user likes sushi" in shown
    assert "Slots already in memory" not in extractor.prompts[0][0].content


class SlotReuser(ScriptedToolModel):
    """An extractor that follows the prompt: it files the manager under a slot memory shows for it, and
    otherwise under a name of its own ("user.line_manager"), as a model extracting each turn afresh does."""

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.prompts.append(list(messages))
        slot = "user.manager" if "- user.manager (one value): " in messages[0].content else "user.line_manager"
        name = "Daniel" if "Daniel" in messages[-1].content else "Priya"
        fact = {"text": f"The user's manager is {name}", "source": "user", "slot": slot, "many": False}
        reply = call(ExtractedFacts.__name__, f"x{len(self.prompts)}", facts=[fact])
        return ChatResult(generations=[ChatGeneration(message=reply)])


def test_extraction_reuses_a_slot_memory_shows_so_the_new_manager_revises_the_old():
    extractor = SlotReuser(messages=iter([]), prompts=[])
    with TarlStore.open() as store:
        store.put(NS, "user.manager", {"text": "The user's manager is Priya", "source": "user"})
        agent = create_agent(scripted(AIMessage("ok")), store=store,
                             middleware=[TarlMemoryMiddleware(namespace=NS, extractor=extractor, with_tools=False)])
        agent.invoke({"messages": [HumanMessage("I changed teams, Daniel is my manager now")]})
        assert [e.text for e in store.engine.accepted("memories.u1")] == ["The user's manager is Daniel"]
        assert [e.text for e in store.engine.history("memories.u1")] == ["The user's manager is Priya"]


def test_a_bad_judge_is_refused_before_a_store_is_created(tmp_path):
    from shared_core import TarlError

    with pytest.raises(TarlError, match="judge"):
        TarlStore.open(tmp_path / "store", judge=42)
    assert not (tmp_path / "store").exists()
