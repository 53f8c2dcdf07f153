// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// The values of a CUBE document (docs/FORMATS.md 5.2, 5.3): the metric data types (plain numbers and
// composite records, one model metric per part), the .index members (DENSE, SPARSE) and the .data
// members (CUBEX.DATA, ZCUBEX.DATA) of a .cubex, decoded into each metric's dense value array.

#include "datasource/readers/cubedocument.h"

#include <QByteArray>
#include <cstdint>

namespace parallax::cube {

class ArchiveReader;

/// Gives every declared metric its kind, value type and import flag from the XML strings; a composite
/// dtype becomes one imported metric per part, appended after the declared metrics. A metric that
/// cannot be imported gets a warning (a dataWarning() when it has values).
void classifyMetrics(CubeDocument& doc, QStringList& warnings, const ReadOptions& options);

/// A parsed .index member.
struct IndexInfo {
    bool swap = false;
    bool sparse = false;
    std::vector<std::uint32_t> rows;
};

/// Parses and checks a .index member (`cnodes` bounds the SPARSE row ids).
IndexInfo parseIndex(const QByteArray& bytes, const QString& member, std::size_t cnodes, QStringList& warnings);

/// Reads the .data member the archive reader is positioned at.
void decodeDataMember(ArchiveReader& reader, CubeDocument& doc, CubeMetric& metric, const IndexInfo& index,
    const QString& member, QStringList& warnings);

} // namespace parallax::cube
