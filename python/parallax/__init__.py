# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""Parallax for Python: every profile reader, the experiment database and the algebra of runs,
at native speed, as pandas (and Hatchet) objects.

    >>> import parallax
    >>> t = parallax.open("tau-profiles-callpath-cpi-4rank")   # any format parallax.formats() lists
    >>> t.dataframe().head()                                    # (node, context, thread, event) rows
    >>> t.statistics()["exclusive"]["mean"].nlargest(5)          # the same numbers as parallax-cli pprof
    >>> d = parallax.diff(before, after)                        # a Trial again
    >>> parallax.db.connect().trials()                          # the default SQLite database

Reading, the algebra and the database run in C++ with the GIL released; values reach Python as
NumPy arrays (no Python object per cell). The numbers are defined in Parallax's docs/SEMANTICS.md;
docs/python.md is a walkthrough.
"""

import warnings as _warnings

from . import _parallax
from ._frames import STATISTICS, VALUE_KINDS, cells_frame, events_frame, statistics_frame, user_cells_frame

__all__ = ["open", "formats", "Trial", "ReadError", "Error", "diff", "ratio", "mean", "merge", "minimum",
           "maximum", "stddev", "derive", "db", "ReadWarning"]

Error = _parallax.Error
ReadError = _parallax.ReadError


class ReadWarning(UserWarning):
    """A reader's warning about the profile it read (also in Trial.warnings)."""


class Trial:
    """One run: its threads (node, context, thread), interval events (flat and call paths), metrics,
    user events, metadata and provenance. Immutable; made by open(), the algebra or the database.

    The per-cell values are read with dataframe(), the statistics across threads with statistics(),
    the user events with user_events_dataframe().
    """

    def __init__(self, handle):
        self._t = handle

    def __repr__(self):
        return (f"<parallax.Trial {self.name!r}: {len(self.threads)} threads, {len(self.events)} events, "
                f"metrics {self.metrics}>")

    # ---- what the trial is ----
    @property
    def name(self):
        """The trial's name."""
        return self._t.name

    @property
    def source(self):
        """The path it was read from (empty for a result of the algebra or the database)."""
        return self._t.source

    @property
    def provenance(self):
        """Where it came from: a dict with operation ('read', 'diff', ...), source, reader, operands, options."""
        return self._t.provenance

    @property
    def warnings(self):
        """The reader's (or operation's) warnings, as a list of strings."""
        return self._t.warnings

    @property
    def metrics(self):
        """The metric names, in order (index 0 is the default metric everywhere)."""
        return self._t.metrics

    @property
    def units(self):
        """The metrics' units ('us' for TAU time, 'count', '' when unknown), parallel to metrics."""
        return self._t.units

    @property
    def threads(self):
        """The threads, as a list of (node, context, thread) tuples."""
        return self._t.threads

    @property
    def metadata(self):
        """The trial-wide metadata (dict of str to str)."""
        return self._t.metadata

    def thread_metadata(self, node, context, thread):
        """The metadata one thread has of its own (dict); trial-wide keys are in metadata."""
        return self._t.thread_metadata(node, context, thread)

    @property
    def events(self):
        """The interval events as a DataFrame indexed by name: groups (list), depth (1 for a flat event),
        parent (the call path without its last component, None for a root) and leaf (the flat event
        of the last component, None when the trial has none)."""
        return events_frame(self._t)

    @property
    def user_events(self):
        """The user (atomic) events as a DataFrame indexed by name: base name and context ('' for none)."""
        import pandas as pd
        names, bases, contexts = self._t._user_events()
        return pd.DataFrame({"base": bases, "context": contexts}, index=pd.Index(names, name="user_event"))

    # ---- values ----
    def dataframe(self, metric=None, values=("exclusive", "inclusive", "calls", "subroutines"), callpaths=True):
        """The per-thread values as a DataFrame indexed by (node, context, thread, event).

        Only present cells are rows: an event that did not run on a thread has no row there (which is
        not the same as a row of zeros). metric: a name, an index or a list of them; None takes every
        metric. values: any of "exclusive", "inclusive", "calls", "subroutines". With one metric the
        columns are named like the values; with several, "exclusive" and "inclusive" become
        "<metric> exclusive" and "<metric> inclusive". callpaths=False keeps the flat events only.
        exclusive and inclusive are float64; calls and subroutines uint32 when every value is a whole
        number that fits (TAU's counts), else int64 when whole (a diff), else float64 (a mean).
        """
        return cells_frame(self, metric, values, callpaths)

    def statistics(self, metric=None, values=("exclusive", "inclusive", "calls", "subroutines")):
        """The statistics across threads per event (docs/SEMANTICS.md 2), the numbers of
        `parallax-cli pprof` and the GUI's tables: a DataFrame indexed by event with columns
        (value, statistic). values: any of "exclusive", "inclusive", "calls", "subroutines",
        "exclusive_per_call", "inclusive_per_call". Statistics: mean (absent threads count as 0),
        mean_present, total, min, max, sd (absent as 0), sd_present, present (number of threads).
        """
        return statistics_frame(self, metric, values)

    def user_events_dataframe(self):
        """The user events per thread, indexed by (node, context, thread, user_event): count, max,
        min, mean, sd, sumsqr. Absent records are absent."""
        return user_cells_frame(self)

    def to_folded(self, metric=None, statistic="mean", thread=None):
        """The call tree as folded stacks ("a;b;c value" lines, flamegraph.pl's input), as
        `parallax-cli flame --folded` writes them. statistic: mean, mean_present, total, min, max, sd
        or sd_present across threads; thread=(node, context, thread) takes one thread's values."""
        order = ["mean", "mean_present", "total", "min", "max", "sd", "sd_present"]
        if statistic not in order:
            raise ValueError(f"statistic must be one of {order}")
        return self._t._folded(_metric_index(self, metric), order.index(statistic), thread)

    def to_hatchet(self, metric=None):
        """A hatchet.GraphFrame of the call tree with per-thread values (columns time, time (inc),
        name, rank, thread, ...). Raises ImportError when the hatchet package is not installed."""
        from ._hatchet import to_graphframe
        return to_graphframe(self, metric)

    def _hatchet_parts(self, metric=None):
        """(roots, dataframe): the graph as Hatchet's literal format (nested dicts with frame, metrics,
        children) and the DataFrame with Hatchet's column names. to_hatchet() builds its GraphFrame
        from these."""
        from ._hatchet import hatchet_parts
        return hatchet_parts(self, metric)

    def write(self, path, format=None):
        """Writes the trial: the format from the path's suffix (a directory gets TAU profiles), or
        `format` (formats(writers=True) lists them)."""
        self._t.write(str(path), format or "")


