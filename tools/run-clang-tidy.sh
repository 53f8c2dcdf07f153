#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# clang-tidy (Debian's, with the repository's .clang-tidy) over the project's C++ sources.
#   tools/run-clang-tidy.sh BUILD_DIR                 every .cpp of app/ datasource/ algebra/ perfdb/ views/ tests/
#   tools/run-clang-tidy.sh BUILD_DIR --changed [REF] only those changed since the merge base with REF
#                                                     (default origin/main, else main)
#   tools/run-clang-tidy.sh BUILD_DIR --since-baseline those changed since the commit in .ci/tidy-base
#                                                     (the ratchet: what test.sh runs; every source if
#                                                     that commit is not in this clone's history)
# BUILD_DIR needs compile_commands.json (every preset writes it). Headers are checked through the
# sources that include them (HeaderFilterRegex). Exit 1 on any finding (WarningsAsErrors: '*').
set -euo pipefail
root="$(git -C "$(dirname "$(readlink -f "$0")")" rev-parse --show-toplevel)"
cd "$root"
build="${1:?usage: tools/run-clang-tidy.sh BUILD_DIR [--changed [REF]]}"
shift
if [ ! -f "$build/compile_commands.json" ]; then
    echo "error: $build/compile_commands.json missing: configure a preset first" >&2
    exit 1
fi
clang_tidy="${CLANG_TIDY:-clang-tidy}"
modules=(app datasource algebra perfdb views python tests)
if [ "${1:-}" = "--since-baseline" ]; then
    baseline="$(tr -d '[:space:]' <.ci/tidy-base)"
    if git cat-file -e "$baseline^{commit}" 2>/dev/null; then
        set -- --changed "$baseline"
    else
        echo "== .ci/tidy-base ($baseline) is not in this clone's history: checking every source"
        set --
    fi
fi
if [ "${1:-}" = "--changed" ]; then
    ref="${2:-}"
    if [ -z "$ref" ]; then
        ref=main
        git rev-parse -q --verify origin/main >/dev/null && ref=origin/main
    fi
    base="$(git merge-base HEAD "$ref")"
    # Changed sources, and the sources beside a changed header (its .cpp and tests include it).
    mapfile -t changed < <(git diff --name-only --diff-filter=ACMR "$base" -- "${modules[@]}" | grep -E '\.(cpp|h)$' || true)
    files=()
    for f in "${changed[@]}"; do
        case "$f" in
        *.cpp) files+=("$f") ;;
        *.h) [ -f "${f%.h}.cpp" ] && files+=("${f%.h}.cpp") ;;
        esac
    done
    mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -v '^$' | sort -u)
    echo "== clang-tidy on ${#files[@]} source(s) changed since $(git rev-parse --short "$base") ($ref)"
else
    mapfile -t files < <(git ls-files -- "${modules[@]}" | grep -E '\.cpp$' | grep -v '^tests/fuzz/')
    echo "== clang-tidy on ${#files[@]} sources"
fi
# Only files the build knows (a GUI source is absent from a build without the GUI).
known=()
for f in "${files[@]}"; do
    grep -q "\"file\": \"$root/$f\"" "$build/compile_commands.json" && known+=("$f")
done
if [ "${#known[@]}" -eq 0 ]; then
    echo "== nothing to check"
    exit 0
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
printf '%s\0' "${known[@]}" | xargs -0 -n 1 -P "$(nproc 2>/dev/null || echo 2)" \
    "$clang_tidy" -p "$build" --quiet >"$log" 2>/dev/null || status=$?
count="$(grep -cE '(warning|error): .*\[[a-z0-9.,-]+\]$' "$log" || true)"
if [ "$status" -ne 0 ] || [ "$count" -ne 0 ]; then
    grep -E -A3 '(warning|error): ' "$log" >&2 || cat "$log" >&2
    echo "error: clang-tidy: $count finding(s) in ${#known[@]} source(s); by check:" >&2
    grep -oE '\[[a-z0-9.,-]+\]$' "$log" | sort | uniq -c | sort -rn >&2
    exit 1
fi
echo "== clang-tidy: no findings in ${#known[@]} source(s)"
