// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The one harness of the libFuzzer targets (docs/HACKING.md §6): the scratch file, the read, the
// checks every target makes, and the writer round trip. A target says which reader, how its bytes
// become input files, and which checks are particular to its format.
#pragma once

#include "datasource/model/trial.h"
#include "datasource/readers/reader.h"
#include "datasource/readers/readerregistry.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <zlib.h>

namespace parallax::fuzz {

/// tmpfs when there is one: rewriting a file thousands of times a second on ext4 is slow.
inline QString scratchBase()
{
    return QFileInfo(QStringLiteral("/dev/shm")).isWritable() ? QStringLiteral("/dev/shm") : QDir::tempPath();
}

/// The target's scratch directory (one per process), tagged for whoever looks at /dev/shm.
inline const QTemporaryDir& scratchDir(const char* tag)
{
    static QTemporaryDir dir(scratchBase() + QStringLiteral("/parallax-fuzz-%1-XXXXXX").arg(QLatin1String(tag)));
    return dir;
}

inline QByteArray bytesOf(const std::uint8_t* data, std::size_t size)
{
    return QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
}

inline QByteArray bytesOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// A file of a sample the target copies (`dir`/`name`); aborts when it is missing (the sample must
/// be there: the harness is broken, not the reader).
inline QByteArray sampleFile(const QString& dir, const QString& name)
{
    QFile f(dir + QLatin1Char('/') + name);
    if (!f.open(QIODevice::ReadOnly))
        std::abort();
    return f.readAll();
}

/// Writes `bytes` to `path`; aborts when it cannot (the harness is broken, not the reader).
inline void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        std::abort();
    f.write(bytes);
}

/// `data` as one gzip member (level 1), for targets that feed the readers compressed input.
inline QByteArray gzip(const QByteArray& data)
{
    z_stream z {};
    if (deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        std::abort();
    QByteArray out(static_cast<qsizetype>(deflateBound(&z, static_cast<uLong>(data.size()))) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        std::abort();
    out.resize(static_cast<qsizetype>(z.total_out));
    deflateEnd(&z);
    return out;
}

/// The reader registered under `name` (ReaderRegistry): a target names its reader as --format does.
inline const Reader& reader(const char* name)
{
    const Reader* r = ReaderRegistry::instance().find(QLatin1String(name));
    if (!r)
        std::abort();
    return *r;
}

inline ReadOptions oneThread()
{
    ReadOptions options;
    options.threads = 1;
    return options;
}

/// What a ReadError must name besides saying what was expected (a message).
enum class Names {
    Nothing, ///< a message is enough
    AnyFile, ///< some file
    Input, ///< the path that was read
    InputOrBelow, ///< the path read, or a file in it (a directory format)
};

/// How a target reads its input.
struct Read {
    ReadOptions options = oneThread();
    Names names = Names::Input;
    /// sniff() first (it must not crash on any bytes either).
    bool sniff = true;
    /// A further condition on an error (e.g. it gives a byte offset); false aborts.
    std::function<bool(const ReadError&)> errorCheck = {};
};

/// Reads `input` with `reader` as `how` says. Bad input must give a ReadError that says what was
/// expected and names what `how.names` asks, never a crash; the target aborts otherwise. Returns the
/// trial, or nullptr when the input did not read.
inline std::shared_ptr<Trial> readChecked(const Reader& reader, const QString& input, const Read& how = {})
{
    Progress progress;
    if (how.sniff)
        reader.sniff(input);
    const TrialResult result = reader.read(input, how.options, progress);
    if (result.ok())
        return result.value();
    const ReadError& e = result.error();
    bool named = true;
    switch (how.names) {
    case Names::Nothing:
        break;
    case Names::AnyFile:
        named = !e.file.isEmpty();
        break;
    case Names::Input:
        named = e.file == input;
        break;
    case Names::InputOrBelow:
        named = e.file == input || e.file.startsWith(input + QLatin1Char('/'));
        break;
    }
    if (e.message.isEmpty() || !named || (how.errorCheck && !how.errorCheck(e)))
        std::abort();
    return nullptr;
}

/// The common target: `bytes` written as `fileName` in the scratch directory, read by the reader
/// registered as `readerName` and checked (readChecked()). Returns the trial, or nullptr.
inline std::shared_ptr<Trial> fuzzReader(
    const char* readerName, const QByteArray& bytes, const QString& fileName, const Read& how = {})
{
    const QString input = scratchDir(readerName).filePath(fileName);
    writeFile(input, bytes);
    return readChecked(reader(readerName), input, how);
}

inline std::shared_ptr<Trial> fuzzReader(
    const char* readerName, const std::uint8_t* data, std::size_t size, const QString& fileName, const Read& how = {})
{
    return fuzzReader(readerName, bytesOf(data, size), fileName, how);
}

/// Touches every interval value and user-event sum of squares, as a view would.
inline void touchValues(const Trial& t)
{
    double sum = 0;
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        for (double v : t.row(ThreadIndex(i)).incl)
            sum += v;
        for (double v : t.atomicRow(ThreadIndex(i)).sumSquares)
            sum += v;
    }
    (void)sum;
}

/// The model's invariants of every interval row: one calls/subrs value per cell, one exclusive and
/// inclusive value per cell and metric, cells sorted by event with no event twice, event ids in range.
inline void checkRows(const Trial& t)
{
    const std::size_t metrics = t.metricCount();
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        const RowView row = t.row(ThreadIndex(i));
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
    }
}

