# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""parallax.db round trips on SQLite and on the PostgreSQL server of PARALLAX_TEST_PG_URI (test.sh
starts one). Like the C++ database tests, the PostgreSQL case fails, never skips, without it.
Run by CTest (python_db)."""

import os
import tempfile
import unittest
import uuid

import pandas as pd

import parallax
from pxtest import CPI, cli_json, synth


class DatabaseRoundTrip(unittest.TestCase):
    def round_trip(self, location):
        tag = "pytest-" + uuid.uuid4().hex[:12]
        with parallax.db.connect(location) as store:
            stored = {}
            for path in (CPI, synth(1)):
                t = parallax.open(path)
                stored[store.store(t, app="Python test", exp=tag, name=os.path.basename(path))] = t
            listed = store.trials(exp=tag)
            self.assertEqual(sorted(listed.index), sorted(stored))
            self.assertTrue((listed["application"] == "Python test").all())
            self.assertIn("TAU Version", listed.columns)  # the trials' metadata, one column per key
            self.assertEqual(len(store.trials(exp=tag, where={"Experiment": tag})), 2)
            self.assertEqual(len(store.trials(exp=tag, where={"Experiment": "nope"})), 0)
            for i, t in stored.items():
                back = store.load(i)
                self.assertEqual(back.metrics, t.metrics)
                self.assertEqual(listed.loc[i, "threads"], len(t.threads))
                pd.testing.assert_frame_equal(back.dataframe().sort_index(), t.dataframe().sort_index())
                pd.testing.assert_frame_equal(back.statistics(), t.statistics().loc[back.statistics().index])
            for i in stored:
                store.delete(i)
            self.assertEqual(len(store.trials(exp=tag)), 0)
            with self.assertRaises(parallax.Error):
                store.load(max(stored) + 1000)

    def test_sqlite(self):
        with tempfile.TemporaryDirectory() as tmp:
            location = os.path.join(tmp, "trials.sqlite")
            self.round_trip(location)
            # parallax-cli sees what Python stored.
            with parallax.db.connect(location) as store:
                i = store.store(parallax.open(CPI), app="A", exp="E")
                self.assertEqual(store.backend, "sqlite")
            listed = cli_json("db", "list", "--db", location, "--json")
            self.assertEqual([row["id"] for row in listed], [i])

    def test_default_location_follows_parallax_db(self):
        with tempfile.TemporaryDirectory() as tmp:
            location = os.path.join(tmp, "env.sqlite")
            os.environ["PARALLAX_DB"] = location
            try:
                self.assertEqual(parallax.db.default_location(), location)
                with parallax.db.connect() as store:
                    self.assertEqual(store.location, location)
            finally:
                del os.environ["PARALLAX_DB"]

    def test_postgresql(self):
        uri = os.environ.get("PARALLAX_TEST_PG_URI")
        self.assertTrue(uri, "PARALLAX_TEST_PG_URI is not set: run ./test.sh, or start a server "
                             "(see docs/HACKING.md) and export it")
        self.round_trip(uri)
        with parallax.db.connect(uri) as store:
            self.assertEqual(store.backend, "postgresql")

    def test_connect_error(self):
        with self.assertRaises(parallax.Error):
            parallax.db.connect("/proc/parallax-no-such-dir/x.sqlite")


if __name__ == "__main__":
    unittest.main()
