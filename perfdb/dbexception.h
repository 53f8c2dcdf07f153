// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <exception>

namespace parallax::perfdb {

/// Thrown inside perfdb by the backend primitives and the upload/load code; the public Database
/// methods catch it, roll back, and return a DbError. Never escapes perfdb.
class DbException : public std::exception {
public:
    enum class Kind { Error, Cancelled };

    explicit DbException(const QString& message, Kind kind = Kind::Error)
        : m_message(message)
        , m_kind(kind)
    {
    }
    const QString& message() const { return m_message; }
    bool isCancel() const { return m_kind == Kind::Cancelled; }
    const char* what() const noexcept override { return "parallax::perfdb::DbException"; }

private:
    QString m_message;
    Kind m_kind;
};

} // namespace parallax::perfdb
