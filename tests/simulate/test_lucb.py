"""The LUCB-style static rule: leader, challenger, the wider interval, the static threshold."""

from simulate import HIGH, LOW, LucbStatic


def _started(ys_low, ys_high, n_gamma=1, zeta=(0.0, 0.0, 0.0)):
    pol = LucbStatic(3, 1.0, 10.0, 1000.0, ell=0.01, n_gamma=n_gamma, zeta=list(zeta))
    for k in range(3):
        for m, y in ((LOW, ys_low[k]), (HIGH, ys_high[k])):
            pol.select()
            pol.update(k, m, y)
    return pol


def test_queries_the_wider_of_leader_and_challenger():
    pol = _started([0.9, 0.5, 0.1], [0.9, 0.5, 0.1], zeta=(0.0, 0.3, 0.0))
    # leader: arm 0 (largest aggregate LCB); challenger: arm 1 (largest aggregate UCB among the others).
    # Equal widths 2 G(1): the tie goes to the lower index, the leader.
    a = pol.select()
    assert a.arm == 0 and a.fidelity == HIGH          # N_L = 1 >= N_gamma = 1: high fidelity
    pol.update(0, HIGH, 0.9)
    a = pol.select()                                  # the leader's interval is now narrower: the challenger
    assert a.arm == 1 and a.fidelity == HIGH


def test_static_threshold_sends_low_first():
    pol = _started([0.9, 0.5, 0.1], [0.9, 0.5, 0.1], n_gamma=5)
    assert pol.select().fidelity == LOW
