// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

namespace parallax {

// The two selective-instrumentation file formats the advisor writes (docs/SEMANTICS.md 7.4): TAU's
// selective-instrumentation file (tau_instrumentor -f, TAU_SELECT_FILE) and Score-P's filter file
// (SCOREP_FILTERING_FILE, scorep-score -f). Each has a parser, used for --rules, for merging with an
// existing file and by the tests to read the written files back.

/// A TAU selective-instrumentation file: its routine and file lists. Lines between BEGIN_X and
/// END_X are entries (trimmed, empty lines skipped); a line starting with '#' outside a list is a
/// comment; BEGIN_INSTRUMENT_SECTION ... END_INSTRUMENT_SECTION is kept verbatim in `other`.
struct TauSelectFile {
    QStringList exclude; ///< BEGIN_EXCLUDE_LIST: routines not to instrument ('#' is TAU's wildcard)
    QStringList include; ///< BEGIN_INCLUDE_LIST: only these routines
    QStringList fileExclude; ///< BEGIN_FILE_EXCLUDE_LIST ('*' and '?' are wildcards)
    QStringList fileInclude; ///< BEGIN_FILE_INCLUDE_LIST
    QStringList other; ///< lines of sections Parallax does not interpret (instrument sections), verbatim
};

/// Parses the text of a TAU selective-instrumentation file. A list that is not closed, or an END
/// that does not match the open BEGIN, is an error (*error set, the lists read so far returned).
TauSelectFile parseTauSelectFile(const QString& text, QString* error = nullptr);

/// The exclude block of docs/SEMANTICS.md 7.2 for `names`: a blank line, BEGIN_EXCLUDE_LIST, the
/// names deduplicated and sorted bytewise (UTF-8), END_EXCLUDE_LIST, each line ending in '\n'.
QString tauExcludeBlock(const QStringList& names);

/// A whole file: the exclude block, then (when not empty) an include list and the file lists.
QString writeTauSelectFile(const TauSelectFile& file);

/// Merging with an existing file (SEMANTICS 7.4): the existing text unchanged, followed by the
/// exclude block of the names it does not exclude yet (nothing appended when there are none).
/// Names the existing file lists in BEGIN_INCLUDE_LIST are not appended; they are returned in
/// *conflicts. Returns the existing text unchanged and sets *error when it does not parse.
QString mergeTauSelectFile(
    const QString& existing, const QStringList& exclude, QStringList* conflicts = nullptr, QString* error = nullptr);

/// One rule of a Score-P filter file: INCLUDE or EXCLUDE, optionally MANGLED, and its patterns
/// (unescaped: a pattern holds the characters the rule matches, with the wildcards '*', '?' and
/// '[...]' still active unless `literal`).
struct ScorepFilterRule {
    bool exclude = true;
    bool mangled = false;
    QStringList patterns;
};

/// A Score-P filter file: the region rules (SCOREP_REGION_NAMES_BEGIN ... _END) and the file rules
/// (SCOREP_FILE_NAMES_BEGIN ... _END), in order (Score-P applies them in order, the last match wins).
struct ScorepFilter {
    std::vector<ScorepFilterRule> regions;
    std::vector<ScorepFilterRule> files;
};

/// Parses a Score-P filter file: whitespace separates tokens, '#' starts a comment to the end of the
/// line, a backslash escapes the next character (kept as "\c" in the pattern so that an escaped
/// wildcard stays literal for matchesScorepPattern). Errors: a name outside a rule, an unknown
/// keyword, a block not closed.
ScorepFilter parseScorepFilter(const QString& text, QString* error = nullptr);

/// Escapes a literal region name for a filter file: a backslash before whitespace, '\\', '*', '?',
/// '[', ']' and '#'.
QString scorepEscape(const QString& name);

/// Writes the file: one SCOREP_REGION_NAMES block with the EXCLUDE rule of `exclude` (patterns
/// written as given, so they must be escaped already), an EXCLUDE MANGLED rule of `excludeMangled`
/// (escaped here), and the INCLUDE rule of `include` (escaped here) after them so that it wins.
QString writeScorepFilter(const QStringList& exclude, const QStringList& excludeMangled, const QStringList& include);

/// Score-P's pattern match (fnmatch-like: '*', '?', '[...]', a backslash makes the next character
/// literal) of a pattern as parseScorepFilter returns it.
bool matchesScorepPattern(const QString& pattern, const QString& name);

/// True when the filter excludes the region: the last region rule whose patterns match decides (a
/// MANGLED rule is tested against `mangledName`, when given).
bool scorepFilterExcludes(const ScorepFilter& filter, const QString& name, const QString& mangledName = {});
/// True when the filter's file rules (SCOREP_FILE_NAMES) exclude a source file: the last file rule
/// whose patterns match the recorded path decides (docs/SEMANTICS.md 7.4).
bool scorepFilterExcludesFile(const ScorepFilter& filter, const QString& file);
/// True when a TAU file's file lists exclude a source file (docs/SEMANTICS.md 7.4): an entry of
/// BEGIN_FILE_EXCLUDE_LIST matches it, or BEGIN_FILE_INCLUDE_LIST has entries and none matches. An
/// entry matches the recorded path or its base name ('*' and '?' are wildcards).
bool tauSelectExcludesFile(const TauSelectFile& file, const QString& sourceFile);

} // namespace parallax
