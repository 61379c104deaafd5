"""Ledger stores: the source of truth. SQLite is the default; anything implementing ``LedgerStore`` fits."""

from .base import LedgerStore, LedgerWriter
from .sqlite import SQLiteLedgerStore

__all__ = ["LedgerStore", "LedgerWriter", "SQLiteLedgerStore"]
