// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/sourcelocation.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/progress.h"
#include "datasource/readers/reader.h"

#include <QFileInfo>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace parallax {

/// What the two Caliper readers (native .cali and json-split, docs/FORMATS.md 6.3) hand to the shared
/// assembler: a region tree, value columns, and records that attach values to (rank, region).
/// The assembler (assembleCaliTrial) maps them to the model; see the top of caliprofile.cpp.
struct CaliProfile {
    struct Region {
        QString name;
        /// The parent region (an index smaller than this one's), or -1 for a root.
        int parent = -1;
        /// Event groups: the Caliper attribute (function, loop, mpi.function...) or json-split column,
        /// plus the sampled module for sampling profiles.
        QStringList groups;
        /// Where the region's samples are (json-split sourceloc#..., docs/SEMANTICS.md §12); no file: none.
        SourceLocation location;
    };
    /// A numeric attribute (.cali) or an is_value column (json-split), other than mpi.rank.
    struct Column {
        QString name;
        QString alias;
        QString unit;
        /// Integer-typed (.cali) or only whole values seen (json-split): time without a unit is then µs.
        bool integral = true;
        /// Caliper's hidden property (internal helper values such as avg.count#...).
        bool hidden = false;
    };
    struct Record {
        /// The region, or -1 for time that no region claims (kept as the event "(unattributed)").
        int region = -1;
        /// mpi.rank, or -1 when the record has none.
        qint64 rank = -1;
        /// The record's values: valueColumns[first .. first + count) and values[same].
        std::uint32_t first = 0;
        std::uint32_t count = 0;
        /// Where the record is (1-based line; 0 when unknown), for messages.
        qint64 line = 0;
    };

    /// "cali" or "json-split", for the metadata.
    QString format;
    std::vector<Region> regions;
    std::vector<Column> columns;
    std::vector<Record> records;
    std::vector<std::uint32_t> valueColumns;
    std::vector<double> values;
    /// Globals (trial metadata), in file order.
    std::vector<std::pair<QString, QString>> globals;
    /// Size of the (uncompressed) input, which bounds how large the trial may grow.
    qint64 sourceBytes = 0;
};

/// Maps a parsed profile to the model (metrics, threads, events, values, provided statistics,
/// metadata). Appends recoverable oddities to `warnings`. Throws ParseError or Cancelled.
void assembleCaliTrial(CaliProfile& profile, TrialBuilder& builder, QStringList& warnings, Progress& progress);

/// The read both Caliper readers share: `path` opened through GzipInput (plain or gzip), `parse(input,
/// profile, warnings)` fills the profile of format `format` (and may refuse with a ReadError), then
/// assembleCaliTrial(). `stage` names the progress stage of the parse.
template <typename Parse>
TrialResult readCaliFile(const Reader& reader, const ReadJob& job, const QString& notAFile, const QString& format,
    const QString& stage, Progress& progress, Parse&& parse)
{
    return guardedFileRead(
        reader, job, notAFile, [&](TrialBuilder& builder, QStringList& warnings) -> std::optional<ReadError> {
            CaliProfile profile;
            profile.format = format;
            GzipInput input(progress);
            input.openOrThrow(job.path);
            progress.setStage(stage, QFileInfo(job.path).size());
            if (std::optional<ReadError> refused = parse(input, profile, warnings))
                return refused;
            progress.setStage(QStringLiteral("Building the trial"), 0);
            assembleCaliTrial(profile, builder, warnings, progress);
            return std::nullopt;
        });
}

/// The name of the event that holds time outside every region.
QString caliUnattributedName();

} // namespace parallax
