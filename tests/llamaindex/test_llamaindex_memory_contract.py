"""TarlMemory against what LlamaIndex's ``Memory`` promises its callers: ``from_defaults``' arguments,
``status`` on ``get_all``/``reset``, the latest turn kept whole, other memory blocks read, cut and inserted
as ``Memory`` does, and where TarlMemory differs on purpose (README, "How TarlMemory differs from Memory")."""

from __future__ import annotations

from typing import Any

import pytest
from llama_index.core.base.llms.types import ChatMessage, TextBlock
from llama_index.core.memory import BaseMemoryBlock, InsertMethod, Memory, StaticMemoryBlock
from llama_index.core.storage.chat_store.base_db import MessageStatus

from llamaindex_tarl import TarlMemory
from llamaindex_tarl.memory import MEMORY_HEADER

WORDS = str.split                       # one token per word, for both memories


class Notebook(BaseMemoryBlock[str]):
    """A block that keeps what it is given and shows how it was asked."""

    seen: list[list[ChatMessage]] = []
    asked: list[dict[str, Any]] = []

    async def _aget(self, messages: list[ChatMessage] | None = None, **kwargs: Any) -> str:
        self.asked.append(kwargs)
        return f"{len(self.seen)} turns noted"

    async def _aput(self, messages: list[ChatMessage]) -> None:
        self.seen.append(messages)


class Replay(BaseMemoryBlock[list[ChatMessage]]):
    async def _aget(self, messages: list[ChatMessage] | None = None, **kwargs: Any) -> list[ChatMessage]:
        return [ChatMessage(role="user", content="earlier question"), ChatMessage(role="assistant", content="earlier answer")]

    async def _aput(self, messages: list[ChatMessage]) -> None:
        pass


def turn(user: str, answer: str) -> list[ChatMessage]:
    return [ChatMessage(role="user", content=user), ChatMessage(role="assistant", content=answer)]


@pytest.fixture
def make():
    opened: list[TarlMemory] = []

    def build(**kwargs: Any) -> TarlMemory:
        opened.append(TarlMemory.from_defaults(namespace="user:contract", tokenizer_fn=WORDS, **kwargs))
        return opened[-1]
    yield build
    for memory in opened:
        memory.close()


def test_from_defaults_takes_memorys_arguments(make):
    memory = make(session_id="s1", token_limit=1000, token_flush_size=700, chat_history_token_ratio=0.9,
                  insert_method=InsertMethod.USER, memory_blocks=[StaticMemoryBlock(static_content="x")])
    assert (memory.session_id, memory.token_limit, memory.token_flush_size) == ("s1", 1000, 700)
    assert memory.chat_history_token_ratio == 0.9 and memory.insert_method == InsertMethod.USER
    assert make(token_limit=100, token_flush_size=500).token_flush_size == 70      # as Memory.from_defaults
    with pytest.raises(ValueError, match="unique names"):
        make(memory_blocks=[StaticMemoryBlock(static_content="a"), StaticMemoryBlock(static_content="b")])
    with pytest.raises(ValueError):
        make(chat_history_token_ratio=1.5)


async def test_status_on_get_all_and_reset(make):
    memory = make()
    await memory.aput_messages(turn("hello there", "hi"))
    assert len(await memory.aget_all(status=MessageStatus.ACTIVE)) == 2 == len(memory.get_all(status=None))
    assert await memory.aget_all(status=MessageStatus.ARCHIVED) == []          # nothing is ever archived
    await memory.areset(status=MessageStatus.ARCHIVED)
    assert len(await memory.aget_all()) == 2
    await memory.areset(status=MessageStatus.ACTIVE)
    assert await memory.aget_all() == []


@pytest.mark.parametrize("cls", ["memory", "tarl"])
async def test_the_latest_turn_is_kept_whole_even_over_the_limit(make, cls):
    big = ChatMessage(role="user", content="word " * 60)
    messages = [*turn("old question", "old answer"), big, ChatMessage(role="assistant", content="ok")]
    if cls == "memory":
        memory: Any = Memory.from_defaults(token_limit=40, token_flush_size=10, chat_history_token_ratio=1.0,
                                           tokenizer_fn=WORDS)
    else:
        memory = make(token_limit=40)
    await memory.aput_messages(messages)
    kept = [m for m in await memory.aget() if m.role.value != "system"]        # TARL may recall the old turn
    assert [m.content for m in kept] == [big.content, "ok"]                   # never an answer without its question


async def test_keep_last_yields_to_the_budget_and_history_starts_on_a_user_message(make):
    memory = make(token_limit=30, keep_last=4)
    memory.set([*turn("first " * 10, "reply " * 8), *turn("second " * 5, "done")])
    kept = memory.get()
    assert [m.content for m in kept] == ["second " * 5, "done"]                 # 4 units would not fit
    memory.set([ChatMessage(role="assistant", content="greeting " * 3), *turn("question", "answer")])
    assert memory.get(initial_token_count=20)[0].role.value == "user"


