"""Ledger stores: the source of truth. SQLite is the default, PostgreSQL for stores shared
between processes or hosts; anything implementing ``LedgerStore`` fits."""

from .base import LedgerStore, LedgerWriter
from .postgres import PostgresLedgerStore
from .sqlite import SQLiteLedgerStore

__all__ = ["LedgerStore", "LedgerWriter", "PostgresLedgerStore", "SQLiteLedgerStore"]
