# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""Shared by the Python tests: the environment CTest sets (tests/python/CMakeLists.txt), running
parallax-cli as the oracle, and small synthetic trials."""

import json
import os
import subprocess
import tempfile
import warnings

DATA_DIR = os.environ["PARALLAX_DATA_DIR"]
CLI = os.environ["PARALLAX_CLI"]
LIST_SAMPLES = os.environ["PARALLAX_LIST_SAMPLES"]
CPI = os.path.join(DATA_DIR, "tau2", "tau-profiles-callpath-cpi-4rank")


def cli(*args, check=True):
    """parallax-cli ARGS: its standard output (text); fails the test's command on a non-zero exit."""
    run = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if check and run.returncode != 0:
        raise AssertionError(f"parallax-cli {' '.join(map(str, args))}: exit {run.returncode}: {run.stderr}")
    return run.stdout


def cli_json(*args):
    return json.loads(cli(*args))


def samples():
    """(kind, path) of every sample unit tst_allsamples reads: kind 'sample' or 'pending'."""
    out = subprocess.run([LIST_SAMPLES, DATA_DIR], capture_output=True, text=True, check=True).stdout
    return [tuple(line.split("\t", 1)) for line in out.splitlines() if line]


_synth_dir = None


def synth(seed, threads=8, events=20, depth=3, per_node=None):
    """A small synthetic TAU profile directory (parallax-cli synth; per_node threads on a node, by
    default one), made once per process."""
    global _synth_dir
    if _synth_dir is None:
        _synth_dir = tempfile.TemporaryDirectory(prefix="parallax-pytest-")
    path = os.path.join(_synth_dir.name, f"synth-{threads}x{events}-d{depth}-s{seed}-n{per_node}")
    if not os.path.isdir(path):
        extra = ["--threads-per-node", per_node] if per_node else []
        cli("synth", "--threads", threads, "--events", events, "--callpath-depth", depth, "--seed", seed, *extra, path)
    return path


def quiet_open(parallax, path, **kwargs):
    """parallax.open without the reader's warnings on the test's output."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return parallax.open(path, **kwargs)