async def test_chat_history_token_ratio_caps_the_history(make):
    history = [m for i in range(10) for m in turn(f"question {i} about things", f"answer {i} here")]
    whole, capped = make(token_limit=200), make(token_limit=200, chat_history_token_ratio=0.3)
    whole.set(history)
    capped.set(history)
    assert len(whole.get()) == 20
    kept = capped.get()
    assert sum(len(m.content.split()) + 3 for m in kept) <= 60 and kept[-2:] == history[-2:]


async def test_a_memory_the_history_already_shows_is_not_repeated(make):
    memory = make(token_limit=2000)
    await memory.aput_messages(turn("My order id is A-7731", "Noted."))
    got = await memory.aget(input="what is my order id?")
    assert [m.content for m in got] == ["My order id is A-7731", "Noted."]      # no header repeating it
    tuesday = make(engine=memory.engine, token_limit=2000)                   # another session: recalled
    got = await tuesday.aget(input="what is my order id?")
    assert got[0].content == f"{MEMORY_HEADER}\n- My order id is A-7731"


async def test_other_blocks_are_read_cut_and_inserted_as_memory_does(make):
    note = Notebook(name="notebook", priority=0)
    memory = make(session_id="s9", token_limit=2000, memory_blocks=[note, Replay(name="replay", priority=1)])
    await memory.aput_messages(turn("I live in Lisbon", "Nice."))
    got = await memory.aget(input="where do I live?", mood="curious")
    assert note.asked[-1] == {"session_id": "s9", "mood": "curious"}
    assert got[0].role.value == "system" and "<notebook>" in got[0].blocks[0].text
    assert [m.content for m in got[1:3]] == ["earlier question", "earlier answer"]
    assert [m.content for m in got[3:]] == ["I live in Lisbon", "Nice."]
    assert [m.content for m in note.seen[-1]] == ["I live in Lisbon", "Nice."]  # each closed turn, as a copy
    assert note.seen[-1][0].additional_kwargs["session_id"] == "s9"
    assert "session_id" not in memory.get_all()[0].additional_kwargs        # the stored history is untouched


async def test_blocks_are_cut_lowest_priority_number_first_never_priority_zero(make):
    keep = StaticMemoryBlock(name="core", priority=0, static_content="core fact " * 20)
    drop = StaticMemoryBlock(name="extra", priority=1, static_content="extra detail " * 20)
    memory = make(token_limit=30, memory_blocks=[keep, drop])
    text = (await memory.aget())[0].blocks[0].text
    assert "core fact" in text and "extra detail" not in text


async def test_insert_method_user_puts_memories_and_blocks_in_the_latest_user_message(make):
    memory = make(token_limit=2000, insert_method=InsertMethod.USER,
                  memory_blocks=[StaticMemoryBlock(static_content="Be brief.")])
    await memory.aput_messages(turn("My cat is called Miso", "Cute."))
    other = make(engine=memory.engine, token_limit=2000, insert_method="user")
    await other.aput(ChatMessage(role="user", content="what is my cat called?"))
    got = await other.aget()
    assert [m.role.value for m in got] == ["user"]
    assert isinstance(got[0].blocks[0], TextBlock) and "Miso" in got[0].blocks[0].text
    got = await memory.aget()
    assert [m.role.value for m in got] == ["user", "assistant"] and "Be brief." in got[0].blocks[0].text
    assert memory.get_all()[0].content == "My cat is called Miso"            # the stored message is untouched


# -- deliberate differences (README: "How TarlMemory differs from Memory") ------------------------------
async def test_differs_recalled_memories_lead_the_messages_memory_without_blocks_returns_history_only(make):
    monday = make(token_limit=2000)
    await monday.aput_messages(turn("I live in Lisbon", "Nice."))
    plain, memory = Memory.from_defaults(token_limit=2000, tokenizer_fn=WORDS), make(engine=monday.engine)
    for m in (plain, memory):
        await m.aput(ChatMessage(role="user", content="any tips for the weekend?"))
    assert [x.role.value for x in await plain.aget()] == ["user"]
    got = await memory.aget()
    assert [x.role.value for x in got] == ["system", "user"] and "Lisbon" in got[0].content


def test_differs_each_message_costs_a_fixed_overhead(make):
    history = turn("one two", "three four")
    memory = make(token_limit=5, chat_history=history + [ChatMessage(role="user", content="five")])
    assert len(Memory.from_defaults(token_limit=5, tokenizer_fn=WORDS, chat_history=history + [
        ChatMessage(role="user", content="five")]).get()) == 3                 # 5 words: fits LlamaIndex's count
    assert [m.content for m in memory.get()] == ["five"]                       # + 3 per message: only the last turn


def test_differs_initial_token_count_over_the_limit_is_a_tarl_error_and_the_store_is_a_chat_store(make):
    from llama_index.core.storage.chat_store import BaseChatStore

    from shared_core import TarlError
    memory = make(token_limit=49, session_id="s5")
    with pytest.raises(TarlError, match="initial_token_count=50") as caught:
        memory.get(initial_token_count=50)
    assert isinstance(caught.value, ValueError)                                 # what Memory raises
    memory.put(ChatMessage(role="user", content="hello"))
    assert isinstance(memory.chat_store, BaseChatStore) and len(memory.chat_store.get_messages("s5")) == 1
