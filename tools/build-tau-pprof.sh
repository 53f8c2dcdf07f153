#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Build TAU's own pprof (the oracle of tests/bench/run_benchmarks.sh) from a tau2 git directory, outside
# the repository: only utils/pprof.cpp, function_data.cpp, user_event_data.cpp and the headers they include
# (function_data.h, user_event_data.h, tau_platforms.h), compiled with g++ and the -D flags TAU's configure
# gives utils/Makefile on Linux (TAU_DOT_H_LESS_HEADERS: <iostream> rather than <iostream.h>).
#   tools/build-tau-pprof.sh TAU2_GIT_DIR OUTDIR      (then: TAU_PPROF=OUTDIR/pprof tests/bench/run_benchmarks.sh)
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 TAU2_GIT_DIR OUTDIR (a clone or bare mirror of github.com/UO-OACISS/tau2)" >&2
    exit 2
fi
git_dir="$1"
out="$(mkdir -p "$2" && readlink -f "$2")"
rev="$(git --git-dir="$git_dir" rev-parse HEAD)"
src="$out/src"
rm -rf "$src" && mkdir -p "$src"
# git show file by file: a partial mirror may lack large unrelated blobs that git archive would need.
for f in pprof.cpp function_data.cpp function_data.h user_event_data.cpp user_event_data.h tau_platforms.h; do
    git --git-dir="$git_dir" show "$rev:utils/$f" >"$src/$f"
done
cd "$src"
"${CXX:-g++}" -O2 -w -DTAU_DOT_H_LESS_HEADERS -DTAU_LINUX -I. pprof.cpp function_data.cpp user_event_data.cpp -o "$out/pprof" -lm
echo "built $out/pprof from tau2 $rev" >&2
