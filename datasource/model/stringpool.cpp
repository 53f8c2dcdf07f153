// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/model/stringpool.h"

namespace parallax {

StringId StringPool::intern(const QString& text)
{
    const auto it = m_index.constFind(text);
    if (it != m_index.cend())
        return it.value();
    const StringId id(m_strings.size());
    m_strings.push_back(text);
    m_index.insert(text, id);
    return id;
}

StringId StringPool::find(const QString& text) const { return m_index.value(text, StringId()); }

} // namespace parallax
