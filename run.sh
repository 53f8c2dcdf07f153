#!/usr/bin/env bash
# ./run.sh [PATH] — install what is missing, build Parallax (Release, build/), start the GUI.
# Without PATH the GUI opens the bundled sample trial.
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"
source .ci/common.sh

ensure_packages "${PARALLAX_BUILD_PACKAGES[@]}"
cmake --preset release -DPARALLAX_BUILD_TESTS=OFF >/dev/null
cmake --build build -j "$(jobs_count)" --target parallax parallax-cli

args=()
if [ "$#" -gt 0 ]; then
    args+=("$(readlink -f "$1")")
    shift
fi
exec ./build/app/parallax "${args[@]}" "$@"
