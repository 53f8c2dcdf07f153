#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# ./test.sh — install what is missing, build with tests, start a throwaway PostgreSQL,
# run every test (ctest), then fuzz every reader briefly. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"
source .ci/common.sh

ensure_packages "${PARALLAX_BUILD_PACKAGES[@]}" "${PARALLAX_TEST_PACKAGES[@]}"

data_dir="$(readlink -f ../shared/data 2>/dev/null || true)"
if [ -z "$data_dir" ] || [ ! -d "$data_dir" ]; then
    echo "error: ../shared/data (the public sample profiles) is missing beside the checkout" >&2
    exit 1
fi

# Every tracked C++ file formatted as .clang-format says (fix: tools/format-all.sh). A failure fails
# test.sh at the end; the build, the tests and the fuzzing still run.
format_status=0
tools/check-format.sh || format_status=$?

# -Werror: a new compiler warning fails CI (PARALLAX_WERROR, top-level CMakeLists.txt).
# -DPARALLAX_BUILD_PYTHON=ON: the Python module is required here, never skipped for a missing pybind11.
cmake --preset release -DPARALLAX_BUILD_TESTS=ON -DPARALLAX_WERROR=ON -DPARALLAX_BUILD_PYTHON=ON \
    -DPARALLAX_DATA_DIR="$data_dir" >/dev/null
cmake --build build -j "$(jobs_count)"

# A throwaway PostgreSQL cluster: temporary directory, Unix socket, own port, run as the
# postgres user because initdb refuses root. Stopped on exit.
pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
pg_dir="$(mktemp -d /tmp/parallax-pg.XXXXXX)"
pg_port=54329
run_pg() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}
stop_pg() {
    run_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$pg_dir"
}
trap stop_pg EXIT
if [ "$(id -u)" -eq 0 ]; then
    chown postgres "$pg_dir"
fi
run_pg "$pg_bin/initdb" -D "$pg_dir/data" -A trust -U postgres >/dev/null
# The superuser connects without a password; every other role must give one (tst_perfdb_postgres checks
# that a wrong password is refused and never shown).
printf 'local all postgres trust\nlocal all all scram-sha-256\n' >"$pg_dir/data/pg_hba.conf"
run_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w \
    -o "-p $pg_port -k $pg_dir -c listen_addresses=''" start >/dev/null
export PARALLAX_TEST_PG_URI="postgresql://postgres@/postgres?host=$pg_dir&port=$pg_port"
echo "== PostgreSQL test server on $pg_dir port $pg_port"

status=0
(cd build && ctest --output-on-failure -j "$(jobs_count)") || status=$?

# clang-tidy (.clang-tidy) on every source changed since the commit in .ci/tidy-base: a ratchet, so new
# and changed code must be clean while the older code is cleaned up with `--target tidy` (the whole
# tree costs too much for every run; docs/HACKING.md §2).
tools/run-clang-tidy.sh build --since-baseline || status=$?

# AddressSanitizer + UndefinedBehaviorSanitizer (gcc, -O1 -g1), against the same PostgreSQL server.
# PARALLAX_ASAN=core (the default): preset asan-core, the tests of everything but the GUI (readers,
# algebra, database, CLI: 39 of the 63 tests). PARALLAX_ASAN=full (or 1): preset asan, the whole
# suite (63 of 63 pass). PARALLAX_ASAN=0: neither. Measured from a cold cache on 2 cores (November
# 2026): the whole tree's asan build takes 20 min and its tests 2 min, which with the rest of this
# script would pass the 45-minute budget; the core build is 24 min of CPU, about 12 min here
# (docs/HACKING.md §2).
case "${PARALLAX_ASAN:-core}" in
0) ;;
core | full | 1)
    asan_preset=asan-core
    [ "${PARALLAX_ASAN:-core}" = core ] || asan_preset=asan
    echo "== AddressSanitizer + UBSan build and tests (preset $asan_preset)"
    cmake --preset "$asan_preset" -DPARALLAX_WERROR=ON -DPARALLAX_DATA_DIR="$data_dir" >/dev/null
    cmake --build --preset "$asan_preset" -j "$(jobs_count)"
    ctest --preset "$asan_preset" -j "$(jobs_count)" || status=$?
    ;;
*)
    echo "error: PARALLAX_ASAN must be core, full or 0 (got '$PARALLAX_ASAN')" >&2
    status=1
    ;;
esac

