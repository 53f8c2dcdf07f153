#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""`parallax.open` + `Trial.dataframe()` of one trial: seconds of each step and the process's peak
resident memory, one JSON line (issue 21's target: 16,384 threads in <= 3 s and <= 2x the memory of
`parallax-cli info` on the same trial; bench_python.sh runs both).
    PYTHONPATH=build/python /usr/bin/python3 tests/bench/bench_python.py DIR"""

import json
import resource
import sys
import time
import warnings

import parallax

path = sys.argv[1]
baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # the interpreter, NumPy, pandas
start = time.perf_counter()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    trial = parallax.open(path)
opened = time.perf_counter()
frame = trial.dataframe()
done = time.perf_counter()
print(json.dumps({
    "label": "python: parallax.open + dataframe()",
    "threads": len(trial.threads),
    "rows": len(frame),
    "columns": list(frame.columns),
    "open_s": round(opened - start, 3),
    "dataframe_s": round(done - opened, 3),
    "total_s": round(done - start, 3),
    # The columns and the index's codes; not frame.memory_usage(index=True), which builds the
    # MultiIndex's hash engine (pandas does that on the first .loc too, about 40 bytes a row), nor
    # frame.values, a float64 copy of the columns of mixed types.
    "frame_mb": round((frame.memory_usage(index=False).sum() + sum(c.nbytes for c in frame.index.codes)) / 2**20, 1),
    "dtypes": [str(t) for t in frame.dtypes],
    "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    "baseline_rss_mb": round(baseline / 1024, 1),
}))
