"""``tarl bench scale --quick`` on PostgreSQL + a Chroma server: the 4-process row and where its writers
serialise (the share of the run the store's write lock was held, and waited for)."""

from __future__ import annotations

import json
import os

import pytest

from shared_core.bench import scale


@pytest.mark.enable_socket
def test_scale_bench_quick_on_the_servers_reports_the_write_lock(pg_url, chroma_url, tmp_path):
    out = tmp_path / "scale.json"
    assert scale.main(["--quick", "--systems", "postgres_chroma_server", "--pg-url", os.environ["TARL_TEST_PG_URL"],
                       "--chroma-url", chroma_url, "--json", str(out)]) == 0
    row = json.loads(out.read_text())["systems"]["postgres_chroma_server"]
    assert row["errors"] == 0 and row["lost"] == 0 and row["writes_per_s_4proc"] > 0 and row["writes_per_s_4proc_4ns"] > 0
    assert 0 < row["lock_held_share_4proc"] <= 1.1   # one holder at a time (measured client-side)
    assert 0 <= row["lock_wait_share_4proc"] < 1.0
