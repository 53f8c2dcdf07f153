// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/rows.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace parallax {

/// How a built trial keeps its interval rows (docs/ARCHITECTURE.md, "The trial's cells"): every
/// row's cells in large chunks of memory rather than six vectors per row; calls and subrs as float
/// when every value of the row is exactly a float; an event list shared by all rows that have the
/// same list (an SPMD trial stores it once). Immutable once built, read through RowView.
class RowStore {
public:
    /// Where one row's cells are: its event list (perhaps shared with other rows) and one block
    /// holding calls, subrs (float or double), excl, incl and, when present, exclSqr in that order.
    struct Slot {
        EventId* events = nullptr;
        std::byte* values = nullptr;
        std::uint32_t size = 0;
        std::uint32_t metrics = 0;
        /// With SparseIncl: how many inclusive values differ from the exclusive ones.
        std::uint32_t patches = 0;
        std::uint8_t flags = 0;

        static constexpr std::uint8_t FloatCounts = 1;
        static constexpr std::uint8_t HasExclSqr = 2;
        static constexpr std::uint8_t SparseIncl = 4;
        bool floatCounts() const { return (flags & FloatCounts) != 0; }
        bool hasExclSqr() const { return (flags & HasExclSqr) != 0; }
        bool sparseIncl() const { return (flags & SparseIncl) != 0; }
        /// Bytes of the value block.
        std::size_t valueBytes() const;
        /// The value columns, writable by the one who owns the memory (a reader before the trial is built).
        double* excl() const;
        double* exclSqr() const;
        /// Where the inclusive column starts: metrics * size doubles, or the sparse form's bitmap.
        std::byte* inclBlock() const;
        InclView incl() const;
        /// False when a sparse inclusive column's bitmap, running counts and `patches` disagree (so
        /// reading it would leave its memory): for memory the store did not write itself.
        bool wellFormed() const;
        /// Reorders the cells' values (not the event list) in place: cell k becomes the former cell
        /// order[k]. For the owner of the memory, before the trial is built.
        void permuteValues(const std::vector<std::uint32_t>& order) const;
    };

    /// Copies rows into memory of its own, chunk by chunk; one per thread. A row whose event list
    /// equals one the writer stored before shares it.
    class Writer {
    public:
        /// Rows with `metrics` metrics, in chunks of `chunkBytes` (at most 4 MiB, the default).
        explicit Writer(std::size_t metrics, std::size_t chunkBytes = std::size_t { 4 } << 20);
        Writer(Writer&&) noexcept = default;
        Writer& operator=(Writer&&) noexcept = default;
        Writer(const Writer&) = delete;
        Writer& operator=(const Writer&) = delete;
        ~Writer() = default;

        /// Stores a copy of `row` (metrics() excl/incl values per cell) and says where it is.
        Slot append(const RowView& row);
        std::size_t metrics() const { return m_metrics; }
        /// The distinct event lists this writer stored (each once, however many rows share it).
        const std::vector<Slot>& lists() const { return m_lists; }

    private:
        friend class RowStore;
        std::byte* allocate(std::size_t bytes);
        EventId* storeEvents(ColumnView<EventId> events);

        std::size_t m_metrics = 0;
        std::size_t m_chunkSize = 0;
        std::vector<std::unique_ptr<std::byte[]>> m_chunks;
        std::byte* m_next = nullptr;
        std::size_t m_left = 0;
        std::size_t m_bytes = 0; // allocated
        std::size_t m_used = 0; // handed out
        std::vector<Slot> m_lists; // events and size of each distinct list
        std::unordered_map<std::uint64_t, std::uint32_t> m_listIndex; // hash of a list -> m_lists
    };

    RowStore() = default;
    RowStore(RowStore&&) noexcept = default;
    RowStore& operator=(RowStore&&) noexcept = default;
    RowStore(const RowStore&) = delete;
    RowStore& operator=(const RowStore&) = delete;
    ~RowStore() = default;

    /// Stores `rows` (metric-major excl/incl with `metrics` metrics), packing on every core; each
    /// row is freed as soon as it is copied.
    static RowStore pack(std::vector<IntervalRow>& rows, std::size_t metrics);

    std::size_t rowCount() const { return m_slots.size(); }
    RowView row(std::size_t i) const { return view(m_slots[i]); }
    /// Where row i's cells are (the trial cache writes them in this very layout).
    const Slot& slot(std::size_t i) const { return m_slots[i]; }
    static RowView view(const Slot& slot);
    std::size_t cellCount() const;
    /// Bytes the cells take: what the rows use of the chunks, and the slots. The chunks' unused
    /// tails (at most one per writer, never touched, so not resident) are not counted.
    std::size_t bytes() const;

    /// Takes over a writer's memory; its slots can then be pushed, in any order.
    void adopt(Writer&& writer);
    /// Keeps `owner` alive as long as the store: slots pushed after it may point into memory the
    /// owner holds (`bytes` of cells), such as a read-only mapping of a trial cache entry, which the
    /// rows then read in place. Such memory is never written (a built trial is immutable).
    void adoptMemory(std::shared_ptr<const void> owner, std::size_t bytes);
    void push(const Slot& slot) { m_slots.push_back(slot); }
    void reserve(std::size_t rows) { m_slots.reserve(rows); }
    /// Reorders the rows: row i becomes the former row order[i].
    void permute(const std::vector<std::uint32_t>& order);

private:
    std::vector<Slot> m_slots;
    std::vector<std::unique_ptr<std::byte[]>> m_chunks;
    std::vector<std::shared_ptr<const void>> m_owners; // memory of others the slots point into
    std::size_t m_chunkBytes = 0;
    std::size_t m_usedBytes = 0;
};

} // namespace parallax
