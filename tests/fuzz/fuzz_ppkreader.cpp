// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point: any bytes as a .ppk (gzip or raw) must give a trial or a ReadError, never a
// crash. A trial that reads must also survive the writer and read back with the same shape.
#include "datasource/readers/ppkreader.h"
#include "datasource/writers/ppkwriter.h"
#include "tests/fuzz/fuzzscratch.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <cstdint>
#include <cstdlib>

using namespace parallax;
using parallax::fuzz::scratchBase;

namespace {

std::size_t realThreads(const Trial& t)
{
    std::size_t n = 0;
    for (const ThreadKey& k : t.threads())
        n += k.node >= 0 && k.context >= 0 && k.thread >= 0 ? 1 : 0;
    return n;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static QTemporaryDir dir(scratchBase() + QStringLiteral("/parallax-fuzz-ppk-XXXXXX"));
    static const PpkReader reader;
    const QString input = dir.filePath(QStringLiteral("input.ppk"));
    {
        QFile f(input);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        f.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    }
    ReadOptions options;
    options.threads = size % 2 ? 1 : 2; // odd sizes inflate inline, even ones on a second thread
    Progress progress;
    reader.sniff(input);
    const TrialResult result = reader.read(input, options, progress);
    if (!result.ok()) {
        if (result.error().message.isEmpty())
            std::abort(); // every error must say what was expected
        return 0;
    }
    // Touch everything a view would.
    const Trial& t = *result.value();
    double sum = 0;
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        for (double v : t.row(ThreadIndex(i)).incl)
            sum += v;
        for (double v : t.atomicRow(ThreadIndex(i)).sumSquares)
            sum += v;
    }
    (void)sum;
    // Write it and read it back: same shape, or a writer error that says why.
    const QString output = dir.filePath(QStringLiteral("output.ppk"));
    const QString error = PpkWriter::write(t, output);
    if (!error.isEmpty()) {
        if (!error.contains(output))
            std::abort();
        return 0;
    }
    const TrialResult again = reader.read(output, options, progress);
    if (!again.ok())
        std::abort();
    const Trial& u = *again.value();
    if (u.threadCount() != realThreads(t) || u.eventCount() != t.eventCount()
        || u.atomicEventCount() != t.atomicEventCount() || u.metricCount() != t.metricCount()
        || u.groupCount() != t.groupCount())
        std::abort();
    return 0;
}
