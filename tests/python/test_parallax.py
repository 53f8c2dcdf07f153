# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""`import parallax` against the C++ programs: every sample opens, the DataFrames hold the numbers
`parallax-cli info --json`, `pprof`, `flame --folded` and the algebra commands print, a written
trial reads back identical, and errors carry the file and line. Run by CTest (python_parallax)."""

import math
import os
import tempfile
import unittest
import warnings

import numpy as np
import pandas as pd

import parallax
from pxtest import CPI, cli, cli_json, quiet_open, samples, synth


def close(a, b):
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


class EverySample(unittest.TestCase):
    def test_every_sample_opens(self):
        units = samples()
        readable = [path for kind, path in units if kind == "sample"]
        self.assertGreaterEqual(len(readable), 101)  # tst_allsamples: 101 profiles on 2026-11-25
        for path in readable:
            with self.subTest(sample=path):
                t = quiet_open(parallax, path)
                frame = t.dataframe()
                # One row per present cell, every metric's columns.
                self.assertEqual(len(frame), t._t.cell_count)
                self.assertEqual(len(frame.columns), 2 * len(t.metrics) + 2)
                self.assertFalse(frame.index.has_duplicates)
        print(f"{len(readable)} samples opened, {len(units) - len(readable)} pending")


class AgainstTheCli(unittest.TestCase):
    SAMPLES = [CPI,
               "tau2/ppk/matmult-heatmap.ppk",
               "tau2/tauprofile-xml-merged/tauprofile.xml",
               "cube/pycubexr/call_tree_test/call_tree_test.cubex",
               "tau2/gprof-wrf/gprof.out"]

    def paths(self):
        from pxtest import DATA_DIR
        return [p if os.path.isabs(p) else os.path.join(DATA_DIR, p) for p in self.SAMPLES]

    def test_info_json(self):
        for path in self.paths():
            with self.subTest(sample=path):
                info = cli_json("info", "--json", path)
                t = quiet_open(parallax, path)
                self.assertEqual(t.name, info["name"])
                self.assertEqual(t.metrics, info["metrics"])
                self.assertEqual(t.units, info["units"])
                self.assertEqual(len(t.threads), info["threads"])
                self.assertEqual(len({k[0] for k in t.threads}), info["nodes"])
                self.assertEqual(t.metadata, info["metadata"])
                self.assertEqual(len(t.user_events), info["user_events"])
                events = t.events
                self.assertEqual(int((events["depth"] == 1).sum()), info["events"])
                self.assertEqual(int((events["depth"] > 1).sum()), info["callpaths"])
                self.assertEqual(sorted({g for gs in events["groups"] for g in gs}), sorted(info["groups"]))
                # top_exclusive: the mean exclusive value over all threads (absent = 0) of metric 0.
                mean = t.statistics(values="exclusive")[("exclusive", "mean")]
                frame = t.dataframe(metric=0, values=("exclusive",))
                by_event = frame["exclusive"].groupby(level="event").sum() / len(t.threads)
                for item in info["top_exclusive"]:
                    self.assertTrue(close(mean[item["name"]], item["value"]), item)
                    self.assertTrue(close(by_event[item["name"]], item["value"]), item)
                # ... of the flat events (call paths are not listed).
                flat = mean.loc[events.index[events["depth"] == 1]]
                top = flat.sort_values(ascending=False, kind="stable").head(len(info["top_exclusive"]))
                self.assertEqual(sorted(top.values.tolist(), reverse=True),
                                 [item["value"] for item in info["top_exclusive"]])

    def test_pprof_totals(self):
        """Total calls and subroutines per event as `pprof -s` prints them (whole numbers)."""
        text = cli("pprof", "-s", CPI)
        section = text.split("FUNCTION SUMMARY (total):")[1].split("FUNCTION SUMMARY (mean):")[0]
        t = parallax.open(CPI)
        stats = t.statistics()
        raw = {name.strip(): name for name in stats.index}
        rows = 0
        for line in section.splitlines():
            fields = line.split(None, 6)
            if len(fields) < 7 or not fields[0].replace(".", "").isdigit():
                continue
            name = fields[6].strip()
            self.assertIn(name, raw)
            self.assertEqual(int(fields[3]), round(stats.loc[raw[name], ("calls", "total")]))
            self.assertEqual(int(fields[4]), round(stats.loc[raw[name], ("subroutines", "total")]))
            rows += 1
        self.assertEqual(rows, len(stats))

    def test_dataframe_cells_against_a_thread(self):
        """The cells of one thread equal the values `pprof` prints for it, and absent cells are absent."""
        t = parallax.open(synth(1))
        frame = t.dataframe()
        self.assertEqual(len(frame), t._t.cell_count)
        self.assertTrue((frame["calls"] > 0).all())
        per_thread = frame.groupby(level=["node", "context", "thread"]).size()
        self.assertEqual(len(per_thread), len(t.threads))
        flat = t.dataframe(callpaths=False)
        self.assertTrue((t.events.loc[flat.index.get_level_values("event").unique(), "depth"] == 1).all())
        # Inclusive >= exclusive for the synthetic call tree (its inclusive times add up).
        self.assertTrue((frame["inclusive"] >= frame["exclusive"] - 1e-9).all())

    def test_folded_equals_flame_command(self):
        for path in (CPI, synth(1)):
            with self.subTest(sample=path):
                self.assertEqual(parallax.open(path).to_folded(), cli("flame", "--folded", path))

    def test_algebra_equals_the_commands(self):
        a, b = synth(1), synth(2)
        with tempfile.TemporaryDirectory() as tmp:
            for op in ("diff", "ratio"):
                with self.subTest(operation=op):
                    out = os.path.join(tmp, f"{op}.json")
                    cli(op, a, b, "-o", out)
                    expected = parallax.open(out).dataframe()
                    got = getattr(parallax, op)(parallax.open(a), parallax.open(b)).dataframe()
                    pd.testing.assert_frame_equal(got.sort_index(), expected.sort_index())
            out = os.path.join(tmp, "mean.json")
            cli("mean", a, b, synth(3), "-o", out)
            got = parallax.mean([parallax.open(p) for p in (a, b, synth(3))]).dataframe()
            pd.testing.assert_frame_equal(got.sort_index(), parallax.open(out).dataframe().sort_index())
        d = parallax.diff(parallax.open(a), parallax.open(b))
        self.assertEqual(d.provenance["operation"], "diff")
        both = parallax.open(a).dataframe().join(parallax.open(b).dataframe(), rsuffix="_b", how="inner")
        delta = d.dataframe().loc[both.index]
        np.testing.assert_array_equal(delta["exclusive"].to_numpy(),
                                      (both["exclusive"] - both["exclusive_b"]).to_numpy())

    def test_collapse_like_the_commands(self):
        """threads="collapse_process"/"collapse_all" collapse every operand's threads first, as the CLI's
        --threads collapse-process/collapse-all do, also when the thread sets are identical."""
        a, b, c = (synth(seed, threads=12, per_node=4) for seed in (1, 2, 3))
        with tempfile.TemporaryDirectory() as tmp:
            for policy, threads in (("collapse_process", 3), ("collapse_all", 1)):
                option = policy.replace("_", "-")
                for op, paths in (("diff", (a, b)), ("mean", (a, b, c))):
                    with self.subTest(operation=op, threads=policy):
                        out = os.path.join(tmp, f"{op}-{policy}.json")
                        cli(op, *paths, "--threads", option, "-o", out)
                        expected = parallax.open(out)
                        trials = [parallax.open(p) for p in paths]
                        got = parallax.diff(*trials, threads=policy) if op == "diff" else \
                            parallax.mean(trials, threads=policy)
                        self.assertEqual(len(got.threads), threads)
                        self.assertEqual(got.threads, expected.threads)
                        pd.testing.assert_frame_equal(got.dataframe().sort_index(), expected.dataframe().sort_index())

    def test_count_columns_are_integers_when_whole(self):
        """calls and subroutines are uint32 when every value is a whole number in its range, else int64
        when whole (a diff's negative counts), else float64 (a mean's); their sums are pprof's totals."""
        a, b, c = (parallax.open(synth(seed)) for seed in (1, 2, 3))
        seen = set()
        for name, t in (("cpi", parallax.open(CPI)), ("synth", a), ("diff", parallax.diff(a, b)),
                        ("mean", parallax.mean([a, b, c]))):
            frame = t.dataframe()
            stats = t.statistics()
            for column in ("calls", "subroutines"):
                with self.subTest(trial=name, column=column):
                    values = frame[column].to_numpy()
                    dtype = values.dtype
                    self.assertEqual(frame[["calls", "subroutines"]].dtypes.nunique(), 1)
                    whole = bool((values == np.trunc(values)).all())
                    if dtype == np.int64:
                        self.assertTrue(whole)
                        self.assertTrue((values < 0).any() or (values > np.iinfo(np.uint32).max).any())
                    elif dtype == np.float64:
                        both = frame[["calls", "subroutines"]].to_numpy()
                        self.assertFalse((both == np.trunc(both)).all())
                    else:
                        self.assertEqual(dtype, np.uint32)
                    seen.add(dtype)
                    totals = frame[column].groupby(level="event").sum()
                    for event, total in totals.items():
                        self.assertTrue(close(float(total), stats.loc[event, (column, "total")]), event)
        self.assertEqual(seen, {np.dtype(np.uint32), np.dtype(np.int64), np.dtype(np.float64)})
        # The frame holds one block per dtype, taken from the extension's arrays without a copy.
        frame = a.dataframe()
        self.assertEqual(len(frame._mgr.blocks), 2)
        self.assertFalse(any(block.values.flags.owndata for block in frame._mgr.blocks))

    def test_derive(self):
        t = parallax.derive(parallax.open(CPI), 'DOUBLE = "TIME" * 2')
        self.assertEqual(t.metrics, ["TIME", "DOUBLE"])
        frame = t.dataframe()
        np.testing.assert_array_equal(frame["DOUBLE exclusive"].to_numpy(), 2 * frame["TIME exclusive"].to_numpy())
        with self.assertRaises(parallax.Error):
            parallax.derive(t, "X = NOPE / TIME")


