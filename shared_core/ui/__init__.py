"""``tarl ui``: a local dashboard over a store (see ``app`` for the framework choice and safety rules)."""

from .app import StoreHandle, build_app

__all__ = ["StoreHandle", "build_app"]
