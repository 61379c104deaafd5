"""Fixtures for the LlamaIndex adapter tests: a network guard, a recording chat model, an offline embedding."""

from __future__ import annotations

import ipaddress
import sys
import zlib
from collections.abc import Callable
from typing import Any

import pytest
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.llms import MockFunctionCallingLLM

_GUARD = {"on": False}


def _loopback(host: Any) -> bool:
    if host in ("localhost", None, "") or not isinstance(host, str):
        return host in ("localhost", None, "")
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _audit(event: str, args: tuple) -> None:
    if not _GUARD["on"]:
        return
    if event == "socket.getaddrinfo" and not _loopback(args[0]):
        raise RuntimeError(f"network access in a test: getaddrinfo({args[0]!r})")
    if event == "socket.connect" and isinstance(args[1], tuple) and not _loopback(args[1][0]):
        raise RuntimeError(f"network access in a test: connect({args[1]!r})")


sys.addaudithook(_audit)


@pytest.fixture(autouse=True)
def no_network():
    """Any non-loopback DNS lookup or connect raises (on top of pytest-socket)."""
    _GUARD["on"] = True
    yield
    _GUARD["on"] = False


class Recorder:
    """A real LlamaIndex chat model (MockFunctionCallingLLM) whose replies come from ``script``; every
    message list it receives is kept in ``calls`` so tests assert on what the LLM saw."""

    def __init__(self, script: Callable[[list[ChatMessage], dict], ChatMessage] | None = None) -> None:
        self.calls: list[list[ChatMessage]] = []
        self.script = script or (lambda messages, kwargs: ChatMessage(role="assistant", content="Noted."))
        self.llm = MockFunctionCallingLLM(response_generator=self._reply, is_chat_model=True)

    def _reply(self, messages: list[ChatMessage], **kwargs: Any) -> ChatMessage:
        self.calls.append(list(messages))
        return self.script(list(messages), kwargs)

    def seen(self, call: int = -1) -> str:
        """Everything the LLM received in one call, as one text."""
        return "\n".join(f"{m.role.value}: {m.content}" for m in self.calls[call])

    def system(self, call: int = -1) -> str:
        return "\n".join(m.content or "" for m in self.calls[call] if m.role == MessageRole.SYSTEM)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def updater() -> Recorder:
    """A second recording model, e.g. the LLM behind a reflection updater."""
    return Recorder()


class HashEmbedding(BaseEmbedding):
    """An offline LlamaIndex embedding with real ranking (word hashing), unlike MockEmbedding's constant."""

    dim: int = 64

    def _vec(self, text: str) -> list[float]:
        v = [0.0] * self.dim
        for w in text.lower().split():
            v[zlib.crc32(w.strip(".,?!").encode()) % self.dim] += 1.0
        return v

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._vec(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._vec(text)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._vec(query)


@pytest.fixture
def hash_embedding() -> HashEmbedding:
    return HashEmbedding(model_name="hash64")