class RoundTrip(unittest.TestCase):
    def assert_same(self, a, b):
        self.assertEqual(a.metrics, b.metrics)
        self.assertEqual(sorted(a.threads), sorted(b.threads))
        pd.testing.assert_frame_equal(a.dataframe().sort_index(), b.dataframe().sort_index())
        pd.testing.assert_frame_equal(a.user_events_dataframe().sort_index(), b.user_events_dataframe().sort_index())
        self.assertEqual(a.metadata, b.metadata)

    def test_write_and_open(self):
        with tempfile.TemporaryDirectory() as tmp:
            for path in (CPI, synth(1)):
                t = parallax.open(path)
                for target in ("trial.json", "trial.ppk", "tau-dir"):
                    with self.subTest(sample=path, target=target):
                        out = os.path.join(tmp, os.path.basename(path) + "-" + target)
                        t.write(out)
                        self.assert_same(t, quiet_open(parallax, out))

    def test_write_error(self):
        with self.assertRaises(parallax.Error):
            parallax.open(CPI).write("/proc/parallax-cannot-write/trial.json")


class Errors(unittest.TestCase):
    def test_read_error_carries_file_and_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "profile.0.0.0")
            with open(bad, "w") as f:
                f.write("2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"
                        '"main" 1 0 10 10 0 GROUP="TAU_DEFAULT"\n"broken" one two\n')
            with self.assertRaises(parallax.ReadError) as caught:
                parallax.open(tmp, strict=True)
            e = caught.exception
            self.assertEqual(os.path.realpath(e.file), os.path.realpath(bad))
            self.assertGreater(e.line, 0)
            self.assertIn(e.file, str(e))
            self.assertTrue(e.message)
            self.assertIsInstance(e, parallax.Error)

    def test_unrecognised_and_missing(self):
        with self.assertRaises(parallax.ReadError) as caught:
            parallax.open("/nonexistent/parallax/profile")
        self.assertEqual(caught.exception.file, "/nonexistent/parallax/profile")
        with self.assertRaises(parallax.Error):
            parallax.open(CPI, format="no-such-reader")
        with self.assertRaises(parallax.Error):
            parallax.open(CPI).dataframe(metric="NO_SUCH_METRIC")
        with self.assertRaises(ValueError):
            parallax.open(CPI).dataframe(values=("exclusive", "bogus"))

    def test_warnings_are_python_warnings(self):
        # A TAU directory with one unreadable profile: the reader skips it with a warning.
        with tempfile.TemporaryDirectory() as tmp:
            t = parallax.open(CPI)
            out = os.path.join(tmp, "tau")
            t.write(out)
            with open(os.path.join(out, "profile.9.0.0"), "w") as f:
                f.write("garbage\n")
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                again = parallax.open(out)
            self.assertTrue(again.warnings)
            self.assertEqual([str(w.message) for w in caught if issubclass(w.category, parallax.ReadWarning)],
                             again.warnings)


