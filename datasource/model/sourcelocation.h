// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <QStringList>
#include <QStringView>
#include <optional>
#include <utility>
#include <vector>

namespace parallax {

/// Where an event's code is (docs/SEMANTICS.md §12): the file as the profile recorded it and the
/// lines (1-based; endLine == beginLine for a single line, 0 when the profile gives no line).
struct SourceLocation {
    QString file;
    int beginLine = 0;
    int beginColumn = 0;
    int endLine = 0;
    int endColumn = 0;
    bool operator==(const SourceLocation&) const = default;
};

/// The source location an event name carries, read from its last call-path component:
/// TAU's `[{file} {line,col}-{line,col}]`, `[{file} {line}-{line}]`, `[{file} {line,col}]`,
/// `[{file} {line}]` and `[{file}]` (also what the pstats and CUBE readers write), and
/// HPCToolkit's statement and loop names `file:line` and `Loop@file:line`. The last `[{...}]` of
/// the component counts. nullopt when the name has none.
std::optional<SourceLocation> parseSourceLocation(QStringView eventName);

/// How to find a recorded source file on this machine (docs/SEMANTICS.md §12).
struct SourceSearch {
    /// Directories to look in, in order (the trial's directory first, then the user's roots).
    QStringList roots;
    /// Path-prefix remappings, recorded prefix → local prefix ("/g/g17/user/src" → "/home/me/src").
    std::vector<std::pair<QString, QString>> remaps;
};

/// The result of findSourceFile: the local path, or empty with every path that was tried.
struct SourceFileLookup {
    QString path;
    QStringList tried;
};

/// Finds a recorded source file: the recorded path itself (when absolute), each remapping whose
/// prefix it starts with, then under each root the recorded path, each of its trailing parts
/// ("a/b/c.c", "b/c.c", "c.c"). The first existing regular file wins.
SourceFileLookup findSourceFile(const QString& recorded, const SourceSearch& search);

/// The directory a trial's own sources are looked for in first: the trial's path (Provenance::source)
/// when it is a directory, else the directory of the file; empty when it is neither (a database trial).
QString trialSourceRoot(const QString& trialSource);

/// A remapping rule "FROM=TO" (the CLI's --remap); nullopt without '=' or with an empty side.
std::optional<std::pair<QString, QString>> parseRemap(const QString& rule);

/// True when two recorded file names denote the same file as far as names tell: equal, or one is
/// a trailing path part of the other ("src/a.c" and "/home/u/src/a.c").
bool sameSourceFile(const QString& a, const QString& b);

} // namespace parallax
