"""LlamaIndex adapter."""
