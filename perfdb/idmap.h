// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QHash>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace parallax::perfdb {

/// Maps database ids to small indexes: a plain vector when the ids are dense (as Parallax writes
/// them), a hash otherwise. Read-only after build(), so several threads may look up at once.
class IdMap {
public:
    static constexpr std::uint32_t Missing = std::numeric_limits<std::uint32_t>::max();

    void build(const std::vector<std::pair<qint64, std::uint32_t>>& pairs)
    {
        if (pairs.empty())
            return;
        qint64 low = pairs.front().first;
        qint64 high = low;
        for (const auto& [id, index] : pairs) {
            low = std::min(low, id);
            high = std::max(high, id);
        }
        const auto span = static_cast<quint64>(high - low);
        if (span < 4 * pairs.size() + 4096) {
            m_base = low;
            m_dense.assign(static_cast<std::size_t>(span + 1), Missing);
            for (const auto& [id, index] : pairs)
                m_dense[static_cast<std::size_t>(id - low)] = index;
        } else {
            m_hashed = true;
            for (const auto& [id, index] : pairs)
                m_hash.insert(id, index);
        }
    }
    /// The index of an id, or Missing.
    std::uint32_t find(qint64 id) const
    {
        if (m_hashed)
            return m_hash.value(id, Missing);
        if (id < m_base || id - m_base >= static_cast<qint64>(m_dense.size()))
            return Missing;
        return m_dense[static_cast<std::size_t>(id - m_base)];
    }

private:
    qint64 m_base = 0;
    std::vector<std::uint32_t> m_dense;
    bool m_hashed = false;
    QHash<qint64, std::uint32_t> m_hash;
};

} // namespace parallax::perfdb
