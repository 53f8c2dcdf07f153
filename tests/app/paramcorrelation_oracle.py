#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""The independent computation tst_cli_paramcorrelation compares `parallax-cli correlate --param KEY
--json` with: SciPy's pearsonr and spearmanr (Debian python3-scipy) of each event's values against the
runs' parameter, over the runs where the event ran (docs/SEMANTICS.md §11.7).

    paramcorrelation_oracle.py RESULT.json

Prints one line per check; exits 1 when one fails."""
import json
import math
import sys
import warnings

from scipy import stats

failures = []
checked = 0


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def same(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9


with open(sys.argv[1], encoding="utf-8") as f:
    doc = json.load(f)
parameter = [r["parameter"] for r in doc["runs"]]
for e in doc["events"]:
    pairs = [(p, v) for p, v in zip(parameter, e["values"]) if v is not None]
    check(len(pairs) == e["runs"], "%s: %d runs" % (e["event"], len(pairs)))
    x = [p for p, _ in pairs]
    y = [v for _, v in pairs]
    constant = len(set(x)) < 2 or len(set(y)) < 2
    if len(pairs) < 3 or constant:
        expected_p = expected_s = None
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected_p = float(stats.pearsonr(x, y)[0])
            expected_s = float(stats.spearmanr(x, y)[0])
        if math.isnan(expected_s):
            expected_s = None
    check(same(e["pearson"], expected_p), "%s: Pearson %s, SciPy %s" % (e["event"], e["pearson"], expected_p))
    check(same(e["spearman"], expected_s), "%s: Spearman %s, SciPy %s" % (e["event"], e["spearman"], expected_s))
    checked += 1
check(checked > 0, "%d events compared" % checked)
sys.exit(1 if failures else 0)
