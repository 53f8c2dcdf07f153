// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the HPCToolkit reader: any bytes must give a trial or a ReadError that
// names a file of the database, never a crash. The bytes become one file of a database whose other
// files are the real sample (PARALLAX_DATA_DIR/hatchet/hpctoolkit-cpi-database):
//   input starting with '<' or white space: experiment.xml (the four real metric-db files stay);
//   anything else: the rank-0 metric-db (the real experiment.xml and ranks 1-3 stay).
// Seeds: the sample's experiment.xml and metric-db files as they are.
#include "datasource/readers/hpctoolkitreader.h"
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

const QString Sample = QStringLiteral(PARALLAX_DATA_DIR "/hatchet/hpctoolkit-cpi-database");
const QString Rank0 = QStringLiteral("1.cpi-000000-000-a8c00270-160443-0.metric-db");

void put(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        std::abort();
    f.write(bytes);
}

QByteArray get(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        std::abort(); // the sample must be there
    return f.readAll();
}

/// The model's invariants for a trial that read.
void check(const Trial& t)
{
    const std::size_t metrics = t.metricCount();
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        const IntervalRow& row = t.row(ThreadIndex(i));
        const std::size_t n = row.size();
        if (row.calls.size() != n || row.subrs.size() != n || row.excl.size() != n * metrics
            || row.incl.size() != n * metrics)
            std::abort();
        for (std::size_t k = 1; k < n; ++k)
            if (!(row.events[k - 1] < row.events[k]))
                std::abort();
        for (std::size_t k = 0; k < n; ++k)
            if (row.events[k].index() >= t.eventCount())
                std::abort();
    }
    for (const auto& e : t.events())
        if (e.isCallPath() && (!e.parent.isValid() || !e.leaf.isValid()))
            std::abort(); // every call path's prefix and leaf are events too
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static QTemporaryDir dir(scratchBase() + QStringLiteral("/parallax-fuzz-hpctk-XXXXXX"));
    static const HpcToolkitReader reader;
    static const QByteArray xml = get(Sample + QStringLiteral("/experiment.xml"));
    static const QStringList dbNames = QDir(Sample).entryList({ QStringLiteral("*.metric-db") }, QDir::Files);
    static bool prepared = false;
    if (!prepared) {
        for (const QString& name : dbNames)
            put(dir.filePath(name), get(Sample + QLatin1Char('/') + name));
        prepared = true;
    }
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const bool xmlMode = size > 0 && (data[0] == '<' || data[0] == ' ' || data[0] == '\n' || data[0] == '\t');
    const QString xmlPath = dir.filePath(QStringLiteral("experiment.xml"));
    const QString dbPath = dir.filePath(Rank0);
    if (xmlMode) {
        put(xmlPath, bytes);
        put(dbPath, get(Sample + QLatin1Char('/') + Rank0));
    } else {
        put(xmlPath, xml);
        put(dbPath, bytes);
    }
    ReadOptions options;
    options.threads = 1;
    Progress progress;
    reader.sniff(dir.path());
    const TrialResult result = reader.read(dir.path(), options, progress);
    if (!result.ok()) {
        const ReadError& e = result.error();
        if (e.message.isEmpty() || !(e.file == dir.path() || e.file.startsWith(dir.path() + QLatin1Char('/'))))
            std::abort();
        return 0;
    }
    check(*result.value());
    return 0;
}
