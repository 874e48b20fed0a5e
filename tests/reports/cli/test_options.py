"""The options several ``tacc`` commands share (``reports/cli/_options.py``): read once as ``Options``; workers and
a Dask scheduler refused, in one line naming the option and before any work, where the runs would not use them."""

import functools

import pytest

from reports.cli import main
from tests.reports.cli._helpers import _one_line, _tree, tacc


@pytest.fixture
def quick_connect(monkeypatch):
    """``simulate.connect`` (the command's and the runner's) giving up after 0.3 s instead of 10 s."""
    import simulate
    import simulate._pool as pool
    quick = functools.partial(pool.connect, timeout=0.3)
    monkeypatch.setattr(simulate, "connect", quick)
    monkeypatch.setattr(pool, "connect", quick)


def test_a_scheduler_that_does_not_answer_exits_2_naming_the_option(quick_connect, capsys):
    # `--scheduler tcp://127.0.0.1:1`: exit 3 "internal error: OSError: Timed out trying to connect" after 30 s
    port = _closed_port()
    status = main(["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2", "--executor", "dask",
                   "--scheduler", f"tcp://127.0.0.1:{port}", "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert err == [f"tacc: error: --scheduler = 'tcp://127.0.0.1:{port}': no Dask scheduler answered there within "
                   f"0.3 s; is one running at that address?"]


def _closed_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: every command that takes --scheduler, on little work; the options naming its output folders
_SCHEDULED = {"check": (["check", "set-a", "--seeds", "2", "--evidence", "0", "--policy", "tacc"], ["--cache"]),
              "simulate": (["simulate", "set-a", "--policy", "tacc", "--seeds", "2"], ["--cache"]),
              "reproduce": (["reproduce", "decay", "--quick"], ["--out", "--cache"]),
              "report": (["report", "--seeds", "2"], ["--out", "--cache"])}


@pytest.mark.parametrize("command", list(_SCHEDULED))
@pytest.mark.parametrize("address", ["notanaddress", "closed"])
@pytest.mark.parametrize("folders", ["default", "existing"])
def test_a_refused_scheduler_writes_nothing(command, address, folders, tmp_path, monkeypatch, quick_connect,
                                            capsys):
    """Exit 2 for a scheduler that does not parse or does not answer says "nothing was run": nothing is written
    either. The commands left CACHE/configs/*.json (saved before the first run was handed to the scheduler) and
    an empty output folder (``tacc reproduce`` made it first); an existing folder given to --out or --cache is left
    as it was, and the default ones (./tacc-report, ./tacc-reproduce) are not made."""
    monkeypatch.chdir(tmp_path)
    args, options = _SCHEDULED[command]
    args = [*args, "--executor", "dask", "--no-progress"]
    if folders == "existing":
        for option in options:
            folder = tmp_path / option.strip("-")
            (folder / "configs").mkdir(parents=True)
            (folder / "configs" / "mine.json").write_text("{}")
            (folder / "notes.txt").write_text("mine")
            args += [option, str(folder)]
    address = f"tcp://127.0.0.1:{_closed_port()}" if address == "closed" else address
    before = _tree(tmp_path)
    assert main([*args, "--scheduler", address]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"tacc: error: --scheduler = '{address}': ")
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("args, option", [
    (["simulate", "set-a", "--policy", "tacc", "--executor", "processes", "--scheduler", "tcp://h:8786"],
     "--scheduler = 'tcp://h:8786': is used only with --executor dask (the executor is processes"),
    (["check", "set-a", "--scheduler", "tcp://h:8786"],
     "--scheduler = 'tcp://h:8786': is used only with --executor dask (the executor is serial"),
    (["report", "--from", ".", "--out", "../out", "--executor", "dask", "--scheduler", "tcp://h:8786"],
     "--scheduler = 'tcp://h:8786': makes no run with --from"),
    (["report", "--from", ".", "--out", "../out", "--cache", "c"], "--cache = 'c': makes no run with --from"),
    (["report", "--from", ".", "--out", "../out", "--workers", "2"], "--workers = 2: makes no run with --from"),
])
def test_a_scheduler_or_cache_the_runs_would_not_use_is_refused(args, option, tmp_path, monkeypatch, capsys):
    """--scheduler without --executor dask was ignored without a word (the runs were made here); with
    ``report --from`` no run is made, so neither a scheduler nor a cache is used."""
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tacc: error: {option}") and err.count("\n") == 1
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("argv, shared", [
    (["simulate", "set-a", "--policy", "tacc", "--json", "s.json", "--cache", "c"],
     dict(executor="serial", cache="c", seeds="0:10", json="s.json")),
    (["check", "set-a", "--executor", "processes", "--workers", "2", "--no-progress"],
     dict(executor="processes", workers=2, progress=False, seeds="10")),
    (["bounds", "set-a", "--json", "-"], dict(json="-")),
    (["reproduce", "set-a", "--seeds", "3"], dict(executor="processes")),   # its --seeds counts per experiment
    (["bench", "--workers", "3"], dict(workers=3)),
])
def test_the_shared_options_are_read_once_and_are_none_where_a_command_has_none(argv, shared):
    from reports.cli import Options, build_parser

    assert Options.from_args(build_parser().parse_args(argv)) == Options(**shared)


def test_a_command_gets_the_options_its_files_were_checked_with(monkeypatch):
    from reports.cli import Files, Options

    seen = []
    monkeypatch.setattr("reports.cli.bounds.files", lambda args, options: seen.append(options) or Files())
    monkeypatch.setattr("reports.cli.bounds.run", lambda args, options: seen.append(options) or 0)
    assert main(["bounds", "set-a", "--json", "x.json"]) == 0
    assert seen[0] is seen[1] and seen[0] == Options(json="x.json")


def test_a_scheduler_address_that_does_not_parse_exits_2_naming_the_option(tmp_path):
    """``--scheduler notanaddress``: exit 3 "internal error: ValueError: missing port number" before; now the
    option, the value and why, before any run."""
    r = tacc(["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2", "--executor", "dask",
              "--scheduler", "notanaddress"], tmp_path)
    line = _one_line(r, 2, "--scheduler", "'notanaddress'", "missing port number")
    assert line.startswith("tacc: error: --scheduler")


@pytest.mark.parametrize("command", ["simulate", "check", "report", "reproduce"])
def test_workers_with_the_serial_executor_exits_2_naming_the_option(tmp_path, command):
    """``--workers 4 --executor serial`` made every run in this process and said nothing, while ``--scheduler``
    without ``--executor dask`` is refused: --workers is refused the same way, on every command that has both
    options (one line, exit 2, nothing written)."""
    args = {"simulate": ["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2"],
            "check": ["check", "llm-residual", "--seeds", "2"],
            "report": ["report", "llm-residual", "--seeds", "2", "--out", "r"],
            "reproduce": ["reproduce", "decay", "--quick", "--out", "r"]}[command]
    r = tacc([*args, "--executor", "serial", "--workers", "4", "--cache", "c"], tmp_path)
    line = _one_line(r, 2, "--workers", "4", "--executor processes or dask", "serial")
    assert line.startswith("tacc: error: --workers") and r.stdout == ""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["simulate", "check", "report", "reproduce"])
