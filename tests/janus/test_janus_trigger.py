"""Memory momentum trigger: arithmetic on hand-computed vectors, warm-up, and the budget baselines."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from shared_core.janus.trigger import (
    AlwaysTrigger,
    MomentumTrigger,
    PeriodicTrigger,
    RandomTrigger,
    cosine,
    momentum_update,
    should_trigger,
)

v = np.array


def test_cosine_hand_computed():
    assert cosine(v([1.0, 0.0]), v([0.0, 2.0])) == 0.0
    assert cosine(v([1.0, 1.0]), v([2.0, 2.0])) == pytest.approx(1.0)
    assert cosine(v([3.0, 4.0]), v([-4.0, 3.0])) == pytest.approx(0.0)
    assert cosine(v([1.0, 0.0]), v([-1.0, 1.0])) == pytest.approx(-1 / math.sqrt(2))


def test_cosine_of_zero_vector_is_zero():
    assert cosine(v([0.0, 0.0]), v([1.0, 2.0])) == 0.0
    assert cosine(v([1.0, 2.0]), v([1.0, 2.0, 3.0])) == 0.0


def test_momentum_update_hand_computed():
    m = momentum_update(None, v([1.0, 0.0]), 0.9)          # initialised to z
    assert m.tolist() == [1.0, 0.0]
    m = momentum_update(m, v([0.0, 1.0]), 0.9)             # 0.9*[1,0] + 0.1*[0,1]
    assert m == pytest.approx(v([0.9, 0.1]))
    m = momentum_update(m, v([-1.0, -1.0]), 0.5)           # 0.5*[.9,.1] + 0.5*[-1,-1]
    assert m == pytest.approx(v([-0.05, -0.45]))


def test_threshold_is_strict():
    assert should_trigger(v([1.0, 0.0]), None, 0.0) == (False, None)   # no momentum yet: no trigger
    fire, c = should_trigger(v([0.0, 1.0]), v([1.0, 0.0]), 0.0)      # orthogonal: cos 0, not < 0
    assert (fire, c) == (False, 0.0)
    fire, c = should_trigger(v([-1.0, 0.1]), v([1.0, 0.0]), 0.0)
    assert fire and c < 0
    fire, _ = should_trigger(v([1.0, 1.0]), v([1.0, 0.0]), 0.8)       # cos 0.707 < tau 0.8
    assert fire


def test_momentum_trigger_sequence_with_warmup():
    trig = MomentumTrigger(beta=0.9, tau=0.0, warmup=2)
    zs = [v([1.0, 0.0]), v([1.0, 0.2]), v([-1.0, 0.0]), v([0.0, 1.0])]
    checks = []
    for z in zs:
        checks.append(trig.check(z))
        trig.advance(z)
    # step 0: warm-up, no momentum; step 1: warm-up although it points along m; step 2: reversal fires
    assert [c.warmup for c in checks] == [True, True, False, False]
    assert [c.fired for c in checks] == [False, False, True, False]
    assert checks[0].cosine is None
    # m after three steps: z0 -> 0.9*z0 + 0.1*z1 -> 0.9*m + 0.1*z2
    m1 = v([1.0, 0.0]) * 0.9 + v([1.0, 0.2]) * 0.1
    m2 = m1 * 0.9 + v([-1.0, 0.0]) * 0.1
    assert checks[3].cosine == pytest.approx(cosine(v([0.0, 1.0]), m2))
    assert trig.momentum == pytest.approx(m2 * 0.9 + v([0.0, 1.0]) * 0.1)
    assert trig.steps == 4


def test_warmup_reversal_does_not_fire_but_updates_momentum():
    trig = MomentumTrigger(warmup=3)
    for z in (v([1.0, 0.0]), v([-1.0, 0.0])):
        assert not trig.check(z).fired
        trig.advance(z)
    assert trig.momentum == pytest.approx(v([0.8, 0.0]))   # also updated during warm-up


def test_check_does_not_change_state():
    trig = MomentumTrigger(warmup=0)
    trig.advance(v([1.0, 0.0]))
    before = trig.momentum.copy()
    for _ in range(3):
        assert trig.check(v([-1.0, 0.0])).fired
    assert trig.momentum.tolist() == before.tolist() and trig.steps == 1


@pytest.mark.parametrize("kwargs", [{"beta": 1.0}, {"beta": -0.1}, {"tau": 2.0}, {"tau": float("nan")}, {"warmup": -1}])
def test_bad_parameters_are_refused(kwargs):
    with pytest.raises(ValueError):
        MomentumTrigger(**kwargs)


def test_baselines():
    z = v([1.0])
    always, periodic, never = AlwaysTrigger(warmup=2), PeriodicTrigger(period=3, warmup=2), RandomTrigger(0.0, warmup=0)
    fired = {"always": [], "periodic": [], "never": []}
    for _ in range(8):
        for name, trig in (("always", always), ("periodic", periodic), ("never", never)):
            fired[name].append(trig.check(z).fired)
            trig.advance(z)
    assert fired["always"] == [False, False] + [True] * 6
    assert fired["periodic"] == [False, False, False, False, True, False, False, True]
    assert not any(fired["never"])
    rnd = RandomTrigger(0.5, seed=3, warmup=0)
    assert rnd.check(z) == rnd.check(z)                   # pure in (seed, step)
    with pytest.raises(ValueError):
        PeriodicTrigger(period=0)


@given(
    m=arrays(float, 4, elements=st.floats(-10, 10)),
    z=arrays(float, 4, elements=st.floats(-10, 10)),
    beta=st.floats(0.0, 0.99),
)
def test_momentum_is_convex_combination_and_cosine_bounded(m, z, beta):
    new = momentum_update(m, z, beta)
    assert np.all(new <= np.maximum(m, z) + 1e-9) and np.all(new >= np.minimum(m, z) - 1e-9)
    assert -1.0 - 1e-9 <= cosine(z, m) <= 1.0 + 1e-9
