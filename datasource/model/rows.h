// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/ids.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace parallax {

/// The interval values of one thread, column-wise, sorted by event id. Only present cells are
/// stored, so absence ("did not run") is distinct from a stored zero. This is how builders and
/// readers hold a row; a built trial keeps its rows in a RowStore and hands out RowViews.
struct IntervalRow {
    std::vector<EventId> events;
    std::vector<double> calls;
    std::vector<double> subrs;
    /// excl and incl of metric m for cell i are at [m * size() + i].
    std::vector<double> excl;
    std::vector<double> incl;
    /// TAU's legacy SumExclSqr column (sum of squared exclusive times per call), laid out like
    /// excl; empty when the source had none.
    std::vector<double> exclSqr;

    std::size_t size() const { return events.size(); }
    /// Position of the event in this row, or -1 when absent.
    std::ptrdiff_t find(EventId e) const;
    double exclusive(std::size_t metric, std::size_t i) const { return excl[metric * size() + i]; }
    double inclusive(std::size_t metric, std::size_t i) const { return incl[metric * size() + i]; }
};

/// A read-only view of one column of a row: contiguous values, span-like.
template <typename T> class ColumnView {
public:
    ColumnView() = default;
    ColumnView(const T* data, std::size_t size)
        : m_data(data)
        , m_size(size)
    {
    }
    ColumnView(const std::vector<T>& values) // NOLINT(google-explicit-constructor): a row's column
        : m_data(values.data())
        , m_size(values.size())
    {
    }
    const T& operator[](std::size_t i) const { return m_data[i]; }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const T* data() const { return m_data; }
    const T* begin() const { return m_data; }
    const T* end() const { return m_data + m_size; }
    const T& front() const { return m_data[0]; }
    const T& back() const { return m_data[m_size - 1]; }
    std::vector<T> toVector() const { return std::vector<T>(begin(), end()); }
    friend bool operator==(const ColumnView& a, const ColumnView& b)
    {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    const T* m_data = nullptr;
    std::size_t m_size = 0;
};

/// A read-only view of a count column (calls, subrs): the values are doubles to the reader, stored
/// as float when every value of the row is exactly a float (docs/ARCHITECTURE.md, the model), else
/// as double.
/// A random-access iterator over a view whose operator[] returns values (CountView, InclView).
template <typename View> class IndexIterator {
public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = double;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = double;
    IndexIterator() = default;
    IndexIterator(const View* view, std::size_t i)
        : m_view(view)
        , m_i(i)
    {
    }
    double operator*() const { return (*m_view)[m_i]; }
    double operator[](difference_type k) const { return (*m_view)[m_i + static_cast<std::size_t>(k)]; }
    IndexIterator& operator++()
    {
        ++m_i;
        return *this;
    }
    IndexIterator operator++(int)
    {
        IndexIterator copy = *this;
        ++m_i;
        return copy;
    }
    IndexIterator& operator--()
    {
        --m_i;
        return *this;
    }
    IndexIterator operator--(int)
    {
        IndexIterator copy = *this;
        --m_i;
        return copy;
    }
    IndexIterator& operator+=(difference_type k)
    {
        m_i += static_cast<std::size_t>(k);
        return *this;
    }
    IndexIterator& operator-=(difference_type k)
    {
        m_i -= static_cast<std::size_t>(k);
        return *this;
    }
    friend IndexIterator operator+(IndexIterator it, difference_type k) { return it += k; }
    friend IndexIterator operator+(difference_type k, IndexIterator it) { return it += k; }
    friend IndexIterator operator-(IndexIterator it, difference_type k) { return it -= k; }
    friend difference_type operator-(const IndexIterator& a, const IndexIterator& b)
    {
        return static_cast<difference_type>(a.m_i) - static_cast<difference_type>(b.m_i);
    }
    friend bool operator==(const IndexIterator& a, const IndexIterator& b) { return a.m_i == b.m_i; }
    friend auto operator<=>(const IndexIterator& a, const IndexIterator& b) { return a.m_i <=> b.m_i; }

private:
    const View* m_view = nullptr;
    std::size_t m_i = 0;
};

class CountView {
public:
    using Iterator = IndexIterator<CountView>;

    CountView() = default;
    CountView(const double* data, std::size_t size)
        : m_data(data)
        , m_size(size)
    {
    }
    CountView(const float* data, std::size_t size)
        : m_data(data)
        , m_size(size)
        , m_float(true)
    {
    }
    CountView(const std::vector<double>& values) // NOLINT(google-explicit-constructor): a row's column
        : m_data(values.data())
        , m_size(values.size())
    {
    }
    double operator[](std::size_t i) const
    {
        return m_float ? static_cast<double>(static_cast<const float*>(m_data)[i])
                       : static_cast<const double*>(m_data)[i];
    }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    double front() const { return (*this)[0]; }
    double back() const { return (*this)[m_size - 1]; }
    Iterator begin() const { return Iterator(this, 0); }
    Iterator end() const { return Iterator(this, m_size); }
    /// True when the values are stored as float.
    bool isFloat() const { return m_float; }
    std::vector<double> toVector() const;
    /// Copies the values into `out` (room for size() doubles).
    void copyTo(double* out) const;
    friend bool operator==(const CountView& a, const CountView& b);

private:
    const void* m_data = nullptr;
    std::size_t m_size = 0;
    bool m_float = false;
};

/// A read-only view of an inclusive column: contiguous doubles, or, where the trial found that most
/// cells' inclusive value is their exclusive value bit for bit (every leaf routine), the exclusive
/// column plus the cells that differ: a bitmap of them with a running count per 64-bit word, and
/// their values (docs/ARCHITECTURE.md, the trial's cells).
class InclView {
public:
    using Iterator = IndexIterator<InclView>;

    InclView() = default;
    InclView(const double* data, std::size_t size)
        : m_dense(data)
        , m_size(size)
    {
    }
    InclView(const std::vector<double>& values) // NOLINT(google-explicit-constructor): a row's column
        : m_dense(values.data())
        , m_size(values.size())
    {
    }
    /// The sparse form: `excl` for the cells whose bit is clear, `patches` in cell order for the others.
    InclView(const double* excl, const std::uint64_t* bits, const std::uint32_t* ranks, const double* patches,
        std::size_t size)
        : m_excl(excl)
        , m_bits(bits)
        , m_ranks(ranks)
        , m_patches(patches)
        , m_size(size)
    {
    }
    double operator[](std::size_t i) const
    {
        if (m_dense)
            return m_dense[i];
        const std::uint64_t word = m_bits[i >> 6];
        const std::uint64_t bit = std::uint64_t { 1 } << (i & 63);
        if ((word & bit) == 0)
            return m_excl[i];
        return m_patches[m_ranks[i >> 6] + static_cast<std::size_t>(std::popcount(word & (bit - 1)))];
    }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    double front() const { return (*this)[0]; }
    double back() const { return (*this)[m_size - 1]; }
    Iterator begin() const { return Iterator(this, 0); }
    Iterator end() const { return Iterator(this, m_size); }
    /// The contiguous values, or nullptr in the sparse form.
    const double* denseData() const { return m_dense; }
    std::vector<double> toVector() const;
    /// Copies the values into `out` (room for size() doubles).
    void copyTo(double* out) const;
    friend bool operator==(const InclView& a, const InclView& b);

private:
    const double* m_dense = nullptr;
    const double* m_excl = nullptr;
    const std::uint64_t* m_bits = nullptr;
    const std::uint32_t* m_ranks = nullptr;
    const double* m_patches = nullptr;
    std::size_t m_size = 0;
};

/// How a trial's row is read (Trial::row): the same columns as IntervalRow, as views, so the trial is
/// free to store its cells as it likes (docs/ARCHITECTURE.md, the model). An IntervalRow converts to
/// it, so a function taking a RowView reads builder rows and trial rows alike.
struct RowView {
    RowView() = default;
    RowView(const IntervalRow& row) // NOLINT(google-explicit-constructor): every row reads as a view
        : events(row.events)
        , calls(row.calls)
        , subrs(row.subrs)
        , excl(row.excl)
        , incl(row.incl)
        , exclSqr(row.exclSqr)
    {
    }

    ColumnView<EventId> events;
    CountView calls;
    CountView subrs;
    /// excl and incl of metric m for cell i are at [m * size() + i].
    ColumnView<double> excl;
    InclView incl;
    /// Laid out like excl; empty when the source had none.
    ColumnView<double> exclSqr;

    std::size_t size() const { return events.size(); }
    /// Position of the event in this row, or -1 when absent.
    std::ptrdiff_t find(EventId e) const;
    double exclusive(std::size_t metric, std::size_t i) const { return excl[metric * size() + i]; }
    double inclusive(std::size_t metric, std::size_t i) const { return incl[metric * size() + i]; }
    /// A copy that a builder can take (TrialBuilder::setIntervalRows).
    IntervalRow toRow() const;
};

} // namespace parallax
