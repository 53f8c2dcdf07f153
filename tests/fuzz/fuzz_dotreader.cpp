// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the gprof2dot DOT reader: any bytes must give a trial or a ReadError that
// names the file, never a crash. Seeds: hatchet/gprof2dot-cpi/callgrind.dot.64042.0.1 (see
// tests/fuzz/dot.dict for the DOT tokens).
#include "datasource/readers/dotreader.h"
#include "tests/fuzz/fuzzscratch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cmath>
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
            std::abort(); // sorted, no duplicate cells
    for (std::size_t k = 0; k < n; ++k) {
        if (row.events[k].index() >= t.eventCount())
            std::abort();
        if (!std::isfinite(row.excl[k]) || !std::isfinite(row.incl[k]) || !(row.calls[k] >= 0))
            std::abort();
    }
    for (const auto& e : t.events())
        if (e.isCallPath() && (e.depth != 2 || !e.parent.isValid() || !e.leaf.isValid()))
            std::abort(); // edges are caller => callee, both events
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static QTemporaryDir dir(scratchBase() + QStringLiteral("/parallax-fuzz-dot-XXXXXX"));
    static const DotReader reader;
    const QString input = dir.filePath(QStringLiteral("callgraph.dot"));
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
    check(*result.value());
    return 0;
}
