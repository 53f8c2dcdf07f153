// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// Hatchet's JSON GraphFrame (GraphFrame.to_json(): keys graph, dataframe, dataframe_indices,
/// exclusive_metrics, inclusive_metrics) and Hatchet's "literal" form (GraphFrame.from_literal():
/// a list of {"frame": {...}, "metrics": {...}, "children": [...]} trees). Parsed whole with
/// QJsonDocument (see JsonInput for the size limit). The mapping is described at the top of
/// hatchetjsonreader.cpp.
class HatchetJsonReader : public Reader {
public:
    HatchetJsonReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
