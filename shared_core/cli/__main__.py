"""``python -m shared_core.cli``: the ``tarl`` command."""

from . import main

raise SystemExit(main())
