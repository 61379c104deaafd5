"""LlamaIndex adapter for tarl-memory: a memory block, an LRE-trimmed chat
memory, belief tools with their summary block, a retriever, tools and Janus-gated agent reflections.

Thin by design: every class translates LlamaIndex objects to ``shared_core.MemoryEngine`` calls and back.
"""

from .beliefs import TarlBeliefBlock, belief_tools
from .block import TarlMemoryBlock
from .chat_store import SQLiteChatStore
from .engine import llamaindex_embedder, open_engine
from .judge import LLMJudge
from .memory import TarlMemory, trim_history
from .reflections import AgentReflections
from .retriever import TarlRetriever
from .statements import user_statements
from .tools import memory_tools

__all__ = [
    "AgentReflections", "LLMJudge", "SQLiteChatStore", "TarlBeliefBlock", "TarlMemory", "TarlMemoryBlock",
    "TarlRetriever", "belief_tools", "memory_tools", "llamaindex_embedder", "open_engine", "trim_history",
    "user_statements",
]
