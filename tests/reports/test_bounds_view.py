"""``tacc bounds``'s JSON columns: a column's finiteness decided by one sum keeps every value and every null."""

import math

from bounds import analyze, load_config
from reports._bounds_view import _strict_columns, arm_columns


def test_strict_columns_keep_finite_values_and_null_the_rest():
    """Finite values whose sum overflows stay as they are; an infinity or a NaN becomes null with its reason
    beside the column, in any column (the check by one sum must not let one through)."""
    a = analyze(load_config("llm-residual"))
    cols = arm_columns(a)
    k = len(cols["arm"])
    cols["mu_high"] = [1e308] * k                             # finite, sum overflows
    cols["gap"] = [0.5] * (k - 1) + [math.inf]
    cols["theorem_term"] = [math.nan] + [1.0] * (k - 1)
    cols["tau"] = [3] * (k - 1) + [-math.inf]
    out = _strict_columns(a, cols)
    assert out["mu_high"] == [1e308] * k and "mu_high_reason" not in out
    assert out["gap"] == [0.5] * (k - 1) + [None] and out["gap_reason"] == {"+infinity": [k - 1]}
    assert out["theorem_term"][0] is None and list(out["theorem_term_reason"].values()) == [[0]]
    assert out["tau"][-1] is None and list(out["tau_reason"].values()) == [[k - 1]]
    assert "arm_reason" not in out and out["arm"] == list(range(k))
