// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/ppkreader.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/gzipinput.h"

#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <QtEndian>
#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <new>
#include <optional>
#include <unordered_map>

namespace parallax {

namespace {

/// Uncompressed bytes handed from the inflater to the decoder at a time.
constexpr std::size_t ChunkSize = std::size_t { 256 } * 1024;
/// Upper bound on what a count read from the file may reserve up front (in elements); beyond it
/// vectors grow as data actually arrives, so a corrupt count cannot allocate gigabytes.
constexpr std::size_t MaxReserve = 1 << 16;
/// Compressed files at least this large are inflated on a second thread.
constexpr qint64 PipelineMinimumBytes = 1 << 20;
/// Far beyond any real profile; they bound the builder's per-metric and per-group searches, which
/// are linear, so that a corrupt count cannot make a read take hours.
constexpr std::int32_t MaxMetrics = 4096;
constexpr std::int32_t MaxGroups = 4096;

/// A decoding failure at a byte offset of the uncompressed stream. Thrown inside the reader only.

std::uint32_t loadU32(const char* p)
{
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return qFromBigEndian(v);
}

std::int32_t loadI32(const char* p) { return static_cast<std::int32_t>(loadU32(p)); }

double loadF64(const char* p)
{
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return std::bit_cast<double>(qFromBigEndian(v));
}

constexpr char PpkMagic[6] = { 0, 'P', 0, 'P', 0, 'K' };

/// Decodes the uncompressed stream (docs/FORMATS.md 3) into a TrialBuilder. Reads go through a window
/// buffer with one bounds check per item (per batch of records on the hot paths).
class Parser {
public:
    Parser(GzipInput& input, GzipPipe* pipe, Progress& progress, TrialBuilder& builder)
        : m_input(input)
        , m_pipe(pipe)
        , m_progress(progress)
        , m_builder(builder)
    {
        m_window.resize(2 * ChunkSize);
        m_pos = m_end = m_window.data();
    }

    QStringList warnings;

    void parse()
    {
        parseHead();
        parseDefinitions();
        parseThreads();
        finish();
    }

private:
    // ---- the window ---------------------------------------------------------------------------

    qint64 offset() const { return m_base + (m_pos - m_window.data()); }
    std::size_t available() const { return static_cast<std::size_t>(m_end - m_pos); }

    [[noreturn]] void fail(qint64 at, const QString& message) const { throw ParseError::at(at, message); }

    /// Makes `n` bytes available at m_pos, or fails saying what was expected there.
    void need(std::size_t n, const QString& what)
    {
        if (available() < n)
            refill(n, what);
    }
    void need(std::size_t n, const char* what)
    {
        if (available() < n)
            refill(n, QLatin1String(what));
    }

    /// Returns true when `n` bytes are available, false at the end of the data.
    bool tryFill(std::size_t n)
    {
        if (m_progress.isCancelled())
            throw Cancelled {};
        const std::size_t keep = available();
        if (n > m_window.size()) {
            std::vector<char> bigger(std::max(n, 2 * m_window.size()));
            std::memcpy(bigger.data(), m_pos, keep);
            m_base = offset();
            m_window.swap(bigger);
        } else {
            m_base = offset();
            if (keep > 0 && m_pos != m_window.data())
                std::memmove(m_window.data(), m_pos, keep);
        }
        m_pos = m_window.data();
        m_end = m_pos + keep;
        while (available() < n) {
            char* tail = const_cast<char*>(m_end);
            const std::size_t room = m_window.size() - static_cast<std::size_t>(tail - m_window.data());
            const std::size_t got = m_pipe ? m_pipe->read(tail, room) : m_input.readOrThrow(tail, room);
            if (got == 0)
                return false;
            m_end += got;
        }
        return true;
    }

    void refill(std::size_t n, const QString& what)
    {
        if (tryFill(n))
            return;
        QString message
            = QStringLiteral("expected %1, but the data ends after %2 more byte(s)").arg(what).arg(available());
        if (m_input.cutShort())
            message += QStringLiteral(" (the gzip stream is cut short: truncated file)");
        else
            message += QStringLiteral(" (truncated file?)");
        fail(offset(), message);
    }

    std::int32_t i32(const char* what)
    {
        need(4, what);
        const std::int32_t v = loadI32(m_pos);
        m_pos += 4;
        return v;
    }

