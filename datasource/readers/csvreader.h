// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// CSV tables of interval values (RFC 4180, UTF-8, streamed). Three shapes are read:
///  - Parallax's own layout (CsvWriter; a `kind` column first, documented in csvwriter.cpp): the
///    whole trial, exactly as written;
///  - a plain hand-written table with a header row naming some of the columns node (or rank),
///    context, thread, event (or name, function, timer), groups, metric, units, exclusive,
///    inclusive, calls, subroutines, sum_exclusive_squared, in any order and case. Only `event` is
///    required; node, context and thread default to 0, the metric to TIME (unit us), a missing
///    exclusive or inclusive value to the other one, calls and subroutines to 0. Groups are
///    separated by '|';
///  - Hatchet's dataframe CSV (node,rank,time (inc),time,nid,name,...): ranks become threads and
///    each (name, nid) a flat event (named "name [nid N]" when a name has several nids), with the
///    metric "time" (us).
/// Errors name the line (1-based) of the record and what was expected.
class CsvReader : public Reader {
public:
    CsvReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
