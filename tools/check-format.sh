#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Fails (exit 1) when a tracked C++ file is not formatted as .clang-format says, listing the files;
# test.sh runs it. Fix with tools/format-all.sh (or `cmake --build build --target format`).
set -euo pipefail
root="$(git -C "$(dirname "$(readlink -f "$0")")" rev-parse --show-toplevel)"
cd "$root"
clang_format="${CLANG_FORMAT:-clang-format}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if "$root/tools/cxx-files.sh" | xargs -0 -r "$clang_format" --dry-run -Werror --style=file 2>"$log"; then
    echo "== clang-format: every tracked C++ file is formatted"
    exit 0
fi
mapfile -t bad < <(grep -o '^[^:]*:[0-9]*:[0-9]*: error:' "$log" | cut -d: -f1 | sort -u)
echo "error: ${#bad[@]} file(s) not formatted as .clang-format says (run tools/format-all.sh):" >&2
printf '  %s\n' "${bad[@]}" >&2
exit 1