def _metric_index(trial, metric):
    if metric is None:
        return 0
    if isinstance(metric, int):
        return metric
    try:
        return trial.metrics.index(metric)
    except ValueError:
        raise Error(f"the trial has no metric {metric!r} (it has {', '.join(trial.metrics)})") from None


def open(path, format=None, strict=False, threads=0):
    """Reads a profile (file or directory) with the reader that recognises it, or `format`
    (see formats()). strict=True refuses a trial with any unreadable file (normally skipped with a
    warning); threads: worker threads, 0 for one per core. Reader warnings are issued as
    ReadWarning and kept in Trial.warnings. Raises ReadError (with file, line, byte, message)."""
    handle = _parallax._read(str(path), format or "", strict, threads)
    trial = Trial(handle)
    for w in trial.warnings:
        _warnings.warn(w, ReadWarning, stacklevel=2)
    return trial


def formats(writers=False):
    """The readers (or with writers=True the writers) as a list of dicts: name, description and
    file patterns (suffixes for writers)."""
    if writers:
        return [{"name": n, "description": d, "suffixes": s} for n, d, s in _parallax._writers()]
    return [{"name": n, "description": d, "patterns": p} for n, d, p in _parallax._readers()]


# ---- the algebra (docs/SEMANTICS.md 4): trials in, a new Trial out ----
_ABSENT = {"zero": 0, "skip": 1}
_CONFLICT = {"error": 0, "last": 1, "first": 2}


def diff(a, b, match="exact", threads="strict", name=""):
    """A - B cell by cell (A the baseline, B the candidate: positive = B got cheaper).
    match: exact, no_source or routine (event matching); threads: strict, union_by_key,
    collapse_process, collapse_all or map_by_order (different thread sets)."""
    return Trial(_parallax._diff(a._t, b._t, match, threads, name))


def ratio(a, b, match="exact", threads="strict", name=""):
    """A / B cell by cell (IEEE: x/0 is inf, 0/0 NaN); options as diff()."""
    return Trial(_parallax._ratio(a._t, b._t, match, threads, name))


def _nary(operation, trials, match, threads, absent="zero", conflict="error", name=""):
    trials = list(trials)
    if absent not in _ABSENT:
        raise ValueError(f"absent must be one of {list(_ABSENT)}")
    if conflict not in _CONFLICT:
        raise ValueError(f"conflict must be one of {list(_CONFLICT)}")
    return Trial(_parallax._nary(operation, [t._t for t in trials], match, threads, _ABSENT[absent],
                                 _CONFLICT[conflict], name))


def mean(trials, match="exact", threads="strict", absent="zero", name=""):
    """The mean of several runs cell by cell; absent="skip" divides by the runs that have the cell."""
    return _nary("mean", trials, match, threads, absent=absent, name=name)


def merge(trials, match="exact", threads="strict", conflict="error", name=""):
    """The union of the runs' metrics (e.g. one run per hardware counter); conflict: error, first or
    last, when several runs have a metric."""
    return _nary("merge", trials, match, threads, conflict=conflict, name=name)


def minimum(trials, match="exact", threads="strict", absent="zero", name=""):
    """The cell-wise minimum over runs."""
    return _nary("min", trials, match, threads, absent=absent, name=name)


def maximum(trials, match="exact", threads="strict", absent="zero", name=""):
    """The cell-wise maximum over runs."""
    return _nary("max", trials, match, threads, absent=absent, name=name)


def stddev(trials, match="exact", threads="strict", absent="zero", name=""):
    """The cell-wise population standard deviation over runs."""
    return _nary("stddev", trials, match, threads, absent=absent, name=name)


def derive(trial, expression, mode="IEEE"):
    """A copy of the trial with a derived metric: expression like 'FLOPS = "PAPI_FP_OPS" / "TIME"';
    mode IEEE (x/0 = inf) or PARAPROF (x/0 = 0)."""
    return Trial(_parallax._derive(trial._t, expression, mode))


from . import db  # noqa: E402  (db uses Trial)
