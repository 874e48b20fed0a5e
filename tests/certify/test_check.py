"""The gate: certificate, reproducers, baseline, sample of generated configurations."""

import json
from dataclasses import replace

import pytest

import certify._check as check_module
from bounds import TaccInputError, load_config
from certify import ClaimContext, check, claim, load_baseline
from certify._check import sample_configs, unique_names
from certify._measurement import Measurement


def test_presets_pass(tmp_path):
    cert = check([load_config("llm-residual"), load_config("checkpoint")], seeds=range(3), reproducer_dir=tmp_path)
    assert cert.ok and not cert.reproducers
    counts = {s.key: s.counts for s in cert.summaries}
    assert counts["theorem"]["HOLDS"] == 6 and counts["lem-ci"]["HOLDS"] == 10
    assert sum(counts["class-A"].values()) == 12                      # tacc and dnc


def test_nothing_to_measure_is_neither_evidence_nor_a_failure():
    """llm-residual has no class-A arm and RDFE is not run: class-A is NOTHING_TO_MEASURE on every run (never
    HOLDS), listed as judged on no run, and the gate still passes, --strict included (nothing was measurable)."""
    cert = check([load_config("llm-residual")], policies=("tacc", "dnc"), seeds=range(2))
    a = next(s for s in cert.summaries if s.key == "class-A")
    assert a.counts["HOLDS"] == 0 and a.counts["NOTHING_TO_MEASURE"] == 4
    assert a.max_ratio is None and "no suboptimal arm in class A" in a.max_ratio_reason
    nj = next(n for n in cert.not_judged if n.claim == "class-A")
    assert not nj.measurable and "nothing to measure: no suboptimal arm in class A" in nj.reasons[0]
    assert cert.ok and not cert.strict_failures and "rdfe-width" not in {s.key for s in cert.summaries}
    held = next(s for s in cert.summaries if s.key == "low-count")
    assert held.counts["HOLDS"] == 4 and cert.judged_pairs == sum(s.counts["HOLDS"] for s in cert.summaries
                                                                  if s.key != "lem-ci")


def test_a_claim_judged_on_no_run_says_which_verdicts_it_had(monkeypatch):
    """Every run off the event: control-ucb was measured on every run and judged on none, and its summary says
    so with the counts ("2 OFF_EVENT"), for the asserted and for the measured runs (which include them)."""
    from simulate import make_problem, run
    cfg = load_config("llm-vanishing")
    p = make_problem(cfg)
    records = [replace(run(p, "ucb", s), event_held=False) for s in range(2)]
    # the flag read as the event's decision (these runs' observations never left the radius: certify's exact
    # check would put them back on the event, tests/certify/test_event.py)
    monkeypatch.setattr(ClaimContext, "_failed_exactly", lambda self, r: not r.event_held)
    cert = check([cfg], policies=("ucb",), seeds=range(2), records=records, confirm_violations=False)
    s = next(s for s in cert.summaries if s.key == "control-ucb")
    assert s.counts["OFF_EVENT"] == 2 and s.max_ratio is None
    assert s.max_ratio_reason == "judged on no run: 2 OFF_EVENT"
    assert s.max_ratio_all is not None and s.max_ratio_all_reason is None


def _violating(monkeypatch):
    bad = replace(claim("low-count"), measure=lambda ctx, rec: [Measurement("N_L", 0, 1, arm=1)])
    real = check_module.claims_for
    monkeypatch.setattr(check_module, "claims_for",
                        lambda p: tuple(bad if c.key == "low-count" else c for c in real(p)))


def test_violation_gets_a_reproducer_the_baseline_can_accept(tmp_path, monkeypatch):
    _violating(monkeypatch)
    cfg = load_config("llm-vanishing")
    cert = check([cfg], policies=("tacc",), seeds=range(2), reproducer_dir=tmp_path)
    assert not cert.ok and len(cert.reproducers) == 2
    r = cert.reproducers[0]
    assert r.claim == "low-count" and r.seed == 0 and r.command.endswith("--policy tacc --seeds 0:1 --evidence 0")
    assert load_config(r.path) == cfg                                  # the file reruns the same instance
    base = tmp_path / "baseline.json"
    base.write_text(json.dumps([{"claim": "low-count", "config": "llm-vanishing"}]))
    assert check([cfg], policies=("tacc",), seeds=range(2), baseline=load_baseline(base)).ok
    # the baseline's reason travels with each accepted verdict (tacc report says it), "" where it gives none
    base.write_text(json.dumps([{"claim": "low-count", "config": "*", "why": "known: a test's broken bound"}]))
    cert = check([cfg], policies=("tacc",), seeds=range(2), baseline=load_baseline(base))
    assert cert.ok and [(r.accepted, r.why) for r in cert.reproducers] == [(True, "known: a test's broken bound")] * 2
    assert [r.why for r in check([cfg], policies=("tacc",), seeds=range(2)).reproducers] == ["", ""]


def test_the_repository_baseline_keeps_its_reasons():
    from certify import BASELINE
    entries = json.loads(BASELINE.read_text())
    assert load_baseline("repo") == {(d["claim"], d["config"]): d["why"] for d in entries}
    assert all(d["why"] for d in entries)


