"""LangChain adapter."""
