// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QtGlobal>
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace parallax::perfdb {

/// Ids reserved for new rows of one table: one or more ranges of consecutive ids, handed out in
/// order. A copy replays the same ids (the uploader walks call data twice: rows, then values).
class IdBlock {
public:
    void addRange(qint64 first, qint64 count)
    {
        if (count > 0)
            m_ranges.emplace_back(first, count);
    }
    qint64 size() const
    {
        qint64 n = 0;
        for (const auto& range : m_ranges)
            n += range.second;
        return n;
    }
    /// The smallest and largest id of the block (0 when empty).
    qint64 smallest() const
    {
        qint64 out = 0;
        for (std::size_t i = 0; i < m_ranges.size(); ++i)
            out = i == 0 ? m_ranges[i].first : std::min(out, m_ranges[i].first);
        return out;
    }
    qint64 largest() const
    {
        qint64 out = 0;
        for (std::size_t i = 0; i < m_ranges.size(); ++i)
            out = i == 0 ? m_ranges[i].first + m_ranges[i].second - 1
                         : std::max(out, m_ranges[i].first + m_ranges[i].second - 1);
        return out;
    }
    /// True when the ids are one run of consecutive numbers.
    bool contiguous() const { return m_ranges.size() <= 1; }
    /// Splits off the next `count` ids (the caller never asks for more than are left).
    IdBlock take(qint64 count)
    {
        IdBlock out;
        while (count > 0) {
            while (m_offset >= m_ranges[m_range].second) {
                ++m_range;
                m_offset = 0;
            }
            const qint64 n = std::min(count, m_ranges[m_range].second - m_offset);
            out.addRange(m_ranges[m_range].first + m_offset, n);
            m_offset += n;
            count -= n;
        }
        return out;
    }
    /// The next id; the caller never asks for more than size().
    qint64 next()
    {
        while (m_offset >= m_ranges[m_range].second) {
            ++m_range;
            m_offset = 0;
        }
        return m_ranges[m_range].first + m_offset++;
    }

private:
    std::vector<std::pair<qint64, qint64>> m_ranges;
    std::size_t m_range = 0;
    qint64 m_offset = 0;
};

} // namespace parallax::perfdb
