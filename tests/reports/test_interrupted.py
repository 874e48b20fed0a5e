"""An interrupt's half-built objects are freed before the command's last line, their finalizers' errors unprinted
(``reports._interrupted``)."""

import sys

from reports import cli
from reports._interrupted import release


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


def test_release_frees_the_traceback_s_objects_without_printing(monkeypatch):
    log: list = []
    hooked: list = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: hooked.append(u))
    try:
        _interrupted_while_building(log)
    except KeyboardInterrupt as exc:
        release(exc)
        assert log == ["finalized"]             # freed here, before the command's line
    assert hooked == [] and sys.unraisablehook is not None
    assert sys.unraisablehook.__name__ == "<lambda>"   # the caller's hook back


def test_without_release_the_finalizer_error_is_printed_after_the_handler(monkeypatch):
    """The failure release() prevents, shown: letting the exception go runs the finalizer through the hook."""
    log: list = []
    hooked: list = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: hooked.append(u))
    try:
        _interrupted_while_building(log)
    except KeyboardInterrupt:
        pass
    assert log == ["finalized"] and len(hooked) == 1


def test_a_command_interrupted_mid_construction_ends_with_its_one_line(monkeypatch, capsys):
    log: list = []
    hooked: list = []
    monkeypatch.setattr(cli, "_cmd_bounds", lambda args: _interrupted_while_building(log))
    monkeypatch.setattr(sys, "unraisablehook", lambda u: hooked.append(u))
    assert cli.main(["bounds", "llm-residual"]) == 130
    assert log == ["finalized"] and hooked == []
    assert capsys.readouterr().err.strip().splitlines() == ["tacc bounds: interrupted"]
