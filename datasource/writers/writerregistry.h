// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace parallax {

/// One output format: a name for --to, the file suffixes that select it, and the function that
/// writes a trial (empty string on success, else what went wrong, naming the file).
struct WriterInfo {
    QString name;
    QString description;
    /// Suffixes (lower case, with the dot) that pick this writer for an output path; none for a
    /// writer of directories.
    QStringList suffixes;
    bool directory = false;
    QString (*write)(const Trial& trial, const QString& path) = nullptr;
};

/// All writers Parallax knows (the mirror of ReaderRegistry). Adding a format is one writer file
/// and one line in writerregistry.cpp.
class WriterRegistry {
public:
    static const WriterRegistry& instance();

    const WriterInfo* find(const QString& name) const;
    /// The writer an output path asks for: by suffix, else the directory writer (TAU profiles).
    const WriterInfo* forPath(const QString& path) const;
    std::vector<const WriterInfo*> writers() const;

    /// Writes with the named format, or the one forPath() picks. Returns an empty string on
    /// success, else the error (an unknown format lists the known ones).
    QString write(const Trial& trial, const QString& path, const QString& format = {}) const;

private:
    WriterRegistry();
    std::vector<WriterInfo> m_writers;
};

} // namespace parallax
