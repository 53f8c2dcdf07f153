// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// Caliper `json-split` files (cali-query ... format json-split; docs/FORMATS.md 6.3): the keys data,
/// columns, column_metadata and nodes, any other key being a global. The hierarchy column's nodes
/// (source.function#callpath.address, else path) become call-path events "a => b => c" plus flat
/// events; is_value columns are metrics; mpi.rank selects the thread. Parsed by a small JSON parser
/// of our own so that every error names its line. The mapping is shared with the .cali reader.
class CaliJsonReader : public Reader {
public:
    CaliJsonReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
