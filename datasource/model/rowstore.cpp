// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/model/rowstore.h"

#include "datasource/model/poolwait.h"

#include <QThread>
#include <QtConcurrent/QtConcurrentMap>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <numeric>
#include <type_traits>

namespace parallax {

// ---- rows.h ----------------------------------------------------------------------------------

std::ptrdiff_t IntervalRow::find(EventId e) const
{
    const auto it = std::lower_bound(events.begin(), events.end(), e);
    if (it == events.end() || *it != e)
        return -1;
    return it - events.begin();
}

std::ptrdiff_t RowView::find(EventId e) const
{
    const auto it = std::lower_bound(events.begin(), events.end(), e);
    if (it == events.end() || *it != e)
        return -1;
    return it - events.begin();
}

IntervalRow RowView::toRow() const
{
    IntervalRow row;
    row.events = events.toVector();
    row.calls = calls.toVector();
    row.subrs = subrs.toVector();
    row.excl = excl.toVector();
    row.incl = incl.toVector();
    row.exclSqr = exclSqr.toVector();
    return row;
}

namespace {

/// The values of a view read through operator[] (CountView, InclView), as doubles.
template <typename View> std::vector<double> doublesOf(const View& view)
{
    std::vector<double> values(view.size());
    view.copyTo(values.data());
    return values;
}

template <typename View> bool sameValues(const View& a, const View& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i])
            return false;
    return true;
}

} // namespace

std::vector<double> CountView::toVector() const { return doublesOf(*this); }

void CountView::copyTo(double* out) const
{
    if (m_size == 0)
        return;
    if (!m_float) {
        std::memcpy(out, m_data, m_size * sizeof(double));
        return;
    }
    const auto* in = static_cast<const float*>(m_data);
    for (std::size_t i = 0; i < m_size; ++i)
        out[i] = static_cast<double>(in[i]);
}

bool operator==(const CountView& a, const CountView& b) { return sameValues(a, b); }

std::vector<double> InclView::toVector() const { return doublesOf(*this); }

void InclView::copyTo(double* out) const
{
    if (m_size == 0)
        return;
    if (m_dense) {
        std::memcpy(out, m_dense, m_size * sizeof(double));
        return;
    }
    for (std::size_t i = 0; i < m_size; ++i)
        out[i] = (*this)[i];
}

bool operator==(const InclView& a, const InclView& b) { return sameValues(a, b); }

// ---- RowStore --------------------------------------------------------------------------------

namespace {

constexpr std::size_t ChunkBytes = std::size_t { 4 } << 20;

std::size_t align8(std::size_t n) { return (n + 7) & ~std::size_t { 7 }; }

/// True when every value survives a round trip through float bit for bit (a NaN only when it is
/// the plain quiet NaN, whose payload float keeps).
bool floatExact(const CountView& values)
{
    if (values.isFloat())
        return true;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double v = values[i];
        if (std::isnan(v)) {
            if ((std::bit_cast<std::uint64_t>(v) & ~(std::uint64_t { 1 } << 63)) != 0x7ff8000000000000ULL)
                return false;
            continue;
        }
        if (!(std::fabs(v) <= static_cast<double>(FLT_MAX)) || static_cast<double>(static_cast<float>(v)) != v)
            return false;
    }
    return true;
}

void storeCounts(const CountView& values, std::byte* out, bool asFloat)
{
    if (asFloat) {
        auto* f = reinterpret_cast<float*>(out);
        for (std::size_t i = 0; i < values.size(); ++i)
            f[i] = static_cast<float>(values[i]);
    } else {
        values.copyTo(reinterpret_cast<double*>(out));
    }
}

/// Copies `n` doubles of a column, zeros where the column is shorter.
void storeColumn(ColumnView<double> values, std::size_t n, std::byte* out)
{
    const std::size_t have = std::min(values.size(), n);
    if (have > 0)
        std::memcpy(out, values.data(), have * sizeof(double));
    if (have < n)
        std::memset(out + have * sizeof(double), 0, (n - have) * sizeof(double));
}

std::uint64_t hashEvents(ColumnView<EventId> events)
{
    std::uint64_t h = 0xcbf29ce484222325ULL ^ events.size();
    for (const EventId e : events)
        h = (h ^ e.index()) * 0x100000001b3ULL;
    return h ^ (h >> 29);
}

} // namespace

