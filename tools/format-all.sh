#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Formats every tracked C++ file in place with the repository's .clang-format (Debian's clang-format,
# version 14 as in CI). The one-time sweep, and what to run before committing when the check fails.
set -euo pipefail
root="$(git -C "$(dirname "$(readlink -f "$0")")" rev-parse --show-toplevel)"
cd "$root"
clang_format="${CLANG_FORMAT:-clang-format}"
"$root/tools/cxx-files.sh" | xargs -0 -r "$clang_format" -i --style=file
"$root/tools/check-format.sh"
