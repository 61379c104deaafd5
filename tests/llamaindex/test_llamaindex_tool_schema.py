"""What an LLM integration sends for the memory tools: ``ToolMetadata.to_openai_tool()`` (called by
LlamaIndex's LLM integrations to send tools; it refuses descriptions over 1,024 characters) works for
each, and every argument carries its description in the JSON schema, as the LangChain tools' do. Found
converting ``memory.tools()`` the way an integration does: remember's description was 1,135 characters."""

from __future__ import annotations

import pytest

from llamaindex_tarl import TarlMemory


@pytest.fixture
def tools():
    with TarlMemory.from_defaults(namespace="user:ana") as memory:
        yield {t.metadata.name: t for t in memory.tools(forget=True)}


def test_every_memory_tool_converts_to_an_openai_tool(tools):
    specs = {name: t.metadata.to_openai_tool()["function"] for name, t in tools.items()}
    assert sorted(specs) == ["forget", "recall", "remember"]
    for name, spec in specs.items():
        assert spec["description"].startswith(f"{name}(")
        assert "Args:" not in spec["description"]             # the argument docs are in the schema


def test_every_argument_is_described_and_the_context_is_hidden(tools):
    for name, t in tools.items():
        properties = t.metadata.get_parameters_dict()["properties"]
        assert "ctx" not in properties
        assert all(p.get("description") for p in properties.values()), (name, properties)
    remember = tools["remember"].metadata.get_parameters_dict()
    assert remember["required"] == ["fact"] and sorted(remember["properties"]) == ["fact", "many", "slot", "source"]
    assert "subject.attribute" in remember["properties"]["slot"]["description"]


async def test_the_tools_still_run_with_and_without_a_context(tools):
    said = (await tools["remember"].acall(fact="Ana prefers window seats", source="assistant", ctx=None)).content
    assert said.startswith("append")
    assert "window seats" in tools["recall"].call(query="seat preference").content
