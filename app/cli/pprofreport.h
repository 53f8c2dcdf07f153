// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <string>
#include <vector>

namespace parallax {

/// Options of `parallax-cli pprof`, named after TAU's pprof flags.
struct PprofOptions {
    enum class Sort {
        Inclusive, ///< -t (default)
        Exclusive, ///< -m
        Calls, ///< -c
        Subroutines, ///< -b
        ExclusivePerCall, ///< -e
        InclusivePerCall, ///< -i
        StdDev, ///< -v
    };
    Sort sort = Sort::Inclusive;
    bool reverse = false; ///< -r
    bool summaryOnly = false; ///< -s
    int max = 999999999; ///< -n N
    bool plainMsec = false; ///< -p
    bool list = false; ///< -l
    bool showLocations = false; ///< -a
    bool minMax = false; ///< -x
    std::vector<int> nodes; ///< node numbers to restrict to, in the order given
    MetricId metric = MetricId(0u);
    std::string prefix = "profile";
};

/// The text TAU's pprof prints for a trial (docs/FORMATS.md 2.2), byte for byte. When pprof would fail
/// after its first line (the first node number given has no thread (N,0,0): pprof cannot open
/// profile.N.0.0), returns that line only and sets *error, if given, to the reason.
std::string pprofReport(const Trial& trial, const PprofOptions& options, QString* error = nullptr);

/// True when pprof would format the metric as time (hh:mm:ss.mmm from µs): the metric is the
/// default "Time" or its first word, upper-cased, contains "TIME", as pprof tests the header token.
bool pprofUsesTimeFormat(const Metric& metric);

/// pprof's ToTimeStr(): 12 characters, truncated (not rounded).
std::string pprofTimeString(double usec, bool plainMsec);

} // namespace parallax
