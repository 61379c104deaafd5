"""Benchmarks: ``tarl bench NAME`` runs ``shared_core.bench.<name>.main(argv)`` (dashes become underscores)."""