namespace {

std::size_t bitmapWords(std::size_t cells) { return (cells + 63) / 64; }

/// Bytes of the sparse inclusive form: the bitmap, the running counts (padded to 8) and the values.
std::size_t sparseInclBytes(std::size_t cells, std::size_t patches)
{
    const std::size_t words = bitmapWords(cells);
    return words * sizeof(std::uint64_t) + align8(words * sizeof(std::uint32_t)) + patches * sizeof(double);
}

bool sameBits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

/// Writes the sparse inclusive form of `incl` over `excl` (cells values each) at `out`.
template <typename Values>
void storeSparseIncl(const Values& incl, const double* excl, std::size_t cells, std::byte* out)
{
    const std::size_t words = bitmapWords(cells);
    auto* bits = reinterpret_cast<std::uint64_t*>(out);
    auto* ranks = reinterpret_cast<std::uint32_t*>(bits + words);
    auto* patches
        = reinterpret_cast<double*>(reinterpret_cast<std::byte*>(ranks) + align8(words * sizeof(std::uint32_t)));
    std::uint32_t count = 0;
    for (std::size_t w = 0; w < words; ++w) {
        ranks[w] = count;
        std::uint64_t word = 0;
        for (std::size_t k = w * 64; k < std::min(cells, (w + 1) * 64); ++k) {
            const double v = k < incl.size() ? static_cast<double>(incl[k]) : 0.0;
            if (!sameBits(v, excl[k])) {
                word |= std::uint64_t { 1 } << (k & 63);
                patches[count++] = v;
            }
        }
        bits[w] = word;
    }
}

} // namespace

std::size_t RowStore::Slot::valueBytes() const
{
    const std::size_t n = size;
    const std::size_t cells = std::size_t { metrics } * n;
    const std::size_t counts = 2 * n * (floatCounts() ? sizeof(float) : sizeof(double));
    return align8(counts) + (hasExclSqr() ? 2 : 1) * cells * sizeof(double)
        + (sparseIncl() ? sparseInclBytes(cells, patches) : cells * sizeof(double));
}

double* RowStore::Slot::excl() const
{
    const std::size_t counts = 2 * std::size_t { size } * (floatCounts() ? sizeof(float) : sizeof(double));
    return reinterpret_cast<double*>(values + align8(counts));
}

double* RowStore::Slot::exclSqr() const { return hasExclSqr() ? excl() + std::size_t { metrics } * size : nullptr; }

std::byte* RowStore::Slot::inclBlock() const
{
    return reinterpret_cast<std::byte*>(excl() + (hasExclSqr() ? 2 : 1) * std::size_t { metrics } * size);
}

InclView RowStore::Slot::incl() const
{
    const std::size_t cells = std::size_t { metrics } * size;
    if (!sparseIncl())
        return InclView(reinterpret_cast<const double*>(inclBlock()), cells);
    const std::size_t words = bitmapWords(cells);
    const auto* bits = reinterpret_cast<const std::uint64_t*>(inclBlock());
    const auto* ranks = reinterpret_cast<const std::uint32_t*>(bits + words);
    const auto* patches = reinterpret_cast<const double*>(
        reinterpret_cast<const std::byte*>(ranks) + align8(words * sizeof(std::uint32_t)));
    return InclView(excl(), bits, ranks, patches, cells);
}

bool RowStore::Slot::wellFormed() const
{
    if (!sparseIncl())
        return true;
    const std::size_t cells = std::size_t { metrics } * size;
    const std::size_t words = bitmapWords(cells);
    const auto* bits = reinterpret_cast<const std::uint64_t*>(inclBlock());
    const auto* ranks = reinterpret_cast<const std::uint32_t*>(bits + words);
    std::size_t count = 0;
    for (std::size_t w = 0; w < words; ++w) {
        if (ranks[w] != count)
            return false;
        count += static_cast<std::size_t>(std::popcount(bits[w]));
    }
    // No bit beyond the last cell (the last word's tail).
    if (cells % 64 != 0 && words > 0 && (bits[words - 1] >> (cells % 64)) != 0)
        return false;
    return count == patches;
}

void RowStore::Slot::permuteValues(const std::vector<std::uint32_t>& order) const
{
    const std::size_t n = size;
    const std::size_t cells = std::size_t { metrics } * n;
    thread_local std::vector<double> scratch;
    thread_local std::vector<double> inclusive;
    scratch.resize(n);
    // The inclusive values as they read now (the sparse form reads through excl, which moves too).
    inclusive.resize(cells);
    incl().copyTo(inclusive.data());
    auto permute = [&](auto* column) {
        for (std::size_t i = 0; i < n; ++i)
            scratch[i] = static_cast<double>(column[order[i]]);
        for (std::size_t i = 0; i < n; ++i)
            column[i] = static_cast<std::remove_pointer_t<decltype(column)>>(scratch[i]);
    };
    if (floatCounts()) {
        permute(reinterpret_cast<float*>(values));
        permute(reinterpret_cast<float*>(values) + n);
    } else {
        permute(reinterpret_cast<double*>(values));
        permute(reinterpret_cast<double*>(values) + n);
    }
    for (std::size_t m = 0; m < metrics; ++m) {
        permute(excl() + m * n);
        permute(inclusive.data() + m * n);
        if (hasExclSqr())
            permute(exclSqr() + m * n);
    }
    // A permutation keeps the number of differing cells, so the sparse form fits where it was.
    if (sparseIncl())
        storeSparseIncl(inclusive, excl(), cells, inclBlock());
    else
        std::memcpy(inclBlock(), inclusive.data(), cells * sizeof(double));
}

