// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// Native Caliper `.cali` files (docs/FORMATS.md 6.3): text records `__rec=node|ctx|globals`, read line by
/// line (plain or gzip). Node records build the attribute definitions and the context tree; nested
/// attributes (function, loop, region, mpi.function, ...) form the region tree, which becomes
/// call-path events "a => b => c" plus flat events; ctx records give the values; globals become trial
/// metadata. The mapping to the model is shared with the json-split reader (caliprofile.cpp).
class CaliReader : public Reader {
public:
    CaliReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
