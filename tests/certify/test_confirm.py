"""A VIOLATED verdict is confirmed on a fresh run before it is reported."""

from dataclasses import replace

import certify._check as check_module
from bounds import load_config
from certify import Verdict, check, claim
from certify._measurement import Measurement
from simulate import make_problem, run


def _records(cfg, policy, seeds):
    p = make_problem(cfg)
    return [run(p, policy, s) for s in seeds]


def test_a_tampered_stored_run_is_an_integrity_error_not_a_finding():
    cfg = load_config("llm-vanishing")
    recs = _records(cfg, "tacc", range(2))
    assert check([cfg], policies=("tacc",), seeds=range(2), records=recs).ok
    n_high = list(recs[1].n_high)
    n_high[1] = 10**9                                       # one number altered in a stored run
    bad = recs[:1] + [replace(recs[1], n_high=tuple(n_high))]
    cert = check([cfg], policies=("tacc",), seeds=range(2), records=bad)
    assert not cert.reproducers and cert.ok                 # no VIOLATED is reported
    assert not any(v.verdict is Verdict.VIOLATED for v in cert.verdicts)
    errors = cert.integrity_errors                          # high-count, the theorem in total and by arm
    assert {e.claim for e in errors} >= {"high-count", "theorem"}
    assert all((e.seed, e.stored, e.rerun, e.records_differ) == (1, "VIOLATED", "HOLDS", True) for e in errors)
    assert "differs from a fresh run" in errors[0].describe()


def test_a_real_violation_is_confirmed_and_reported(monkeypatch):
    """A claim that is exceeded on the run itself survives the rerun (same record, same verdict)."""
    strict = replace(claim("high-count"), measure=lambda ctx, rec: [Measurement("N_H", 0, rec.n_high[k], arm=k)
                                                                    for k in ctx.suboptimal])
    real = check_module.claims_for
    monkeypatch.setattr(check_module, "claims_for",
                        lambda p: tuple(strict if c.key == "high-count" else c for c in real(p)))
    calls = []
    fresh_run = check_module.run
    monkeypatch.setattr(check_module, "run", lambda *a, **k: calls.append(a[2]) or fresh_run(*a, **k))
    cfg = load_config("llm-vanishing")
    cert = check([cfg], policies=("tacc",), seeds=range(2), records=_records(cfg, "tacc", range(2)))
    assert not cert.integrity_errors and [r.seed for r in cert.reproducers] == [0, 1]
    assert sorted(calls) == [0, 1]                          # each violating run was recomputed from scratch
