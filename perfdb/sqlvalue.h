// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <cstddef>
#include <vector>

namespace parallax::perfdb {

/// One statement parameter: NULL, an integer, a double or a text. A null QString is NULL.
class SqlValue {
public:
    enum class Type { Null, Int, Double, Text };

    SqlValue() = default;
    SqlValue(std::nullptr_t) { }
    SqlValue(bool value)
        : m_type(Type::Int)
        , m_int(value ? 1 : 0)
    {
    }
    SqlValue(int value)
        : m_type(Type::Int)
        , m_int(value)
    {
    }
    SqlValue(qint64 value)
        : m_type(Type::Int)
        , m_int(value)
    {
    }
    SqlValue(double value)
        : m_type(Type::Double)
        , m_double(value)
    {
    }
    SqlValue(const QString& value)
        : m_type(value.isNull() ? Type::Null : Type::Text)
        , m_text(value)
    {
    }

    Type type() const { return m_type; }
    bool isNull() const { return m_type == Type::Null; }
    qint64 toInt() const { return m_int; }
    double toDouble() const { return m_double; }
    const QString& toText() const { return m_text; }

private:
    Type m_type = Type::Null;
    qint64 m_int = 0;
    double m_double = 0;
    QString m_text;
};

using SqlParams = std::vector<SqlValue>;

} // namespace parallax::perfdb
