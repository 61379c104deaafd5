"""The remember tool's ``many=True`` slot keeps each further value beside the others (README: "a further
liked food is kept beside the others"), also when the policy reads a short new value as a restatement:
"jazz" then "techno" on ``user.music`` left only techno current (noop turned into revise)."""

from __future__ import annotations

import pytest

from llamaindex_tarl import memory_tools
from shared_core import MemoryEngine


@pytest.mark.parametrize("first, second", [("jazz", "techno"), ("likes jazz", "likes techno")])
async def test_a_further_value_of_a_many_slot_is_kept_and_recalled(tmp_path, first, second):
    with MemoryEngine.open(tmp_path) as engine:
        remember, recall = memory_tools(engine, "user:ana")
        await remember.acall(fact=first, source="assistant", slot="user.music", many=True, ctx=None)
        reply = (await remember.acall(fact=second, source="assistant", slot="user.music", many=True, ctx=None)).content
        assert reply.startswith("append")
    with MemoryEngine.open(tmp_path) as engine:
        assert sorted(e.text for e in engine.accepted("user:ana")) == sorted([first, second])
        remember, recall = memory_tools(engine, "user:ana")
        shown = (await recall.acall(query=f"{first} {second}")).content
        assert first in shown and second in shown