def test_workers_with_a_dask_scheduler_exits_2_naming_the_option(tmp_path, command):
    """``--workers 4 --executor dask --scheduler ADDRESS`` was ignored in silence (the cluster's workers are the
    scheduler's): refused as with the serial executor, before the scheduler is connected to (one line, exit 2,
    nothing written)."""
    args = {"simulate": ["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2"],
            "check": ["check", "llm-residual", "--seeds", "2"],
            "report": ["report", "llm-residual", "--seeds", "2", "--out", "r"],
            "reproduce": ["reproduce", "decay", "--quick", "--out", "r"]}[command]
    r = tacc([*args, "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9", "--workers", "4", "--cache", "c"],
             tmp_path)
    line = _one_line(r, 2, "--workers = 4", "--scheduler", "the scheduler's")
    assert line.startswith("tacc: error: --workers") and r.stdout == ""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["simulate", "report"])
def test_a_scheduler_address_of_another_service_exits_2_naming_the_option(tmp_path, command):
    """``--scheduler`` at an SSH server (a local one in a thread, sending its banner): distributed read the banner
    as a frame length and the command ended with exit 3 "internal error: MemoryError: Unable to allocate 2.82 EiB";
    now one line naming the option and saying no Dask scheduler answered there, exit 2, nothing written."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted = []

    def serve():
        while True:
            try:
                c, _ = server.accept()
            except OSError:
                return
            accepted.append(c)
            c.sendall(b"SSH-2.0-OpenSSH_9.0\r\n")

    threading.Thread(target=serve, daemon=True).start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    args = {"simulate": ["simulate", "llm-residual", "--policy", "tacc", "--seeds", "2", "--cache", "c"],
            "report": ["report", "llm-residual", "--seeds", "2", "--out", "r", "--cache", "c"]}[command]
    try:
        r = tacc([*args, "--executor", "dask", "--scheduler", address], tmp_path)
    finally:
        for s in [server, *accepted]:
            s.close()
    line = _one_line(r, 2, "--scheduler", address, "no Dask scheduler answered there", "another service")
    assert line.startswith("tacc: error: --scheduler") and r.stdout == ""
    assert list(tmp_path.iterdir()) == []
