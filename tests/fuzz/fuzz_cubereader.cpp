// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the CUBE reader: any bytes must give a trial or a ReadError that names the
// file, never a crash. The input size picks how the bytes are presented:
//   size % 4 == 0: as a .cubex (raw tar bytes, so mutated headers test libarchive's error paths);
//   size % 4 == 1: as a .cubex rebuilt from the members of a leniently read tar with valid headers, so
//                  mutations reach anchor.xml, the .index and the .data decoders;
//   size % 4 == 2: as a .cube (XML, or gzip when it starts with the gzip magic);
//   size % 4 == 3: gzip-compressed into a .cube.gz.
// Seeds: the CUBE samples under ../shared/data (see tests/fuzz/cubereader.dict for tokens).
#include "datasource/readers/cubereader.h"
#include "tests/common/minitar.h"
#include "tests/fuzz/fuzzscratch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
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
    double sum = 0;
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        const IntervalRow& row = t.row(ThreadIndex(i));
        const std::size_t n = row.size();
        if (row.calls.size() != n || row.subrs.size() != n || row.excl.size() != n * metrics
            || row.incl.size() != n * metrics)
            std::abort();
        for (std::size_t k = 1; k < n; ++k)
            if (!(row.events[k - 1] < row.events[k]))
                std::abort(); // sorted, no duplicate cells
        for (std::size_t k = 0; k < n; ++k)
            if (row.events[k].index() >= t.eventCount())
                std::abort();
        for (double v : row.incl)
            sum += v;
        const ThreadKey& key = t.threadKey(ThreadIndex(i));
        if (key.node < 0 || key.context < 0 || key.thread < 0)
            std::abort();
    }
    for (const auto& e : t.events())
        if (e.isCallPath() && !e.parent.isValid())
            std::abort(); // every call path's prefix is an event too
    (void)sum;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static QTemporaryDir dir(scratchBase() + QStringLiteral("/parallax-fuzz-cube-XXXXXX"));
    static const CubeReader reader;
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    QString input;
    QByteArray content;
    switch (size % 4) {
    case 0:
        input = dir.filePath(QStringLiteral("input.cubex"));
        content = bytes;
        break;
    case 1:
        input = dir.filePath(QStringLiteral("rebuilt.cubex"));
        content = test::makeTar(test::readTar(bytes));
        break;
    case 2:
        input = dir.filePath(QStringLiteral("input.cube"));
        content = bytes;
        break;
    default:
        input = dir.filePath(QStringLiteral("input.cube.gz"));
        content = gzip(bytes);
        break;
    }
    {
        QFile f(input);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        f.write(content);
    }
    ReadOptions options;
    options.threads = 1;
    options.strict = (size / 4) % 2 == 1;
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
