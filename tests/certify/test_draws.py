"""The toolkit's hypothesis draws depend on their seed only, not on which local modules the process imported
(hypothesis mixes constants from local modules' source into its draws; an editable install and a wheel differ)."""

import contextlib
import importlib
import sys

import certify
import certify._check


def _module_full_of_constants(tmp_path, name, offset):
    # hypothesis ignores a module with more than 1024 constants, and integers in (-100, 100): keep under both
    # (a set hypothesis already holds adds nothing: each call gets its own values through ``offset``)
    ints = ", ".join(str(i + offset) for i in range(200, 5000, 24))
    floats = ", ".join([f"{(i + offset) / 997:.6f}" for i in range(1, 997, 5)]
                       + [f"{i * 1.5 + offset / 7}" for i in range(1, 200)])
    (tmp_path / f"{name}.py").write_text(f"INTS = [{ints}]\nFLOATS = [{floats}]\nTEXT = 'gaussian'\n")
    sys.path.insert(0, str(tmp_path))
    try:
        importlib.import_module(name)
    finally:
        sys.path.remove(str(tmp_path))


def test_the_generated_sample_ignores_constants_of_imported_local_modules(tmp_path):
    before = certify.sample_configs(20, seed=0)
    _module_full_of_constants(tmp_path, "tacc_test_local_constants_a", 1)
    assert certify.sample_configs(20, seed=0) == before


def test_without_the_guard_the_sample_changes(tmp_path, monkeypatch):
    """The guard is what makes the test above pass: without it hypothesis draws the new module's constants."""
    monkeypatch.setattr(certify._check, "seed_only_draws", contextlib.nullcontext)
    before = certify.sample_configs(20, seed=0)
    _module_full_of_constants(tmp_path, "tacc_test_local_constants_b", 2)
    assert certify.sample_configs(20, seed=0) != before
