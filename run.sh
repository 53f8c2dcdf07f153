#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# ./run.sh [OPTIONS] [PATH] — install what is missing, build Parallax (Release, build/), start
# the GUI. Without PATH the GUI shows its start page (the bundled sample is one click away).
# OPTIONS go to `parallax`
# (e.g. --format tau, --screenshot out.png).
set -euo pipefail
caller_dir="$PWD"
cd "$(dirname "$(readlink -f "$0")")"
source .ci/common.sh

ensure_packages "${PARALLAX_BUILD_PACKAGES[@]}"
cmake --preset release -DPARALLAX_BUILD_TESTS=OFF >/dev/null
cmake --build build -j "$(jobs_count)" --target parallax parallax-cli

# Paths (PATH, --screenshot FILE) are relative to where the user ran the script.
args=()
previous=""
for a in "$@"; do
    if [[ "$a" == -* ]] || [ "$previous" = "--format" ] || [ "$previous" = "--tab" ]; then
        args+=("$a")
    else
        args+=("$(cd "$caller_dir" && readlink -m "$a")")
    fi
    previous="$a"
done
exec ./build/app/parallax "${args[@]}"