RowStore::Writer::Writer(std::size_t metrics, std::size_t chunkBytes)
    : m_metrics(metrics)
    , m_chunkSize(align8(std::clamp<std::size_t>(chunkBytes, 64, ChunkBytes)))
{
}

std::byte* RowStore::Writer::allocate(std::size_t bytes)
{
    bytes = align8(bytes);
    if (bytes > m_left) {
        if (bytes > ChunkBytes / 4) {
            // A big row gets a chunk of its own; the rest of the current chunk stays for the next rows.
            m_chunks.push_back(std::make_unique_for_overwrite<std::byte[]>(bytes));
            m_bytes += bytes;
            m_used += bytes;
            return m_chunks.back().get();
        }
        const std::size_t size = std::max(m_chunkSize, bytes);
        m_chunks.push_back(std::make_unique_for_overwrite<std::byte[]>(size));
        m_bytes += size;
        m_next = m_chunks.back().get();
        m_left = size;
    }
    std::byte* out = m_next;
    m_next += bytes;
    m_left -= bytes;
    m_used += bytes;
    return out;
}

EventId* RowStore::Writer::storeEvents(ColumnView<EventId> events)
{
    constexpr std::size_t MaxIndexed = 4096; // bounds the index for trials whose rows all differ
    const std::uint64_t h = hashEvents(events);
    const auto it = m_listIndex.find(h);
    if (it != m_listIndex.end()) {
        const Slot& list = m_lists[it->second];
        if (list.size == events.size() && std::memcmp(list.events, events.data(), events.size() * sizeof(EventId)) == 0)
            return list.events;
    }
    auto* out = reinterpret_cast<EventId*>(allocate(events.size() * sizeof(EventId)));
    std::memcpy(out, events.data(), events.size() * sizeof(EventId));
    Slot list;
    list.events = out;
    list.size = static_cast<std::uint32_t>(events.size());
    m_lists.push_back(list);
    if (m_listIndex.size() < MaxIndexed)
        m_listIndex.emplace(h, static_cast<std::uint32_t>(m_lists.size() - 1));
    return out;
}

RowStore::Slot RowStore::Writer::append(const RowView& row)
{
    Slot slot;
    const std::size_t n = row.size();
    slot.size = static_cast<std::uint32_t>(n);
    slot.metrics = static_cast<std::uint32_t>(m_metrics);
    if (n == 0)
        return slot;
    const bool asFloat = floatExact(row.calls) && floatExact(row.subrs);
    slot.flags
        = static_cast<std::uint8_t>((asFloat ? Slot::FloatCounts : 0) | (row.exclSqr.empty() ? 0 : Slot::HasExclSqr));
    // Inclusive values equal to the exclusive ones (leaf routines) are not stored when that saves room.
    const std::size_t cells = m_metrics * n;
    std::size_t differing = 0;
    for (std::size_t k = 0; k < cells; ++k) {
        const double e = k < row.excl.size() ? row.excl[k] : 0.0;
        const double i = k < row.incl.size() ? row.incl[k] : 0.0;
        differing += sameBits(e, i) ? 0 : 1;
    }
    if (sparseInclBytes(cells, differing) < cells * sizeof(double)) {
        slot.flags |= Slot::SparseIncl;
        slot.patches = static_cast<std::uint32_t>(differing);
    }
    slot.events = storeEvents(row.events);
    slot.values = allocate(slot.valueBytes());
    const std::size_t width = asFloat ? sizeof(float) : sizeof(double);
    storeCounts(row.calls, slot.values, asFloat);
    storeCounts(row.subrs, slot.values + n * width, asFloat);
    storeColumn(row.excl, cells, reinterpret_cast<std::byte*>(slot.excl()));
    if (slot.hasExclSqr())
        storeColumn(row.exclSqr, cells, reinterpret_cast<std::byte*>(slot.exclSqr()));
    if (slot.sparseIncl()) {
        storeSparseIncl(row.incl, slot.excl(), cells, slot.inclBlock());
    } else {
        auto* incl = reinterpret_cast<double*>(slot.inclBlock());
        for (std::size_t k = 0; k < cells; ++k)
            incl[k] = k < row.incl.size() ? row.incl[k] : 0.0;
    }
    return slot;
}

