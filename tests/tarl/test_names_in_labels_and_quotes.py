"""Two things of one kind named alike in words otherwise the same are two things, both kept: a lower-case name in quotes
("Cloud function 'resizer' ..."), a capitalised code ("Rain gauge RG-NORTH ..."), a share's path ("//files02/hr"), a name after a
label both lines share ("scheduler on node w3: task purge_tmp ..."), and a name before a verb of a device's rule
("Fan fan-intake-a triggers ..."). The same thing given a new value still replaces it."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_quoted_lowercase_name_is_another_thing(kept_beside) -> None:
    kept_beside("Cloud function 'resizer' is configured with MemorySize=512 MB.",
                "Cloud function 'invoice-render' is configured with MemorySize=4096 MB.", "tool")


def test_a_capitalised_code_is_another_thing(kept_beside) -> None:
    kept_beside("Rain gauge RG-NORTH has offset=+0.3.", "Rain gauge RG-EAST has offset=-0.1.", "tool")


def test_a_share_path_is_another_thing(kept_beside) -> None:
    kept_beside("File share //files02/hr has quota=40GB.", "File share //files02/legal has quota=120GB.", "tool")


def test_a_name_after_a_shared_label_is_another_thing(kept_beside) -> None:
    kept_beside("scheduler on node w3: task purge_tmp runs at '0 4 * * *'.",
                "scheduler on node w3: task export_ledger runs at '45 23 * * 5'.", "tool")


def test_a_device_rule_named_apart_is_another_thing(kept_beside) -> None:
    kept_beside("Fan fan-intake-a triggers boost at cpu.temp.high=70.", "Fan fan-exhaust-b triggers boost at cpu.temp.high=82.",
                "tool")


def test_the_same_queue_moved_revises(decides) -> None:
    decides("Queue 'invoices' is configured with a visibility timeout of 60 seconds.",
            "Queue 'invoices' is configured with a visibility timeout of 90 seconds now.", Action.REVISE, Ledger.HISTORY,
            "tool", "tool")
