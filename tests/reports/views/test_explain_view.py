"""``tacc explain``: each arm's story agrees with the run record and the trace it came from."""

import dataclasses
import json

import numpy as np
import pytest

from bounds import TaccInputError, analyze
from reports import explain as explain_module
from reports.views import _explain_view
from reports.explain import explain
from reports.views._explain_view import render, to_json
from reports.report import default_config
from reports.cli import main
from simulate import HIGH, LOW, make_problem, run


@pytest.fixture(scope="module")
def story():
    return explain(default_config(), "tacc", 0)


def _counts_before(trace, k, fidelity):
    """The arm's count at `fidelity` before each round (rounds from 1)."""
    tr = np.asarray(trace)
    mine = (tr[:, 0] == k) & (tr[:, 1] == fidelity)
    return np.concatenate([[0], np.cumsum(mine)])     # index r: the count after round r


def test_stories_agree_with_the_record(story):
    config = default_config()
    rec = run(make_problem(config), "tacc", 0, trace=True)
    a = analyze(config)
    assert story.regret == rec.regret and story.rounds == rec.rounds
    assert sum(s.regret_fraction for s in story.arms) == pytest.approx(1.0)
    for s in story.arms:
        k = s.arm
        assert (s.n_low, s.n_high, s.continuation) == (rec.n_low[k], rec.n_high[k], rec.continuation[k])
        low = _counts_before(rec.trace, k, LOW)
        high = _counts_before(rec.trace, k, HIGH)
        if s.threshold_round > 0:                 # the round of the arm's N_gamma-th low query
            assert low[s.threshold_round] == a.n_gamma and low[s.threshold_round - 1] == a.n_gamma - 1
        for r in s.continuation_rounds:           # continuation pulls are low queries made at N_L >= N_gamma
            assert rec.trace[r - 1] == (k, LOW) and low[r - 1] >= a.n_gamma
        if s.certified_by.startswith("L"):
            assert low[s.certified_round] == max(s.tau, a.n_gamma)
        if s.certified_by.startswith("H"):
            assert high[s.certified_round] == a.high_count_bound[k] - 1


def test_continuation_that_certifies_is_told(story):
    """The default instance has a C arm that continuation carries to tau_k (C^d): the story says so."""
    cd = [s for s in story.arms if s.run_class == "C^d" and s.reached_tau_by_continuation]
    assert cd, [(s.arm, s.run_class, s.continuation) for s in story.arms]
    s = cd[0]
    assert s.continuation > 0 and s.certified_by.startswith("L") and s.high_in_window == 0
    assert "carried it to tau_k" in _explain_view.story(story, s.arm)
    assert s.bound_after <= s.bound_before     # here the outlier query itself certifies: B_k stays D / tau_k


def test_engines_tell_the_same_story(story):
    assert explain(default_config(), "tacc", 0, engine="reference") == story


def test_other_policies_have_no_continuation():
    e = explain(default_config(), "dnc", 1)
    assert all(s.continuation == 0 and not s.continuation_rounds for s in e.arms)


@pytest.mark.parametrize("policy", ["ucb", "rdfe", "dnc"])
def test_another_policy_is_told_against_taccs_theory_not_bound_by_it(policy, story):
    """TACC's certification, continuation window and N_H bound are not about UCB, RDFE or DNC: their runs are told
    against them as TACC's, never as "certified" or "against the bound"; TACC's own story keeps those words."""
    e = explain(default_config(), policy, 0)
    text = render(e, max_arms=len(e.arms))
    assert "TACC's N_H bound" in text and f"they do not bound {policy}'s runs" in text
    assert "against the bound" not in text and "certified by" not in text
    assert "although its window allows" not in text
    assert f"prop:analysis-high-selection, is about TACC's runs, not {policy}'s" in text
    mine = render(story, max_arms=len(story.arms))
    assert "TACC's N_H bound" not in mine and "against the bound" in mine and "is not TACC" not in mine


