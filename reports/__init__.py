"""reports: what the toolkit shows and the ``tacc`` command line, one subpackage per job.

- ``reports.cli``: the command line (``main``, one module per command, the registry ``COMMANDS``);
- ``reports.views``: what each command prints or writes (``render_bounds``, ``check_json``, ``junit``, ...);
- ``reports.report``: ``tacc report``, the bound-versus-empirical report (``make_report``) and saved runs read back;
- ``reports.reproduce``: ``tacc reproduce``, the paper's experiments as data beside the paper's numbers;
- ``reports.figures``: the figures, drawn in a helper process and kept beside the runs;
- ``reports.bench``: ``tacc bench``, engine speed as ratios against references measured in the same run;
- public modules the subpackages share: ``reports.tables`` (number formats, tables, strict JSON),
  ``reports.paths`` (path checks, files written whole), ``reports.estimate`` (the work estimate before a command
  runs), ``reports.stats`` (exact summaries), ``reports.explain`` (one run told arm by arm), ``reports.lazy``.

The public names are in the subpackages' ``__all__`` (the API reference lists them); this package re-exports none,
so that importing one subpackage imports no other. ``docs/design.md`` section 11 says where a change goes.
"""