    /// A non-negative i32 count.
    std::int32_t count(const char* what)
    {
        const qint64 at = offset();
        const std::int32_t v = i32(what);
        if (v < 0)
            fail(at, QStringLiteral("%1 is negative (%2)").arg(QLatin1String(what)).arg(v));
        return v;
    }
    /// count() of the i32 `what` ("metric count"), refused above `max` (a corrupt file, or more than
    /// this reader holds).
    std::int32_t count(const char* what, std::int32_t max)
    {
        const qint64 at = offset();
        const std::int32_t v = count(QByteArray("i32 " + QByteArray(what)).constData());
        if (v > max)
            fail(at,
                QStringLiteral("the %1 %2 is more than this reader accepts (%3): corrupt file?")
                    .arg(QLatin1String(what))
                    .arg(v)
                    .arg(max));
        return v;
    }

    /// A u16 byte length and that many bytes of modified UTF-8 (docs/FORMATS.md 3).
    /// `what` describes the string for error messages; it is called only when something is wrong.
    template <typename Describe> QString str(const Describe& what)
    {
        const qint64 at = offset();
        if (available() < 2)
            refill(2, QStringLiteral("the u16 length of %1").arg(what()));
        const std::size_t len = static_cast<unsigned char>(m_pos[0]) << 8 | static_cast<unsigned char>(m_pos[1]);
        m_pos += 2;
        if (available() < len && !tryFill(len)) {
            fail(at,
                QStringLiteral(
                    "expected %1 bytes of %2, but the string runs past the end of the data (%3 byte(s) left%4)")
                    .arg(len)
                    .arg(what())
                    .arg(available())
                    .arg(m_input.cutShort() ? QStringLiteral("; the gzip stream is cut short: truncated file")
                                            : QString()));
        }
        const auto* p = reinterpret_cast<const unsigned char*>(m_pos);
        QString s = decode(p, len, at + 2, what);
        m_pos += len;
        return s;
    }
    QString str(const char* what)
    {
        return str([what] { return QLatin1String(what); });
    }

