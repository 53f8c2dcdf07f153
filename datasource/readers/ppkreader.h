// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// ParaProf packed profiles (.ppk, docs/FORMATS.md 3): a gzip'd big-endian Java DataOutputStream with
/// the trial and per-thread metadata, metrics, groups, functions, user events and one sparse record
/// list per thread. The stream is inflated and decoded in 256 KiB chunks (on a second thread when
/// one is allowed), never held whole. Errors give the byte offset in the uncompressed stream.
class PpkReader : public Reader {
public:
    PpkReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;

    /// The newest compatibleVersion this reader understands; files asking for more are refused.
    static constexpr int MaxCompatibleVersion = 2;
};

} // namespace parallax
