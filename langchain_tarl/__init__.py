"""LangChain v1 / LangGraph adapter for tarl-memory: thin translations over ``shared_core.MemoryEngine``.

- :class:`TarlStore`: a LangGraph ``BaseStore`` whose writes are TARL decisions (``create_agent(store=...)``).
- :class:`TarlRetriever`: Accepted memories as ``Document``s.
- :class:`TarlMemoryMiddleware`: recall into the prompt, remember/recall tools, optional claim extraction.
- :class:`ChatModelJudge`: the agent's chat model as the judge memory asks when its policy is unsure.
- :class:`LRETrimMiddleware`: trim the model's input to a token budget with LRE.
- :class:`TarlBeliefMiddleware`: belief tools (hypotheses, questions, experiments) and their summary in the prompt.
- :class:`JanusReflectionMiddleware`: lessons learned after each run, deployed only when Janus finds them useful.

LangGraph namespaces map to engine namespaces by joining labels with ``"."`` (``("memories", "u1")`` <->
``"memories.u1"``; see :mod:`langchain_tarl.namespaces`). Importing this package loads neither torch nor scikit-learn; chromadb loads when an engine opens.
"""

from .beliefs import TarlBeliefMiddleware, belief_tools
from .embeddings import embedder_from_langchain
from .judge import ChatModelJudge
from .memory_middleware import ExtractedClaim, ExtractedClaims, TarlMemoryMiddleware
from .messages import as_message
from .reflection_middleware import JanusReflectionMiddleware
from .retriever import TarlRetriever
from .store import TarlItem, TarlSearchItem, TarlStore
from .trim_middleware import LRETrimMiddleware

__all__ = [
    "ChatModelJudge", "ExtractedClaim", "ExtractedClaims", "JanusReflectionMiddleware", "LRETrimMiddleware", "TarlItem",
    "TarlBeliefMiddleware", "TarlMemoryMiddleware", "TarlRetriever", "TarlSearchItem", "TarlStore", "as_message",
    "belief_tools", "embedder_from_langchain",
]