class Model(unittest.TestCase):
    def test_trial_attributes(self):
        t = parallax.open(CPI)
        self.assertEqual(t.threads, [(n, 0, 0) for n in range(4)])
        self.assertEqual(t.provenance["operation"], "read")
        self.assertEqual(t.provenance["reader"], "tau")
        self.assertEqual(os.path.realpath(t.source), os.path.realpath(CPI))
        self.assertIsInstance(t.thread_metadata(0, 0, 0), dict)
        with self.assertRaises(parallax.Error):
            t.thread_metadata(9, 9, 9)
        events = t.events
        path = ".TAU application => MPI_Init()"
        self.assertEqual(events.loc[path, "parent"], ".TAU application")
        self.assertEqual(events.loc[path, "leaf"], "MPI_Init()")
        self.assertEqual(events.loc[path, "depth"], 2)
        self.assertIsNone(events.loc[".TAU application", "parent"])
        self.assertIn("tau", [f["name"] for f in parallax.formats()])
        self.assertIn("json", [f["name"] for f in parallax.formats(writers=True)])
        users = t.user_events_dataframe()
        self.assertEqual(list(users.columns), ["count", "max", "min", "mean", "sd", "sumsqr"])
        self.assertEqual(len(users), 8)

    def test_statistics_definitions(self):
        t = parallax.open(synth(1))
        frame = t.dataframe(values=("exclusive",))["exclusive"]
        stats = t.statistics(values=("exclusive",))["exclusive"]
        n = len(t.threads)
        grouped = frame.groupby(level="event")
        np.testing.assert_allclose(stats["total"].loc[grouped.sum().index], grouped.sum(), rtol=1e-12)
        np.testing.assert_allclose(stats["mean"].loc[grouped.sum().index], grouped.sum() / n, rtol=1e-12)
        np.testing.assert_allclose(stats["mean_present"].loc[grouped.mean().index], grouped.mean(), rtol=1e-12)
        np.testing.assert_array_equal(stats["max"].loc[grouped.max().index], grouped.max())
        self.assertTrue((stats["present"].loc[grouped.size().index] == grouped.size()).all())

    def test_gil_released_while_reading(self):
        """Another Python thread runs during one call into the reader: the GIL is released. (Holding it,
        the other thread could not count at all between the call's start and end.)"""
        import threading
        path = synth(1, threads=1024, events=60)
        parallax.open(path)  # the files in the page cache
        ticks = [0]
        done = threading.Event()

        def tick():
            while not done.is_set():
                ticks[0] += 1

        thread = threading.Thread(target=tick)
        thread.start()
        try:
            counted = []
            for _ in range(3):
                before = ticks[0]
                parallax._parallax._read(path, "", False, 1)  # one C++ call
                counted.append(ticks[0] - before)
        finally:
            done.set()
            thread.join()
        self.assertGreater(max(counted), 1000, counted)