def test_a_record_that_disagrees_with_its_trace_is_refused(monkeypatch):
    real = explain_module.run

    def broken(*args, **kw):
        rec = real(*args, **kw)
        return dataclasses.replace(rec, continuation=tuple(c + 1 for c in rec.continuation))

    monkeypatch.setattr(explain_module, "run", broken)
    with pytest.raises(TaccInputError) as e:
        explain(default_config(), "tacc", 0)
    assert e.value.field == "trace"


def test_render_and_json(story):
    text = render(story, max_arms=3)
    assert "N_gamma at round" in text and "... 3 more arms" in text
    js = to_json(story)
    assert len(js["arms"]) == 6 and all("story" in a for a in js["arms"])
    json.dumps(js)


def test_cli_explain(tmp_path, capsys):
    assert main(["explain", "llm-residual", "--seed", "1", "--json", "-", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr()
    js = json.loads(out.out)
    assert out.err.startswith("timeline: ")      # no empty line first
    best = [a for a in js["arms"] if a["gap"] == 0][0]
    assert best["continuation"] > 0 and best["continuation"] <= best["window_pulls"]
    assert {p.suffix for p in tmp_path.iterdir()} == {".png", ".pdf"}
    assert all(p.stat().st_size > 1000 for p in tmp_path.iterdir())
    assert main(["explain", "llm-residual", "--policy", "nope"]) == 2


def test_a_share_of_no_regret_is_undefined_not_zero_percent():
    """Every mean equal: the run's regret is 0 and an arm's share of it is 0 / 0, shown as undefined (it printed
    "0 (0.0%)"); a run with regret keeps its percentages."""
    from bounds import parse_config
    cfg = parse_config({"name": "equal", "instance": {"mu_high": [0.5, 0.5, 0.5],
                                                      "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5}},
                        "costs": {"low": 1.0, "high": 10.0},
                        "params": {"budget": 400, "rho": 0.5, "gamma": 0.3, "eta": 0.01, "s0": 2}})
    e = explain(cfg, "tacc", 0)
    assert e.regret == 0 and all(np.isnan(a.regret_fraction) for a in e.arms)
    out = render(e)
    assert "(share undefined: regret 0)" in out and "no share of the regret: the run's regret is 0" in out
    assert "0.0%" not in out and "((" not in out and "))" not in out
    arm = json.loads(json.dumps(to_json(e), allow_nan=False))["arms"][0]
    assert arm["regret_fraction"] is None and "0 / 0" in arm["regret_fraction_reason"]
    story = explain(default_config(), "tacc", 0)
    assert story.regret > 0 and "% of the regret" in render(story)


def test_tied_arms_are_told_as_tacc_bounds_tells_them():
    """Every mean equal (equal.toml): only k* = 0 is the best arm; arms 1-3 are tied with it, class B with no N_H
    bound, as ``tacc bounds`` says, never "certified_by": "- (best arm)" with a high_bound_reason "+infinity"."""
    from bounds import continuation_of, parse_config
    from reports.views._bounds import OPTIMAL_NO_COUNT_BOUND, tied_sentence
    from reports.views._bounds import to_json as bounds_json
    cfg = parse_config({"name": "equal", "instance": {"mu_high": [0.5, 0.5, 0.5, 0.5],
                                                      "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5}},
                        "costs": {"low": 1.0, "high": 10.0},
                        "params": {"budget": 400, "rho": 0.5, "gamma": 0.3, "eta": 0.01, "s0": 2}})
    e = explain(cfg, "tacc", 0)
    a = analyze(cfg)
    bounds = json.loads(bounds_json(a, continuation_of(a)))["arms"]
    arms = {x["arm"]: x for x in json.loads(json.dumps(to_json(e), allow_nan=False))["arms"]}
    reason = {k: r for r, ks in bounds["high_count_bound_reason"].items() for k in ks}
    # k^*: no count bound (was "high_bound": 0 beside its thousands of high queries), the reason tacc bounds gives
    assert arms[0]["certified_by"] == "- (best arm)" and arms[0]["high_bound"] is None
    assert bounds["high_count_bound"][0] is None and arms[0]["high_bound_reason"] == reason[0]
    assert reason[0] == OPTIMAL_NO_COUNT_BOUND and bounds["low_count_bound"][0] is None
    for k in (1, 2, 3):
        assert arms[k]["certified_by"].startswith("- (tied with k*") and arms[k]["high_bound"] is None
        assert bounds["high_count_bound"][k] is None and arms[k]["high_bound_reason"] == reason[k] != reason[0]
        assert "tied with k*" in arms[k]["story"] and "+infinity" not in json.dumps(arms[k])
    out = render(e)
    assert tied_sentence([1, 2, 3], 0) in out and out.count("B (tied)") == 3 and "))" not in out


def test_an_arm_never_queried_is_told_so():
    # a budget of one low query: every other arm is never queried (the story said "last queried at round -1")
    from bounds import config_to_dict, parse_config
    d = config_to_dict(default_config())
    d["params"]["budget"] = 1.0
    e = explain(parse_config(d), "tacc", 0)
    never = [k for k, a in enumerate(e.arms) if a.last_round == -1]
    assert e.rounds == 1 and len(never) == len(e.arms) - 1        # one low query fits the budget of 1
    stories = [_explain_view.story(e, k) for k in never]
    assert all("; never queried;" in s and "round -1" not in s for s in stories), stories


@pytest.mark.parametrize("arms", [3, 20])
def test_the_timeline_legend_covers_no_label(arms, tmp_path):
    """The legend sat below the axes at a fixed fraction of their height: on a figure of few arms it covered the
    x-axis label ("round"). After the layout `save` makes, it overlaps no label and stays inside the figure."""
    from bounds import parse_config
    from reports.figures import save

    cfg = parse_config({"name": "few", "instance": {"mu_high": [0.9, 0.5, 0.4] + [0.3] * (arms - 3),
                                                    "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5}},
                        "costs": {"low": 1.0, "high": 10.0},
                        "params": {"budget": 1000, "rho": 0.5, "gamma": 0.1, "eta": 1e-4, "s0": 10}})
    fig = _explain_view.timeline_figure(explain(cfg, "tacc", 0))
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    save(fig, tmp_path, "t", formats=("png",))                           # lays the figure out
    ax, r = fig.axes[0], FigureCanvasAgg(fig).get_renderer()
    legend = ax.get_legend().get_window_extent(r)
    labels = [ax.xaxis.label, ax.yaxis.label, ax.title, *ax.get_xticklabels(), *ax.get_yticklabels()]
    covered = [t.get_text() for t in labels if t.get_text() and legend.overlaps(t.get_window_extent(r))]
    assert covered == []
    assert not legend.overlaps(ax.get_window_extent(r))                  # nor the runs drawn
    assert fig.bbox.contains(legend.x0, legend.y0) and fig.bbox.contains(legend.x1, legend.y1)


def test_a_long_traced_run_is_made_once(monkeypatch):
    """A run that could pass 2^17 rounds (a budget of 10^6 low queries) was made twice, first untraced to learn
    its length; the trace is now allocated from the policy's rounds bound (``reports.estimate.rounds_bound``)."""
    import simulate._fast as fast

    config = default_config()
    config = dataclasses.replace(config, params=dataclasses.replace(config.params, budget=1_000_000))
    made = []
    real = fast._run
    monkeypatch.setattr(fast, "_run", lambda *args: made.append(1) or real(*args))
    e = explain(config, "tacc", 0)
    assert len(made) == 1 and sum(s.n_low + s.n_high for s in e.arms) > 0


def test_the_timeline_of_many_arms_draws_k_star_and_says_what_it_leaves_out():
    """cfg/k2000 (2000 arms): the timeline drew the 20 arms of largest regret share, k* (share 0) not among them,
    and its title did not say that arms were left out."""
    from bounds import parse_config
    cfg = parse_config({"name": "many", "instance": {"mu_high": [0.9] + [0.5 - 0.005 * i for i in range(39)],
                                                     "low": {"model": "power_decay", "zeta": 0.2, "r": 0.5}},
                        "costs": {"low": 1.0, "high": 10.0},
                        "params": {"budget": 2000, "rho": 0.5, "gamma": 0.1, "eta": 1e-4, "s0": 10}})
    e = explain(cfg, "tacc", 0)
    assert sum(a.regret_share > 0 for a in e.arms) >= 20          # k* (share 0) is not among the 20 largest
    ax = _explain_view.timeline_figure(e).axes[0]
    rows = [int(t.get_text().split()[0]) for t in ax.get_yticklabels()]
    assert len(rows) == 20 and rows[0] == 0                        # the bottom row: k* = 0
    assert ("20 of 40 arms drawn: the 19 with the largest regret shares, and k* = 0 (bottom row); 20 left out"
            in ax.get_title().replace("\n", " "))
    few = _explain_view.timeline_figure(e, max_arms=40).axes[0]    # every arm drawn: nothing said
    assert "\n" not in few.get_title() and len(few.get_yticklabels()) == 40


def test_a_float_failure_of_the_event_that_was_rounding_is_told_as_such():
    """On means of 1e15 the engines' float check of lem:ci's event fails on every run while the exact sums of the
    observations stay within the radius (certify.event_failure): explain says the event held, decided exactly, and
    that the run's float sums are not the exact algorithm's; tacc simulate shows the run as held, rounding."""
    from bounds import parse_config
    from reports.views._simulate import SimulateSummary
    from reports.views._simulate import render as render_simulate
    config = parse_config({"name": "shift", "instance": {
        "mu_high": [1e15 + 0.5, 1e15], "noise": {"model": "gaussian", "sigma": 1.0},
        "low": {"model": "frozen", "values": [1e15 + 0.5, 1e15]}}, "costs": {"low": 1.0, "high": 10.0},
        "params": {"budget": 20000, "gamma": 0.1, "eta": 1e-4, "s0": 10}})
    e = explain(config, "tacc", 0)
    assert e.event_held and e.event_rounding and to_json(e)["event_rounding"] is True
    assert "held, decided exactly; the engines' float check reported a failure that was rounding" in render(e)
    p = make_problem(config)
    rec = run(p, "tacc", 0)
    assert not rec.event_held                                             # the float check
    summary = SimulateSummary(p)
    summary.add(rec)
    text = render_simulate(summary, "fast")
    assert f"held (float check failed at arm {rec.violation.arm} {rec.violation.fidelity} n={rec.violation.count}: " \
           "rounding)" in text and "event held on 1 of 1 runs" in text
    assert "at these magnitudes the float running means can be off by up to" in text          # 1e15: not faithful
    summary_small = SimulateSummary(make_problem(default_config()))
    summary_small.add(run(summary_small.problem, "tacc", 0))
    assert "at these magnitudes" not in render_simulate(summary_small, "fast")


def test_on_huge_means_the_event_is_not_told_held_without_its_caveat():
    """At means of 1e12 the float sums can leave the radius unseen: explain says so beside "held", as simulate,
    check and report do; a faithful instance keeps the plain word."""
    from bounds import parse_config
    cfg = parse_config({"name": "huge12", "instance": {"mu_high": [1e12, 999999999999.5, 999999999999.0],
                                                       "low": {"model": "power_decay", "zeta": 0.1, "r": 0.5}},
                        "costs": {"low": 1.0, "high": 10.0},
                        "params": {"budget": 4000.0, "delta": 0.05, "rho": "min", "gamma": 0.1, "eta": 1e-4,
                                   "s0": 5}})
    e = explain(cfg, "tacc", 0)
    head = render(e).splitlines()[0]
    assert "held as far as the float check sees" in head and "not below the radius" in head
    assert to_json(e)["event_undecided"] and to_json(explain(default_config(), "tacc", 0))["event_undecided"] is None
    assert render(explain(default_config(), "tacc", 0)).splitlines()[0].endswith("(lem:ci) held")
