// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"
#include "datasource/readers/progress.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <variant>

namespace parallax {

struct ReadOptions {
    /// Fail on any unreadable file instead of skipping it with a warning.
    bool strict = false;
    /// Worker threads for parsing; 0 means one per core.
    int threads = 0;
    /// Format-specific switches by name (e.g. "fixnames" for gprof). A reader that takes options
    /// warns about names it does not know; the others ignore them.
    QStringList formatOptions;
};

/// What went wrong, and where: the file, the line (1-based) or byte offset, and what was expected.
struct ReadError {
    QString file;
    qint64 line = 0;
    qint64 byteOffset = -1;
    QString message;

    QString toString() const;
};

/// A value or a ReadError.
template <typename T>
class Result {
public:
    Result(T value)
        : m_data(std::move(value))
    {
    }
    Result(ReadError error)
        : m_data(std::move(error))
    {
    }
    bool ok() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return ok(); }
    const T& value() const { return std::get<T>(m_data); }
    T& value() { return std::get<T>(m_data); }
    const ReadError& error() const { return std::get<ReadError>(m_data); }

private:
    std::variant<T, ReadError> m_data;
};

using TrialResult = Result<std::shared_ptr<Trial>>;

/// Turns bytes into a Trial. One subclass per format, registered in ReaderRegistry.
class Reader {
public:
    virtual ~Reader() = default;
    /// Short name used by --format (e.g. "tau").
    virtual QString name() const = 0;
    virtual QString description() const = 0;
    /// File or directory patterns for the Open dialog.
    virtual QStringList filePatterns() const = 0;
    /// 0 (not this format) to 100 (certainly this format). Must be cheap: read at most a few bytes.
    virtual int sniff(const QString& path) const = 0;
    virtual TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const = 0;
};

} // namespace parallax
