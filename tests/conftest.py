"""Shared pytest configuration: hypothesis profiles (ci: derandomised; dev: fast; deep: nightly)."""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile("deep", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """Under pytest-xdist: keep the property tests' statistics a worker sent, for the summary below."""
    stats = getattr(node, "workeroutput", {}).get("tacc_property_stats")
    if stats:
        node.config._tacc_property_stats = stats


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Print what the property tests of tests/certify/test_properties.py asserted (evidence they are not vacuous)."""
    stats = getattr(config, "_tacc_property_stats", None)
    if stats:
        terminalreporter.section("certify property tests: asserted examples and arm classes")
        for key in sorted(stats):
            terminalreporter.write_line(f"{key}: {stats[key]}")