    template <typename Describe>
    QString decode(const unsigned char* p, std::size_t len, qint64 at, const Describe& what)
    {
        QString s(static_cast<qsizetype>(len), Qt::Uninitialized);
        auto* out = reinterpret_cast<char16_t*>(s.data());
        std::size_t o = 0;
        std::size_t i = 0;
        bool surrogates = false;
        while (i < len) {
            const unsigned char c = p[i];
            if (c < 0x80) {
                // Java's readUTF accepts a raw 0 byte too; modified UTF-8 writers emit C0 80.
                out[o++] = c;
                ++i;
            } else if ((c & 0xE0) == 0xC0) {
                if (i + 1 >= len || (p[i + 1] & 0xC0) != 0x80)
                    badUtf8(at + static_cast<qint64>(i), what(), i + 1 >= len);
                out[o++] = static_cast<char16_t>((c & 0x1F) << 6 | (p[i + 1] & 0x3F));
                i += 2;
            } else if ((c & 0xF0) == 0xE0) {
                if (i + 2 >= len || (p[i + 1] & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80)
                    badUtf8(at + static_cast<qint64>(i), what(), i + 2 >= len);
                const auto u = static_cast<char16_t>((c & 0x0F) << 12 | (p[i + 1] & 0x3F) << 6 | (p[i + 2] & 0x3F));
                surrogates = surrogates || (u >= 0xD800 && u <= 0xDFFF);
                out[o++] = u;
                i += 3;
            } else {
                badUtf8(at + static_cast<qint64>(i), what(), false);
            }
        }
        s.truncate(static_cast<qsizetype>(o));
        if (surrogates) {
            // Non-BMP characters arrive as two 3-byte surrogates, which is what QString holds. An
            // unpaired one (Java allows it) cannot be represented in the UTF-8 the model uses.
            for (qsizetype k = 0; k < s.size(); ++k) {
                const char16_t u = s.at(k).unicode();
                if (QChar::isHighSurrogate(u) && k + 1 < s.size() && QChar::isLowSurrogate(s.at(k + 1).unicode())) {
                    ++k;
                } else if (QChar::isSurrogate(u)) {
                    s[k] = QChar::ReplacementCharacter;
                    ++m_loneSurrogates;
                }
            }
        }
        return s;
    }

    [[noreturn]] void badUtf8(qint64 at, const QString& what, bool cut) const
    {
        fail(at,
            QStringLiteral("invalid modified UTF-8 in %1: %2")
                .arg(what,
                    cut ? QStringLiteral("a multi-byte sequence runs past the end of the string")
                        : QStringLiteral("a byte that cannot start or continue a character")));
    }

    /// Skips `n` bytes (a block this reader does not interpret).
    void skip(qint64 n, const QString& what)
    {
        const qint64 start = offset();
        const qint64 total = n;
        while (n > 0) {
            if (available() == 0 && !tryFill(1))
                fail(start,
                    QStringLiteral("expected %1, but the data ends after %2 of its %3 bytes%4")
                        .arg(what)
                        .arg(total - n)
                        .arg(total)
                        .arg(m_input.cutShort() ? QStringLiteral(" (the gzip stream is cut short: truncated file)")
                                                : QStringLiteral(" (truncated file?)")));
            const auto step = static_cast<std::size_t>(std::min<qint64>(n, static_cast<qint64>(available())));
            m_pos += step;
            n -= static_cast<qint64>(step);
        }
    }

    // ---- the sections -------------------------------------------------------------------------

    void parseHead()
    {
        const bool enough = tryFill(6);
        if (!enough && m_input.cutShort())
            refill(6, QStringLiteral("the 'PPK' magic 00 50 00 50 00 4b"));
        if (!enough || std::memcmp(m_pos, PpkMagic, 6) != 0) {
            QStringList hex;
            for (std::size_t i = 0; i < std::min<std::size_t>(available(), 6); ++i)
                hex << QStringLiteral("%1").arg(static_cast<unsigned char>(m_pos[i]), 2, 16, QLatin1Char('0'));
            fail(0,
                QStringLiteral("not a ParaProf packed profile: expected the 'PPK' magic 00 50 00 50 00 4b, found %1")
                    .arg(hex.isEmpty() ? QStringLiteral("no data") : hex.join(QLatin1Char(' '))));
        }
        m_pos += 6;
        const qint64 versionAt = offset();
        const std::int32_t version = i32("i32 version");
        const qint64 compatAt = offset();
        const std::int32_t compatible = i32("i32 compatible version");
        if (compatible > PpkReader::MaxCompatibleVersion)
            fail(compatAt,
                QStringLiteral("the file needs a reader of packed profile version %1 (its compatible version), but "
                               "this reader "
                               "supports versions 1 to %2")
                    .arg(compatible)
                    .arg(PpkReader::MaxCompatibleVersion));
        if (version < 1)
            fail(versionAt, QStringLiteral("unsupported packed profile version %1 (expected 1 or more)").arg(version));
        const std::int32_t headerSize = count(version == 1 ? "i32 size of the version 1 block" : "i32 header size");
        const qint64 headerStart = offset();
        const qint64 headerEnd = headerStart + headerSize;
        if (version == 1) {
            skip(headerSize, QStringLiteral("the %1-byte version 1 block").arg(headerSize));
            if (headerSize > 0)
                warnings << QStringLiteral(
                    "version 1 packed profile: its %1-byte header block was skipped (no metadata read)")
                                .arg(headerSize);
            return;
        }
        const std::int32_t futureBytes = count("i32 future bytes count");
        if (futureBytes > 0) {
            skip(futureBytes, QStringLiteral("%1 future bytes").arg(futureBytes));
            warnings
                << QStringLiteral("skipped %1 bytes of header data this reader does not interpret").arg(futureBytes);
        }
        checkHeader(headerEnd, headerSize, "the future bytes");

        // Trial-common metadata.
        const std::int32_t nTrial = count("i32 trial metadata count");
        std::vector<std::pair<QString, QString>> trial;
        trial.reserve(std::min<std::size_t>(static_cast<std::size_t>(nTrial), MaxReserve));
        QHash<QString, std::size_t> trialIndex;
        for (std::int32_t i = 0; i < nTrial; ++i) {
            QString key = str([&] { return QStringLiteral("trial metadata key %1 of %2").arg(i + 1).arg(nTrial); });
            QString value
                = str([&] { return QStringLiteral("the value of trial metadata key '%1'").arg(shortText(key)); });
            checkHeader(headerEnd, headerSize, "the trial metadata");
            const auto it = trialIndex.constFind(key);
            if (it != trialIndex.cend()) {
                trial[it.value()].second = std::move(value);
                ++m_duplicateMetadata;
            } else {
                trialIndex.insert(key, trial.size());
                trial.emplace_back(std::move(key), std::move(value));
            }
        }
        for (const auto& [key, value] : trial)
            m_builder.addMetadata(key, value);

        // Per-thread metadata; the threads are created here, in file order.
        const std::int32_t nThreads = count("i32 metadata thread count");
        for (std::int32_t t = 0; t < nThreads; ++t) {
            const ThreadKey key
                = threadKey([&] { return QStringLiteral("metadata thread %1 of %2").arg(t + 1).arg(nThreads); });
            const ThreadIndex ti = addThread(key);
            const std::int32_t nMeta = count("i32 thread metadata count");
            if (m_metadataSeen[ti.index()])
                ++m_duplicateMetadataThreads; // its maps are merged below
            m_metadataSeen[ti.index()] = true;
            auto& entries = m_threadMetadata[ti.index()];
            entries.reserve(entries.size() + std::min<std::size_t>(static_cast<std::size_t>(nMeta), MaxReserve));
            for (std::int32_t i = 0; i < nMeta; ++i) {
                const QString k = str([&] {
                    return QStringLiteral("metadata key %1 of %2 of thread %3")
                        .arg(i + 1)
                        .arg(nMeta)
                        .arg(key.toString());
                });
                const QString v = str([&] {
                    return QStringLiteral("the value of metadata key '%1' of thread %2")
                        .arg(shortText(k), key.toString());
                });
                entries.push_back({ m_builder.strings().intern(k), m_builder.strings().intern(v) });
                checkHeader(headerEnd, headerSize, "the thread metadata");
            }
        }
        // A key twice in one thread's map (or in two listings of one thread): the last value wins.
        std::unordered_map<std::uint32_t, std::size_t> position;
        for (auto& entries : m_threadMetadata) {
            if (entries.size() < 2)
                continue;
            position.clear();
            std::vector<MetadataEntry> unique;
            unique.reserve(entries.size());
            for (const MetadataEntry& e : entries) {
                const auto [it, inserted] = position.emplace(e.key.index(), unique.size());
                if (inserted) {
                    unique.push_back(e);
                } else {
                    unique[it->second].value = e.value;
                    ++m_duplicateMetadata;
                }
            }
            entries = std::move(unique);
        }
        if (offset() < headerEnd) {
            const qint64 rest = headerEnd - offset();
            skip(rest, QStringLiteral("the rest of the %1-byte header block").arg(headerSize));
            if (version == 2)
                warnings << QStringLiteral("skipped %1 unread bytes at the end of the header block").arg(rest);
        }
    }

    void checkHeader(qint64 headerEnd, std::int32_t headerSize, const char* what) const
    {
        if (offset() > headerEnd)
            fail(headerEnd,
                QStringLiteral("%1 run past the end of the header block (its declared size is %2 bytes)")
                    .arg(QLatin1String(what))
                    .arg(headerSize));
    }

    template <typename Describe> ThreadKey threadKey(const Describe& which)
    {
        if (available() < 12)
            refill(12, QStringLiteral("i32 node, context and thread ids of %1").arg(which()));
        ThreadKey key { loadI32(m_pos), loadI32(m_pos + 4), loadI32(m_pos + 8) };
        m_pos += 12;
        return key;
    }

    ThreadIndex addThread(const ThreadKey& key)
    {
        const ThreadIndex t = m_builder.addThread(key);
        if (t.index() >= m_rows.size()) {
            m_rows.resize(t.index() + 1);
            m_atomicRows.resize(t.index() + 1);
            m_threadMetadata.resize(t.index() + 1);
            m_metadataSeen.resize(t.index() + 1, false);
            m_dataSeen.resize(t.index() + 1, false);
            if (key.node < 0 || key.context < 0 || key.thread < 0)
                m_negativeThreads << key.toString();
        }
        return t;
    }

    void parseDefinitions()
    {
        const std::int32_t nMetrics = count("metric count", MaxMetrics);
        for (std::int32_t m = 0; m < nMetrics; ++m) {
            QString name = str([&] { return QStringLiteral("metric name %1 of %2").arg(m + 1).arg(nMetrics); });
            if (m_metricNames.contains(name)) {
                // Two columns under one name: keep both, the second renamed.
                QString renamed;
                for (int k = 2; renamed.isEmpty() || m_metricNames.contains(renamed); ++k)
                    renamed = QStringLiteral("%1 (%2)").arg(name).arg(k);
                warnings
                    << QStringLiteral("metric name '%1' appears twice; the second is called '%2'").arg(name, renamed);
                name = renamed;
            }
            Metric metric;
            metric.name = name;
            // As the TAU reader: a TIME metric is in microseconds, anything else is a count.
            metric.unit
                = name.toUpper().contains(QLatin1String("TIME")) ? QStringLiteral("us") : QStringLiteral("count");
            m_builder.addMetric(metric);
            m_metricNames.insert(name);
        }
        m_metrics = static_cast<std::size_t>(nMetrics);

        const std::int32_t nGroups = count("group count", MaxGroups);
        m_groupNames.reserve(std::min<std::size_t>(static_cast<std::size_t>(nGroups), MaxReserve));
        for (std::int32_t g = 0; g < nGroups; ++g) {
            m_groupNames.push_back(str([&] { return QStringLiteral("group name %1 of %2").arg(g + 1).arg(nGroups); }));
            m_builder.addGroup(m_groupNames.back()); // every group, used or not
        }
        m_groupStamp.assign(m_groupNames.size(), 0);

        const std::int32_t nFunctions = count("i32 function count");
        m_functionEvents.reserve(std::min<std::size_t>(static_cast<std::size_t>(nFunctions), MaxReserve));
        for (std::int32_t f = 0; f < nFunctions; ++f) {
            const QString name
                = str([&] { return QStringLiteral("function name %1 of %2").arg(f + 1).arg(nFunctions); });
            const std::int32_t nG = count("i32 group count of a function");
            QStringList groups;
            for (std::int32_t k = 0; k < nG; ++k) {
                const qint64 at = offset();
                const std::int32_t g = i32("i32 group index of a function");
                if (g < 0 || g >= nGroups)
                    fail(at,
                        QStringLiteral("group index %1 of function %2 ('%3') out of range 0..%4")
                            .arg(g)
                            .arg(f)
                            .arg(shortText(name))
                            .arg(nGroups - 1));
                // Each group once: the builder's check for a group already present is linear.
                if (m_groupStamp[static_cast<std::size_t>(g)] != static_cast<std::uint32_t>(f) + 1) {
                    m_groupStamp[static_cast<std::size_t>(g)] = static_cast<std::uint32_t>(f) + 1;
                    groups << m_groupNames[static_cast<std::size_t>(g)];
                }
            }
            const std::size_t before = m_eventCount;
            const EventId e = m_builder.addEvent(name, groups);
            if (e.index() < before)
                ++m_mergedFunctions; // canonically the same name as an earlier function
            else
                m_eventCount = e.index() + 1;
            m_functionEvents.push_back(e);
        }

        const std::int32_t nUser = count("i32 user event count");
        m_userEvents.reserve(std::min<std::size_t>(static_cast<std::size_t>(nUser), MaxReserve));
        for (std::int32_t u = 0; u < nUser; ++u) {
            const QString name = str([&] { return QStringLiteral("user event name %1 of %2").arg(u + 1).arg(nUser); });
            const AtomicEventId a = m_builder.addAtomicEvent(name);
            if (a.index() < m_atomicCount)
                ++m_mergedUserEvents;
            else
                m_atomicCount = a.index() + 1;
            m_userEvents.push_back(a);
        }
        m_eventSeen.assign(m_eventCount, 0);
        m_atomicSeen.assign(m_atomicCount, 0);
    }

    void parseThreads()
    {
        const std::int32_t nThreads = count("i32 thread count");
        for (std::int32_t t = 0; t < nThreads; ++t) {
            if (m_progress.isCancelled())
                throw Cancelled {};
            const ThreadKey key = threadKey([&] { return QStringLiteral("thread %1 of %2").arg(t + 1).arg(nThreads); });
            const ThreadIndex ti = addThread(key);
            const std::uint32_t stamp = static_cast<std::uint32_t>(t) + 1;
            if (m_dataSeen[ti.index()]) {
                // The same thread again: its records are collected apart (cell-major) and appended
                // once at the end; build() sums the cells.
                ++m_duplicateThreads;
                readIntervals(key, m_repeatedRows[ti.index()], stamp, false);
            } else {
                m_dataSeen[ti.index()] = true;
                readIntervals(key, m_rows[ti.index()], stamp, true);
            }
            readAtomics(key, m_atomicRows[ti.index()], stamp);
        }
    }

    /// The i32 count of a thread's `kind` ("function", "user event") profiles; negative is an error.
    std::size_t recordCount(const ThreadKey& key, const char* kind)
    {
        const qint64 countAt = offset();
        if (available() < 4) // need(), with the message built only when it is needed
            refill(4, QStringLiteral("i32 %1 profile count").arg(QLatin1String(kind)));
        const std::int32_t n = loadI32(m_pos);
        m_pos += 4;
        if (n < 0)
            fail(countAt,
                QStringLiteral("the %1 profile count of thread %2 is negative (%3)")
                    .arg(QLatin1String(kind), key.toString())
                    .arg(n));
        return static_cast<std::size_t>(n);
    }

    /// `records` `kind` profile records of `record` bytes each (`fields()` names them for the message
    /// when the stream ends), read in batches straight from the window. A record starts with an i32
    /// index below `limit`; `each(p, index)` decodes the record at p.
    template <typename Fields, typename Each>
    void forEachRecord(const ThreadKey& key, const char* kind, std::size_t records, std::size_t record,
        const Fields& fields, std::uint32_t limit, Each&& each)
    {
        std::size_t left = records;
        while (left > 0) {
            if (available() < record)
                need(record,
                    QStringLiteral("%1 profile %2 of %3 of thread %4 (%5)")
                        .arg(QLatin1String(kind))
                        .arg(records - left + 1)
                        .arg(records)
                        .arg(key.toString(), fields()));
            const std::size_t batch = std::min(left, available() / record);
            const char* p = m_pos;
            for (std::size_t k = 0; k < batch; ++k, p += record) {
                const std::uint32_t index = loadU32(p);
                if (index >= limit) {
                    m_pos = p;
                    fail(offset(),
                        QStringLiteral("%1 index %2 out of range 0..%3 (%1 profile %4 of thread %5)")
                            .arg(QLatin1String(kind))
                            .arg(static_cast<std::int32_t>(index))
                            .arg(static_cast<qint64>(limit) - 1)
                            .arg(records - left + k + 1)
                            .arg(key.toString()));
                }
                each(p, index);
            }
            m_pos = p;
            left -= batch;
        }
    }

    void readIntervals(const ThreadKey& key, IntervalRow& row, std::uint32_t stamp, bool metricMajor)
    {
        const std::size_t records = recordCount(key, "function");
        const std::size_t metrics = m_metrics;
        const std::size_t reserve
            = std::min<std::size_t>(records, std::max<std::size_t>(1024, (std::size_t(1) << 22) / (2 + 2 * metrics)));
        row.events.reserve(reserve);
        row.calls.reserve(reserve);
        row.subrs.reserve(reserve);
        row.excl.reserve(reserve * metrics);
        row.incl.reserve(reserve * metrics);
        const auto fields = [&] {
            return QStringLiteral("i32 function index, f64 calls, f64 subrs, f64 excl and incl × %1 metrics")
                .arg(metrics);
        };
        forEachRecord(key, "function", records, 4 + 16 + 16 * metrics, fields,
            static_cast<std::uint32_t>(m_functionEvents.size()), [&](const char* p, std::uint32_t f) {
                const EventId e = m_functionEvents[f];
                if (m_eventSeen[e.index()] == stamp)
                    ++m_duplicateCells;
                m_eventSeen[e.index()] = stamp;
                row.events.push_back(e);
                row.calls.push_back(loadF64(p + 4));
                row.subrs.push_back(loadF64(p + 12));
                const char* v = p + 20;
                for (std::size_t m = 0; m < metrics; ++m, v += 16) {
                    row.excl.push_back(loadF64(v));
                    row.incl.push_back(loadF64(v + 8));
                }
            });
        // Records are cell-major ([cell][metric]); the model is metric-major ([metric][cell]).
        if (metrics > 1 && metricMajor)
            transpose(row, metrics);
    }

    void transpose(IntervalRow& row, std::size_t metrics)
    {
        const std::size_t n = row.events.size();
        for (auto* values : { &row.excl, &row.incl }) {
            m_scratch.assign(values->begin(), values->end());
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t m = 0; m < metrics; ++m)
                    (*values)[m * n + i] = m_scratch[i * metrics + m];
        }
    }

