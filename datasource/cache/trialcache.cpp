// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/cache/trialcache.h"

#include "datasource/model/poolwait.h"
#include "datasource/writers/savefile.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentMap>
#include <algorithm>
#include <bit>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <type_traits>
#include <unistd.h>
#include <unordered_map>
#include <xxhash.h>

namespace parallax {

namespace {

constexpr char Magic[8] = { 'P', 'R', 'L', 'X', 'C', 'A', 'C', 'H' };
constexpr quint32 FormatVersion = 3;
constexpr quint32 EndianMark = 0x01020304;
constexpr int HeaderSize = 32; // magic, version, endian mark, payload size, checksum
/// The checksum hashes the payload in blocks of this size (in parallel when reading).
constexpr qint64 HashBlockBytes = qint64(16) << 20;
/// The row store's chunk region starts at a file offset that is a multiple of this (every page size
/// Linux uses), so the mapped rows begin on a page of their own.
constexpr quint64 RegionAlign = 65536;

/// One row of the slot table: RowStore::Slot with offsets into the chunk region instead of pointers.
struct DiskSlot {
    quint64 events = 0;
    quint64 values = 0;
    quint32 size = 0;
    quint32 metrics = 0;
    quint32 patches = 0;
    quint32 flags = 0;
};
static_assert(sizeof(DiskSlot) == 32);

struct Corrupt : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Gives back the pages of a read-only file mapping between `begin` and `end` (whole pages inside
/// it): they stay in the page cache, but no longer count in this process's memory. Only for a
/// mapping: on ordinary memory it would zero the pages.
void dropMappedPages(const char* begin, const char* end)
{
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto at = reinterpret_cast<std::uintptr_t>(begin);
    const std::uintptr_t first = (at + page - 1) / page * page;
    const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(end) / page * page;
    if (last > first) // the address as an offset from `begin`, so it stays a pointer
        madvise(const_cast<char*>(begin) + (first - at), last - first, MADV_DONTNEED);
}

/// The payload's checksum (TrialCache::checksum), the blocks hashed on every core; for a mapping,
/// each block's pages are given back once hashed, so a 1 GB entry is never resident as a whole.
quint64 checksumOf(const char* data, qint64 size, bool mapped = false)
{
    const qint64 blocks = (size + HashBlockBytes - 1) / HashBlockBytes;
    std::vector<quint64> digests(static_cast<std::size_t>(blocks));
    std::vector<qint64> indices(digests.size());
    std::iota(indices.begin(), indices.end(), qint64 { 0 });
    auto hashBlock = [&](qint64 b) {
        const char* p = data + b * HashBlockBytes;
        const qint64 n = std::min(HashBlockBytes, size - b * HashBlockBytes);
        digests[static_cast<std::size_t>(b)] = XXH3_64bits(p, static_cast<std::size_t>(n));
        if (mapped)
            dropMappedPages(p, p + n);
    };
    if (blocks <= 1)
        std::for_each(indices.begin(), indices.end(), hashBlock);
    else
        waitInPool([&] { QtConcurrent::blockingMap(indices, hashBlock); });
    return XXH3_64bits(digests.data(), digests.size() * sizeof(quint64));
}

/// The payload being written: bytes pending in memory, handed to the device every few MiB with
/// the checksum kept up to date, so a 1 GB entry never exists in memory (writeEntry).
class Out {
public:
    explicit Out(QIODevice& device)
        : m_device(device)
    {
        if (!m_state)
            throw std::bad_alloc();
        XXH3_64bits_reset(m_state.get());
    }
    QByteArray bytes;
    template <typename T> void pod(const T& v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes.append(reinterpret_cast<const char*>(&v), sizeof(T));
    }
    void align()
    {
        while ((m_written + static_cast<quint64>(bytes.size())) % 8 != 0)
            bytes.append('\0');
    }
    /// Writes the pending bytes out once there are enough of them.
    void maybeFlush()
    {
        if (bytes.size() >= (qsizetype(8) << 20))
            flush();
    }
    /// Zero bytes up to a payload offset whose file offset is a multiple of `alignment`.
    void alignFile(quint64 alignment)
    {
        const quint64 at = HeaderSize + m_written + static_cast<quint64>(bytes.size());
        bytes.append(static_cast<qsizetype>((alignment - at % alignment) % alignment), '\0');
    }
    void raw(const void* data, std::size_t n)
    {
        bytes.append(static_cast<const char*>(data), static_cast<qsizetype>(n));
    }
    void flush()
    {
        const char* data = bytes.constData();
        for (qint64 left = bytes.size(); left > 0;) {
            const qint64 n = std::min(left, HashBlockBytes - m_blockFill);
            XXH3_64bits_update(m_state.get(), data, static_cast<std::size_t>(n));
            m_blockFill += n;
            data += n;
            left -= n;
            if (m_blockFill == HashBlockBytes)
                endBlock();
        }
        if (m_device.write(bytes) != bytes.size())
            throw WriteFailure { m_device.errorString() };
        m_written += static_cast<quint64>(bytes.size());
        bytes.resize(0);
    }
    quint64 written() const { return m_written; }
    /// The checksum of everything flushed (call once, at the end).
    quint64 checksum()
    {
        if (m_blockFill > 0)
            endBlock();
        return XXH3_64bits(m_digests.data(), m_digests.size() * sizeof(quint64));
    }

    template <typename T> void array(ColumnView<T> v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        pod(static_cast<quint64>(v.size()));
        align();
        if (!v.empty())
            bytes.append(reinterpret_cast<const char*>(v.data()),
                static_cast<qsizetype>(v.size()) * static_cast<qsizetype>(sizeof(T)));
        align();
    }
    template <typename T> void array(const std::vector<T>& v) { array(ColumnView<T>(v)); }
    /// Calls, subrs or incl, stored as doubles whatever the row store keeps (the layout of array<double>).
    template <typename View> void counts(const View& v)
    {
        pod(static_cast<quint64>(v.size()));
        align();
        for (std::size_t i = 0; i < v.size(); ++i)
            pod(v[i]);
        align();
    }
    void str(const QString& s)
    {
        pod(static_cast<qint64>(s.isNull() ? -1 : s.size()));
        bytes.append(reinterpret_cast<const char*>(s.utf16()), s.size() * 2);
        align();
    }
    void strings(const QStringList& list)
    {
        pod(static_cast<quint64>(list.size()));
        for (const QString& s : list)
            str(s);
    }

private:
    void endBlock()
    {
        m_digests.push_back(XXH3_64bits_digest(m_state.get()));
        XXH3_64bits_reset(m_state.get());
        m_blockFill = 0;
    }

    QIODevice& m_device;
    quint64 m_written = 0;
    std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> m_state { XXH3_createState(), &XXH3_freeState };
    qint64 m_blockFill = 0;
    std::vector<quint64> m_digests;
};

class In {
public:
    In(const char* data, qint64 size)
        : m_data(data)
        , m_size(size)
    {
    }
    const char* take(qint64 n)
    {
        if (n < 0 || n > m_size - m_pos)
            throw Corrupt("payload ends early");
        const char* p = m_data + m_pos;
        m_pos += n;
        return p;
    }
    template <typename T> T pod()
    {
        T v;
        std::memcpy(&v, take(sizeof(T)), sizeof(T));
        return v;
    }
    void align() { take((8 - m_pos % 8) % 8); }
    /// Skips to the payload offset whose file offset is a multiple of `alignment` (Out::alignFile).
    void alignFile(qint64 alignment)
    {
        const qint64 at = HeaderSize + m_pos;
        take((alignment - at % alignment) % alignment);
    }
    quint64 count(quint64 elementSize)
    {
        const auto n = pod<quint64>();
        if (elementSize > 0 && n > static_cast<quint64>(m_size - m_pos) / elementSize)
            throw Corrupt("element count beyond the payload");
        return n;
    }
    template <typename T> std::vector<T> array()
    {
        const quint64 n = count(sizeof(T));
        align();
        std::vector<T> v(n);
        if (n > 0)
            std::memcpy(v.data(), take(static_cast<qint64>(n * sizeof(T))), n * sizeof(T));
        align();
        return v;
    }
    /// An array in place: a view into the payload (8-byte aligned, see deserialize), no copy.
    template <typename T> ColumnView<T> view()
    {
        const quint64 n = count(sizeof(T));
        align();
        const char* p = take(static_cast<qint64>(n * sizeof(T)));
        align();
        return ColumnView<T>(reinterpret_cast<const T*>(p), n);
    }
    QString str()
    {
        const auto n = pod<qint64>();
        if (n < -1 || n > (m_size - m_pos) / 2)
            throw Corrupt("string length beyond the payload");
        QString s;
        if (n >= 0)
            s = QString(reinterpret_cast<const QChar*>(take(n * 2)), static_cast<qsizetype>(n));
        align();
        return s;
    }
    QStringList strings()
    {
        const quint64 n = count(8);
        QStringList list;
        list.reserve(static_cast<qsizetype>(n));
        for (quint64 i = 0; i < n; ++i)
            list << str();
        return list;
    }
    bool atEnd() const { return m_pos == m_size; }

private:
    const char* m_data;
    qint64 m_size;
    qint64 m_pos = 0;
};

// Rows are written only through Trial::row (a RowView), so the cache does not depend on how the
// row store keeps them.
void writeRow(Out& out, const RowView& r)
{
    out.array(r.events);
    out.counts(r.calls);
    out.counts(r.subrs);
    out.array(r.excl);
    out.counts(r.incl);
    out.array(r.exclSqr);
}

IntervalRow readRow(In& in, std::size_t metrics)
{
    IntervalRow r;
    r.events = in.array<EventId>();
    for (auto* c : { &r.calls, &r.subrs, &r.excl, &r.incl, &r.exclSqr })
        *c = in.array<double>();
    const std::size_t n = r.events.size();
    if (r.calls.size() != n || r.subrs.size() != n || r.excl.size() != n * metrics || r.incl.size() != n * metrics
        || (!r.exclSqr.empty() && r.exclSqr.size() != n * metrics))
        throw Corrupt("interval row columns disagree");
    return r;
}

std::size_t align8(std::size_t n) { return (n + 7) & ~std::size_t { 7 }; }

/// The interval rows in the row store's own layout (docs/FORMATS.md §13): the slot table, the size
/// of the chunk region, zero bytes up to a file offset that is a multiple of RegionAlign, then the
/// region: each distinct event list once, each row's value block, all 8-byte aligned.
void writeRows(Out& out, const RowStore& rows)
{
    std::vector<DiskSlot> table(rows.rowCount());
    std::vector<std::pair<const void*, std::size_t>> pieces; // in region order
    std::unordered_map<const EventId*, std::pair<quint64, quint32>> lists; // offset and size of a list
    quint64 at = 0;
    auto place = [&](const void* p, std::size_t n) {
        pieces.emplace_back(p, n);
        const quint64 offset = at;
        at += align8(n);
        return offset;
    };
    for (std::size_t i = 0; i < table.size(); ++i) {
        const RowStore::Slot& s = rows.slot(i);
        if (s.size == 0)
            continue;
        DiskSlot& d = table[i];
        d.size = s.size;
        d.metrics = s.metrics;
        d.patches = s.patches;
        d.flags = s.flags;
        const auto it = lists.find(s.events);
        if (it != lists.end() && it->second.second == s.size) {
            d.events = it->second.first;
        } else {
            d.events = place(s.events, s.size * sizeof(EventId));
            lists[s.events] = { d.events, s.size };
        }
        d.values = place(s.values, s.valueBytes());
    }
    out.array(table);
    out.pod(at);
    out.alignFile(RegionAlign);
    for (const auto& [p, n] : pieces) {
        out.raw(p, n);
        out.align();
        out.maybeFlush();
    }
}

/// The slots of writeRows pointing into the region in place, each checked against the region's
/// bounds and the model's invariants (event ids in range, sorted, none twice; a sparse inclusive
/// column whose bitmap, ranks and patch count agree). A list shared by many rows is checked once.
std::vector<RowStore::Slot> readRows(
    In& in, std::size_t threads, std::size_t metrics, std::size_t events, quint64* regionBytes)
{
    const ColumnView<DiskSlot> table = in.view<DiskSlot>();
    if (table.size() != threads)
        throw Corrupt("slot table size differs from the threads");
    const auto bytes = in.pod<quint64>();
    in.alignFile(RegionAlign);
    // Read-only memory: the slots' pointers are not const only because a reader fills its own.
    auto* region = reinterpret_cast<std::byte*>(const_cast<char*>(in.take(static_cast<qint64>(bytes))));
    *regionBytes = bytes;
    std::vector<RowStore::Slot> placed(threads);
    std::unordered_map<quint64, quint32> checked; // a list's offset -> the longest prefix checked
    for (std::size_t i = 0; i < threads; ++i) {
        const DiskSlot& d = table[i];
        if (d.size == 0)
            continue;
        if (d.metrics != metrics || (d.flags & ~quint32 { 7 }) != 0 || d.events % 8 != 0 || d.values % 8 != 0)
            throw Corrupt("row slot malformed");
        if (d.size > bytes / sizeof(EventId) || d.events > bytes - d.size * sizeof(EventId))
            throw Corrupt("row events outside the region");
        RowStore::Slot s;
        s.size = d.size;
        s.metrics = d.metrics;
        s.patches = d.patches;
        s.flags = static_cast<std::uint8_t>(d.flags);
        const quint64 cells = quint64 { d.metrics } * d.size;
        if (cells > bytes / sizeof(double) || (s.sparseIncl() ? d.patches > cells : d.patches != 0))
            throw Corrupt("row slot malformed");
        if (d.values > bytes || s.valueBytes() > bytes - d.values)
            throw Corrupt("row values outside the region");
        s.events = reinterpret_cast<EventId*>(region + d.events);
        s.values = region + d.values;
        quint32& longest = checked[d.events];
        if (d.size > longest) {
            for (std::size_t k = 0; k < d.size; ++k)
                if (s.events[k].index() >= events || (k > 0 && !(s.events[k - 1] < s.events[k])))
                    throw Corrupt(
                        s.events[k].index() >= events ? "id out of range" : "interval row cells out of order");
            longest = d.size;
        }
        if (!s.wellFormed())
            throw Corrupt("sparse inclusive column malformed");
        placed[i] = s;
    }
    return placed;
}

void writeAtomicRow(Out& out, const AtomicRow& r)
{
    out.array(r.events);
    for (const auto* c : { &r.count, &r.max, &r.min, &r.mean, &r.sumSquares, &r.stdDev })
        out.array(*c);
}

AtomicRow readAtomicRow(In& in)
{
    AtomicRow r;
    r.events = in.array<AtomicEventId>();
    for (auto* c : { &r.count, &r.max, &r.min, &r.mean, &r.sumSquares, &r.stdDev })
        *c = in.array<double>();
    const std::size_t n = r.events.size();
    for (const auto* c : { &r.count, &r.max, &r.min, &r.mean, &r.sumSquares })
        if (c->size() != n)
            throw Corrupt("atomic row columns disagree");
    if (!r.stdDev.empty() && r.stdDev.size() != n)
        throw Corrupt("atomic row columns disagree");
    return r;
}

template <typename Id> void checkIds(const std::vector<Id>& ids, std::size_t limit, bool allowInvalid = false)
{
    for (const Id id : ids)
        if (!(allowInvalid && !id.isValid()) && id.index() >= limit)
            throw Corrupt("id out of range");
}

template <typename Row> void checkRow(const Row& r, std::size_t events)
{
    for (const EventId id : r.events)
        if (id.index() >= events)
            throw Corrupt("id out of range");
    // The model's invariant (Trial::row, RowView::find): cells sorted by event, no event twice.
    for (std::size_t k = 1; k < r.events.size(); ++k)
        if (!(r.events[k - 1] < r.events[k]))
            throw Corrupt("interval row cells out of order");
}
void checkAtomicRow(const AtomicRow& r, std::size_t events) { checkIds(r.events, events); }

qint64 envBytes(const char* name, qint64 fallback)
{
    bool ok = false;
    const qint64 v = qEnvironmentVariable(name).toLongLong(&ok);
    return ok && v >= 0 ? v : fallback;
}

/// One file of a source directory (sourceKey).
struct SourceFile {
    QString path; // relative
    QByteArray name; // the relative path as the file system spells it
    qint64 size = 0;
    qint64 mtimeMs = 0;
};

/// Every file below the directory `dir` as QDirIterator with QDir::Files | QDir::Hidden and
/// Subdirectories lists them: regular files and symbolic links to them (statFiles drops the other
/// links), hidden ones too, without following links into directories. Closes the subdirectories
/// it opens (so a deep tree needs no more descriptors than its depth), not `dir`.
void listFiles(DIR* dir, const QByteArray& prefix, std::vector<SourceFile>& out)
{
    while (const dirent* e = readdir(dir)) {
        const char* name = e->d_name;
        if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0)
            continue;
        unsigned char type = e->d_type;
        if (type == DT_UNKNOWN) {
            struct stat st { };
            if (fstatat(dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue;
            type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK : DT_REG;
        }
        if (type == DT_DIR) {
            const int sub = openat(dirfd(dir), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            DIR* subdir = sub >= 0 ? fdopendir(sub) : nullptr;
            if (subdir) {
                listFiles(subdir, prefix + name + '/', out);
                closedir(subdir);
            } else if (sub >= 0) {
                close(sub);
            }
        } else if (type == DT_REG || type == DT_LNK) {
            const QByteArray path = prefix + name;
            out.push_back({ QFile::decodeName(path), path, 0, -1 });
        }
    }
}

/// Size and mtime of every file, one stat each, on every core (a 131,072-file trial spends most of
/// its key there); a file that is no regular file (a link to anything else) or that vanished keeps
/// mtimeMs -1 and is dropped. Paths are relative to the directory `root`.
void statFiles(int root, std::vector<SourceFile>& files)
{
    constexpr std::size_t Batch = 4096;
    std::vector<std::size_t> batches((files.size() + Batch - 1) / Batch);
    std::iota(batches.begin(), batches.end(), std::size_t { 0 });
    auto statBatch = [&](std::size_t b) {
        for (std::size_t i = b * Batch; i < std::min(files.size(), (b + 1) * Batch); ++i) {
            SourceFile& f = files[i];
            struct stat st { };
            if (fstatat(root, f.name.constData(), &st, 0) != 0 || !S_ISREG(st.st_mode))
                continue;
            f.size = static_cast<qint64>(st.st_size);
            f.mtimeMs = static_cast<qint64>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
        }
    };
    if (batches.size() <= 1)
        std::for_each(batches.begin(), batches.end(), statBatch);
    else
        waitInPool([&] { QtConcurrent::blockingMap(batches, statBatch); });
    std::erase_if(files, [](const SourceFile& f) { return f.mtimeMs < 0; });
}

void evict(const QString& dir, qint64 limit)
{
    QFileInfoList entries = QDir(dir).entryInfoList({ QStringLiteral("*.pxc") }, QDir::Files, QDir::Time);
    qint64 total = 0;
    for (const QFileInfo& e : entries) { // newest first
        total += e.size();
        if (total > limit)
            QFile::remove(e.absoluteFilePath());
    }
}

} // namespace

QString TrialCache::directory()
{
    QString own = qEnvironmentVariable("PARALLAX_CACHE_DIR");
    if (!own.isEmpty())
        return own;
    QString base = qEnvironmentVariable("XDG_CACHE_HOME");
    if (base.isEmpty())
        base = QDir::homePath() + QStringLiteral("/.cache");
    return base + QStringLiteral("/parallax");
}

bool TrialCache::enabledByEnvironment()
{
    const QString v = qEnvironmentVariable("PARALLAX_NO_CACHE");
    return v.isEmpty() || v == QLatin1String("0");
}

qint64 TrialCache::minimumSourceBytes() { return envBytes("PARALLAX_CACHE_MIN_BYTES", qint64(32) << 20); }

QByteArray TrialCache::sourceKey(const QString& path, const QString& reader, const QString& options, qint64* totalBytes)
{
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath();
    QByteArray key = QStringLiteral("v%1\n%2\n%3\n%4\n").arg(FormatVersion).arg(canonical, reader, options).toUtf8();
    qint64 total = 0;
    auto addFile = [&](const QFileInfo& f, const QString& rel) {
        key += QStringLiteral("%1\t%2\t%3\n").arg(rel).arg(f.size()).arg(f.lastModified().toMSecsSinceEpoch()).toUtf8();
        total += f.size();
    };
    if (info.isDir()) {
        std::vector<SourceFile> files;
        const int fd = open(QFile::encodeName(canonical).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (DIR* dir = fd >= 0 ? fdopendir(fd) : nullptr) {
            listFiles(dir, QByteArray(), files);
            statFiles(dirfd(dir), files);
            closedir(dir);
        } else if (fd >= 0) {
            close(fd);
        }
        std::sort(files.begin(), files.end(), [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
        for (const SourceFile& f : files) {
            key += f.path.toUtf8();
            key += '\t' + QByteArray::number(f.size) + '\t' + QByteArray::number(f.mtimeMs) + '\n';
            total += f.size;
        }
    } else {
        addFile(info, QString());
    }
    if (totalBytes)
        *totalBytes = total;
    return key;
}

QString TrialCache::entryPath(const QByteArray& key)
{
    return directory() + QLatin1Char('/')
        + QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(40))
        + QStringLiteral(".pxc");
}

QByteArray TrialCache::serialize(const Trial& t, const QByteArray& key)
{
    QByteArray file;
    QBuffer buffer(&file);
    buffer.open(QIODevice::ReadWrite);
    writeEntry(t, key, buffer);
    return file;
}

void TrialCache::writeEntry(const Trial& t, const QByteArray& key, QIODevice& device)
{
    // The header's size and checksum are known at the end: a blank header first, the real one after.
    const QByteArray blank(HeaderSize, '\0');
    if (device.write(blank) != blank.size())
        throw WriteFailure { device.errorString() };
    Out out(device);
    out.array(std::vector<char>(key.begin(), key.end()));
    out.str(t.m_name);
    const Provenance& p = t.m_provenance;
    out.str(p.operation);
    out.str(p.source);
    out.str(p.reader);
    out.strings(p.operands);
    out.strings(p.options);
    out.pod(static_cast<quint64>(t.m_metrics.size()));
    for (const Metric& m : t.m_metrics) {
        out.str(m.name);
        out.str(m.unit);
        out.str(m.expression);
        out.pod(static_cast<quint32>((m.derived ? 1 : 0) | (m.higherIsBetter ? 2 : 0)));
    }
    out.array(t.m_threads);
    out.pod(static_cast<quint64>(t.m_events.size()));
    for (const IntervalEvent& e : t.m_events) {
        out.str(e.name);
        out.str(e.rawName);
        out.array(e.groups);
        out.pod(static_cast<qint32>(e.depth));
        out.pod(e.parent);
        out.pod(e.leaf);
    }
    out.pod(static_cast<quint64>(t.m_sourceLocations.size())); // 0 or one per event
    for (const SourceLocation& l : t.m_sourceLocations) {
        out.str(l.file);
        for (const int n : { l.beginLine, l.beginColumn, l.endLine, l.endColumn })
            out.pod(static_cast<qint32>(n));
    }
    writeRows(out, t.m_rows);
    out.pod(static_cast<quint64>(t.m_atomicEvents.size()));
    for (const AtomicEvent& e : t.m_atomicEvents) {
        out.str(e.name);
        out.str(e.rawName);
        out.str(e.baseName);
        out.str(e.context);
    }
    for (const AtomicRow& r : t.m_atomicRows) {
        writeAtomicRow(out, r);
        out.maybeFlush();
    }
    out.array(t.m_pooledAtomicCells.cells());
    out.strings(QStringList(t.m_groups.begin(), t.m_groups.end()));
    QStringList pool;
    for (std::size_t i = 0; i < t.m_strings.size(); ++i)
        pool << t.m_strings.get(StringId(i));
    out.strings(pool);
    out.array(t.m_metadata);
    out.pod(static_cast<quint64>(t.m_threadMetadata.size()));
    for (const auto& md : t.m_threadMetadata)
        out.array(md);
    out.strings(t.m_warnings);
    out.pod(static_cast<quint64>(t.m_providedStatistics.size()));
    for (const ProvidedStatistic& s : t.m_providedStatistics) {
        out.str(s.name);
        out.pod(static_cast<qint32>(s.derivedId));
        writeRow(out, s.row);
        writeAtomicRow(out, s.atomicRow);
    }
    out.pod(static_cast<quint64>(t.m_timeSeries.size()));
    for (const auto& series : t.m_timeSeries) {
        out.pod(static_cast<quint64>(series.size()));
        for (const ProfileSnapshot& s : series) {
            out.str(s.name);
            out.pod(s.timestamp);
            writeRow(out, s.row);
            writeAtomicRow(out, s.atomicRow);
        }
    }
    out.align();
    out.flush();

    QByteArray header(HeaderSize, '\0');
    char* h = header.data();
    std::memcpy(h, Magic, 8);
    std::memcpy(h + 8, &FormatVersion, 4);
    std::memcpy(h + 12, &EndianMark, 4);
    const quint64 size = out.written();
    std::memcpy(h + 16, &size, 8);
    const quint64 sum = out.checksum();
    std::memcpy(h + 24, &sum, 8);
    if (!device.seek(0) || device.write(header) != header.size())
        throw WriteFailure { device.errorString() };
}

quint64 TrialCache::checksum(const char* payload, qint64 size) { return checksumOf(payload, size); }

std::shared_ptr<Trial> TrialCache::deserialize(const QByteArray& data, const QByteArray& key, QString* error)
{
    // The trial keeps its rows in the file's bytes: an aligned copy of them that it owns.
    std::shared_ptr<quint64[]> copy(new quint64[static_cast<std::size_t>(data.size()) / 8 + 1]);
    if (!data.isEmpty())
        std::memcpy(copy.get(), data.constData(), static_cast<std::size_t>(data.size()));
    return decode(reinterpret_cast<const char*>(copy.get()), data.size(), copy, key, error, false);
}

std::shared_ptr<Trial> TrialCache::decode(const char* h, qint64 fileSize, const std::shared_ptr<const void>& owner,
    const QByteArray& key, QString* error, bool mapped)
{
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return std::shared_ptr<Trial>();
    };
    if (fileSize < HeaderSize)
        return fail(QStringLiteral("shorter than the header"));
    if (std::memcmp(h, Magic, 8) != 0)
        return fail(QStringLiteral("wrong magic"));
    quint32 version = 0;
    quint32 endian = 0;
    quint64 size = 0;
    quint64 sum = 0;
    std::memcpy(&version, h + 8, 4);
    std::memcpy(&endian, h + 12, 4);
    std::memcpy(&size, h + 16, 8);
    std::memcpy(&sum, h + 24, 8);
    if (endian != EndianMark)
        return fail(QStringLiteral("written on a machine of other endianness"));
    if (version != FormatVersion)
        return fail(QStringLiteral("format version %1, expected %2").arg(version).arg(FormatVersion));
    if (size != static_cast<quint64>(fileSize - HeaderSize))
        return fail(QStringLiteral("size %1 does not match the header's %2").arg(fileSize - HeaderSize).arg(size));
    // Everything is verified before any of it is used, the rows read in place included.
    const char* payload = h + HeaderSize;
    if (checksumOf(payload, static_cast<qint64>(size), mapped) != sum)
        return fail(QStringLiteral("checksum mismatch"));
    try {
        In in(payload, static_cast<qint64>(size));
        const auto storedKey = in.array<char>();
        if (QByteArray(storedKey.data(), static_cast<qsizetype>(storedKey.size())) != key)
            throw Corrupt("written for another source");
        auto t = std::make_shared<Trial>();
        t->m_name = in.str();
        Provenance& p = t->m_provenance;
        p.operation = in.str();
        p.source = in.str();
        p.reader = in.str();
        p.operands = in.strings();
        p.options = in.strings();
        const quint64 metrics = in.count(8);
        for (quint64 i = 0; i < metrics; ++i) {
            Metric m;
            m.name = in.str();
            m.unit = in.str();
            m.expression = in.str();
            const auto flags = in.pod<quint32>();
            m.derived = (flags & 1) != 0;
            m.higherIsBetter = (flags & 2) != 0;
            t->m_metrics.push_back(std::move(m));
        }
        t->m_threads = in.array<ThreadKey>();
        const quint64 events = in.count(8);
        for (quint64 i = 0; i < events; ++i) {
            IntervalEvent e;
            e.name = in.str();
            e.rawName = in.str();
            e.groups = in.array<GroupId>();
            e.depth = in.pod<qint32>();
            e.parent = in.pod<EventId>();
            e.leaf = in.pod<EventId>();
            t->m_eventIndex.insert(e.name, EventId(t->m_events.size()));
            t->m_events.push_back(std::move(e));
        }
        const quint64 locations = in.count(24);
        if (locations != 0 && locations != events)
            throw Corrupt("source locations for some events only");
        t->m_sourceLocations.resize(locations);
        for (SourceLocation& l : t->m_sourceLocations) {
            l.file = in.str();
            for (int* n : { &l.beginLine, &l.beginColumn, &l.endLine, &l.endColumn })
                *n = in.pod<qint32>();
        }
        const std::size_t threads = t->m_threads.size();
        quint64 regionBytes = 0;
        const std::vector<RowStore::Slot> rowSlots = readRows(in, threads, metrics, events, &regionBytes);
        adoptRows(*t, owner, regionBytes, rowSlots);
        const quint64 atomics = in.count(8);
        for (quint64 i = 0; i < atomics; ++i) {
            AtomicEvent e;
            e.name = in.str();
            e.rawName = in.str();
            e.baseName = in.str();
            e.context = in.str();
            t->m_atomicIndex.insert(e.name, AtomicEventId(t->m_atomicEvents.size()));
            t->m_atomicEvents.push_back(std::move(e));
        }
        t->m_atomicRows.reserve(threads);
        for (std::size_t i = 0; i < threads; ++i) {
            t->m_atomicRows.push_back(readAtomicRow(in));
            checkAtomicRow(t->m_atomicRows.back(), atomics);
        }
        auto pooled = in.array<PooledAtomicCell>();
        for (const PooledAtomicCell& c : pooled)
            if (c.thread.index() >= threads || c.event.index() >= atomics)
                throw Corrupt("pooled cell out of range");
        t->m_pooledAtomicCells = PooledAtomicCells(std::move(pooled));
        const QStringList groups = in.strings();
        t->m_groups.assign(groups.begin(), groups.end());
        for (const IntervalEvent& e : t->m_events) {
            checkIds(e.groups, groups.size());
            if ((e.parent.isValid() && e.parent.index() >= events) || (e.leaf.isValid() && e.leaf.index() >= events))
                throw Corrupt("event link out of range");
        }
        const QStringList pool = in.strings();
        for (const QString& s : pool)
            if (t->m_strings.intern(s).index() + 1 != t->m_strings.size())
                throw Corrupt("string pool holds a duplicate");
        t->m_metadata = in.array<MetadataEntry>();
        auto checkMetadata = [&](const std::vector<MetadataEntry>& md) {
            for (const MetadataEntry& m : md)
                if (m.key.index() >= pool.size() || m.value.index() >= pool.size())
                    throw Corrupt("metadata string out of range");
        };
        checkMetadata(t->m_metadata);
        const quint64 threadMetadata = in.count(8);
        for (quint64 i = 0; i < threadMetadata; ++i) {
            t->m_threadMetadata.push_back(in.array<MetadataEntry>());
            checkMetadata(t->m_threadMetadata.back());
        }
        if (threadMetadata != 0 && threadMetadata != threads)
            throw Corrupt("per-thread metadata count differs from the threads");
        t->m_warnings = in.strings();
        const quint64 stats = in.count(8);
        for (quint64 i = 0; i < stats; ++i) {
            ProvidedStatistic s;
            s.name = in.str();
            s.derivedId = in.pod<qint32>();
            s.row = readRow(in, metrics);
            checkRow(s.row, events);
            s.atomicRow = readAtomicRow(in);
            checkAtomicRow(s.atomicRow, atomics);
            t->m_providedStatistics.push_back(std::move(s));
        }
        const quint64 series = in.count(8);
        if (series != 0 && series != threads)
            throw Corrupt("time series count differs from the threads");
        for (quint64 i = 0; i < series; ++i) {
            const quint64 n = in.count(8);
            std::vector<ProfileSnapshot> snaps;
            for (quint64 j = 0; j < n; ++j) {
                ProfileSnapshot s;
                s.name = in.str();
                s.timestamp = in.pod<qint64>();
                s.row = readRow(in, metrics);
                checkRow(s.row, events);
                s.atomicRow = readAtomicRow(in);
                checkAtomicRow(s.atomicRow, atomics);
                snaps.push_back(std::move(s));
            }
            t->m_timeSeries.push_back(std::move(snaps));
        }
        in.align();
        if (!in.atEnd())
            throw Corrupt("trailing bytes after the trial");
        return t;
    } catch (const Corrupt& c) {
        return fail(QString::fromUtf8(c.what()));
    } catch (const std::bad_alloc&) {
        return fail(QStringLiteral("out of memory"));
    }
}

void TrialCache::adoptRows(Trial& trial, const std::shared_ptr<const void>& owner, std::size_t bytes,
    const std::vector<RowStore::Slot>& rowSlots)
{
    trial.m_rows.reserve(rowSlots.size());
    trial.m_rows.adoptMemory(owner, bytes);
    for (const RowStore::Slot& slot : rowSlots)
        trial.m_rows.push(slot);
}

void TrialCache::addWarning(Trial& trial, const QString& warning) { trial.m_warnings << warning; }

std::shared_ptr<Trial> TrialCache::load(const QByteArray& key, QString* discarded)
{
    const QString file = entryPath(key);
    const QFileInfo info(file);
    if (!info.exists() && !info.isSymLink())
        return nullptr;
    QString error;
    std::shared_ptr<Trial> trial;
    QFile f(file);
    if (!info.isFile() || !f.open(QIODevice::ReadOnly)) {
        error = QStringLiteral("not a readable file");
    } else {
        // The trial's rows stay in the mapping (read-only, shared with the page cache), which
        // lives as long as they do; the file may be removed or replaced meanwhile.
        const qint64 size = f.size();
        void* mapped = size > 0 ? mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED, f.handle(), 0)
                                : MAP_FAILED;
        if (mapped != MAP_FAILED) {
            const std::shared_ptr<const void> mapping(
                mapped, [size](const void* p) { munmap(const_cast<void*>(p), static_cast<std::size_t>(size)); });
            trial = decode(static_cast<const char*>(mapped), size, mapping, key, &error, true);
        } else {
            trial = deserialize(f.readAll(), key, &error);
        }
    }
    if (trial)
        trial->m_fromCache = true;
    if (!trial) {
        qWarning("parallax: discarding the trial cache entry %s: %s", qPrintable(file), qPrintable(error));
        if (discarded)
            *discarded
                = QStringLiteral("A damaged trial cache entry (%1: %2) was discarded and the profile parsed again.")
                      .arg(QDir::toNativeSeparators(file), error);
        if (info.isDir())
            QDir(file).removeRecursively();
        else
            QFile::remove(file);
    }
    return trial;
}

void TrialCache::store(const Trial& trial, const QByteArray& key)
{
    const QString dir = directory();
    if (!QDir().mkpath(dir)) {
        qWarning("parallax: cannot create the trial cache directory %s", qPrintable(dir));
        return;
    }
    const QString file = entryPath(key);
    if (QFileInfo(file).isDir())
        QDir(file).removeRecursively();
    const QString error = writeSaved(file, [&](QSaveFile& out) { writeEntry(trial, key, out); });
    if (!error.isEmpty())
        qWarning("parallax: cannot write the trial cache: %s", qPrintable(error));
    evict(dir, envBytes("PARALLAX_CACHE_MAX_BYTES", qint64(4) << 30));
}

namespace {

/// The stores that storeInBackground() has started and that have not finished yet.
struct PendingStores {
    std::mutex mutex;
    std::condition_variable done;
    int running = 0;
};

PendingStores& pendingStores()
{
    static PendingStores pending;
    // Registered after `pending` exists, so it runs before its destructor: a process that returns
    // from main() while an entry is being written waits for it instead of tearing the cache down
    // under the writing thread.
    static const bool registered = std::atexit([] { TrialCache::waitForPendingStores(); }) == 0;
    Q_UNUSED(registered);
    return pending;
}

} // namespace

void TrialCache::storeInBackground(std::shared_ptr<const Trial> trial, const QByteArray& key)
{
    PendingStores& pending = pendingStores();
    {
        const std::lock_guard lock(pending.mutex);
        ++pending.running;
    }
    std::thread([trial = std::move(trial), key, &pending]() mutable {
        // Linux gives each thread its own nice value: the writer yields the cores to the views
        // that are drawing the trial it writes.
        setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
        store(*trial, key);
        trial.reset();
        const std::lock_guard lock(pending.mutex);
        --pending.running;
        pending.done.notify_all();
    }).detach();
}

void TrialCache::waitForPendingStores()
{
    PendingStores& pending = pendingStores();
    std::unique_lock lock(pending.mutex);
    pending.done.wait(lock, [&] { return pending.running == 0; });
}

} // namespace parallax