RowView RowStore::view(const Slot& slot)
{
    RowView view;
    const std::size_t n = slot.size;
    if (n == 0)
        return view;
    const std::size_t cells = std::size_t { slot.metrics } * n;
    view.events = ColumnView<EventId>(slot.events, n);
    if (slot.floatCounts()) {
        const auto* counts = reinterpret_cast<const float*>(slot.values);
        view.calls = CountView(counts, n);
        view.subrs = CountView(counts + n, n);
    } else {
        const auto* counts = reinterpret_cast<const double*>(slot.values);
        view.calls = CountView(counts, n);
        view.subrs = CountView(counts + n, n);
    }
    view.excl = ColumnView<double>(slot.excl(), cells);
    view.incl = slot.incl();
    if (slot.hasExclSqr())
        view.exclSqr = ColumnView<double>(slot.exclSqr(), cells);
    return view;
}

std::size_t RowStore::cellCount() const
{
    std::size_t n = 0;
    for (const Slot& slot : m_slots)
        n += slot.size;
    return n;
}

std::size_t RowStore::bytes() const { return m_usedBytes + m_slots.capacity() * sizeof(Slot); }

void RowStore::adopt(Writer&& writer)
{
    for (auto& chunk : writer.m_chunks)
        m_chunks.push_back(std::move(chunk));
    m_chunkBytes += writer.m_bytes;
    m_usedBytes += writer.m_used;
    writer.m_chunks.clear();
    writer.m_lists.clear();
    writer.m_listIndex.clear();
    writer.m_next = nullptr;
    writer.m_left = 0;
    writer.m_bytes = 0;
    writer.m_used = 0;
}

void RowStore::adoptMemory(std::shared_ptr<const void> owner, std::size_t bytes)
{
    m_owners.push_back(std::move(owner));
    m_usedBytes += bytes;
}

void RowStore::permute(const std::vector<std::uint32_t>& order)
{
    std::vector<Slot> reordered;
    reordered.reserve(order.size());
    for (const std::uint32_t i : order)
        reordered.push_back(m_slots[i]);
    m_slots = std::move(reordered);
}

RowStore RowStore::pack(std::vector<IntervalRow>& rows, std::size_t metrics)
{
    // A few ranges per core so that uneven rows balance; each range has its own writer.
    const std::size_t ranges
        = std::min<std::size_t>(rows.size(), static_cast<std::size_t>(std::max(1, QThread::idealThreadCount())) * 4);
    std::vector<Writer> writers;
    std::vector<std::vector<Slot>> placed(ranges);
    writers.reserve(ranges);
    for (std::size_t r = 0; r < ranges; ++r) {
        // A small trial takes small chunks: the range's size when nothing is shared or narrowed.
        std::size_t bound = 0;
        for (std::size_t i = rows.size() * r / ranges; i < rows.size() * (r + 1) / ranges && bound < ChunkBytes; ++i)
            bound += 8 + rows[i].size() * sizeof(EventId) + 8
                + (rows[i].calls.size() + rows[i].subrs.size() + rows[i].excl.size() + rows[i].incl.size()
                      + rows[i].exclSqr.size())
                    * sizeof(double);
        writers.emplace_back(metrics, bound);
    }
    std::vector<std::size_t> indices(ranges);
    std::iota(indices.begin(), indices.end(), std::size_t { 0 });
    auto packRange = [&](std::size_t r) {
        const std::size_t begin = rows.size() * r / ranges;
        const std::size_t end = rows.size() * (r + 1) / ranges;
        placed[r].reserve(end - begin);
        for (std::size_t i = begin; i < end; ++i) {
            placed[r].push_back(writers[r].append(rows[i]));
            rows[i] = IntervalRow();
        }
    };
    if (ranges <= 1 || rows.size() < 64) {
        for (std::size_t r = 0; r < ranges; ++r)
            packRange(r);
    } else {
        waitInPool([&] { QtConcurrent::blockingMap(indices, packRange); });
    }
    RowStore store;
    store.reserve(rows.size());
    for (std::size_t r = 0; r < ranges; ++r) {
        store.adopt(std::move(writers[r]));
        for (const Slot& slot : placed[r])
            store.push(slot);
    }
    return store;
}

} // namespace parallax
