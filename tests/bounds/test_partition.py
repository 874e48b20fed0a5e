"""arm_partition (eq:analysis-arm-partition) and refine_partition (eq:app-analysis-Cdet)."""

import math

import pytest
from hypothesis import given, strategies as st

from bounds import ArmClass, ArmRunFacts, TaccInputError, arm_partition, in_h, prior_partition, refine_partition

A, B, C, CD, CU, OPT = ArmClass.A, ArmClass.B, ArmClass.C, ArmClass.C_D, ArmClass.C_U, ArmClass.OPTIMAL


def test_boundaries():
    # N_gamma = 5, S0 = 10: tau = 5 -> A, 6 -> C, 15 -> C, 16 -> B, inf -> B
    got = arm_partition([math.inf, 5, 6, 15, 16, math.inf], n_gamma=5, s0=10, best_arm=0)
    assert got == (OPT, A, C, C, B, B)


def test_s0_zero_has_no_c_class():
    assert arm_partition([math.inf, 3, 4], n_gamma=3, s0=0, best_arm=0) == (OPT, A, B)


def test_k_equals_two():
    assert arm_partition([1, math.inf], n_gamma=1, s0=1, best_arm=1) == (A, OPT)


def test_refine():
    classes = (OPT, C, C, C, A)
    tau = (math.inf, 8, 8, 8, 2)
    facts = [ArmRunFacts(20, 0), ArmRunFacts(8, 0), ArmRunFacts(8, 1), ArmRunFacts(7, 0), ArmRunFacts(2, 0)]
    assert refine_partition(classes, tau, facts) == (OPT, CD, CU, CU, A)
    assert prior_partition(classes) == (OPT, CU, CU, CU, A)
    assert [in_h(c) for c in (A, B, CD, CU)] == [False, True, False, True]


@given(st.lists(st.one_of(st.integers(1, 200), st.just(math.inf)), min_size=2, max_size=30),
       st.integers(1, 100), st.integers(0, 50), st.data())
def test_covers_every_suboptimal_arm_once(tau, ng, s0, data):
    kb = data.draw(st.integers(0, len(tau) - 1))
    classes = arm_partition(tau, ng, s0, kb)
    for k, (t, c) in enumerate(zip(tau, classes, strict=True)):
        if k == kb:
            assert c is OPT
            continue
        memberships = [t <= ng, ng < t <= ng + s0, t > ng + s0]
        assert sum(memberships) == 1
        assert c is (A if memberships[0] else C if memberships[1] else B)


@pytest.mark.parametrize("args,field", [
    (([math.inf, 0], 5, 1, 0), "tau[1]"),
    (([math.inf, 2.5], 5, 1, 0), "tau[1]"),
    (([math.inf, 3], 0, 1, 0), "n_gamma"),
    (([math.inf, 3], 5, -1, 0), "s0"),
    (([math.inf, 3], 5, 1, 2), "best_arm"),
])
def test_invalid(args, field):
    with pytest.raises(TaccInputError) as info:
        arm_partition(*args)
    assert info.value.field == field


def test_invalid_facts():
    with pytest.raises(TaccInputError) as info:
        ArmRunFacts(-1, 0)
    assert info.value.field == "low_count"
    with pytest.raises(TaccInputError) as info:
        refine_partition((OPT, C), (math.inf, 3), [ArmRunFacts(1, 0)])
    assert info.value.field == "facts"


@given(st.lists(st.sampled_from([*ArmClass, "C", None, 3]), max_size=30),
       st.dictionaries(st.sampled_from(list(ArmClass)), st.sampled_from(list(ArmClass)), max_size=3))
def test_replace_classes_is_the_comprehension_by_identity(classes, swap):
    from bounds._partition import replace_classes
    want = tuple(next((new for old, new in swap.items() if c is old), c) for c in classes)
    got = replace_classes(classes, swap)
    assert len(got) == len(want) and all(g is w for g, w in zip(got, want, strict=True))


@given(st.lists(st.one_of(st.integers(1, 40), st.just(math.inf), st.just(10**400), st.booleans()), max_size=30),
       st.data())
def test_partition_checks_tau_as_one_by_one(tau, data):
    # the vector check of tau (ints and floats) refuses what the entry-by-entry check refuses, and classes the rest
    from bounds._partition import _bad_tau
    kb = data.draw(st.integers(0, max(0, len(tau) - 1)))
    if not tau:
        return
    want = [k for k, x in enumerate(tau) if k != kb and not (x == math.inf or (isinstance(x, int) and x >= 1))]
    if not want and any(type(x) is int and x > 2**1000 for x in tau):      # beyond the float range, as before
        with pytest.raises(OverflowError):
            _bad_tau(tau, kb)
        return
    bad, t = _bad_tau(tau, kb)
    assert bad == want
    assert t is None or t.tolist() == [float(x) for x in tau]