    void readAtomics(const ThreadKey& key, AtomicRow& row, std::uint32_t stamp)
    {
        const std::size_t records = recordCount(key, "user event");
        row.reserve(std::min<std::size_t>(records, MaxReserve));
        forEachRecord(
            key, "user event", records, 4 + 4 + 4 * 8,
            [] { return QStringLiteral("i32 index, i32 samples, f64 min, max, mean, sum of squares"); },
            static_cast<std::uint32_t>(m_userEvents.size()),
            [&](const char* p, std::uint32_t u) {
                const AtomicEventId a = m_userEvents[u];
                if (m_atomicSeen[a.index()] == stamp)
                    ++m_duplicateAtomics;
                m_atomicSeen[a.index()] = stamp;
                // ppk order is min, max, mean (docs/FORMATS.md 3); the text profile's is max, min.
                row.append(a, static_cast<double>(loadI32(p + 4)), loadF64(p + 16), loadF64(p + 8), loadF64(p + 24),
                    loadF64(p + 32));
            });
    }

    void appendRow(IntervalRow& into, IntervalRow&& from)
    {
        const std::size_t metrics = m_metrics;
        const std::size_t a = into.size();
        const std::size_t b = from.size();
        for (auto [dst, src] : { std::pair { &into.excl, &from.excl }, std::pair { &into.incl, &from.incl } }) {
            std::vector<double> merged((a + b) * metrics);
            for (std::size_t m = 0; m < metrics; ++m) {
                std::copy_n(dst->begin() + static_cast<std::ptrdiff_t>(m * a), a,
                    merged.begin() + static_cast<std::ptrdiff_t>(m * (a + b)));
                std::copy_n(src->begin() + static_cast<std::ptrdiff_t>(m * b), b,
                    merged.begin() + static_cast<std::ptrdiff_t>(m * (a + b) + a));
            }
            *dst = std::move(merged);
        }
        into.events.insert(into.events.end(), from.events.begin(), from.events.end());
        into.calls.insert(into.calls.end(), from.calls.begin(), from.calls.end());
        into.subrs.insert(into.subrs.end(), from.subrs.begin(), from.subrs.end());
    }

