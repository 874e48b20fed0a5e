"""bounds: every quantity the TACC paper's theorems define, as pure functions (no randomness, no simulation).

Paper: "Beyond Static Bias: Adaptive Multi-Fidelity Bandits with Improving Proxies". Each function's docstring
names its result and LaTeX label (``thm:analysis-main-regret``, ``lem:ci``, ...).

``bounds.validate`` is public: the argument checks every public function applies (``finite_real``,
``positive_real``, ``open_unit``, ``count``, ``float_array``, ``json_file``), each raising :class:`TaccInputError`
naming the field. ``simulate``, ``certify`` and ``proofs_checks`` check their own arguments with it.
"""

from bounds._amount import CostUnits, cost_units, exact_amount
from bounds._analysis import Analysis, analyze
from bounds._certification import certification_time, instance_certification_times
from bounds._continuation import (Continuation, ContinuationWindow, continuation_gain_passes,
                                  continuation_last_count, continuation_last_counts, continuation_of,
                                  continuation_rho_max, continuation_window)
from bounds._config import config_to_dict, dump_config, load_config, parse_config
from bounds._decay import ResidualDecay, power_decay, residual_decay
from bounds._dyadic import cumulative_deviation, dyadic_ints, float_above, float_at_least
from bounds._errors import TaccInputError
from bounds._fields import did_you_mean
from bounds._horizon import (continuation_cap_holds, first_round_cost, first_round_paid, horizon, log_factor, min_rho,
                             n_gamma, radius, radius_scalar)
from bounds._instance import Instance, build_instance
from bounds._lowfidelity import LowFidelityModel
from bounds._mismatch import low_gap, mismatch_bound
from bounds._partition import ArmClass, ArmRunFacts, arm_partition, in_h, prior_partition, refine_partition
from bounds._powersum import power_sum
from bounds._ranges import CONFIG_NAMES, check_costs, check_gaps, check_parameters
from bounds._radius import (GAUSSIAN_READING, HOEFFDING_READING, SUBGAUSSIAN_READING, RhoReadings, min_rho_gaussian,
                            min_rho_gaussian_interval, rho_readings)
from bounds._rdfe import (RDFE_ZERO_GAP, RdfeBound, rdfe_dyadic_constant, rdfe_high_cost, rdfe_high_count,
                          rdfe_high_counts, rdfe_low_cost, rdfe_low_count, rdfe_low_counts, rdfe_oracle_cost,
                          rdfe_phase_index, rdfe_regret_bound)
from bounds._search import counts_or_inf, first_true
from bounds._spec import PRESETS, Config, Costs, InstanceSpec, LowSpec, MeansSpec, NoiseSpec, Params
from bounds._table import TableLowFidelity, checkpoint_profile, frozen, frozen_of
from bounds._toml import toml_value
from bounds import _validate as validate
from bounds._tacc import (TIED_LEFT_OUT, TIED_TERM, Comparison, CorollaryTerms, TaccBound, confirmation_count,
                          corollary_order, high_query_bound, low_query_bound, static_vs_adaptive, tacc_regret_bound)

__all__ = [
    "CostUnits", "cost_units", "exact_amount",
    "Analysis", "analyze", "certification_time", "instance_certification_times", "PRESETS", "Config", "Costs",
    "InstanceSpec", "LowSpec",
    "MeansSpec", "NoiseSpec", "Params", "load_config", "parse_config", "config_to_dict", "dump_config",
    "check_parameters", "check_costs", "check_gaps", "CONFIG_NAMES", "did_you_mean", "toml_value",
    "ResidualDecay", "power_decay", "residual_decay", "TaccInputError", "horizon", "first_round_cost",
    "first_round_paid", "continuation_cap_holds", "log_factor", "min_rho",
    "n_gamma", "radius", "radius_scalar", "Instance", "build_instance", "LowFidelityModel", "low_gap",
    "mismatch_bound", "ArmClass", "ArmRunFacts", "arm_partition", "in_h", "prior_partition", "refine_partition",
    "power_sum", "RhoReadings", "rho_readings", "min_rho_gaussian", "min_rho_gaussian_interval",
    "SUBGAUSSIAN_READING", "GAUSSIAN_READING", "HOEFFDING_READING", "RDFE_ZERO_GAP", "RdfeBound",
    "rdfe_dyadic_constant", "rdfe_high_cost", "rdfe_high_count", "rdfe_high_counts",
    "rdfe_low_cost", "rdfe_low_count", "rdfe_low_counts", "rdfe_oracle_cost", "rdfe_phase_index", "rdfe_regret_bound",
    "first_true", "counts_or_inf",
    "TableLowFidelity", "checkpoint_profile", "frozen", "frozen_of", "Comparison", "CorollaryTerms",
    "TaccBound", "TIED_TERM", "TIED_LEFT_OUT", "confirmation_count", "corollary_order", "high_query_bound",
    "low_query_bound",
    "static_vs_adaptive", "tacc_regret_bound", "Continuation", "ContinuationWindow", "continuation_gain_passes",
    "continuation_last_count", "continuation_last_counts", "continuation_of", "continuation_rho_max",
    "continuation_window", "validate",
    "cumulative_deviation", "dyadic_ints", "float_above", "float_at_least",
]
