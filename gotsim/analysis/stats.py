"""Win-rate statistics for tables of games: Wilson intervals, per-group win rates, and comparisons
of two arms (paired by block under common random numbers, or a two-proportion z-test).

The functions read any frame with a ``winner`` column, such as ``gotsim.simulate``'s or a study's
``games.parquet``; a house is in play in a game when its ``castles_<house>`` value is not missing.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, overload

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from gotsim.rules.ids import HOUSE_IDS
from gotsim.rules.variants import ADWD_HOUSE_CARDS, CLASH_OF_KINGS_VARIANTS

__all__ = [
    "CELL_COLUMNS",
    "MODEL_COLUMN",
    "Difference",
    "compare",
    "fair_share_agreement",
    "model_agreement",
    "paired_difference",
    "two_proportion_test",
    "wilson_interval",
    "win_rates",
]

# the columns that describe a study cell, in the order tables show them
CELL_COLUMNS: tuple[str, ...] = (
    "edition",
    "expansion",
    "players",
    "tides_of_battle",
    "kings_court_swap",
    *CLASH_OF_KINGS_VARIANTS,
    ADWD_HOUSE_CARDS,
    "policies",
    "start_position",
)
# (``round6``: the ranking after A Dance with Dragons' last round)
END_REASONS: tuple[str, ...] = ("castles", "round10", "round6")
# the column that names the player model of a game (a policy label such as "heuristic")
MODEL_COLUMN = "policies"


def _z(level: float) -> float:
    from scipy import stats  # imported when used: scipy.stats takes a second to load

    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie between 0 and 1, got {level!r}")
    return float(stats.norm.ppf(0.5 + level / 2.0))


@overload
def wilson_interval(wins: int, n: int, level: float = 0.95) -> tuple[float, float]: ...
@overload
def wilson_interval(
    wins: ArrayLike, n: ArrayLike, level: float = 0.95
) -> tuple[NDArray[np.float64], NDArray[np.float64]]: ...
def wilson_interval(wins: Any, n: Any, level: float = 0.95) -> tuple[Any, Any]:
    """The Wilson score interval for ``wins`` successes in ``n`` trials (scalars or arrays).

    ``n == 0`` gives ``(nan, nan)``.

    >>> low, high = wilson_interval(5, 10)
    >>> round(low, 4), round(high, 4)
    (0.2366, 0.7634)
    """
    z = _z(level)
    x = np.asarray(wins, dtype=float)
    m = np.asarray(n, dtype=float)
    if np.any(x < 0) or np.any(x > m):
        raise ValueError("wins must lie between 0 and n")
    with np.errstate(invalid="ignore", divide="ignore"):
        p = x / m
        denominator = 1.0 + z * z / m
        centre = (p + z * z / (2.0 * m)) / denominator
        half = z * np.sqrt(p * (1.0 - p) / m + z * z / (4.0 * m * m)) / denominator
    # exact ends where rounding would leave 0 wins a lower bound a hair above 0 (and n wins …)
    low = np.where(x == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(x == m, 1.0, np.clip(centre + half, 0.0, 1.0))
    low = np.where(m == 0, np.nan, low)
    high = np.where(m == 0, np.nan, high)
    if np.ndim(low) == 0:
        return float(low), float(high)
    return low, high


def _in_play(games: pd.DataFrame, house: str) -> pd.Series:
    """The games ``house`` plays in as a player: on the board (a ``castles_<house>`` value) and
    not a vassal (``vassal_houses``; a vassal never wins, so it has no win rate)."""
    column = f"castles_{house}"
    playing = games[column].notna() if column in games.columns else pd.Series(True, games.index)
    if "vassal_houses" in games.columns:
        vassals = games["vassal_houses"].fillna("").astype(str).str.split(",")
        playing &= ~vassals.apply(lambda names: house in names)
    return playing


def _houses(games: pd.DataFrame) -> list[str]:
    """Houses with a ``castles_<house>`` column or a win, in house order."""
    winners = set(games["winner"].dropna())
    return [h for h in HOUSE_IDS if f"castles_{h}" in games.columns or h in winners]


def win_rates(games: pd.DataFrame, by: Sequence[str] = (), *, level: float = 0.95) -> pd.DataFrame:
    """Per group of ``by`` and house in play: games, wins, win rate with its Wilson interval,
    wins by end reason and mean castles held at the end.

    >>> df = pd.DataFrame({"winner": ["stark", "stark", "lannister", "stark"]})
    >>> win_rates(df)[["house", "games", "wins", "win_rate"]].values.tolist()
    [['lannister', 4, 1, 0.25], ['stark', 4, 3, 0.75]]
    """
    by = list(by)
    rows: list[dict[str, Any]] = []
    groups: list[tuple[tuple[Any, ...], pd.DataFrame]]
    if by:
        groups = [
            (key if isinstance(key, tuple) else (key,), frame)
            for key, frame in games.groupby(by, sort=True, dropna=False)
        ]
    else:
        groups = [((), games)]
    # castles and round10 always; another ending (round6) where some game ended so
    reasons = [
        r
        for r in END_REASONS
        if r in END_REASONS[:2] or ("end_reason" in games.columns and (games.end_reason == r).any())
    ]
    for key, frame in groups:
        for house in _houses(frame):
            playing = frame[_in_play(frame, house)]
            if playing.empty:
                continue
            won = playing["winner"] == house
            row: dict[str, Any] = dict(zip(by, key, strict=True))
            row.update(house=house, games=len(playing), wins=int(won.sum()))
            row["win_rate"] = row["wins"] / row["games"]
            row["ci_low"], row["ci_high"] = wilson_interval(row["wins"], row["games"], level)
            if "end_reason" in playing.columns:
                for reason in reasons:
                    row[f"wins_{reason}"] = int((won & (playing["end_reason"] == reason)).sum())
            if f"castles_{house}" in playing.columns:
                row["mean_castles"] = float(playing[f"castles_{house}"].astype(float).mean())
            rows.append(row)
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Difference:
    """A difference of two win rates (arm minus baseline) with its interval and p-value."""

    difference: float
    se: float
    ci_low: float
    ci_high: float
    p_value: float
    method: str
    pairs: int  # blocks (or games) paired; 0 for an unpaired test


def two_proportion_test(
    wins_arm: int, n_arm: int, wins_baseline: int, n_baseline: int, *, level: float = 0.95
) -> Difference:
    """Two independent arms: the pooled two-proportion z-test for the p-value and the unpooled
    (Wald) interval for the difference ``p_arm - p_baseline``.

    >>> d = two_proportion_test(60, 100, 40, 100)
    >>> round(d.difference, 3), round(d.ci_low, 4), round(d.ci_high, 4), round(d.p_value, 5)
    (0.2, 0.0642, 0.3358, 0.00468)
    """
    from scipy import stats

    if min(n_arm, n_baseline) <= 0:
        raise ValueError("both arms need at least one game")
    z = _z(level)
    p1, p0 = wins_arm / n_arm, wins_baseline / n_baseline
    difference = p1 - p0
    se = float(np.sqrt(p1 * (1 - p1) / n_arm + p0 * (1 - p0) / n_baseline))
    pooled = (wins_arm + wins_baseline) / (n_arm + n_baseline)
    se_pooled = float(np.sqrt(pooled * (1 - pooled) * (1 / n_arm + 1 / n_baseline)))
    # both arms all wins or all losses: no evidence of a difference
    p_value = float(2 * stats.norm.sf(abs(difference) / se_pooled)) if se_pooled > 0 else 1.0
    return Difference(
        difference, se, difference - z * se, difference + z * se, p_value, "two-proportion z", 0
    )


def paired_difference(
    differences: ArrayLike, sizes: ArrayLike, *, level: float = 0.95, unit: str = "blocks"
) -> Difference:
    """Paired arms: ``differences[k]`` is the arm's wins minus the baseline's wins over the
    ``sizes[k]`` games of pair ``k`` (a block of games sharing their random numbers in both arms).

    The estimate is the overall difference in win rate; its standard error treats blocks as
    independent clusters (with equal block sizes this is the paired t-test on per-block win-rate
    differences), and the interval and p-value use Student's t with ``blocks - 1`` degrees of
    freedom.

    >>> d = paired_difference([1, 2, 0, 3], [10, 10, 10, 10])
    >>> round(d.difference, 3), round(d.p_value, 4)
    (0.15, 0.1027)
    """
    from scipy import stats

    d = np.asarray(differences, dtype=float)
    m = np.asarray(sizes, dtype=float)
    k = d.size
    if k < 2 or d.shape != m.shape:
        raise ValueError("a paired comparison needs at least two pairs of equal-length arrays")
    total = float(m.sum())
    difference = float(d.sum()) / total
    residual = d - m * difference
    se = float(np.sqrt(k / (k - 1) * float(np.sum(residual * residual)))) / total
    df = k - 1
    if se > 0:
        t = difference / se
        p_value = float(2 * stats.t.sf(abs(t), df))
        half = float(stats.t.ppf(0.5 + level / 2.0, df)) * se
    else:
        p_value = 1.0 if difference == 0 else 0.0
        half = 0.0
    return Difference(
        difference, se, difference - half, difference + half, p_value, f"paired {unit} (t)", k
    )


def _pair_key(games: pd.DataFrame) -> str | None:
    for column in ("seed_key", "game"):
        if column in games.columns:
            return column
    return None


def _paired(
    base: pd.DataFrame, arm: pd.DataFrame, house: str, key: str, level: float
) -> Difference | None:
    """The paired comparison when both arms hold the same games (same seeds), else None."""
    if len(base) != len(arm) or base[key].duplicated().any():
        return None
    if set(base[key]) != set(arm[key]):
        return None
    cluster = "block" if "block" in base.columns else key
    left = base[[key, cluster, "winner"]] if cluster != key else base[[key, "winner"]]
    merged = left.merge(arm[[key, "winner"]], on=key, suffixes=("_baseline", "_arm"))
    merged["d"] = (merged["winner_arm"] == house).astype(int) - (
        merged["winner_baseline"] == house
    ).astype(int)
    per_block = merged.groupby(cluster, sort=True)["d"].agg(["sum", "size"])
    unit = "blocks" if cluster == "block" else "games"
    if len(per_block) < 2 and cluster != key:  # one block: pair game by game instead
        per_block = merged.groupby(key, sort=True)["d"].agg(["sum", "size"])
        unit = "games"
    if len(per_block) < 2:
        return None
    return paired_difference(per_block["sum"], per_block["size"], level=level, unit=unit)


def compare(
    games: pd.DataFrame,
    *,
    house: str,
    by: str,
    baseline: Any = None,
    within: Sequence[str] | None = None,
    paired: bool | None = None,
    level: float = 0.95,
) -> pd.DataFrame:
    """The difference in ``house``'s win rate between the arms of column ``by`` (each arm
    minus ``baseline``, by default the smallest value), with an interval and p-value.

    Arms are compared within each combination of the ``within`` columns (by default the other
    cell columns that vary, e.g. ``players``). When both arms hold the same games (the same
    ``seed_key`` or ``game`` values: common random numbers) the comparison is paired by
    ``block`` (by game when there is no ``block`` column or only one block; see
    ``paired_difference``); otherwise, or with ``paired=False``, it is a two-proportion z-test.
    ``paired=True`` refuses unpaired arms.

    One row per stratum and arm: the ``within`` values, ``house, by, baseline, arm``, games,
    wins and win rate of both arms, ``difference, se, ci_low, ci_high, p_value, method, pairs``.
    """
    if by not in games.columns:
        raise ValueError(f"by: no column {by!r} in the games")
    if house not in HOUSE_IDS:
        raise ValueError(f"house: unknown house {house!r} (known: {', '.join(HOUSE_IDS)})")
    if within is None:
        within = [
            c for c in CELL_COLUMNS if c in games.columns and c != by and games[c].nunique() > 1
        ]
    within = list(within)
    missing = [c for c in within if c not in games.columns]
    if missing:
        raise ValueError(f"within: no column {missing[0]!r} in the games")
    playing = games[_in_play(games, house)]
    levels = sorted(playing[by].dropna().unique().tolist())
    if baseline is None and levels:
        baseline = levels[0]
    if baseline not in levels:
        raise ValueError(f"baseline: {by} = {baseline!r} has no games with {house} in play")
    strata: list[tuple[tuple[Hashable, ...], pd.DataFrame]]
    if within:
        strata = [
            (key if isinstance(key, tuple) else (key,), frame)
            for key, frame in playing.groupby(within, sort=True)
        ]
    else:
        strata = [((), playing)]
    key = _pair_key(games)
    rows: list[dict[str, Any]] = []
    for values, frame in strata:
        base = frame[frame[by] == baseline]
        for level_value in levels:
            if level_value == baseline:
                continue
            arm = frame[frame[by] == level_value]
            if base.empty or arm.empty:
                continue
            result = None
            if paired is not False and key is not None:
                result = _paired(base, arm, house, key, level)
            if result is None:
                if paired:
                    raise ValueError(
                        f"paired: the arms {by}={baseline!r} and {by}={level_value!r} do not "
                        "hold the same games in two or more blocks"
                    )
                result = two_proportion_test(
                    int((arm["winner"] == house).sum()),
                    len(arm),
                    int((base["winner"] == house).sum()),
                    len(base),
                    level=level,
                )
            row: dict[str, Any] = dict(zip(within, values, strict=True))
            wins_base = int((base["winner"] == house).sum())
            wins_arm = int((arm["winner"] == house).sum())
            row.update(
                house=house,
                by=by,
                baseline=baseline,
                arm=level_value,
                games_baseline=len(base),
                wins_baseline=wins_base,
                rate_baseline=wins_base / len(base),
                games_arm=len(arm),
                wins_arm=wins_arm,
                rate_arm=wins_arm / len(arm),
                difference=result.difference,
                se=result.se,
                ci_low=result.ci_low,
                ci_high=result.ci_high,
                p_value=result.p_value,
                method=result.method,
                pairs=result.pairs,
            )
            rows.append(row)
    frame = pd.DataFrame(rows)
    if MODEL_COLUMN in within and not frame.empty and frame[MODEL_COLUMN].nunique() > 1:
        keys = [c for c in within if c != MODEL_COLUMN] + ["house", "by", "baseline", "arm"]
        frame = model_agreement(frame, keys=keys)
    return frame


def _sign(low: float, high: float) -> int:
    return 1 if low > 0 else -1 if high < 0 else 0


def _sign_word(signs: Sequence[int]) -> str:
    found = {s for s in signs if s != 0}
    if found == {1, -1}:
        return "opposite"
    if not found:
        return "no effect"
    return "agree" if 0 not in signs else "partly"


def model_agreement(
    frame: pd.DataFrame,
    *,
    keys: Sequence[str],
    model: str = MODEL_COLUMN,
    estimate: str = "difference",
    low: str = "ci_low",
    high: str = "ci_high",
    se: str = "se",
    level: float = 0.95,
) -> pd.DataFrame:
    """Whether the player models (the values of ``model``) give one answer to each question.

    A question is a group of ``keys`` (e.g. a house and the two arms compared); each row of
    ``frame`` is one model's answer: ``estimate`` with its interval ``low``–``high`` and standard
    error ``se``. Added to every row, the same for all rows of a question:

    - ``models``: how many models answered it;
    - ``models_sign``: ``agree`` (every model's interval lies on the same side of zero),
      ``opposite`` (two models find effects of opposite sign), ``partly`` (some find an effect,
      the rest cannot tell), ``no effect`` (no model finds one);
    - ``models_spread``: the largest estimate minus the smallest;
    - ``models_size_p``: p-value of Cochran's Q test that the models' estimates are one size;
      ``models_size``: ``similar`` when it is at least ``1 - level``, else ``differs``.

    >>> f = pd.DataFrame({"house": ["stark"] * 2, "policies": ["a", "b"], "difference":
    ...     [0.05, 0.04], "ci_low": [0.02, 0.01], "ci_high": [0.08, 0.07], "se": [0.015] * 2})
    >>> model_agreement(f, keys=["house"])[["models_sign", "models_size"]].iloc[0].tolist()
    ['agree', 'similar']
    """
    from scipy import stats

    missing = [c for c in (*keys, model, estimate, low, high, se) if c not in frame.columns]
    if missing:
        raise ValueError(f"model_agreement: no column {missing[0]!r}")
    out = frame.copy()
    added: dict[str, list[Any]] = {
        "models": [],
        "models_sign": [],
        "models_spread": [],
        "models_size_p": [],
        "models_size": [],
    }
    index: list[Any] = []
    groups = out.groupby(list(keys), sort=False, dropna=False) if keys else [((), out)]
    for _, group in groups:
        values = group[estimate].to_numpy(float)
        signs = [_sign(a, b) for a, b in zip(group[low], group[high], strict=True)]
        errors = np.maximum(group[se].to_numpy(float), 1e-9)
        weights = 1.0 / errors**2
        mean = float(np.sum(weights * values) / np.sum(weights))
        q = float(np.sum(weights * (values - mean) ** 2))
        p = float(stats.chi2.sf(q, len(values) - 1)) if len(values) > 1 else 1.0
        for row in group.index:
            index.append(row)
            added["models"].append(int(group[model].nunique()))
            added["models_sign"].append(_sign_word(signs))
            added["models_spread"].append(float(values.max() - values.min()))
            added["models_size_p"].append(p)
            added["models_size"].append("similar" if p >= 1.0 - level else "differs")
    for name, column in added.items():
        out[name] = pd.Series(column, index=index)
    return out


def fair_share_agreement(
    summary: pd.DataFrame, *, model: str = MODEL_COLUMN, level: float = 0.95
) -> pd.DataFrame:
    """``summary`` (``win_rates`` rows, one per model, house and cell) with the question "is the
    house above or below its fair share (1 / players)?" answered across models: the
    ``model_agreement`` columns on ``win_rate - 1/players`` with its Wilson interval."""
    if "players" not in summary.columns:
        raise ValueError("fair_share_agreement: no column 'players'")
    _z(level)  # checks the level
    fair = 1.0 / summary["players"].astype(float)
    frame = summary.assign(
        _above=summary["win_rate"] - fair,
        _low=summary["ci_low"] - fair,
        _high=summary["ci_high"] - fair,
        _se=np.sqrt(
            np.maximum(summary["win_rate"] * (1 - summary["win_rate"]), 0.25 / summary["games"])
            / summary["games"]
        ),
    )
    keys = [c for c in CELL_COLUMNS if c in summary.columns and c != model] + ["house"]
    out = model_agreement(
        frame,
        keys=keys,
        model=model,
        estimate="_above",
        low="_low",
        high="_high",
        se="_se",
        level=level,
    )
    return out.drop(columns=["_above", "_low", "_high", "_se"])
