// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>

namespace parallax::perfdb {

/// Writes many rows into one table: a cached prepared INSERT on SQLite, COPY ... FROM STDIN on
/// PostgreSQL. Add each column value in the order given when the writer was made, then endRow();
/// finish() flushes and checks. Only one writer may be open on a connection at a time (COPY).
/// Errors throw DbException; a writer destroyed without finish() abandons its rows.
class BulkWriter {
public:
    /// A hint for PostgreSQL: binary COPY for tables of numbers, text COPY otherwise.
    enum class Format { Text, Binary };

    virtual ~BulkWriter() = default;
    virtual void addNull() = 0;
    virtual void addInt(qint64 value) = 0;
    virtual void addDouble(double value) = 0;
    virtual void addText(const QString& value) = 0;
    virtual void addBool(bool value) = 0;
    virtual void endRow() = 0;
    virtual void finish() = 0;
};

} // namespace parallax::perfdb
