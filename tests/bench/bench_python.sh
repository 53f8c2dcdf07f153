#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Issue 21 benchmark: `parallax.open` + `dataframe()` of the 16,384-thread synthetic trial (101 events,
# depth-2 call paths, 5 user events) against the trial's own cost, `parallax-cli info` (wall time and
# peak RSS through parallax-bench, median of RUNS). Both parse the profiles (PARALLAX_NO_CACHE=1), then
# both again through the trial cache (docs/FORMATS.md §13). Prints JSON lines.
#   tests/bench/bench_python.sh [BUILD_DIR] [DATA_DIR]
set -euo pipefail
here="$(dirname "$(readlink -f "$0")")"
build="$(readlink -f "${1:-build}")"
data="${2:-/tmp/parallax-bench-16384x101-d2}"
cli="$build/app/parallax-cli"
bench="$build/tests/bench/parallax-bench"
runs="${RUNS:-5}"
python=/usr/bin/python3 # Debian's interpreter: NumPy and pandas

if [ ! -f "$data/profile.16383.0.0" ]; then
    rm -rf "$data"
    "$cli" synth --threads 16384 --events 101 --callpath-depth 2 --user-events 5 --seed 1 "$data" >/dev/null
fi
echo "{\"data\":\"$data\",\"files\":$(ls "$data" | wc -l),\"bytes\":$(du -sb "$data" | cut -f1),\"cores\":$(nproc)}"
cache_dir="$(mktemp -d /tmp/parallax-bench-cache.XXXXXX)"
trap 'rm -rf "$cache_dir"' EXIT
export PYTHONPATH="$build/python"
for mode in parse cache; do
    if [ "$mode" = parse ]; then
        export PARALLAX_NO_CACHE=1
    else
        unset PARALLAX_NO_CACHE
        export PARALLAX_CACHE_DIR="$cache_dir"
        "$cli" info "$data" >/dev/null # writes the cache entry
    fi
    "$bench" --runs "$runs" --label "parallax-cli info ($mode)" -- "$cli" info "$data"
    "$bench" --runs "$runs" --label "python open + dataframe ($mode)" -- "$python" "$here/bench_python.py" "$data"
    "$python" "$here/bench_python.py" "$data"
done
