// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/ids.h"

#include <QHash>
#include <QString>
#include <vector>

namespace parallax {

/// Interns strings once per trial; everything else refers to them by StringId.
class StringPool {
public:
    StringId intern(const QString& text);
    StringId find(const QString& text) const;
    const QString& get(StringId id) const { return m_strings[id.index()]; }
    std::size_t size() const { return m_strings.size(); }

private:
    std::vector<QString> m_strings;
    QHash<QString, StringId> m_index;
};

} // namespace parallax
