"""Single-fidelity UCB policies: the start, the index, the sources of Weak-Fixed and Low-Improving."""

from simulate import HIGH, LOW, LowImproving, Ucb, WeakFixed, make_problem, run


def test_ucb_queries_high_only_and_picks_the_largest_index():
    pol = Ucb(3, 1.0, 10.0, 100.0, ell=0.01)
    for k, y in enumerate([0.1, 0.9, 0.5]):
        a = pol.select()
        assert (a.arm, a.fidelity) == (k, HIGH)
        pol.update(k, HIGH, y)
    assert pol.select().arm == 1


def test_ties_go_to_the_lowest_index():
    pol = Ucb(3, 1.0, 10.0, 100.0, ell=1.0)
    for k in range(3):
        pol.select()
        pol.update(k, HIGH, 0.5)
    assert pol.select().arm == 0


def test_weak_fixed_sees_the_frozen_source(config):
    p = make_problem(config(**{"params.budget": 3000}))
    assert WeakFixed.source == "frozen" and LowImproving.source == "improving" and WeakFixed.fidelity == LOW
    frozen_run, improving_run = run(p, "weak-fixed", 0), run(p, "low-improving", 0)
    assert sum(frozen_run.n_high) == sum(improving_run.n_high) == 0
    assert frozen_run != improving_run