@pytest.mark.parametrize("text", ["{", '{"claim": 1}', '[{"claim": "x"}]',
                                  '[{"claim": "high-cnt", "config": "*"}]',      # a typo of a claim's key
                                  # not strings: a list as config (unhashable), a number as why
                                  '[{"claim": "high-count", "config": ["a"]}]',
                                  '[{"claim": "high-count", "config": "*", "why": 3}]',
                                  # a misspelled "why" was dropped in silence; an entry without config not named
                                  '[{"claim": "high-count", "config": "*", "wyh": "known"}]',
                                  '[{"claim": "high-count", "config": "*"}, {"claim": "theorem"}]'])
def test_bad_baseline_names_the_field(tmp_path, text):
    p = tmp_path / "b.json"
    p.write_text(text)
    with pytest.raises(TaccInputError) as e:
        load_baseline(p)
    assert e.value.field == "baseline"
    assert "{'" not in str(e.value)              # an entry is shown as JSON, as written, not as a Python dict
    if "wyh" in text:
        assert 'unknown key(s) "wyh"' in str(e.value)
    if '"theorem"' in text:
        assert 'entry 1 ({"claim": "theorem"})' in str(e.value)


def test_a_baseline_entry_is_shown_as_json(tmp_path):
    p = tmp_path / "b.json"
    p.write_text('[{"claim": "high-cnt", "config": "*"}]')
    with pytest.raises(TaccInputError, match='entry {"claim": "high-cnt", "config": "\\*"} names no claim'):
        load_baseline(p)


def test_sample_is_deterministic_and_named():
    a = sample_configs(6, seed=3)
    assert a == sample_configs(6, seed=3) and [c.name for c in a] == [f"random-{i:03d}" for i in range(1, 7)]
    assert sample_configs(0) == []


def test_unique_names():
    c = load_config("set-a")
    assert [x.name for x in unique_names([c, c, c])] == ["set-a", "set-a-2", "set-a-3"]


def test_check_judges_records_it_is_given():
    from simulate import make_problem, run
    cfg = load_config("llm-vanishing")
    p = make_problem(cfg)
    recs = [run(p, "tacc", s) for s in range(2)]
    given = check([cfg], policies=("tacc",), seeds=range(2), records=recs)
    assert [s.counts for s in given.summaries] == [s.counts for s in check([cfg], policies=("tacc",),
                                                                             seeds=range(2)).summaries]
    with pytest.raises(TaccInputError) as e:
        check([cfg], policies=("tacc",), seeds=range(2), records=recs[:1])
    assert e.value.field == "records"


def test_a_reproducer_never_replaces_a_file_that_is_not_a_configuration(tmp_path):
    """A user's notes named like a reproducer (other.toml) are never replaced: the reproducer takes the next free
    name; an earlier reproducer (a configuration) is replaced, as a rerun expects."""
    from bounds import dump_config, load_config
    from certify._check import _free
    notes, earlier = tmp_path / "other.toml", tmp_path / "set-a.toml"
    notes.write_text("my notes")
    earlier.write_text(dump_config(load_config("set-a")))
    assert _free(notes) == tmp_path / "other-2.toml"
    (tmp_path / "other-2.toml").write_text("more notes")
    assert _free(notes) == tmp_path / "other-3.toml"
    assert _free(earlier) == earlier and _free(tmp_path / "new.toml") == tmp_path / "new.toml"
    assert notes.read_text() == "my notes"


def test_lem_ci_reasons_count_verdicts_not_runs():
    """lem:ci is judged once per (configuration, policy): its reason counts those verdicts, not runs ("[5 run(s)]"
    over 15 runs would be wrong); a run-level claim's reason still counts runs."""
    from bounds import parse_config
    cfg = parse_config({"name": "huge12", "instance": {"mu_high": [1e12, 999999999999.5, 999999999999.0],
                                                       "low": {"model": "power_decay", "zeta": 0.1, "r": 0.5}},
                        "costs": {"low": 1.0, "high": 10.0},
                        "params": {"budget": 4000.0, "delta": 0.05, "rho": "min", "gamma": 0.1, "eta": 1e-4,
                                   "s0": 5}})
    cert = check([cfg], policies=("tacc", "ucb"), seeds=range(3))
    lem = [v for v in cert.verdicts if v.claim == "lem-ci"]
    assert cert.why_not_judged(lem)[0].endswith("[2 (configuration, policy) verdict(s)]")
    theorem = [v for v in cert.verdicts if v.claim == "theorem"]
    assert cert.why_not_judged(theorem)[0].endswith("[3 run(s)]")


def test_a_baseline_saved_with_a_byte_order_mark_is_read(tmp_path):
    """A baseline JSON saved with a UTF-8 byte-order mark (as some editors do) reads as without it (json alone
    refuses it: "Unexpected UTF-8 BOM (decode using utf-8-sig)"), as a configuration file does."""
    text = '[{"claim": "theorem", "config": "x", "why": "because"}]'
    plain, marked = tmp_path / "plain.json", tmp_path / "marked.json"
    plain.write_text(text)
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load_baseline(marked) == load_baseline(plain) == {("theorem", "x"): "because"}
