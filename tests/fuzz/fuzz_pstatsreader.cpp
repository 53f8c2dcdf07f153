// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the Python pstats reader (marshal decoder and stats mapping): any bytes,
// written as a .pstats file, must give a trial or a ReadError that names the file and a byte offset,
// never a crash. Seeds: ../shared/data/hatchet/cprofile-hatchet-pstats/*.pstats.
#include "datasource/readers/pstatsreader.h"
#include "tests/fuzz/fuzzscratch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdint>
#include <cstdlib>

using namespace parallax;
using parallax::fuzz::scratchBase;

namespace {

/// The model's invariants for a trial that read.
void check(const Trial& t)
{
    if (t.metricCount() != 1 || t.threadCount() != 1)
        std::abort();
    const IntervalRow& row = t.row(ThreadIndex(0u));
    const std::size_t n = row.size();
    if (row.calls.size() != n || row.subrs.size() != n || row.excl.size() != n || row.incl.size() != n)
        std::abort();
    for (std::size_t k = 1; k < n; ++k)
        if (!(row.events[k - 1] < row.events[k]))
            std::abort();
    for (std::size_t k = 0; k < n; ++k)
        if (row.events[k].index() >= t.eventCount())
            std::abort();
    for (const auto& e : t.events())
        if (e.depth > 2)
            std::abort(); // "caller => callee" only: names never add components
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static QTemporaryDir dir(scratchBase() + QStringLiteral("/parallax-fuzz-pstats-XXXXXX"));
    static const PstatsReader reader;
    const QString input = dir.filePath(QStringLiteral("input.pstats"));
    {
        QFile f(input);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        f.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    }
    Progress progress;
    reader.sniff(input);
    const TrialResult result = reader.read(input, ReadOptions {}, progress);
    if (!result.ok()) {
        if (result.error().message.isEmpty() || result.error().file != input
            || (size > 0 && result.error().byteOffset < 0 && !result.error().message.contains(QLatin1String("memory"))))
            std::abort();
        return 0;
    }
    check(*result.value());
    return 0;
}
