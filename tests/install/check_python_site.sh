#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# check_python_site.sh BUILD_DIR SCRATCH PYTHON SAMPLE — `cmake --install` with the prefixes /usr/local
# and /usr (under DESTDIR=SCRATCH) puts the parallax package in a directory PYTHON (Debian's python3)
# searches for that prefix (site.getsitepackages()), and the package imports from there and reads SAMPLE.
set -u
build="$1" scratch="$2" python="$3" sample="$4"
fail() { echo "error: $*" >&2; exit 1; }
for prefix in /usr/local /usr; do
    rm -rf "$scratch"
    mkdir -p "$scratch"
    DESTDIR="$scratch" cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" 2>&1 \
        || { cat "$scratch/install.log"; fail "cmake --install --prefix $prefix failed"; }
    found="$(cd "$scratch" && ls -d ."$prefix"/lib/python3*/dist-packages/parallax 2>/dev/null)"
    [ "$(echo "$found" | grep -c .)" = 1 ] || fail "prefix $prefix: not one parallax package under $prefix/lib: '$found'"
    site="$(dirname "${found#.}")"
    "$python" -I -c "import site, sys; sys.exit(0 if sys.argv[1] in site.getsitepackages() else 'not searched: ' + sys.argv[1] + ' ' + str(site.getsitepackages()))" "$site" \
        || fail "prefix $prefix: $python does not search $site"
    "$python" -I -c "import sys; sys.path.insert(0, sys.argv[1]); import parallax; assert parallax.__file__.startswith(sys.argv[1]); print(sys.argv[2], parallax.__file__[len(sys.argv[1]) - len(sys.argv[2]):], len(parallax.open(sys.argv[3]).dataframe()), 'cells')" \
        "$scratch$site" "$site" "$sample" || fail "prefix $prefix: the installed package does not import and read $sample"
done
rm -rf "$scratch"
