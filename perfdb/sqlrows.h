// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>

namespace parallax::perfdb {

/// The rows of a query, read forward once. Column accessors convert between integer and double
/// columns; a NULL reads as 0 or an empty string (check isNull first where it matters).
/// Errors (a failed fetch) throw DbException.
class SqlRows {
public:
    virtual ~SqlRows() = default;
    /// Moves to the next row; false at the end.
    virtual bool next() = 0;
    virtual bool isNull(int column) const = 0;
    virtual qint64 toInt(int column) const = 0;
    virtual double toDouble(int column) const = 0;
    virtual QString toText(int column) const = 0;
};

} // namespace parallax::perfdb
