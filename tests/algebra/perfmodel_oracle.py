#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""The independent computation tst_perfmodel_terms compares Parallax's two-term models with
(docs/SEMANTICS.md §10.8): series with planted truths c0 + c1·t1 (+ c2·t2), generated here with a seeded
NumPy generator, and the model the Basic modeler with up to two terms chooses for each, fitted with
numpy.linalg.lstsq (Debian python3-numpy) and scored by leave-one-out SMAPE.

    perfmodel_oracle.py SEED COUNT

Prints one JSON document: {"series": [{"p": [...], "y": [...], "truth": "...", "model": {...}}]}; a
model's terms are [numerator, denominator, log exponent, coefficient], the later building block first."""
import json
import sys

import numpy as np

# Extra-P's 42 default building blocks (numerator, denominator, log exponent), in its order (§10.2).
BLOCKS = [(0, 1, 1), (0, 1, 2), (1, 4, 0), (1, 3, 0), (1, 4, 1), (1, 3, 1), (1, 4, 2), (1, 3, 2), (1, 2, 0),
          (1, 2, 1), (1, 2, 2), (2, 3, 0), (3, 4, 0), (2, 3, 1), (3, 4, 1), (4, 5, 0), (2, 3, 2), (3, 4, 2),
          (1, 1, 0), (1, 1, 1), (1, 1, 2), (5, 4, 0), (5, 4, 1), (4, 3, 0), (4, 3, 1), (3, 2, 0), (3, 2, 1),
          (3, 2, 2), (5, 3, 0), (7, 4, 0), (2, 1, 0), (2, 1, 1), (2, 1, 2), (9, 4, 0), (7, 3, 0), (5, 2, 0),
          (5, 2, 1), (5, 2, 2), (8, 3, 0), (11, 4, 0), (3, 1, 0), (3, 1, 1)]
MIN_CONTRIBUTION = 0.0005
CLEAN_CONSTANT = 0.0005


def basis(block, p):
    num, den, log = block
    v = np.ones_like(p)
    if num:
        v = v * p ** (num / den)
    if log:
        v = v * np.log2(p) ** log
    return v


def lstsq(a, y):
    return np.linalg.lstsq(a, y, rcond=None)[0]


def smape_term(predicted, actual):
    s = abs(actual) + abs(predicted)
    return 0.0 if s == 0 else abs(predicted - actual) / s * 2


def fit(columns, y):
    """Leave-one-out RSS and SMAPE of c0 + Σ c_j·columns[j], and the fit on all points."""
    n = len(y)
    a = np.column_stack([np.ones(n)] + columns)
    rss = 0.0
    smape = 0.0
    for k in range(n):
        keep = [i for i in range(n) if i != k]
        c = lstsq(a[keep], y[keep])
        low = min(y[keep])
        if (abs(c[0]) if low == 0 else abs(c[0] / low)) < CLEAN_CONSTANT:
            c[0] = 0.0
        predicted = float(a[k] @ c)
        rss += (predicted - y[k]) ** 2
        smape += smape_term(predicted, y[k]) / n * 100
    return lstsq(a, y), rss, smape


def contributes(coefficient, column, y):
    if coefficient == 0:
        return False
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.abs(coefficient * column / y)
    return bool(np.isnan(c).any()) or c.max() >= MIN_CONTRIBUTION


def model(p, y):
    n = len(y)
    mean = float(np.mean(y))
    tss = float(np.sum((mean - y) ** 2))
    best = {"constant": mean, "terms": [], "rss": tss,
            "smape": sum(smape_term(mean, v) for v in y) / n * 100, "adjusted_r2": 1.0}
    if tss == 0:
        return best
    blocks = BLOCKS if min(p) >= 1 else [b for b in BLOCKS if b[2] == 0]
    columns = [basis(b, p) for b in blocks]
    one_r2 = 0.0  # the constant model's R² in the two-term comparison
    for i, b in enumerate(blocks):
        c, rss, smape = fit([columns[i]], y)
        if not np.isfinite(rss) or not contributes(c[1], columns[i], y) or not smape < best["smape"]:
            continue
        r2 = 1 - (1 - (1 - rss / tss)) * (n - 1) / (n - 2)
        best = {"constant": c[0], "terms": [list(b) + [c[1]]], "rss": rss, "smape": smape, "adjusted_r2": r2}
        one_r2 = r2
    if n < 4:
        return best
    pair = None
    smape_to_beat = best["smape"]
    for j in range(len(blocks)):
        for i in range(j + 1, len(blocks)):
            c, rss, smape = fit([columns[i], columns[j]], y)
            if not np.isfinite(rss) or not smape < smape_to_beat:
                continue
            if not contributes(c[1], columns[i], y) or not contributes(c[2], columns[j], y):
                continue
            smape_to_beat = smape
            pair = {"constant": c[0], "terms": [list(blocks[i]) + [c[1]], list(blocks[j]) + [c[2]]], "rss": rss,
                    "smape": smape, "adjusted_r2": 1 - rss / tss * (n - 1) / (n - 3)}
    if pair is not None and not pair["adjusted_r2"] < one_r2:
        return pair
    return best


def main():
    rng = np.random.default_rng(int(sys.argv[1]))
    count = int(sys.argv[2])
    point_sets = [[2, 4, 8, 16, 32, 64, 128], [4, 8, 16, 32, 64, 128, 256, 512], [10, 20, 30, 40, 50, 60],
                  [1, 2, 3, 4, 5, 6, 7, 8], [27, 64, 125, 216, 343], [2, 4, 8, 16], [0.25, 0.5, 1, 2, 4, 8],
                  [2, 2, 2, 4, 4, 4, 16]]
    series = []
    # The planted example of the issue: 3 + 0.5·p + 2·log2(p)², exact and with 0.5 % noise.
    p = np.array(point_sets[0], dtype=float)
    exact = 3 + 0.5 * p + 2 * np.log2(p) ** 2
    series.append((p, exact, "3 + 0.5*p + 2*log2(p)^2"))
    series.append((p, exact * (1 + rng.normal(0, 0.005, len(p))), "3 + 0.5*p + 2*log2(p)^2, 0.5 % noise"))
    while len(series) < count:
        p = np.array(point_sets[rng.integers(len(point_sets))], dtype=float)
        usable = BLOCKS if p.min() >= 1 else [b for b in BLOCKS if b[2] == 0]
        picks = rng.choice(len(usable), size=2, replace=False)
        c0 = float(rng.uniform(0, 100))
        c1, c2 = (float(v) for v in rng.uniform(0.1, 10, 2))
        terms = [usable[picks[0]]] if rng.random() < 0.25 else [usable[picks[0]], usable[picks[1]]]
        y = c0 + sum(c * basis(b, p) for c, b in zip((c1, c2), terms))
        noise = [0.0, 0.01, 0.03][rng.integers(3)]
        y = y * (1 + rng.normal(0, noise, len(p)))
        series.append((p, y, "%.3f + %s, %g noise" % (c0, " + ".join(str(b) for b in terms), noise)))
    out = []
    for p, y, truth in series:
        m = model(p, y)
        m["constant"] = float(m["constant"])
        m["terms"] = [[int(t[0]), int(t[1]), int(t[2]), float(t[3])] for t in m["terms"]]
        out.append({"p": [float(v) for v in p], "y": [float(v) for v in y], "truth": truth,
                    "model": {k: float(v) if k != "terms" else v for k, v in m.items()}})
    json.dump({"series": out}, sys.stdout)


main()
