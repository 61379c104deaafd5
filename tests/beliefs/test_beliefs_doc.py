"""The package docstring is a runnable tour; keep it true."""

from __future__ import annotations

import doctest

import shared_core.beliefs


def test_the_tour_in_the_package_docstring_runs():
    result = doctest.testmod(shared_core.beliefs, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0