/// User-event ids of every atomic row in range.
inline void checkAtomicIds(const Trial& t)
{
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        const AtomicRow& atomics = t.atomicRow(ThreadIndex(i));
        for (std::size_t k = 0; k < atomics.size(); ++k)
            if (atomics.events[k].index() >= t.atomicEventCount())
                std::abort();
    }
}

/// No thread key has a negative field.
inline void checkThreadKeys(const Trial& t)
{
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        const ThreadKey& key = t.threadKey(ThreadIndex(i));
        if (key.node < 0 || key.context < 0 || key.thread < 0)
            std::abort();
    }
}

/// Every call path's prefix is an event too.
inline void checkCallPathPrefixes(const Trial& t)
{
    for (const auto& e : t.events())
        if (e.isCallPath() && !e.parent.isValid())
            std::abort();
}

/// Every call path's prefix and leaf are events too.
inline void checkCallPathEnds(const Trial& t)
{
    for (const auto& e : t.events())
        if (e.isCallPath() && (!e.parent.isValid() || !e.leaf.isValid()))
            std::abort();
}

/// checkRows(), checkThreadKeys(), checkCallPathPrefixes(), and the provided statistics' rows shaped
/// like the threads' (the Caliper targets).
inline void checkTrial(const Trial& t)
{
    checkRows(t);
    checkThreadKeys(t);
    checkCallPathPrefixes(t);
    const std::size_t metrics = t.metricCount();
    for (const auto& s : t.providedStatistics()) {
        const std::size_t n = s.row.size();
        if (s.row.excl.size() != n * metrics || s.row.incl.size() != n * metrics)
            std::abort();
        for (std::size_t k = 0; k < n; ++k)
            if (s.row.events[k].index() >= t.eventCount())
                std::abort();
    }
}

/// A writer/reader pair: any bytes as a file with `suffix` ("csv") must give a trial or a ReadError
/// (with a message), never a crash; a trial that reads must survive the writer, read back with the
/// same shape and write the same bytes.
template <typename WriterT>
int roundTrip(const char* readerName, const char* suffix, const std::uint8_t* data, std::size_t size)
{
    const Read how { ReadOptions {}, Names::Nothing };
    const auto t = fuzzReader(readerName, data, size, QStringLiteral("input.%1").arg(QLatin1String(suffix)), how);
    if (!t)
        return 0;
    touchValues(*t);
    // Written and read back: the same shape, and writing that gives the same bytes.
    const QDir dir(scratchDir(readerName).path());
    const QString first = dir.filePath(QStringLiteral("first.%1").arg(QLatin1String(suffix)));
    const QString second = dir.filePath(QStringLiteral("second.%1").arg(QLatin1String(suffix)));
    if (!WriterT::write(*t, first).isEmpty())
        std::abort();
    Progress progress;
    const TrialResult again = reader(readerName).read(first, ReadOptions {}, progress);
    if (!again.ok())
        std::abort();
    const Trial& u = *again.value();
    if (u.threadCount() != t->threadCount() || u.eventCount() != t->eventCount()
        || u.atomicEventCount() != t->atomicEventCount() || u.metricCount() != t->metricCount()
        || u.groupCount() != t->groupCount() || u.cellCount() != t->cellCount())
        std::abort();
    if (!WriterT::write(u, second).isEmpty() || bytesOf(first) != bytesOf(second))
        std::abort();
    return 0;
}

} // namespace parallax::fuzz
