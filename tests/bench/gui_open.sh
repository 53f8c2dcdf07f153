#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Issue 18's GUI figure: a user opens a trial and sees its overview painted. For each trial, RUNS
# (default 5) first opens (an empty trial cache: the parse, the entry written in the background)
# and RUNS opens from the cache, each one `parallax --render overview TRIAL` at 1400x900 offscreen
# with PARALLAX_TIMINGS=1 (docs/HACKING.md §4): when the trial was read, its statistics computed and
# the view rendered, counted from the process's start; the process's own wall time (it also waits
# for the background cache write) and its peak RSS from /usr/bin/time. Prints a JSON line per run and
# one with the medians per trial and kind; the load average is in every line.
#   tests/bench/gui_open.sh [BUILD_DIR] TRIAL...
# e.g. with the benchmark trials of run_benchmarks.sh and a 131,072-thread synth trial:
#   build/app/parallax-cli synth --threads 131072 --events 101 --callpath-depth 2 --user-events 5 /tmp/synth131k
#   tests/bench/gui_open.sh build /tmp/synth131k /tmp/parallax-bench-16384x101-realistic
set -euo pipefail
build="$(readlink -f "${1:-build}")"
shift || true
[ $# -gt 0 ] || { echo "usage: $0 BUILD_DIR TRIAL..." >&2; exit 2; }
gui="$build/app/parallax"
runs="${RUNS:-5}"
work="$(mktemp -d /tmp/parallax-gui-open.XXXXXX)"
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "null"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for trial in "$@"; do
    # The trial's files in the page cache, as on a second look at a directory just written.
    find "$trial" -type f -print0 | xargs -0 cat > /dev/null
    for kind in first cached; do
        : > "$work/runs"
        for i in $(seq 1 "$runs"); do
            [ "$kind" = first ] && rm -rf "$work/cache"
            start=$(date +%s.%N)
            PARALLAX_CACHE_DIR="$work/cache" PARALLAX_TIMINGS=1 QT_QPA_PLATFORM=offscreen \
                /usr/bin/time -f "peak_rss_kb %M" "$gui" --render overview "$trial" --out "$work/overview.png" \
                --size 1400x900 > "$work/out" 2>&1 || { cat "$work/out" >&2; exit 1; }
            end=$(date +%s.%N)
            ms() { sed -n "s/^parallax: timing: $1 after \([0-9]*\) ms$/\1/p" "$work/out"; }
            read_ms=$(ms "trial read")
            stats_ms=$(ms "statistics computed")
            rendered_ms=$(ms "view rendered")
            rss_mb=$(( $(sed -n 's/^peak_rss_kb \([0-9]*\)$/\1/p' "$work/out") / 1024 ))
            process_ms=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", (b - a) * 1000 }')
            echo "$read_ms $stats_ms $rendered_ms $process_ms $rss_mb" >> "$work/runs"
            echo "{\"trial\":\"$trial\",\"open\":\"$kind\",\"run\":$i,\"trial_read_ms\":$read_ms,\"statistics_ms\":$stats_ms,\"view_rendered_ms\":$rendered_ms,\"process_ms\":$process_ms,\"peak_rss_mb\":$rss_mb,\"load\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}"
        done
        col() { awk -v c="$1" '{ print $c }' "$work/runs" | median; }
        echo "{\"trial\":\"$trial\",\"open\":\"$kind\",\"runs\":$runs,\"median_trial_read_ms\":$(col 1),\"median_statistics_ms\":$(col 2),\"median_view_rendered_ms\":$(col 3),\"min_view_rendered_ms\":$(awk '{ print $3 }' "$work/runs" | sort -n | head -1),\"max_view_rendered_ms\":$(awk '{ print $3 }' "$work/runs" | sort -n | tail -1),\"median_process_ms\":$(col 4),\"median_peak_rss_mb\":$(col 5),\"max_peak_rss_mb\":$(awk '{ print $5 }' "$work/runs" | sort -n | tail -1),\"cores\":$(nproc),\"load\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}"
    done
done
