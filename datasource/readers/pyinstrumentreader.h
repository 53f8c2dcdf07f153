// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/reader.h"

namespace parallax {

/// pyinstrument's JSON renderer output (pyinstrument -r json): session fields (start_time,
/// duration, sample_count, program, cpu_time) and the "root_frame" call tree of frames (function,
/// file_path_short, line_no, time, children). Parsed whole with QJsonDocument (see JsonInput for
/// the size limit). The mapping is described at the top of pyinstrumentreader.cpp.
class PyinstrumentReader : public Reader {
public:
    PyinstrumentReader();
    int sniff(const QString& path) const override;
    TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const override;
};

} // namespace parallax