    void finish()
    {
        // Anything after the last thread is not part of the format: count it, keep nothing silently.
        qint64 trailing = static_cast<qint64>(available());
        m_pos = m_end;
        while (tryFill(1)) {
            trailing += static_cast<qint64>(available());
            m_pos = m_end;
        }
        if (trailing > 0)
            warnings << QStringLiteral("%1 byte(s) after the last thread record were ignored").arg(trailing);
        if (m_input.trailingGarbage() > 0)
            warnings << QStringLiteral("%1 byte(s) of non-gzip data after the compressed stream were ignored")
                            .arg(m_input.trailingGarbage());
        if (m_input.cutShort())
            warnings << QStringLiteral("the gzip stream is cut short after the last thread record (no end marker, "
                                       "so no checksum was verified)");
        if (m_mergedFunctions > 0)
            warnings << QStringLiteral("%1 function name(s) are the same as another after normalisation;"
                                       " their values were summed")
                            .arg(m_mergedFunctions);
        if (m_mergedUserEvents > 0)
            warnings << QStringLiteral(
                "%1 user event name(s) are the same as another after normalisation; their records were pooled")
                            .arg(m_mergedUserEvents);
        if (m_duplicateCells > 0)
            warnings << QStringLiteral(
                "%1 duplicate function profile(s) on one thread were summed (excl, incl, calls, subrs)")
                            .arg(m_duplicateCells);
        if (m_duplicateAtomics > 0)
            warnings << QStringLiteral("%1 duplicate user event profile(s) on one thread were pooled (count, min, "
                                       "max, mean, sum of squares)")
                            .arg(m_duplicateAtomics);
        if (m_duplicateThreads > 0)
            warnings << QStringLiteral("%1 thread record(s) repeat an earlier thread; their values were merged")
                            .arg(m_duplicateThreads);
        if (m_duplicateMetadataThreads > 0)
            warnings << QStringLiteral("%1 thread(s) appear twice in the header metadata; their maps were merged")
                            .arg(m_duplicateMetadataThreads);
        if (m_duplicateMetadata > 0)
            warnings << QStringLiteral("%1 repeated metadata key(s) within a thread; the last value was kept")
                            .arg(m_duplicateMetadata);
        if (m_loneSurrogates > 0)
            warnings << QStringLiteral("%1 unpaired UTF-16 surrogate(s) in names were replaced by U+FFFD")
                            .arg(m_loneSurrogates);
        if (!m_negativeThreads.isEmpty())
            warnings << QStringLiteral("thread(s) with negative ids (ParaProf's derived threads?) kept as read: %1")
                            .arg(m_negativeThreads.mid(0, 5).join(QStringLiteral("; ")));

        for (auto& [t, repeated] : m_repeatedRows) {
            if (m_metrics > 1)
                transpose(repeated, m_metrics);
            appendRow(m_rows[t], std::move(repeated));
        }

        // Per-thread metadata goes through the builder, which applies docs/FORMATS.md 1.3 on top of the
        // trial-common map read above.
        for (std::size_t t = 0; t < m_threadMetadata.size(); ++t)
            if (!m_threadMetadata[t].empty())
                m_builder.setThreadMetadataEntries(ThreadIndex(t), std::move(m_threadMetadata[t]));
        m_rows.resize(m_builder.threadCount());
        m_atomicRows.resize(m_builder.threadCount());
        m_builder.setIntervalRows(std::move(m_rows));
        m_builder.setAtomicRows(std::move(m_atomicRows));
    }

