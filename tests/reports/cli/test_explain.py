"""``tacc explain`` (``reports/cli/explain.py``): its figure files."""

import pytest

from reports.cli import main


@pytest.mark.parametrize("name", ["x/y", "/../../pwned", "a\\b c"])
def test_explain_figure_files_stay_in_out_whatever_the_configuration_name(name, tmp_path, monkeypatch):
    """`tacc explain --out` names its figure after the configuration made safe (certify.file_stem): "x/y" is a
    file name in --out, and "/../../pwned" writes nothing outside --out."""
    from bounds import config_to_dict, dump_config, load_config, parse_config
    d = config_to_dict(load_config("set-a"))
    d["name"] = name
    d["instance"]["means"]["n_arms"] = 3
    d["params"]["budget"] = 2000.0
    cfg = tmp_path / "c.toml"
    cfg.write_text(dump_config(parse_config(d)))
    work = tmp_path / "w1" / "w2"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    assert main(["explain", str(cfg), "--out", "out"]) == 0
    files = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file() and p.suffix in (".png", ".pdf"))
    assert len(files) == 2 and all(f.parts[:3] == ("w1", "w2", "out") for f in files), files
