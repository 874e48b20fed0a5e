"""The fast engine's tournament tree: the arm it returns is ``np.argmax``'s (largest value, ties to the lowest
index), after a fill and after every one-arm update, on both sides of the branch-free threshold; the winner
without one arm (LUCB's challenger) read without writing is the root the update to -inf and back made."""

import itertools
import math

import numba
import numpy as np
import pytest

from simulate._fast import (_FLAT_FROM, _tree_fill, _tree_size, _tree_update, _tree_winner_without, _wins,
                            _wins_flat)


@numba.njit
def _replay(vals, ks, new):
    """Fill a tree over ``vals``, then set vals[ks[t]] = new[t] and update, recording the root after each step."""
    n_nodes = 2 * _tree_size(vals.size)
    tv, ti = np.empty(n_nodes), np.empty(n_nodes, dtype=np.int64)
    _tree_fill(tv, ti, vals)
    roots = np.empty(ks.size + 1, dtype=np.int64)
    roots[0] = ti[1]
    for t in range(ks.size):
        vals[ks[t]] = new[t]
        _tree_update(tv, ti, vals, ks[t])
        roots[t + 1] = ti[1]
    return roots


@numba.njit
def _both(va, ia, vb, ib):
    return _wins(va, ia, vb, ib), _wins_flat(va, ia, vb, ib)


def test_branch_free_comparison_is_the_same_rule():
    values = (-math.inf, -1.0, -0.0, 0.0, 2.5, math.inf, math.nan)
    for va, vb in itertools.product(values, repeat=2):
        for ia, ib in ((0, 1), (1, 0), (3, 3)):
            w, flat = _both(va, ia, vb, ib)
            assert w == flat, (va, ia, vb, ib)
            expected = va > vb or (not vb > va and ia < ib)
            assert w == expected


@pytest.mark.parametrize("K", [1, 2, 3, 5, 50, _FLAT_FROM - 1, _FLAT_FROM + 3])
def test_root_is_argmax_after_every_update(K):
    rng = np.random.default_rng(K)
    grid = np.array([-np.inf, -1.0, 0.0, 0.5, 1.0])              # few values: ties are the common case
    vals = rng.choice(grid, K)
    ks = rng.integers(0, K, 400)
    new = rng.choice(grid, 400)
    roots = _replay(vals.copy(), ks, new)
    check = vals.copy()
    assert roots[0] == np.argmax(check)
    for t in range(400):
        check[ks[t]] = new[t]
        assert roots[t + 1] == np.argmax(check), t



@numba.njit
def _without_both_ways(vals):
    """Per arm k: the winner without k read from the tree, and the root after setting vals[k] = -inf and updating
    (then restoring it, as the engine's LUCB did before); the tree is unchanged by the read."""
    n_nodes = 2 * _tree_size(vals.size)
    tv, ti = np.empty(n_nodes), np.empty(n_nodes, dtype=np.int64)
    _tree_fill(tv, ti, vals)
    read, updated = np.empty(vals.size, dtype=np.int64), np.empty(vals.size, dtype=np.int64)
    unchanged = True
    for k in range(vals.size):
        before_v, before_i = tv.copy(), ti.copy()
        read[k] = _tree_winner_without(tv, ti, k)
        same_v = (tv == before_v) | (np.isnan(tv) & np.isnan(before_v))
        unchanged = unchanged and same_v.all() and (ti == before_i).all()
        saved = vals[k]
        vals[k] = -np.inf
        _tree_update(tv, ti, vals, k)
        updated[k] = ti[1]
        vals[k] = saved
        _tree_update(tv, ti, vals, k)
    return read, updated, unchanged


@pytest.mark.parametrize("K", [1, 2, 3, 5, 50, _FLAT_FROM - 1, _FLAT_FROM + 3])
def test_winner_without_an_arm_is_the_updated_trees_root(K):
    rng = np.random.default_rng(K)
    grid = np.array([-np.inf, -1.0, 0.0, 0.5, 1.0, np.nan])     # ties and NaN (no order): the same comparisons
    vals = rng.choice(grid, K)
    read, updated, unchanged = _without_both_ways(vals.copy())
    assert (read == updated).all() and unchanged
    check = vals.copy()
    if not np.isnan(check).any() and K > 1:                      # with an order: the argmax of the others
        for k in range(K):
            others = check.copy()
            others[k] = -np.inf
            assert read[k] == np.argmax(others)
