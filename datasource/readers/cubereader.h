// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// CUBE profiles (docs/FORMATS.md 5): CUBE 4 `.cubex` tars (anchor.xml plus one <id>.index/<id>.data
/// pair per metric, read with libarchive straight from the archive) and CUBE 3 XML `.cube` or
/// `.cube.gz` (inflated in chunks). The XML is parsed incrementally with QXmlStreamReader behind a
/// filter that escapes bare '&' (real CUBE writers leave them raw). Cnodes become call-path events
/// "root => child => ...", regions flat events, locations threads (node = process rank, context 0,
/// thread = thread rank). The value conventions are described at the top of cubeassembler.cpp, the
/// parts of the reader at the top of cubereader.cpp.
class CubeReader : public Reader {
public:
    CubeReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