    static QString shortText(const QString& s) { return s.size() > 60 ? s.left(60) + QStringLiteral("...") : s; }

    GzipInput& m_input;
    GzipPipe* m_pipe;
    Progress& m_progress;
    TrialBuilder& m_builder;

    std::vector<char> m_window;
    const char* m_pos = nullptr;
    const char* m_end = nullptr;
    qint64 m_base = 0;

    std::size_t m_metrics = 0;
    QSet<QString> m_metricNames;
    std::vector<QString> m_groupNames;
    std::vector<EventId> m_functionEvents;
    std::vector<std::uint32_t> m_groupStamp; // per group index: 1 + the last function that listed it
    std::vector<AtomicEventId> m_userEvents;
    std::size_t m_eventCount = 0;
    std::size_t m_atomicCount = 0;
    std::vector<std::uint32_t> m_eventSeen;
    std::vector<std::uint32_t> m_atomicSeen;
    std::vector<double> m_scratch;

    std::vector<IntervalRow> m_rows;
    std::map<std::uint32_t, IntervalRow> m_repeatedRows; // cell-major
    std::vector<AtomicRow> m_atomicRows;
    std::vector<std::vector<MetadataEntry>> m_threadMetadata;
    std::vector<bool> m_metadataSeen;
    std::vector<bool> m_dataSeen;

