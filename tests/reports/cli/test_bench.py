"""``tacc bench`` (``reports/cli/bench.py``): no test is about bench alone. Its bad input is among the cases of
``test_shared.py`` (``test_bad_input_exits_2_with_one_line``, ``test_an_empty_path_exits_2_naming_the_option``), its
shared options in ``test_the_shared_options_are_read_once_and_are_none_where_a_command_has_none``; the benchmark
itself is tested in ``tests/reports/test_bench.py``."""
