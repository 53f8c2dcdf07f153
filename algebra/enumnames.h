// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// One table per enum that has names (policies, value types, units, ...): the name functions and the
// parsers of the same names read the same table, so a name is written once.

#include <QString>
#include <QStringList>
#include <QStringView>
#include <array>
#include <cstddef>
#include <optional>

namespace parallax {

/// One value of an enum and its name (UTF-8).
template <typename E> struct EnumName {
    E value;
    const char* name;
};

/// The name of `value` in `table`; empty when the table does not hold it.
template <typename E, std::size_t N> QString enumName(const std::array<EnumName<E>, N>& table, E value)
{
    for (const EnumName<E>& entry : table)
        if (entry.value == value)
            return QString::fromUtf8(entry.name);
    return {};
}

/// The value `table` names `name` (compared with `cs`), or nothing.
template <typename E, std::size_t N>
std::optional<E> enumFromName(
    const std::array<EnumName<E>, N>& table, QStringView name, Qt::CaseSensitivity cs = Qt::CaseSensitive)
{
    for (const EnumName<E>& entry : table)
        if (name.compare(QString::fromUtf8(entry.name), cs) == 0)
            return entry.value;
    return std::nullopt;
}

/// Every name in `table`, in its order (for "expected one of ..." messages).
template <typename E, std::size_t N> QStringList enumNames(const std::array<EnumName<E>, N>& table)
{
    QStringList names;
    for (const EnumName<E>& entry : table)
        names << QString::fromUtf8(entry.name);
    return names;
}

} // namespace parallax
