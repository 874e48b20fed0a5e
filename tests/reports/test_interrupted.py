"""An interrupt's half-built objects are freed before the command's last line, their finalizers' errors unprinted
(``reports.cli._interrupted``)."""

import sys

import pytest

from reports import cli
from reports.cli._interrupted import release


class _HalfBuilt:
    """As llvmlite's ObjectRef left by a Ctrl-C in its constructor: its finalizer fails."""

    def __init__(self, log: list) -> None:
        self.log = log

    def __del__(self) -> None:
        self.log.append("finalized")
        raise AttributeError("_as_parameter_")


def _interrupted_while_building(log: list):
    half = _HalfBuilt(log)           # noqa: F841 -- held by this frame, so by the interrupt's traceback
    raise KeyboardInterrupt


@pytest.mark.parametrize("released", [True, False])
def test_release_frees_the_traceback_s_objects_without_printing(monkeypatch, released):
    """Without release() (the control), letting the exception go runs the failing finalizer through the hook."""
    log: list = []
    hooked: list = []
    monkeypatch.setattr(sys, "unraisablehook", hooked.append)
    try:
        _interrupted_while_building(log)
    except KeyboardInterrupt as exc:
        if released:
            release(exc)
            assert log == ["finalized"]             # freed here, before the command's line
    assert log == ["finalized"] and len(hooked) == (0 if released else 1)
    assert sys.unraisablehook == hooked.append    # the caller's hook back


def test_a_command_interrupted_mid_construction_ends_with_its_one_line(monkeypatch, capsys):
    log: list = []
    hooked: list = []
    monkeypatch.setattr("reports.cli.bounds.run", lambda args, options: _interrupted_while_building(log))
    monkeypatch.setattr(sys, "unraisablehook", lambda u: hooked.append(u))
    assert cli.main(["bounds", "llm-residual"]) == 130
    assert log == ["finalized"] and hooked == []
    assert capsys.readouterr().err.strip().splitlines() == ["tacc bounds: interrupted"]
