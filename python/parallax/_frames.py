# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""pandas objects from the extension's NumPy arrays: the index is built from integer codes (no
Python object per cell) and the values block is handed to pandas without a copy."""

import numpy as np
import pandas as pd

CELL_VALUES = ("exclusive", "inclusive", "calls", "subroutines")
# algebra/statistics.h ValueKind, in its order.
VALUE_KINDS = ("exclusive", "inclusive", "calls", "subroutines", "exclusive_per_call", "inclusive_per_call")
# The columns of _parallax.Trial._statistics per kind, in its order.
STATISTICS = ("mean", "mean_present", "total", "min", "max", "sd", "sd_present", "present")
USER_FIELDS = ("count", "max", "min", "mean", "sd", "sumsqr")


def _check(values, allowed):
    values = (values,) if isinstance(values, str) else tuple(values)
    for v in values:
        if v not in allowed:
            raise ValueError(f"{v!r} is not one of {list(allowed)}")
    return values


def _codes_dtype(levels):
    """The integer type pandas keeps a level's codes in (so it takes them without a copy)."""
    return np.int8 if levels < 127 else np.int16 if levels < 32767 else np.int32


def _thread_index(trial, per_thread, event_codes, event_names, event_level):
    """The (node, context, thread, event) MultiIndex of cells in thread order, per_thread[t] cells of
    thread t. The codes are made per thread and repeated per cell in the smallest integer type (the
    one pandas keeps): one array a level, no per-cell temporary."""
    keys = np.array(trial.threads, dtype=np.int64).reshape(-1, 3)
    levels, codes = [], []
    for column in range(3):
        level, inverse = np.unique(keys[:, column], return_inverse=True)
        levels.append(level)
        codes.append(np.repeat(inverse.astype(_codes_dtype(len(level))), per_thread))
    levels.append(pd.Index(event_names, dtype=object))
    codes.append(event_codes.astype(_codes_dtype(len(event_names)), copy=False))
    return pd.MultiIndex(levels=levels, codes=codes, names=["node", "context", "thread", event_level],
                         verify_integrity=False)


def metric_indices(trial, metric):
    from . import _metric_index
    if metric is None:
        return list(range(len(trial.metrics)))
    if isinstance(metric, (str, int)):
        return [_metric_index(trial, metric)]
    return [_metric_index(trial, m) for m in metric]


def _blocks_frame(blocks, index, columns):
    """A DataFrame over 2-D (columns, rows) arrays, one pandas block each, without a copy.
    ``pd.DataFrame(dict, copy=False)`` stacks same-typed columns into a new block (pandas 1.5
    consolidates), and one 2-D array forces one dtype on every column. Blocks of different dtypes
    are never consolidated; two of the same (float64 counts beside the values) only when an
    operation asks pandas to."""
    from pandas.core.internals import BlockManager
    from pandas.core.internals.api import make_block
    made, start = [], 0
    for block in blocks:
        if block.shape[0]:
            made.append(make_block(block, placement=slice(start, start + block.shape[0]), ndim=2))
            start += block.shape[0]
    manager = BlockManager(made, [pd.Index(columns), index], verify_integrity=False)
    return pd.DataFrame(manager)


def cells_frame(trial, metric, values, callpaths):
    values = _check(values, CELL_VALUES)
    metrics = metric_indices(trial, metric)
    single = len(metrics) == 1
    threads, events, block, counts = trial._t._cells(metrics, "exclusive" in values, "inclusive" in values,
                                                     "calls" in values, "subroutines" in values, callpaths)
    names = trial._t._events()[0]
    columns = []
    for m in metrics:
        for v in ("exclusive", "inclusive"):
            if v in values:
                columns.append(v if single else f"{trial.metrics[m]} {v}")
    columns += [v for v in ("calls", "subroutines") if v in values]
    index = _thread_index(trial, threads, events, names, "event")
    # The metric values (float64) and the counts (uint32, int64 or float64, one type for both) come
    # as (columns, cells) arrays in C order: pandas' own layout of a block.
    return _blocks_frame((block, counts), index, columns)


def user_cells_frame(trial):
    threads, events, block = trial._t._user_cells()
    names = trial._t._user_events()[0]
    index = _thread_index(trial, threads, events, names, "user_event")
    return pd.DataFrame(block.T, index=index, columns=list(USER_FIELDS), copy=False)


def statistics_frame(trial, metric, values):
    from . import _metric_index
    values = _check(values, VALUE_KINDS)
    kinds = [VALUE_KINDS.index(v) for v in values]
    block = trial._t._statistics(_metric_index(trial, metric), kinds)
    names = trial._t._events()[0]
    columns = pd.MultiIndex.from_product([list(values), list(STATISTICS)], names=["value", "statistic"])
    frame = pd.DataFrame(block, index=pd.Index(names, name="event"), columns=columns, copy=False)
    for v in values:
        frame[(v, "present")] = frame[(v, "present")].astype(np.int64)
    return frame


def events_frame(handle):
    names, groups, parent, leaf, depth = handle._events()
    lookup = np.array(names + [None], dtype=object)
    return pd.DataFrame({"groups": groups, "depth": depth, "parent": lookup[parent], "leaf": lookup[leaf]},
                        index=pd.Index(names, name="event"))
