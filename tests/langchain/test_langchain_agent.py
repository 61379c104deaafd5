"""End to end: create_agent + TarlStore + TarlMemoryMiddleware, driven by a scripted tool-calling model.

Thread 1: a fact is remembered, revised by a more reliable claim, and contradicted by hearsay (rejected).
Thread 2 (same user, fresh history): the model's prompt holds the revised fact and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langchain_tarl.testing import call, scripted
from shared_core import Reason, TarlError

from langchain_tarl import TarlMemoryMiddleware, TarlStore
from shared_core.extraction import ExtractedFacts

USER_NS = "memories.alice"


@dataclass
class Ctx:
    user_id: str


def script():
    """The model files each fact under one slot (the store key, hence the claim's slot)."""
    return scripted(
        call("remember", "c1", fact="The user lives in Lisbon", source="tool", slot="user.home_city"), AIMessage("Noted."),
        call("remember", "c2", fact="The user lives in Porto", source="user", slot="user.home_city"), AIMessage("Updated."),
        call("remember", "c3", fact="The user lives in Madrid", source="third_party", slot="user.home_city"),
        AIMessage("I keep Porto."),
        AIMessage("You live in Porto."),
    )


TURNS = ["Look me up in the CRM and note my city", "Actually I moved: I live in Porto now",
         "My cousin says I live in Madrid"]


def build(model, store):
    memory = TarlMemoryMiddleware(namespace=lambda rt: ("memories", rt.context.user_id), k=3)
    return create_agent(model, system_prompt="Be brief.", middleware=[memory], store=store,
                        checkpointer=InMemorySaver(), context_schema=Ctx)


def tool_replies(prompts):
    return [m.content for m in prompts[-1] if isinstance(m, ToolMessage)]


def check(model, store):
    tools = [m.content for m in model.prompts[5] if isinstance(m, ToolMessage)]
    assert tools[0].startswith("remembered (")
    assert tools[1].startswith("remembered; the memory it updates was moved to history")
    assert tools[2].startswith("not remembered: it contradicts a memory that memory trusts more")
    # thread 2: a fresh history, and the prompt recalls the revised fact only
    last = model.prompts[-1]
    assert [type(m) for m in last] == [SystemMessage, HumanMessage]
    assert last[0].content.startswith("Be brief.\n\n<memories>\n- The user lives in Porto")
    assert "Lisbon" not in last[0].content and "Madrid" not in last[0].content
    assert [e.text for e in store.engine.accepted(USER_NS)] == ["The user lives in Porto"]
    assert {e.text: e.reason for e in store.engine.history(USER_NS)} == {
        "The user lives in Lisbon": Reason.SUPERSEDED, "The user lives in Madrid": Reason.REJECTED}


def test_remember_revise_reject_then_recall_in_another_thread(store):
    model = script()
    agent = build(model, store)
    ctx, t1 = Ctx("alice"), {"configurable": {"thread_id": "t1"}}
    for text in TURNS:
        agent.invoke({"messages": [HumanMessage(text)]}, t1, context=ctx)
    out = agent.invoke({"messages": [HumanMessage("Where do I live?")]}, {"configurable": {"thread_id": "t2"}},
                       context=ctx)
    assert out["messages"][-1].content == "You live in Porto."
    check(model, store)


async def test_remember_revise_reject_then_recall_async(store):
    model = script()
    agent = build(model, store)
    ctx, t1 = Ctx("alice"), {"configurable": {"thread_id": "t1"}}
    for text in TURNS:
        await agent.ainvoke({"messages": [HumanMessage(text)]}, t1, context=ctx)
    await agent.ainvoke({"messages": [HumanMessage("Where do I live?")]}, {"configurable": {"thread_id": "t2"}},
                        context=ctx)
    check(model, store)


def test_memories_are_per_user(store):
    store.put(("memories", "bob"), "k", {"text": "Bob lives in Oslo"})
    model = scripted(AIMessage("Hello."))
    build(model, store).invoke({"messages": [HumanMessage("Where do I live?")]},
                               {"configurable": {"thread_id": "t"}}, context=Ctx("alice"))
    assert model.prompts[0][0].content == "Be brief."                   # nothing of Bob's recalled


def test_recall_tool_reads_accepted_memories(store):
    store.put(("memories",), "k", {"text": "The user's cat is called Miso"})
    model = scripted(call("recall", "r1", query="cat name"), AIMessage("Miso."))
    agent = create_agent(model, middleware=[TarlMemoryMiddleware(k=0)], store=store)
    agent.invoke({"messages": [HumanMessage("What is my cat called?")]})
    [reply] = tool_replies(model.prompts)
    assert reply == "- The user's cat is called Miso"
    assert [type(m) for m in model.prompts[0]] == [HumanMessage]      # k=0: nothing injected


class ExtractorModel:
    """Builds a scripted model that answers structured-output calls with a tool call of the schema."""

    @staticmethod
    def returning(*facts: dict):
        return scripted(call(ExtractedFacts.__name__, "x1", facts=list(facts)))


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_extractor_writes_claims_through_tarl_after_the_run(store, mode, caplog):
    store.put(("memories",), "user.home_city", {"text": "The user lives in Porto", "source": "user"})
    extractor = ExtractorModel.returning(
        {"text": "  ", "source": "user"},                                    # malformed: skipped, logged
        {"text": "The user has a dog named Rex", "source": "user"},
        {"text": "The user lives in Madrid", "source": "third_party", "slot": "User.Home City"},
    )
    agent = create_agent(scripted(AIMessage("Nice!")), store=store,
                         middleware=[TarlMemoryMiddleware(extractor=extractor, with_tools=False)])
    request = {"messages": [HumanMessage("My dog Rex is great; my cousin says I live in Madrid")]}
    if mode == "sync":
        agent.invoke(request)
    else:
        await agent.ainvoke(request)
    seen = extractor.prompts[0][1].content
    assert "user: My dog Rex is great" in seen and "assistant: Nice!" in seen
    assert sorted(e.text for e in store.engine.accepted("memories")) == [
        "The user has a dog named Rex", "The user lives in Porto"]
    [rejected] = store.engine.history("memories")
    assert rejected.text == "The user lives in Madrid" and rejected.reason is Reason.REJECTED
    assert "extracted claim not stored: fact=" in caplog.text


def test_middleware_without_a_store_says_so():
    agent = create_agent(scripted(AIMessage("x")), middleware=[TarlMemoryMiddleware()])
    with pytest.raises(TarlError, match="store"):
        agent.invoke({"messages": [HumanMessage("hi")]})


@pytest.mark.parametrize(("kwargs", "field"), [({"k": -1}, "k"), ({"namespace": ()}, "namespace")])
def test_middleware_refuses_bad_arguments(kwargs, field):
    with pytest.raises(TarlError, match=field):
        TarlMemoryMiddleware(**kwargs)


def test_a_bad_fact_is_reported_to_the_model_and_nothing_is_written(store):
    model = scripted(call("remember", "b1", fact="   ", source="user"), AIMessage("Sorry."))
    create_agent(model, middleware=[TarlMemoryMiddleware()], store=store).invoke(
        {"messages": [HumanMessage("remember nothing")]})
    [reply] = tool_replies(model.prompts)
    assert reply.startswith("not stored: fact=") and store.engine.log() == []


def remember_reply(store, **args) -> str:
    model = scripted(call("remember", "c1", fact="The user lives in Porto", **args), AIMessage("ok"))
    create_agent(model, middleware=[TarlMemoryMiddleware(namespace=("memories", "alice"))], store=store).invoke(
        {"messages": [HumanMessage("I moved to Porto")]})
    [reply] = tool_replies(model.prompts)
    return reply


@pytest.mark.parametrize(("args", "recorded"), [
    ({"source": None, "slot": None, "many": None}, "user"),        # JSON null for every optional argument
    ({"source": "User", "slot": "user.home_city"}, "user"),
    ({"source": " user ", "slot": "user.home_city", "many": None}, "user"),
    ({"source": "Third Party"}, "third_party"),
    ({"source": "third-party"}, "third_party"),
    ({"source": ""}, "user"),                                        # empty: not given, memory finds who said it
    ({"source": "  "}, "user"),
])
def test_remember_accepts_the_argument_shapes_models_send(store, args, recorded):
    reply = remember_reply(store, **args)
    assert not reply.startswith("not stored") and f"recorded as {recorded}'s" in reply
    [entry] = store.engine.accepted(USER_NS) + store.engine.pending(USER_NS)    # hearsay may wait in Pending
    assert entry.source == recorded and entry.metadata.get("many") in (None, False)


@pytest.mark.parametrize("source", ["me", "System", "the user"])
def test_remember_still_refuses_unknown_sources_by_name(store, source):
    reply = remember_reply(store, source=source)
    assert reply.startswith("not stored: source=") and store.engine.log() == []


@pytest.mark.parametrize(("namespace", "expected"), [
    (lambda rt: rt.context.user_id, ("alice",)),                       # a function returning a string
    (lambda rt: f"memories.{rt.context.user_id}", ("memories", "alice")),
    (lambda rt: ["memories", rt.context.user_id], ("memories", "alice")),
    ("alice", ("alice",)),                                             # a fixed string
    ("memories.alice", ("memories", "alice")),
])
def test_a_string_namespace_is_one_namespace_never_its_characters(store, namespace, expected):
    model = scripted(call("remember", "c1", fact="The user lives in Porto", slot="user.home_city"), AIMessage("ok"))
    create_agent(model, middleware=[TarlMemoryMiddleware(namespace=namespace)], store=store,
                 context_schema=Ctx).invoke({"messages": [HumanMessage("I live in Porto")]}, context=Ctx("alice"))
    assert store.list_namespaces() == [expected]


@pytest.mark.parametrize("returned", [None, "", "  ", "a..b", ("memories", "a.b"), 42])
def test_a_namespace_function_returning_no_namespace_is_refused_by_name(store, returned):
    agent = create_agent(scripted(AIMessage("x")), middleware=[TarlMemoryMiddleware(namespace=lambda rt: returned)],
                         store=store)
    with pytest.raises(TarlError, match=r"^namespace=" + re.escape(repr(returned))):
        agent.invoke({"messages": [HumanMessage("hi")]})


@pytest.mark.parametrize("namespace", ["", "a..b", ("memories", ""), None])
def test_a_fixed_bad_namespace_is_refused_when_the_middleware_is_made(namespace):
    with pytest.raises(TarlError, match=r"^namespace="):
        TarlMemoryMiddleware(namespace=namespace)


def test_what_recall_returned_is_no_tools_word():
    """A fact the model noted as its own, read back through recall, cannot be relayed as a tool's: the
    memory tools' replies are not evidence (``conversation``)."""
    fact = "The user's seat preference is aisle"
    model = scripted(call("remember", "c1", fact=fact, source="assistant", slot="user.seat"),
                     call("recall", "c2", query="seat preference"),
                     call("remember", "c3", fact=fact, source="tool", slot="user.seat"), AIMessage("Done."))
    with TarlStore.open() as store:
        agent = create_agent(model, store=store, middleware=[TarlMemoryMiddleware(namespace=("m", "u"), k=0)])
        out = agent.invoke({"messages": [HumanMessage("Book me a flight to Rome.")]})
        replies = [m.content for m in out["messages"] if getattr(m, "name", None) == "remember"]
        assert "recorded as assistant's" in replies[-1] and "no tool message" in replies[-1]
        assert {e.source for e in store.engine.state("m.u").accepted} == {"assistant"}


def test_a_refused_huge_fact_is_not_read_back_to_the_model_whole(store):
    model = scripted(call("remember", "h1", fact="x " * 5000, source="user"), AIMessage("Too long."))
    create_agent(model, middleware=[TarlMemoryMiddleware()], store=store).invoke(
        {"messages": [HumanMessage("remember this document")]})
    [reply] = tool_replies(model.prompts)
    assert reply.startswith("not stored: value.text='x x ") and "...: " in reply and "8000" in reply
    assert len(reply) < 300 and "\n" not in reply and store.engine.log() == []
