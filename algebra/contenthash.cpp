// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/contenthash.h"

#include "algebra/parallelfor.h"

#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>
#include <xxhash.h>

namespace parallax {

namespace {

// The content hash recorded in provenance before 0.x noted its algorithm (no
// "content_hash_algorithm=" option): Parallax's own mixer (a splitmix64 finaliser over FNV-1a'd
// strings and four multiply-rotate lanes). Kept only so that those recorded hashes still compare
// (contentHashMatches); new hashes are XXH3-64 (xxh3ContentHash below).
std::uint64_t mix(std::uint64_t h, std::uint64_t w)
{
    std::uint64_t z = h ^ (w + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint64_t mixString(std::uint64_t h, const QString& s)
{
    std::uint64_t f = 0xcbf29ce484222325ull;
    for (const QChar c : s)
        f = (f ^ c.unicode()) * 0x100000001b3ull;
    return mix(h, f ^ static_cast<std::uint64_t>(s.size()));
}

/// Hashes arrays with four independent multiply-rotate lanes (fast: no long dependency chain).
class Lanes {
public:
    explicit Lanes(std::uint64_t seed)
        : m_h { seed, seed ^ 0x243F6A8885A308D3ull, seed ^ 0x13198A2E03707344ull, seed ^ 0xA4093822299F31D0ull }
    {
    }
    template <typename T> void add(ColumnView<T> values)
    {
        static_assert(sizeof(T) == 8 || sizeof(T) == 4);
        const std::size_t n = values.size();
        std::size_t i = 0;
        for (; i + 4 <= n; i += 4)
            for (std::size_t j = 0; j < 4; ++j)
                m_h[j] = step(m_h[j], word(values[i + j]));
        for (; i < n; ++i)
            m_h[0] = step(m_h[0], word(values[i]));
        m_h[1] = step(m_h[1], n);
    }
    void add(std::uint64_t w) { m_h[2] = step(m_h[2], w); }
    std::uint64_t finish() const { return mix(mix(mix(m_h[0], m_h[1]), m_h[2]), m_h[3]); }

private:
    static std::uint64_t step(std::uint64_t h, std::uint64_t w)
    {
        return std::rotl((h ^ w) * 0x9FB21C651E98DF25ull, 29);
    }
    template <typename T> static std::uint64_t word(const T& v)
    {
        if constexpr (sizeof(T) == 8) {
            std::uint64_t w;
            std::memcpy(&w, &v, 8);
            return w;
        } else {
            std::uint32_t w;
            std::memcpy(&w, &v, 4);
            return w;
        }
    }
    std::uint64_t m_h[4];
};

/// Every column of one thread's interval and atomic rows that the content hash covers, in the order
/// both algorithms hash them: the event ids, then the values.
template <typename Hash> void forEachColumn(const Trial& t, std::size_t i, Hash hash)
{
    const RowView row = t.row(ThreadIndex(i));
    hash(row.events);
    // Counts and inclusive values are hashed as the doubles they read as, however the trial stores them.
    thread_local std::vector<double> values;
    auto hashValues = [&](const auto& column) {
        values.resize(column.size());
        column.copyTo(values.data());
        hash(values);
    };
    hashValues(row.calls);
    hashValues(row.subrs);
    hash(row.excl);
    hashValues(row.incl);
    const AtomicRow& a = t.atomicRow(ThreadIndex(i));
    hash(a.events);
    for (const auto* column : { &a.count, &a.max, &a.min, &a.mean, &a.sumSquares, &a.stdDev })
        hash(*column);
}

/// The part of the content hash that covers one thread: its key, interval and atomic rows and
/// per-thread metadata.
std::uint64_t legacyThreadHash(const Trial& t, std::size_t i)
{
    const ThreadKey& k = t.threadKey(ThreadIndex(i));
    Lanes lanes(mix(mix(mix(0, static_cast<std::uint64_t>(k.node)), static_cast<std::uint64_t>(k.context)),
        static_cast<std::uint64_t>(k.thread)));
    forEachColumn(t, i, [&](const auto& column) { lanes.add(ColumnView(column)); });
    std::uint64_t r = lanes.finish();
    for (const MetadataEntry& e : t.threadMetadata(ThreadIndex(i)))
        r = mixString(mixString(r, t.strings().get(e.key)), t.strings().get(e.value));
    return r;
}

/// The whole legacy hash from the per-thread parts.
std::uint64_t legacyFinish(const Trial& t, const std::vector<std::uint64_t>& threadHashes)
{
    std::uint64_t h = 0x5041524c4c4158ull; // "PARLLAX"
    for (const Metric& m : t.metrics())
        h = mixString(mixString(h, m.name), m.unit);
    for (const IntervalEvent& e : t.events()) {
        h = mixString(h, e.name);
        for (GroupId g : e.groups)
            h = mixString(h, t.groupName(g));
    }
    for (const AtomicEvent& e : t.atomicEvents())
        h = mixString(h, e.name);
    for (const MetadataEntry& e : t.metadata())
        h = mixString(mixString(h, t.strings().get(e.key)), t.strings().get(e.value));
    for (std::uint64_t r : threadHashes)
        h = mix(h, r);
    return h;
}

struct ContentHash {
    QString hex;
};

struct LegacyContentHash {
    QString hex;
};

QString hex64(std::uint64_t h) { return QStringLiteral("%1").arg(h, 16, 16, QLatin1Char('0')); }

/// Feeds values to one XXH3-64 state: every item is its length (8 bytes) then its bytes, so no two
/// different sequences of items feed the same bytes.
class Xxh3 {
public:
    Xxh3()
        : m_state(XXH3_createState())
    {
        if (!m_state)
            throw std::bad_alloc();
        XXH3_64bits_reset(m_state);
    }
    ~Xxh3() { XXH3_freeState(m_state); }
    Xxh3(const Xxh3&) = delete;
    Xxh3& operator=(const Xxh3&) = delete;

    void bytes(const void* data, std::size_t size)
    {
        const std::uint64_t n = size;
        XXH3_64bits_update(m_state, &n, sizeof n);
        XXH3_64bits_update(m_state, data, size);
    }
    void u64(std::uint64_t v) { XXH3_64bits_update(m_state, &v, sizeof v); }
    void string(const QString& s) { bytes(s.utf16(), static_cast<std::size_t>(s.size()) * sizeof(char16_t)); }
    template <typename T> void column(ColumnView<T> values)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(values.data(), values.size() * sizeof(T));
    }
    std::uint64_t digest() const { return XXH3_64bits_digest(m_state); }

private:
    XXH3_state_t* m_state;
};

/// One thread's part of the content hash: XXH3-64 of its key (node, context, thread as 64-bit
/// integers), its interval columns (event ids, calls, subrs, excl, incl), its atomic columns (event
/// ids, count, max, min, mean, sum of squares, sd) and its metadata (key, value) strings.
std::uint64_t xxh3ThreadHash(const Trial& t, std::size_t i)
{
    Xxh3 h;
    const ThreadKey& k = t.threadKey(ThreadIndex(i));
    h.u64(static_cast<std::uint64_t>(k.node));
    h.u64(static_cast<std::uint64_t>(k.context));
    h.u64(static_cast<std::uint64_t>(k.thread));
    forEachColumn(t, i, [&](const auto& column) { h.column(ColumnView(column)); });
    const auto& metadata = t.threadMetadata(ThreadIndex(i));
    h.u64(metadata.size());
    for (const MetadataEntry& e : metadata) {
        h.string(t.strings().get(e.key));
        h.string(t.strings().get(e.value));
    }
    return h.digest();
}

/// The whole content hash: XXH3-64 of the metric (name, unit) pairs, the interval events (name,
/// group names), the atomic event names, the trial metadata (key, value) pairs, each list preceded
/// by its length, then the threads' XXH3-64 digests in thread order. Numbers are fed as their
/// little-endian bytes (the only byte order Parallax builds for), strings as UTF-16.
std::uint64_t xxh3Finish(const Trial& t, const std::vector<std::uint64_t>& threadHashes)
{
    Xxh3 h;
    h.u64(t.metrics().size());
    for (const Metric& m : t.metrics()) {
        h.string(m.name);
        h.string(m.unit);
    }
    h.u64(t.events().size());
    for (const IntervalEvent& e : t.events()) {
        h.string(e.name);
        h.u64(e.groups.size());
        for (GroupId g : e.groups)
            h.string(t.groupName(g));
    }
    h.u64(t.atomicEvents().size());
    for (const AtomicEvent& e : t.atomicEvents())
        h.string(e.name);
    h.u64(t.metadata().size());
    for (const MetadataEntry& e : t.metadata()) {
        h.string(t.strings().get(e.key));
        h.string(t.strings().get(e.value));
    }
    h.column(ColumnView(threadHashes));
    return h.digest();
}

template <typename Thread, typename Finish> std::uint64_t hashTrial(const Trial& t, Thread thread, Finish finish)
{
    std::vector<std::uint64_t> hashes(t.threadCount());
    parallelFor(hashes.size(), 256, 0, [&](std::size_t begin, std::size_t end, std::size_t) {
        for (std::size_t i = begin; i < end; ++i)
            hashes[i] = thread(t, i);
    });
    return finish(t, hashes);
}

QString legacyContentHash(const Trial& trial)
{
    return trial
        .cached<LegacyContentHash>([](const Trial& t) {
            return std::make_shared<const LegacyContentHash>(
                LegacyContentHash { hex64(hashTrial(t, legacyThreadHash, legacyFinish)) });
        })
        ->hex;
}

} // namespace

QString contentHash(const Trial& trial)
{
    return trial
        .cached<ContentHash>([](const Trial& t) {
            return std::make_shared<const ContentHash>(ContentHash { hex64(hashTrial(t, xxh3ThreadHash, xxh3Finish)) });
        })
        ->hex;
}

QString contentHashAlgorithm() { return QStringLiteral("xxh3-64"); }

QString contentHashAlgorithmOption() { return QStringLiteral("content_hash_algorithm=") + contentHashAlgorithm(); }

std::optional<bool> contentHashMatches(const Trial& trial, const QString& hash, const QString& algorithm)
{
    if (algorithm == contentHashAlgorithm())
        return contentHash(trial).compare(hash, Qt::CaseInsensitive) == 0;
    if (algorithm.isEmpty())
        return legacyContentHash(trial).compare(hash, Qt::CaseInsensitive) == 0;
    return std::nullopt;
}

std::optional<bool> operandMatches(const Provenance& provenance, int operand, const Trial& trial)
{
    if (operand < 0 || operand >= provenance.operands.size())
        return std::nullopt;
    // "NAME [HASH]": the name may hold brackets itself, the hash is the last bracketed word.
    const QString& text = provenance.operands[operand];
    const qsizetype open = text.lastIndexOf(QLatin1String(" ["));
    if (open < 0 || !text.endsWith(QLatin1Char(']')))
        return std::nullopt;
    const QString hash = text.mid(open + 2, text.size() - open - 3);
    QString algorithm; // absent: recorded before the algorithm was noted
    const QString key = QStringLiteral("content_hash_algorithm=");
    for (const QString& option : provenance.options)
        if (option.startsWith(key))
            algorithm = option.mid(key.size());
    return contentHashMatches(trial, hash, algorithm);
}

} // namespace parallax
