// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the gprof text reader: any bytes must give a trial or a ReadError that
// names the file, never a crash. Odd sizes are read with the "fixnames" option; sizes divisible by 4
// are gzip-compressed first (the reader takes gzip input through GzipInput).
// Seeds: the gprof samples under ../shared/data (gprof2dot/prof/*.prof, tau2/gprof-wrf/gprof.out).
#include "datasource/readers/gprofreader.h"
#include "tests/fuzz/fuzzscratch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <zlib.h>

using namespace parallax;
using parallax::fuzz::gzip;
using parallax::fuzz::scratchBase;

namespace {

/// The model's invariants for a trial that read.
void check(const Trial& t)
{
    const std::size_t metrics = t.metricCount();
    if (metrics != 1)
        std::abort();
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        const IntervalRow& row = t.row(ThreadIndex(i));
        const std::size_t n = row.size();
        if (row.calls.size() != n || row.subrs.size() != n || row.excl.size() != n * metrics
            || row.incl.size() != n * metrics)
            std::abort();
        for (std::size_t k = 1; k < n; ++k)
            if (!(row.events[k - 1] < row.events[k]))
                std::abort(); // sorted, no duplicate cells
        for (std::size_t k = 0; k < n; ++k) {
            if (row.events[k].index() >= t.eventCount())
                std::abort();
            // gprof has no negative or non-finite numbers.
            if (!(row.excl[k] >= 0) || !(row.incl[k] >= 0) || !(row.calls[k] >= 0) || !(row.subrs[k] >= 0)
                || !std::isfinite(row.incl[k]) || !std::isfinite(row.calls[k]))
                std::abort();
        }
        const ThreadKey& key = t.threadKey(ThreadIndex(i));
        if (key.node < 0 || key.context != 0 || key.thread != 0)
            std::abort();
    }
    for (const auto& e : t.events())
        if (e.isCallPath() && (e.depth != 2 || !e.parent.isValid() || !e.leaf.isValid()))
            std::abort(); // arcs are caller => callee, both events
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static QTemporaryDir dir(scratchBase() + QStringLiteral("/parallax-fuzz-gprof-XXXXXX"));
    static const GprofReader reader;
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QString input = dir.filePath(QStringLiteral("gprof.out"));
    {
        QFile f(input);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        f.write(size % 4 == 0 && size > 0 ? gzip(bytes) : bytes);
    }
    ReadOptions options;
    options.threads = 1;
    if (size % 2 == 1)
        options.formatOptions << QStringLiteral("fixnames");
    Progress progress;
    reader.sniff(input);
    const TrialResult result = reader.read(input, options, progress);
    if (!result.ok()) {
        // Every error names the file and says what was expected.
        if (result.error().message.isEmpty() || result.error().file != input)
            std::abort();
        return 0;
    }
    check(*result.value());
    return 0;
}
