# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""The experiment database (TAUdb's schema on SQLite or PostgreSQL), as parallax-cli db uses it.

    >>> from parallax import db
    >>> store = db.connect()                      # $PARALLAX_DB, else the default SQLite file
    >>> i = store.store(trial, app="LULESH", exp="scaling")
    >>> store.trials(app="LULESH")                # a DataFrame, one row per trial
    >>> store.load(i).dataframe()
"""

import pandas as pd

from . import _parallax

__all__ = ["connect", "Database", "default_location"]


def default_location():
    """The database connect() opens without a location: $PARALLAX_DB, else
    ~/.local/share/parallax/parallax.sqlite."""
    return _parallax._database_location("")


def connect(location=None):
    """Opens a database: an SQLite file path, a postgresql:// URI (or libpq keyword string), or None
    for default_location(). The schema is created in a new database. Raises parallax.Error."""
    return Database(_parallax.Database(str(location) if location else ""))


class Database:
    """One connection to an experiment database. Use it from the thread that opened it."""

    def __init__(self, handle):
        self._db = handle

    def __repr__(self):
        return f"<parallax.db.Database {self.backend} {self.location!r}>"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def location(self):
        """The file path or connection string (without a password)."""
        return self._db.location

    @property
    def backend(self):
        """'sqlite' or 'postgresql'."""
        return self._db.backend

    def close(self):
        """Closes the connection."""
        self._db.close()

    def trials(self, app=None, exp=None, where=None, name=None, metadata=True):
        """The stored trials as a DataFrame indexed by id: name, application, experiment, threads,
        nodes, metrics, data_source, uploaded, and (metadata=True) a column per metadata key.
        app/exp select an application/experiment, name a part of the name, where a dict of
        metadata key -> exact value that must all hold."""
        rows = self._db._trials(app or "", exp or "", name or "", dict(where or {}), metadata)
        base = ["id", "name", "application", "experiment", "threads", "nodes", "metrics", "data_source", "uploaded"]
        frame = pd.DataFrame([{k: r[k] for k in base} for r in rows], columns=base).set_index("id")
        if metadata and rows:
            meta = pd.DataFrame([r["metadata"] for r in rows], index=frame.index)
            meta = meta[[c for c in meta.columns if c not in frame.columns]]
            frame = frame.join(meta)
        return frame

    def load(self, id):
        """The stored trial `id` as a parallax.Trial."""
        from . import Trial
        return Trial(self._db.load(int(id)))

    def store(self, trial, app=None, exp=None, name=None):
        """Stores a trial under application `app` and experiment `exp` (metadata Application and
        Experiment), named `name` (default: its own name); returns the new id."""
        return self._db.store(trial._t, app or "", exp or "", name or "")

    def delete(self, id):
        """Deletes the stored trial `id`."""
        self._db.delete(int(id))
