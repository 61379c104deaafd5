"""One amount in another unit (``shared_core.units``): "183 cm" is "6 ft" said again, "190 cm" is not. Through a real
engine: ``test_tarl_chat_changes`` (a restatement in another unit changes nothing, a converted amount that moved
revises its entry)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
import pytest

from shared_core.units import amounts, restated, same_amount
from shared_core.written import written_alike


def test_amounts_read_the_units_people_and_tools_write() -> None:
    assert [(a.kind, a.unit, a.value) for a in amounts("tank: 189 L, 50 gallons, 42,300 mi")] == [
        ("volume", "l", 189.0), ("volume", "gallons", 50.0), ("length", "mi", 42300.0)]
    assert [(a.unit, a.value) for a in amounts("She's 5'9\" and 4 ft 2 in")] == [("in", 69.0), ("in", 50.0)]
    assert [a.unit for a in amounts("850 sq ft, 79 m², thermostat at 68F, 2.4 bar")] == ["sqft", "m²", "f", "bar"]
    assert amounts("moved to flat 4F") == () and amounts("21st birthday, 5 in the morning") == ()


@pytest.mark.parametrize(("claim", "entry", "same"), [
    ("I'm 183 cm", "User is 6 ft tall.", True),
    ("the nurse says 190 cm", "User is 6 ft tall.", False),      # a loose "6 ft" is not a licence for 6'3"
    ("the blue suitcase is 50 lbs", "User's suitcase weighs 23 kg", True),    # 50.7, give or take the half kilo
    ("I'm 78 kg these days", "User weighs 170 lbs", False),
    ("OBD-II odometer: 68,077 km", "car.mileage = 42,300 mi", True),
    ("thermostat at 68°F", "Thermostat setpoint: 20 C", True),
    ("thermostat at 68°F", "Thermostat setpoint: 21°C", False),
    ("parcel weight 2000 g", "Package weight: 2 kg.", True),
])
def test_one_amount_in_another_unit(claim, entry, same) -> None:
    assert same_amount(claim, entry) is same


def test_a_claim_is_compared_in_the_entry_s_unit() -> None:
    assert restated("im about 183cm", "User is 6 ft tall") == "im about 6 ft"
    assert restated("the nurse says 190 cm", "User is 6 ft tall") == "the nurse says 6.2 ft"    # never rounded onto it
    assert restated("nest: target 68°F", "Thermostat setpoint: 21°C") == "nest: target 20 °C"
    assert restated("the desk is 160 cm", "the shelf is 160 cm") == "the desk is 160 cm"      # one unit: left as said
    assert restated("I'm about 5 foot 11 if that helps", "User is 180 cm tall.") == "I'm about 180 cm if that helps"


def test_thousands_are_written_as_the_entry_writes_them() -> None:
    assert restated("on 45k a year", "User's salary is £45,000 a year") == "on 45,000 a year"
    assert restated("bumped to 48k", "User's salary is £45,000 a year") == "bumped to 48,000"
    assert restated("ad budget is $2,500 a month", "Monthly ad budget: 2.5k") == "ad budget is $2.5k a month"
    assert restated("we've got 30 saved", "the deposit is 30k") == "we've got 30 saved"     # "30" is no thousands
    assert restated("48k now", "45,000 or 46,000") == "48k now"         # two numbers: which one is unsaid


@given(st.floats(min_value=20, max_value=5000), st.sampled_from([("kg", "lbs", 2.20462), ("km", "miles", 0.621371),
                                                                 ("l", "gallons", 0.264172), ("m²", "sq ft", 10.7639)]))
def test_a_converted_amount_rounded_to_a_decimal_is_the_same_and_one_moved_a_tenth_is_not(value, units) -> None:
    metric, other, factor = units
    entry = f"stated as {value:.1f} {metric}"
    assert same_amount(f"that is {value * factor:.1f} {other}", entry)
    assert not same_amount(f"that is {value * factor * 1.1:.1f} {other}", entry)


def test_an_approximation_of_the_entry_s_number_is_that_number() -> None:
    """At the claim's own precision (its decimals, its trailing zeros): "4.8ish" is 4.79, "1850ish" is not 1712."""
    assert restated("the mortgage rate's like 4.8ish", "rate=4.79% fixed_until=day200") == "the mortgage rate's like 4.79"
    assert restated("blitz is 1700ish now", "blitz rating: 1712") == "blitz is 1712 now"
    assert restated("blitz is like 1850ish now", "blitz rating: 1712") == "blitz is like 1850ish now"
    assert restated("down to about 78 kilos", "User weighs 82.4 kg.") == "down to about 78.0 kg"   # (its unit the entry's)
    assert restated("rent's 1200 now", "rent is 1,180") == "rent's 1200 now"          # said exactly: no rounding


def test_a_phone_number_is_written_as_the_entry_spells_it() -> None:
    """One number with or without its country code, trunk zero and spaces: written as the entry has it, so a courier's
    "my number's 07700900123" repeats "+44 7700 900123" word for word (it was appended beside it as a second phone)."""
    assert restated("my number's 07700900123 if the courier needs it", "mobile: +44 7700 900123") == \
        "my number's +44 7700 900123 if the courier needs it"
    assert restated("new number 07700900456", "mobile: +44 7700 900123") == "new number 07700900456"
    assert restated("flight on 2025-07-10 at 18:40", "flight 2025-07-10") == "flight on 2025-07-10 at 18:40"


def test_an_amount_in_words_is_read_where_the_entry_states_one() -> None:
    """"seven and a half miles" is the entry's "12 km" (it named no number, and read as a new value); counts in words
    compound as they are said ("a thousand and ten", "one thousand one hundred and fifty"), "one" alone stays a word."""
    assert restated("it's about seven and a half miles each way", "User cycles 12 km to work each way.") == \
        "it's about 12 km each way"
    assert restated("two kids now", "User has 3 kids") == "two kids now"          # no unit: compared as written
    assert written_alike("rent's a thousand and ten a month") == "rent is 1010 a month"
    assert written_alike("one thousand one hundred and fifty pounds") == "1150 pounds"
    assert written_alike("7 and a half hours") == "7.5 hours" and written_alike("one of them") == "one of them"
