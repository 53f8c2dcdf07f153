// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/writers/ppkwriter.h"

#include "datasource/model/names.h"
#include "datasource/writers/savefile.h"

#include <QSaveFile>
#include <QtEndian>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <zlib.h>

namespace parallax {

namespace {

/// Bytes collected before they are handed to zlib.
constexpr std::size_t FlushSize = std::size_t { 256 } * 1024;
/// zlib level. Measured on a 16,384-thread trial (124 MB uncompressed): level 4 gives a file 6 %
/// larger than level 6 (ParaProf's default) in half the time; level 1 is 33 % larger.
constexpr int CompressionLevel = 4;

QString shortText(const QString& s) { return s.size() > 60 ? s.left(60) + QStringLiteral("...") : s; }

/// A big-endian DataOutputStream image in memory.
class Encoder {
public:
    std::string bytes;

    void i32(std::int32_t v)
    {
        const auto be = qToBigEndian(static_cast<std::uint32_t>(v));
        bytes.append(reinterpret_cast<const char*>(&be), 4);
    }
    void raw(const char* p, std::size_t n) { bytes.append(p, n); }

    /// A u16 byte length and modified UTF-8: U+0000 as C0 80, every UTF-16 unit on its own (so a
    /// non-BMP character becomes two 3-byte surrogates), as Java's writeUTF.
    /// `what` names the string in an error; it is called only then.
    template <typename Describe> void str(const QString& s, const Describe& what)
    {
        std::size_t len = 0;
        for (const QChar c : s) {
            const char16_t u = c.unicode();
            len += (u >= 1 && u <= 0x7F) ? 1 : (u <= 0x7FF ? 2 : 3);
        }
        if (len > 0xFFFF)
            throw WriteFailure { QStringLiteral(
                "the %1 '%2' is %3 bytes long in modified UTF-8; a packed profile string holds at most 65535")
                                     .arg(what(), shortText(s))
                                     .arg(len) };
        bytes.push_back(static_cast<char>(len >> 8));
        bytes.push_back(static_cast<char>(len & 0xFF));
        for (const QChar c : s) {
            const char16_t u = c.unicode();
            if (u >= 1 && u <= 0x7F) {
                bytes.push_back(static_cast<char>(u));
            } else if (u <= 0x7FF) {
                bytes.push_back(static_cast<char>(0xC0 | (u >> 6)));
                bytes.push_back(static_cast<char>(0x80 | (u & 0x3F)));
            } else {
                bytes.push_back(static_cast<char>(0xE0 | (u >> 12)));
                bytes.push_back(static_cast<char>(0x80 | ((u >> 6) & 0x3F)));
                bytes.push_back(static_cast<char>(0x80 | (u & 0x3F)));
            }
        }
    }
};

char* putI32(char* p, std::int32_t v)
{
    const auto be = qToBigEndian(static_cast<std::uint32_t>(v));
    std::memcpy(p, &be, 4);
    return p + 4;
}

char* putF64(char* p, double v)
{
    const auto be = qToBigEndian(std::bit_cast<std::uint64_t>(v));
    std::memcpy(p, &be, 8);
    return p + 8;
}

/// gzip-compresses into a QSaveFile.
class GzipSink {
public:
    explicit GzipSink(QSaveFile& file)
        : m_file(file)
    {
        if (deflateInit2(&m_z, CompressionLevel, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            throw WriteFailure { QStringLiteral("cannot initialise zlib") };
        m_out.resize(FlushSize);
    }
    ~GzipSink() { deflateEnd(&m_z); }
    GzipSink(const GzipSink&) = delete;
    GzipSink& operator=(const GzipSink&) = delete;

    void write(const std::string& data) { deflateSome(data.data(), data.size(), Z_NO_FLUSH); }
    void finish() { deflateSome(nullptr, 0, Z_FINISH); }

private:
    void deflateSome(const char* data, std::size_t size, int flush)
    {
        m_z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
        m_z.avail_in = static_cast<uInt>(size);
        int rc = Z_OK;
        do {
            m_z.next_out = reinterpret_cast<Bytef*>(m_out.data());
            m_z.avail_out = static_cast<uInt>(m_out.size());
            rc = deflate(&m_z, flush);
            if (rc == Z_STREAM_ERROR)
                throw WriteFailure { QStringLiteral("zlib failed to compress") };
            const auto n = static_cast<qint64>(m_out.size() - m_z.avail_out);
            if (n > 0 && m_file.write(m_out.data(), n) != n)
                throw WriteFailure { QStringLiteral("write failed: %1").arg(m_file.errorString()) };
        } while (m_z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    }

    QSaveFile& m_file;
    z_stream m_z {};
    std::vector<char> m_out;
};

/// The name to store: the source spelling when it normalises to the canonical name (so a round
/// trip keeps both), else the canonical name.
QString storedName(const QString& name, const QString& rawName)
{
    if (rawName.isEmpty() || rawName == name)
        return name;
    return QString::fromStdString(names::canonical(rawName.toStdString())) == name ? rawName : name;
}

void writeTrial(const Trial& trial, GzipSink& sink)
{
    const StringPool& strings = trial.strings();
    std::vector<ThreadIndex> threads;
    for (std::size_t t = 0; t < trial.threadCount(); ++t) {
        const ThreadKey& k = trial.threadKey(ThreadIndex(t));
        if (k.node >= 0 && k.context >= 0 && k.thread >= 0)
            threads.push_back(ThreadIndex(t));
    }
    auto checkCount = [](std::size_t n, const char* what) {
        if (n > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
            throw WriteFailure {
                QStringLiteral("too many %1 (%2) for a packed profile").arg(QLatin1String(what)).arg(n)
            };
        return static_cast<std::int32_t>(n);
    };

    // The header block first, to know its size.
    Encoder header;
    header.i32(0); // future bytes
    header.i32(checkCount(trial.metadata().size(), "metadata entries"));
    for (const auto& e : trial.metadata()) {
        header.str(strings.get(e.key), [&] { return QStringLiteral("metadata key"); });
        header.str(strings.get(e.value),
            [&] { return QStringLiteral("value of metadata key '%1'").arg(shortText(strings.get(e.key))); });
    }
    header.i32(checkCount(threads.size(), "threads"));
    for (const ThreadIndex t : threads) {
        const ThreadKey& k = trial.threadKey(t);
        header.i32(k.node);
        header.i32(k.context);
        header.i32(k.thread);
        const auto& meta = trial.threadMetadata(t);
        header.i32(checkCount(meta.size(), "metadata entries"));
        for (const auto& e : meta) {
            header.str(
                strings.get(e.key), [&] { return QStringLiteral("metadata key of thread %1").arg(k.toString()); });
            header.str(strings.get(e.value), [&] {
                return QStringLiteral("value of metadata key '%1' of thread %2")
                    .arg(shortText(strings.get(e.key)), k.toString());
            });
        }
    }

    Encoder out;
    out.raw("\0P\0P\0K", 6);
    out.i32(2); // version
    out.i32(1); // compatible version
    out.i32(checkCount(header.bytes.size(), "header bytes"));
    out.bytes += header.bytes;
    header.bytes = {};

    const std::size_t metrics = trial.metricCount();
    out.i32(checkCount(metrics, "metrics"));
    for (const Metric& m : trial.metrics())
        out.str(m.name, [&] { return QStringLiteral("metric name"); });
    out.i32(checkCount(trial.groupCount(), "groups"));
    for (std::size_t g = 0; g < trial.groupCount(); ++g)
        out.str(trial.groupName(GroupId(g)), [&] { return QStringLiteral("group name"); });
    // Functions in event id order, so a function index is the event id.
    out.i32(checkCount(trial.eventCount(), "functions"));
    for (const IntervalEvent& e : trial.events()) {
        out.str(storedName(e.name, e.rawName), [] { return QStringLiteral("function name"); });
        out.i32(static_cast<std::int32_t>(e.groups.size()));
        for (const GroupId g : e.groups)
            out.i32(static_cast<std::int32_t>(g.index()));
    }
    out.i32(checkCount(trial.atomicEventCount(), "user events"));
    for (const AtomicEvent& e : trial.atomicEvents())
        out.str(storedName(e.name, e.rawName), [] { return QStringLiteral("user event name"); });

    out.i32(static_cast<std::int32_t>(threads.size()));
    const std::size_t record = 4 + 16 + 16 * metrics;
    for (const ThreadIndex t : threads) {
        const ThreadKey& k = trial.threadKey(t);
        const RowView row = trial.row(t);
        const AtomicRow& atomics = trial.atomicRow(t);
        const std::size_t n = row.size();
        const std::size_t start = out.bytes.size();
        out.bytes.resize(start + 16 + n * record + 4 + atomics.size() * 40);
        char* p = out.bytes.data() + start;
        p = putI32(p, k.node);
        p = putI32(p, k.context);
        p = putI32(p, k.thread);
        p = putI32(p, static_cast<std::int32_t>(n));
        for (std::size_t i = 0; i < n; ++i) {
            p = putI32(p, static_cast<std::int32_t>(row.events[i].index()));
            p = putF64(p, row.calls[i]);
            p = putF64(p, row.subrs[i]);
            for (std::size_t m = 0; m < metrics; ++m) {
                p = putF64(p, row.excl[m * n + i]);
                p = putF64(p, row.incl[m * n + i]);
            }
        }
        p = putI32(p, static_cast<std::int32_t>(atomics.size()));
        for (std::size_t i = 0; i < atomics.size(); ++i) {
            const double count = atomics.count[i];
            // The format stores the sample count as an i32: refuse what it cannot hold exactly.
            if (!(count == std::floor(count) && count >= std::numeric_limits<std::int32_t>::min()
                    && count <= std::numeric_limits<std::int32_t>::max()))
                throw WriteFailure { QStringLiteral(
                    "user event '%1' on thread %2 has %3 samples; a packed profile stores a whole i32 count")
                                         .arg(shortText(trial.atomicEvent(atomics.events[i]).name), k.toString())
                                         .arg(count) };
            p = putI32(p, static_cast<std::int32_t>(atomics.events[i].index()));
            p = putI32(p, static_cast<std::int32_t>(count));
            // min, max, mean (docs/FORMATS.md 3).
            p = putF64(p, atomics.min[i]);
            p = putF64(p, atomics.max[i]);
            p = putF64(p, atomics.mean[i]);
            p = putF64(p, atomics.sumSquares[i]);
        }
        if (out.bytes.size() >= FlushSize) {
            sink.write(out.bytes);
            out.bytes.clear();
        }
    }
    sink.write(out.bytes);
    sink.finish();
}

} // namespace

QString PpkWriter::write(const Trial& trial, const QString& file)
{
    return writeSaved(file, [&](QSaveFile& save) {
        GzipSink sink(save);
        writeTrial(trial, sink);
    });
}

} // namespace parallax
