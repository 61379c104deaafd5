"""What follows ", so I'll ...", ", which ..." or ", because ..." says what the speaker will do or why, not the attribute's
values: "you're allergic to penicillin, so I'll flag any antibiotic suggestions" holds one allergy, not four values."""

from __future__ import annotations

from shared_core.slots import of


def test_values_stop_before_a_consequence() -> None:
    values = of("Just to recap: you're allergic to penicillin, so I'll flag any antibiotic suggestions.").values
    assert "penicillin" in values and not {"flag", "antibiotic", "suggestions"} & values
    assert "walnuts" in of("allergic to walnuts, which is a pain at christmas").values
    assert "christmas" not in of("allergic to walnuts, which is a pain at christmas").values


def test_a_list_keeps_every_value() -> None:
    assert {"penicillin", "latex"} <= of("allergic to penicillin and latex").values
