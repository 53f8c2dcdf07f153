// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the Caliper json-split reader: any bytes must give a trial or a ReadError that
// names the file, never a crash. Seeds: the json-split samples under ../shared/data (hatchet
// caliper-*-json); tests/fuzz/calijsonreader.dict holds the JSON tokens.
#include "datasource/readers/calijsonreader.h"
#include "tests/fuzz/caliperfuzzcheck.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdint>
#include <cstdlib>

using namespace parallax;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static QTemporaryDir dir(fuzz::scratchBase() + QStringLiteral("/parallax-fuzz-calijson-XXXXXX"));
    static const CaliJsonReader reader;
    const QString input = dir.filePath(QStringLiteral("input.json"));
    {
        QFile f(input);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        f.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    }
    ReadOptions options;
    options.threads = 1;
    Progress progress;
    reader.sniff(input);
    const TrialResult result = reader.read(input, options, progress);
    if (!result.ok()) {
        if (result.error().message.isEmpty() || result.error().file != input)
            std::abort();
        return 0;
    }
    fuzz::checkTrial(*result.value());
    return 0;
}
