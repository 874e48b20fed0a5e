"""The findings a baseline accepted, as ``tacc report`` and ``tacc check``'s text list them (one helper for both)."""

from certify import Reproducer
from reports.views._accepted import NO_REASON, accepted_findings, accepted_lines


def _rep(claim, config, accepted, why=""):
    return Reproducer(claim, f"label:{claim}", config, "rdfe", 0, None, "tacc check ...", accepted, why)


def test_one_entry_per_claim_and_configuration_with_its_count_and_reason_new_ones_left_out():
    reps = [_rep("a", "x", True, "known."), _rep("b", "x", False), _rep("a", "x", True, "known."),
            _rep("a", "y", True)]
    found = accepted_findings(reps)
    assert [(f.claim, f.config, f.verdicts, f.why) for f in found] == [("a", "x", 2, "known."), ("a", "y", 1, "")]
    assert accepted_lines(found) == ["a (label:a) on x, 2 verdict(s): known.",
                                     f"a (label:a) on y, 1 verdict(s): {NO_REASON}"]
    assert accepted_findings([_rep("b", "x", False)]) == [] and accepted_lines([]) == []
