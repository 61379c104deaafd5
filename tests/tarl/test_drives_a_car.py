"""What someone drives is their car ("dan drives a white Tesla Model Y", "driving a Hyundai i20 since the crash"): a new
one said in other words replaces the one held, as "my car is ..." would."""

from __future__ import annotations

import pytest

from shared_core.schema import Action, Ledger


@pytest.mark.parametrize("first, then", [
    ("Dan's car is a grey Skoda Octavia.", "dan drives a white Tesla Model Y these days"),
    ("User's car is a red Mazda 2.", "driving a Hyundai i20 since the crash"),
])
def test_driving_another_car_replaces_the_car(decides, first, then) -> None:
    decides(first, then, Action.REVISE, Ledger.HISTORY)
