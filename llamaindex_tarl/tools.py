"""``remember`` and ``recall`` as LlamaIndex ``FunctionTool``s, so an agent can manage its own memory."""

from __future__ import annotations

from llama_index.core.tools import FunctionTool
from pydantic import ValidationError

from shared_core import Claim, Decision, MemoryEngine, TarlError
from shared_core.extraction import canonical_slot

from .block import render


def memory_tools(engine: MemoryEngine, namespace: str = "default", *, source: str = "assistant",
                 top_k: int = 5) -> list[FunctionTool]:
    """``[remember, recall]`` bound to one namespace.

    >>> from shared_core import MemoryEngine
    >>> from shared_core.policy import RulePolicy
    >>> remember, recall = memory_tools(MemoryEngine.open(policy=RulePolicy()), "user:ana")
    >>> remember.call(fact="Ana prefers window seats").content
    'append: new information (reliability 0.54)'
    >>> recall.call(query="seat preference").content
    '- Ana prefers window seats'

    ``source`` is fixed here, not chosen by the model: what an agent writes is its own paraphrase
    (source ``assistant``), which TARL trusts less than the user's own words, so an agent cannot
    overwrite what the user said. The tool replies with TARL's decision so the model knows what happened.
    """
    if not isinstance(engine, MemoryEngine):
        raise TarlError("engine", engine, "must be a shared_core MemoryEngine")
    if not isinstance(namespace, str) or not namespace.strip():
        raise TarlError("namespace", namespace, "must be a non-empty string")

    def claim(fact: str, slot: str | None, many: bool) -> Claim:
        key = canonical_slot(slot)                 # a malformed or random-id slot: kept as free text
        try:
            return Claim(text=fact, namespace=namespace, source=source, slot=key, many=many if key else None)
        except ValidationError as exc:
            raise TarlError("fact", fact, exc.errors()[0]["msg"]) from None

    def remember(fact: str, slot: str | None = None, many: bool = False) -> str:
        """Store one durable fact about the user in long-term memory.

        Args:
            fact: One short self-contained sentence, e.g. "Ana's manager is Priya".
            slot: The attribute it is about, as "subject.attribute" in snake_case, e.g. "user.manager",
                "order_zx4410.status"; the same slot every time for the same attribute of the same subject.
            many: True if the attribute holds several values at once (likes, allergies), False if a new
                value replaces the old one (city, employer, manager).
        """
        return _said(engine.write(claim(fact, slot, many)))

    async def aremember(fact: str, slot: str | None = None, many: bool = False) -> str:
        """Store one durable fact about the user in long-term memory (see ``remember``)."""
        return _said(await engine.awrite(claim(fact, slot, many)))

    def recall(query: str) -> str:
        """Search long-term memory for facts relevant to the query."""
        return render(engine.search(query, namespace, top_k)) or "No relevant memories."

    async def arecall(query: str) -> str:
        """Search long-term memory for facts relevant to the query."""
        return render(await engine.asearch(query, namespace, top_k)) or "No relevant memories."

    return [FunctionTool.from_defaults(fn=remember, async_fn=aremember, name="remember"),
            FunctionTool.from_defaults(fn=recall, async_fn=arecall, name="recall")]


def _said(decision: Decision) -> str:
    return f"{decision.action.value}: {decision.rationale}"
