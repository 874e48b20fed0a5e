"""The least radius constant rho the union bound of ``lem:ci`` certifies, per noise model, beside the paper's and
the toolkit's.

The radius is G(n) = sqrt(rho L / n) with L = log(2 K T / delta). The proof of ``lem:ci`` needs, for every
arm k <= K, count 1 <= n <= T and both fidelities, P(|mean of n - its mean| > G(n)) <= p, and a union bound
2 K T p <= delta. The least certified rho is the least rho for which the tail bound at G(n) makes the union delta.

- **paper** (``lem:ci``): rho is "a problem-dependent constant", not given; the usual reading of the 1-sub-Gaussian
  radius, rho = 2 sigma^2 = 2, makes the union 2 delta (``lem-ci.union-bound``, REFUTED).
- **sub-Gaussian** (the paper's noise reading; what the toolkit uses, ``bounds.min_rho``): for a sigma-sub-Gaussian
  mean of n, P(|.| > x) <= 2 exp(-n x^2 / (2 sigma^2)); at x = G(n) this is 2 exp(-rho L / (2 sigma^2)) for every
  n, so 2 K T * 2 exp(-rho L / (2 sigma^2)) <= delta iff rho >= 2 sigma^2 (1 + log 2 / L).
- **Gaussian, exact tails**: for N(0, sigma^2) noise the mean of n is N(0, sigma^2 / n) and
  P(|.| > G(n)) = erfc(G(n) sqrt(n) / (sigma sqrt 2)) = erfc(sqrt(rho L / 2) / sigma), again the same for every n;
  the least rho solves 2 K T erfc(sqrt(rho L / 2) / sigma) = delta: rho = 2 sigma^2 z^2 / L with
  z = erfc^-1(delta / (2 K T)). Computed by ``bounds.min_rho_gaussian`` (bisection on erfc in 50-digit
  arithmetic, rounded up to 12 significant digits), the value ``tacc check`` and ``tacc bounds`` decide
  ``lem:ci:rho`` with on Gaussian noise. It is smaller than the sub-Gaussian value: with
  z^2 = rho L / (2 sigma^2) the exact tail is erfc(z) <= exp(-z^2), at most half the sub-Gaussian bound
  2 exp(-z^2). On the Gaussian presets the paper's rho = 2 is valid by it, not by the sub-Gaussian union bound.
- **Bernoulli, Hoeffding**: rewards in [0, 1] make the mean 1/2-sub-Gaussian (Hoeffding's lemma), so the
  sub-Gaussian formula with sigma = 1/2: rho >= (1 + log 2 / L) / 2. No sharper Bernoulli bound is used: the KL
  (Chernoff) bound kl(mu + x, mu) >= 2 x^2 is sharper only away from mu = 1/2, and the radius must hold for
  every mean.

Which one each command uses: ``rho = "min"`` in a configuration (every preset, ``tacc report``, ``tacc check``,
``tacc simulate``, ``tacc reproduce``) is ``bounds.min_rho`` with the noise's sub-Gaussian scale (sigma for
Gaussian noise, 1/2 for Bernoulli): the sub-Gaussian row for Gaussian noise, the Hoeffding row for Bernoulli.
Whether a given rho is valid is decided by the noise's exact tail (``bounds.rho_readings``), both readings shown.
"""

from __future__ import annotations

from bounds import horizon, load_config, min_rho, min_rho_gaussian, rho_readings

__all__ = ["least_rho_gaussian", "least_rho_subgaussian", "radius_rows", "PRESETS", "PAPER_RHO"]

PRESETS = ("set-a", "set-b", "llm-residual", "llm-vanishing", "checkpoint")
#: the usual reading of the paper's 1-sub-Gaussian radius, rho = 2 sigma^2 with sigma = 1.
PAPER_RHO = 2.0


def least_rho_subgaussian(sigma: float, n_arms: int, horizon_: int, delta: float) -> float:
    """The sub-Gaussian least rho, 2 sigma^2 (1 + log 2 / log(2KT/delta)) (``bounds.min_rho``)."""
    return min_rho(sigma, n_arms, horizon_, delta)


def least_rho_gaussian(sigma: float, n_arms: int, horizon_: int, delta: float) -> float:
    """The least rho with exact Gaussian tails, 2 K T erfc(sqrt(rho L / 2) / sigma) = delta: ``bounds``'
    :func:`bounds.min_rho_gaussian`, the value ``tacc check`` and ``tacc bounds`` decide ``lem:ci:rho`` with."""
    return min_rho_gaussian(sigma, n_arms, horizon_, delta)


def radius_rows() -> list[tuple]:
    """Per preset: name, noise, K, T, delta, the paper's reading rho = 2 and the reading under which it is valid
    on the preset's own noise (``bounds.RhoReadings.reading``; "neither"), the toolkit's rho (what rho = "min"
    gives), and the least rho the union bound certifies under each noise model."""
    rows = []
    for name in PRESETS:
        c = load_config(name)
        K, T, d = c.instance.n_arms, horizon(c.params.budget, c.costs.low), c.params.delta
        noise = c.instance.noise
        toolkit = min_rho(noise.subgaussian_scale, K, T, d)
        sig = noise.sigma if noise.model == "gaussian" else 1.0
        paper_valid = rho_readings(noise.model, noise.sigma, K, T, d).reading(PAPER_RHO) or "neither"
        rows.append((name, noise.model + (f" sigma={noise.sigma:g}" if noise.model == "gaussian" else ""), K, T, d,
                     PAPER_RHO, paper_valid, toolkit, least_rho_subgaussian(sig, K, T, d),
                     least_rho_gaussian(sig, K, T, d), least_rho_subgaussian(0.5, K, T, d)))
    return rows