# Fuzz every reader for a short while (libFuzzer, clang, separate build), seeded with the samples.
fuzz_reader() { # TARGET NAME SAMPLE...
    local target="$1" name="$2"
    shift 2
    fuzzed+=("$target")
    local corpus
    corpus="$(mktemp -d /tmp/parallax-fuzz.XXXXXX)"
    local f
    for f in "$@"; do
        [ -f "$f" ] && cp "$f" "$corpus/$(basename "$(dirname "$f")")-$(basename "$f")"
    done
    echo "== Fuzzing the $name reader for ${PARALLAX_FUZZ_SECONDS:-30} s"
    # The last lines are the run's statistics; on a finding, also the sanitizer's report and the artifact.
    local log="$corpus.log" rc=0
    ./build-fuzz/tests/fuzz/"$target" -max_total_time="${PARALLAX_FUZZ_SECONDS:-30}" \
        -rss_limit_mb=2048 -print_final_stats=1 "$corpus" >"$log" 2>&1 || rc=$?
    tail -n 5 "$log"
    if [ "$rc" -ne 0 ]; then
        echo "error: fuzzing the $name reader ($target) found a failure (exit $rc):" >&2
        grep -E -A12 'ERROR: |runtime error|deadly signal|out-of-memory|timeout after' "$log" | head -n 40 >&2 || true
        grep -E 'Test unit written to|^Base64:' "$log" >&2 || true
        status=$rc
    fi
    rm -rf "$corpus" "$log"
}
if [ "$status" -eq 0 ]; then
    cmake --preset fuzz -DPARALLAX_WERROR=ON -DPARALLAX_DATA_DIR="$data_dir" >/dev/null
    # The targets are those tests/fuzz/CMakeLists.txt declares (parallax_fuzz_target writes the list).
    mapfile -t fuzz_targets < <(cut -d' ' -f1 build-fuzz/tests/fuzz/fuzz_targets.txt)
    fuzzed=()
    cmake --build build-fuzz -j "$(jobs_count)" --target "${fuzz_targets[@]}"
    fuzz_reader fuzz_taureader TAU "$data_dir"/tau2/tau-profiles-*/profile.*
    fuzz_reader fuzz_ppkreader ppk "$data_dir"/tau2/ppk/*.ppk
    fuzz_reader fuzz_snapshotreader "snapshot XML" "$data_dir"/tau2/tauprofile-xml-merged/tauprofile.xml
    mapfile -t cube_samples < <(find "$data_dir" \( -name '*.cubex' -o -name '*.cube' -o -name '*.cube.gz' \) -size -2M)
    fuzz_reader fuzz_cubereader CUBE "${cube_samples[@]}"
    fuzz_reader fuzz_mpipreader mpiP tests/data/mpip/*.mpiP
    fuzz_reader fuzz_pstatsreader pstats "$data_dir"/hatchet/cprofile-hatchet-pstats/*.pstats
    fuzz_reader fuzz_gprofreader gprof "$data_dir"/gprof2dot/prof/*.prof "$data_dir"/tau2/gprof-wrf/gprof.out
    fuzz_reader fuzz_dotreader gprof2dot "$data_dir"/hatchet/gprof2dot-cpi/callgrind.dot.64042.0.1
    fuzz_reader fuzz_hpctoolkitreader HPCToolkit "$data_dir"/hatchet/hpctoolkit-cpi-database/*
    fuzz_reader fuzz_otf2reader OTF2 "$data_dir"/otf2/pipit/*/traces.def "$data_dir"/otf2/fastotf2/*/traces.def
    fuzz_reader fuzz_calireader "Caliper .cali" "$data_dir"/hatchet/caliper-*-cali/*.cali "$data_dir"/thicket/mpi_scaling_cali/27_cores.cali "$data_dir"/thicket/rajaperf/quartz/gcc10.3.1_1048576/O3/1/*.cali
    fuzz_reader fuzz_calijsonreader "Caliper json-split" "$data_dir"/hatchet/caliper-*-json/*.json
    fuzz_reader fuzz_extrapreader "Extra-P input" "$data_dir"/extrap/text/*.txt "$data_dir"/extrap/input/*.txt \
        "$data_dir"/extrap/json/*.JSON
    fuzz_reader fuzz_jsonprofilereaders "timemory/Hatchet/pyinstrument JSON" "$data_dir"/hatchet/timemory/*.json \
        "$data_dir"/hatchet/json/*.json "$data_dir"/hatchet/pyinstrument-hatchet-json/*.json
    # CSV and JSON: seeds converted from samples by the CLI built above, plus Hatchet's dataframe CSV.
    seeds="$(mktemp -d /tmp/parallax-seeds.XXXXXX)"
    for sample in tau-profiles-openmp-2thread tau-profiles-wrap-params ppk/ring-2rank.ppk; do
        for fmt in csv json; do
            ./build/app/parallax-cli convert "$data_dir/tau2/$sample" "$seeds/$(basename "$sample" .ppk).$fmt" >/dev/null
        done
    done
    fuzz_reader fuzz_csvreader CSV "$seeds"/*.csv "$data_dir"/hatchet/hpctoolkit-cpi-graphframe.csv
    fuzz_reader fuzz_jsonreader "Parallax JSON" "$seeds"/*.json
    # Trial cache files (docs/FORMATS.md §13) of small samples, written with the size threshold at 0.
    for sample in tau-profiles-openmp-2thread tau-profiles-callpath-cpi-4rank tauprofile-xml-merged/tauprofile.xml; do
        PARALLAX_CACHE_MIN_BYTES=0 PARALLAX_CACHE_DIR="$seeds/cache" PARALLAX_NO_CACHE= \
            ./build/app/parallax-cli info "$data_dir/tau2/$sample" >/dev/null
    done
    fuzz_reader fuzz_trialcache "trial cache" "$seeds"/cache/*.pxc
    rm -rf "$seeds"
    # A target given no seeds above still runs (from an empty corpus).
    for target in "${fuzz_targets[@]}"; do
        [[ " ${fuzzed[*]} " == *" $target "* ]] || fuzz_reader "$target" "$target (no seeds)"
    done
fi
if [ "$format_status" -ne 0 ]; then
    echo "error: unformatted C++ files (listed above); run tools/format-all.sh" >&2
    status=1
fi
exit "$status"
