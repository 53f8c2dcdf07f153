# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Shared by run.sh and test.sh: install missing Debian packages, configure and build.
# shellcheck shell=bash

PARALLAX_BUILD_PACKAGES=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-base-dev-tools qt6-svg-dev libgl-dev
    libqcustomplot-dev libqcustomplot2.1-qt6
    zlib1g-dev libarchive-dev libpq-dev libsqlite3-dev
    graphviz ccache libxxhash-dev libeigen3-dev
    help2man librsvg2-bin file libotf2-trace-dev
    pybind11-dev python3-dev python3-numpy python3-pandas
)
PARALLAX_TEST_PACKAGES=(
    xvfb xauth postgresql clang libclang-rt-14-dev desktop-file-utils appstream man-db shared-mime-info
    clang-format clang-tidy
    python3-sklearn python3-scipy python3-numpy
    otf2-tools
    python3-matplotlib
)

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        echo "error: need root (or sudo) to run: $*" >&2
        return 1
    fi
}

# Installs only what is missing, so a second run does nothing.
ensure_packages() {
    local missing=()
    local pkg
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        return 0
    fi
    echo "== Installing missing packages: ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

jobs_count() {
    nproc 2>/dev/null || echo 2
}

# ccache: paths below the checkout are hashed relative to it, so a clone in another folder (CI)
# reuses what an earlier build on this machine compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
