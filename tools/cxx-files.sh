#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Prints the tracked C++ sources and headers (NUL-separated), the one list that tools/format-all.sh
# formats and tools/check-format.sh checks. Run from anywhere inside the checkout.
set -euo pipefail
cd "$(git -C "$(dirname "$(readlink -f "$0")")" rev-parse --show-toplevel)"
git ls-files -z -- '*.cpp' '*.h' '*.hpp' '*.cc'