class Hatchet(unittest.TestCase):
    def test_parts_follow_hatchets_literal_format(self):
        t = parallax.open(CPI)
        roots, frame = t._hatchet_parts()
        self.assertEqual([r["frame"]["name"] for r in roots], [".TAU application"])
        for column in ("name", "time", "time (inc)", "rank", "thread"):
            self.assertIn(column, frame.columns)
        seen = []

        def walk(node, depth):
            self.assertEqual(set(node), {"frame", "metrics", "children", "node_id"})
            self.assertEqual(node["frame"]["type"], "function")
            self.assertEqual(set(node["metrics"]), {"time", "time (inc)"})
            rows = frame[frame["node_id"] == node["node_id"]]
            self.assertTrue((rows["name"] == node["frame"]["name"]).all())
            self.assertTrue(close(rows["time"].sum() / len(t.threads), node["metrics"]["time"]))
            children = sum(c["metrics"]["time (inc)"] for c in node["children"])
            self.assertTrue(node["metrics"]["time (inc)"] + 1e-9 >= children)
            seen.append(node["node_id"])
            for c in node["children"]:
                walk(c, depth + 1)

        for r in roots:
            walk(r, 0)
        self.assertEqual(sorted(seen), list(range(len(seen))))
        # Every call path of the trial is one node; its rows are the dataframe's cells of that path.
        self.assertEqual(len(seen), int((t.events["depth"] > 1).sum()) + 1)
        cells = t.dataframe(values=("exclusive",))
        main = cells.xs(".TAU application", level="event")["exclusive"]
        root_rows = frame[frame["node_id"] == roots[0]["node_id"]].set_index(["rank", "thread"])["time"]
        np.testing.assert_array_equal(np.sort(root_rows.to_numpy()), np.sort(main.to_numpy()))
        self.assertEqual(sorted(frame["rank"].unique()), [0, 1, 2, 3])

    def test_to_hatchet(self):
        try:
            import hatchet  # noqa: F401
        except ImportError:
            print("SKIP test_to_hatchet: the hatchet package is not installed (not packaged in Debian)")
            with self.assertRaises(ImportError):
                parallax.open(CPI).to_hatchet()
            self.skipTest("hatchet is not installed")
        gf = parallax.open(CPI).to_hatchet()
        self.assertIn("time (inc)", gf.dataframe.columns)
        self.assertEqual(len(gf.graph.roots), 1)


class Docs(unittest.TestCase):
    def test_help_is_useful(self):
        for obj in (parallax, parallax.open, parallax.Trial, parallax.Trial.dataframe, parallax.Trial.statistics,
                    parallax.diff, parallax.db.connect, parallax.db.Database.trials, parallax.ReadError):
            self.assertTrue(obj.__doc__ and len(obj.__doc__) > 20, obj)


if __name__ == "__main__":
    unittest.main()