    std::size_t m_mergedFunctions = 0;
    std::size_t m_mergedUserEvents = 0;
    std::size_t m_duplicateCells = 0;
    std::size_t m_duplicateAtomics = 0;
    std::size_t m_duplicateThreads = 0;
    std::size_t m_duplicateMetadataThreads = 0;
    std::size_t m_duplicateMetadata = 0;
    std::size_t m_loneSurrogates = 0;
    QStringList m_negativeThreads;
};

} // namespace

PpkReader::PpkReader()
    : Reader({ QStringLiteral("ppk"), QStringLiteral("ParaProf packed profile"), { QStringLiteral("*.ppk") } })
{
}

int PpkReader::sniff(const QString& path) const
{
    const QByteArray head = fileHead(path, 4096).value_or(QByteArray());
    if (head.size() >= 6 && std::memcmp(head.constData(), PpkMagic, 6) == 0)
        return 100;
    if (head.size() < 2 || !isGzipMagic(head.constData()))
        return 0;
    if (QFileInfo(path).suffix().compare(QLatin1String("ppk"), Qt::CaseInsensitive) == 0)
        return 100;
    // gzip under another name: inflate just enough to see the magic.
    const QByteArray out = gunzipPrefix(head, 6);
    return out.size() == 6 && std::memcmp(out.constData(), PpkMagic, 6) == 0 ? 90 : 0;
}

TrialResult PpkReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    const ReadJob job { path, {}, QStringLiteral("out of memory while reading the packed profile") };
    const QString notAFile = QStringLiteral("not a file; a ParaProf packed profile is one .ppk file");
    return guardedFileRead(
        *this, job, notAFile, [&](TrialBuilder& builder, QStringList& warnings) -> std::optional<ReadError> {
            const QFileInfo info(path);
            progress.setStage(QStringLiteral("Reading ParaProf packed profile"), info.size());
            GzipInput input(progress, ChunkSize);
            input.openOrThrow(path);

            // Inflate on a second thread when allowed: it costs about as much as decoding. By default
            // only for larger files: below that, starting the thread costs more than it saves
            // (measured on the wrf sample). threads >= 2 asks for it explicitly.
            const bool pipelined = input.isGzip()
                && (options.threads >= 2
                    || (options.threads == 0 && QThread::idealThreadCount() > 1
                        && info.size() >= PipelineMinimumBytes));
            std::optional<GzipPipe> pipe;
            if (pipelined)
                pipe.emplace(input, ChunkSize);
            Parser parser(input, pipe ? &*pipe : nullptr, progress, builder);
            try {
                parser.parse();
            } catch (ParseError& e) {
                if (e.offset >= 0) {
                    const QString where
                        = input.isGzip() ? QStringLiteral("of the uncompressed stream") : QStringLiteral("of the file");
                    e.message = QStringLiteral("%1 (at byte %2 %3)").arg(e.message).arg(e.offset).arg(where);
                }
                throw;
            }
            warnings = parser.warnings;
            progress.setStage(QStringLiteral("Building the trial"), 0);
            return std::nullopt;
        });
}

} // namespace parallax
