#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Issue 2 and 18 benchmark: 16,384 threads x 101 events (+ depth-2 call paths, 5 user events), with
# PDT-style routine names and TAU's metadata block in every file (synth --realistic, about 480 MB).
# Prints JSON lines: median of 5 runs of loading, `parallax-cli info` and `parallax-cli pprof -s`,
# and TAU's own pprof -s side by side when it is on PATH (or TAU_PPROF=/path/to/pprof; build one with
# tools/build-tau-pprof.sh). Those runs time the parse path (PARALLAX_NO_CACHE=1); then the second
# open through the trial cache (docs/FORMATS.md §13): one `info` writes the entry into a temporary
# PARALLAX_CACHE_DIR, the median of 5 more reads it. CACHE_TRIALS="DIR..." adds other trials to that
# part (e.g. a 131,072-thread synth trial).
#   tests/bench/run_benchmarks.sh [BUILD_DIR] [DATA_DIR]
set -euo pipefail
build="$(readlink -f "${1:-build}")"
data="${2:-/tmp/parallax-bench-16384x101-realistic}"
cli="$build/app/parallax-cli"
bench="$build/tests/bench/parallax-bench"
runs="${RUNS:-5}"
export PARALLAX_NO_CACHE=1

if [ ! -f "$data/profile.16383.0.0" ]; then
    rm -rf "$data"
    "$cli" synth --realistic --threads 16384 --events 101 --callpath-depth 2 --user-events 5 --seed 1 "$data"
fi
echo "{\"data\":\"$data\",\"files\":$(ls "$data" | wc -l),\"bytes\":$(du -sb "$data" | cut -f1),\"cores\":$(nproc)}"
"$bench" --runs "$runs" --label "load (parallax-bench --load)" -- "$bench" --load "$data"
for r in 1 2 3; do "$bench" --load "$data"; done
"$bench" --runs "$runs" --label "parallax-cli info" -- "$cli" info "$data"
median() { grep '"runs"' | sed -n 's/.*"median_wall_s":\([0-9.]*\).*/\1/p'; }
ours="$("$bench" --runs "$runs" --label "parallax-cli pprof -s" -- "$cli" pprof -s "$data" | tee /dev/stderr | median)"
tau_pprof="${TAU_PPROF:-$(command -v pprof || true)}"
if [ -n "$tau_pprof" ]; then
    theirs="$(cd "$data" && "$bench" --runs "$runs" --label "TAU pprof -s" -- "$tau_pprof" -s | tee /dev/stderr | median)"
    echo "{\"label\":\"TAU pprof -s / parallax-cli pprof -s\",\"ratio\":$(awk -v a="$theirs" -v b="$ours" 'BEGIN { printf "%.2f", a / b }')}"
else
    echo "{\"note\":\"TAU's pprof is not installed here; set TAU_PPROF to time it side by side\"}"
fi

# The second open, from the trial cache.
cache_dir="$(mktemp -d /tmp/parallax-bench-cache.XXXXXX)"
trap 'rm -rf "$cache_dir"' EXIT
for trial in "$data" ${CACHE_TRIALS:-}; do
    PARALLAX_NO_CACHE= PARALLAX_CACHE_DIR="$cache_dir" "$bench" --runs 1 --label "parallax-cli info, first open (writes the cache): $trial" -- "$cli" info "$trial"
    PARALLAX_NO_CACHE= PARALLAX_CACHE_DIR="$cache_dir" "$bench" --runs "$runs" --label "parallax-cli info, second open (from the cache): $trial" -- "$cli" info "$trial"
    echo "{\"cache_bytes\":$(du -sb "$cache_dir" | cut -f1)}"
done
