// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/progress.h"

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QLatin1StringView>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace parallax {

struct ReadOptions {
    /// Fail on any unreadable file instead of skipping it with a warning.
    bool strict = false;
    /// Worker threads for parsing; 0 means one per core.
    int threads = 0;
    /// Format-specific switches by name (e.g. "fixnames" for gprof). A reader that takes options
    /// warns about names it does not know; the others ignore them.
    QStringList formatOptions;
    /// Reuse and write the binary trial cache (docs/FORMATS.md §13) for big sources;
    /// PARALLAX_NO_CACHE=1 turns it off as well.
    bool useCache = true;
    /// Write a new cache entry on a background thread (TrialCache::storeInBackground) instead of
    /// before read() returns, so the trial is shown ~1.5 s sooner at 131,072 threads. Only for
    /// callers that never modify the trial after reading it; the process must call
    /// TrialCache::waitForPendingStores() before it exits (an exit handler does it otherwise).
    bool storeInBackground = false;
};

/// What went wrong, and where: the file, the line (1-based) or byte offset, and what was expected.
struct ReadError {
    QString file;
    qint64 line = 0;
    qint64 byteOffset = -1;
    QString message;
    /// No reader recognised the path (it may not be a profile at all): a GUI says so briefly and
    /// lists the formats on request instead of showing the whole message.
    bool unrecognised = false;

    QString toString() const;
};

/// A value or a ReadError.
template <typename T> class Result {
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

/// A parse failure, thrown from inside a reader's parse body and turned into a ReadError by
/// guardedRead(). `message` is the complete text the reader prints (what was expected, what was
/// found); `line` (1-based) or `offset` say where; `file` is empty for the path being read, or names
/// the file of a directory format (a TAU profile.N.C.T, an HPCToolkit metric database) that failed.
struct ParseError {
    ParseError(QString message_, qint64 line_ = 0, qint64 offset_ = -1, QString file_ = {})
        : message(std::move(message_))
        , line(line_)
        , offset(offset_)
        , file(std::move(file_))
    {
    }

    QString message;
    qint64 line = 0;
    qint64 offset = -1;
    QString file;

    /// A failure at byte `offset` (the line found later, if the ReadJob can).
    static ParseError at(qint64 offset, const QString& message) { return ParseError { message, 0, offset }; }
    /// A failure at a 1-based line (and, when known, byte offset).
    static ParseError atLine(qint64 line, const QString& message, qint64 offset = -1)
    {
        return ParseError { message, line, offset };
    }
    /// "expected <what>, found <found>" at a line or offset.
    static ParseError expected(const QString& what, const QString& found, qint64 line = 0, qint64 offset = -1)
    {
        return ParseError { QStringLiteral("expected %1, found %2").arg(what, found), line, offset };
    }
};

/// Throws a ParseError (the readers' `fail(...)`).
[[noreturn]] inline void parseFail(const QString& message, qint64 line = 0, qint64 offset = -1)
{
    throw ParseError { message, line, offset };
}

/// Thrown from a parse body when the user cancelled; guardedRead() reports "cancelled".
struct Cancelled { };

inline void throwIfCancelled(const Progress& progress)
{
    if (progress.isCancelled())
        throw Cancelled {};
}

/// Text for error messages: `s` in single quotes, cut to `max` characters ("..."), control
/// characters shown as '?'.
inline QString quoted(QStringView s, qsizetype max = 80)
{
    QString out = s.left(max).toString();
    for (QChar& c : out)
        if (c.unicode() < 0x20)
            c = QLatin1Char('?');
    if (s.size() > max)
        out += QStringLiteral("...");
    return QLatin1Char('\'') + out + QLatin1Char('\'');
}

/// quoted() of Latin-1 bytes.
inline QString quoted(std::string_view s, qsizetype max = 80)
{
    const auto n = std::min<std::size_t>(s.size(), static_cast<std::size_t>(max) + 1);
    return quoted(QString::fromLatin1(s.data(), static_cast<qsizetype>(n)), max);
}

/// True for "<prefix>N.C.T" with N, C, T non-negative decimal integers (TAU's profile.N.C.T and
/// snapshot.N.C.T file names); fills `key`.
bool parseThreadFileName(const QString& fileName, QLatin1StringView prefix, ThreadKey& key);
bool parseThreadFileName(std::string_view fileName, std::string_view prefix, ThreadKey& key);

/// True when the directory has a regular file (or a link to one) whose name `match` accepts; the
/// listing stops at the first. readdir(3), no QDir: a 131,072-file directory costs no sorting and
/// no QString per name.
bool directoryHasFile(const QString& dir, const std::function<bool(std::string_view name)>& match);

/// Every regular file (or link to one) in the directory whose name `match` accepts, in no order,
/// as the operating system spells the path; empty when the directory cannot be read.
std::vector<QByteArray> directoryFiles(const QString& dir, const std::function<bool(std::string_view name)>& match);

class Reader;

/// What guardedRead() needs besides the parse body.
struct ReadJob {
    ReadJob(QString path_, QString source_ = {},
        QString outOfMemory_ = QStringLiteral("out of memory (the profile is too large, or corrupt)"),
        QStringList options_ = {}, std::function<qint64(qint64)> lineOf_ = {})
        : path(std::move(path_))
        , source(std::move(source_))
        , outOfMemory(std::move(outOfMemory_))
        , options(std::move(options_))
        , lineOf(std::move(lineOf_))
    {
    }

    /// The path errors name (unless a ParseError names its own file).
    QString path;
    /// provenance.source; empty: the absolute path of `path`.
    QString source;
    /// The message when memory runs out.
    QString outOfMemory;
    /// provenance.options.
    QStringList options;
    /// For readers whose errors carry only a byte offset: the line of an offset (0 when unknown).
    std::function<qint64(qint64)> lineOf;

    ReadError error(const ParseError& e) const
    {
        qint64 line = e.line;
        if (line <= 0 && e.offset >= 0 && lineOf)
            line = lineOf(e.offset);
        return ReadError { e.file.isEmpty() ? path : e.file, line, e.offset, e.message };
    }
};

/// Runs `body` and turns what it throws into a ReadError: ParseError (where and what), Cancelled
/// ("cancelled") and std::bad_alloc (job.outOfMemory). `body` returns T (the result) or a
/// ReadError; the value is returned as is.
template <typename T, typename Body> Result<T> guarded(const ReadJob& job, Body&& body)
{
    try {
        return body();
    } catch (const ParseError& e) {
        return job.error(e);
    } catch (const Cancelled&) {
        return ReadError { job.path, 0, -1, QStringLiteral("cancelled") };
    } catch (const std::bad_alloc&) {
        return ReadError { job.path, 0, -1, job.outOfMemory };
    }
}

/// The end of every read: the warnings onto the builder, provenance (operation "read", the
/// source, the reader's name, its options), and the built trial.
TrialResult finishRead(const Reader& reader, const ReadJob& job, TrialBuilder& builder, const QStringList& warnings);

/// The guarded read every reader uses: runs the parse `body` (which fills `builder` and `warnings`
/// and either returns nothing or a std::optional<ReadError> for an early refusal) under guarded(),
/// then finishRead().
template <typename Body>
TrialResult guardedRead(
    const Reader& reader, const ReadJob& job, TrialBuilder& builder, QStringList& warnings, Body&& body)
{
    return guarded<std::shared_ptr<Trial>>(job, [&]() -> TrialResult {
        if constexpr (std::is_void_v<std::invoke_result_t<Body&>>) {
            body();
        } else {
            if (std::optional<ReadError> early = body())
                return std::move(*early);
        }
        return finishRead(reader, job, builder, warnings);
    });
}

/// The guarded read of a format that is one file: a ReadError saying `notAFile` unless `job.path` is
/// a file; otherwise guardedRead() of body(builder, warnings), the builder named after the file.
template <typename Body>
TrialResult guardedFileRead(const Reader& reader, const ReadJob& job, const QString& notAFile, Body&& body)
{
    const QFileInfo info(job.path);
    if (!info.isFile())
        return ReadError { job.path, 0, -1, notAFile };
    TrialBuilder builder(info.fileName());
    QStringList warnings;
    return guardedRead(reader, job, builder, warnings, [&] { return body(builder, warnings); });
}

/// The read of a one-file format whose `Loader(path, file, progress).load()` streams the open file
/// and returns the whole trial, provenance included, under guarded(): a ReadError saying `directory`
/// for a directory, or that the file does not open; `stage` names the progress stage.
template <typename Loader>
TrialResult readWithLoader(
    const QString& path, Progress& progress, const QString& directory, const QString& stage, const QString& outOfMemory)
{
    QFile file(path);
    if (QFileInfo(path).isDir())
        return ReadError { path, 0, -1, directory };
    if (!file.open(QIODevice::ReadOnly))
        return ReadError { path, 0, -1, QStringLiteral("cannot open: %1").arg(file.errorString()) };
    progress.setStage(stage, file.size());
    return guarded<std::shared_ptr<Trial>>(ReadJob { path, {}, outOfMemory }, [&] {
        Loader loader(path, file, progress);
        return loader.load();
    });
}

/// What a reader is, as data: given to the Reader constructor, shown by --format, `parallax-cli
/// formats`, the Open dialog and the "no reader recognises this path" message.
struct ReaderInfo {
    /// Short name used by --format (e.g. "tau").
    QString name;
    QString description;
    /// File or directory patterns for the Open dialog.
    QStringList filePatterns;
};

/// Turns bytes into a Trial. One subclass per format, registered in ReaderRegistry: it passes its
/// ReaderInfo to this constructor and implements sniff() and read().
class Reader {
public:
    explicit Reader(ReaderInfo info)
        : m_info(std::move(info))
    {
    }
    virtual ~Reader() = default;

    const QString& name() const { return m_info.name; }
    const QString& description() const { return m_info.description; }
    const QStringList& filePatterns() const { return m_info.filePatterns; }
    /// 0 (not this format) to 100 (certainly this format). Must be cheap: read at most a few bytes.
    virtual int sniff(const QString& path) const = 0;
    virtual TrialResult read(const QString& path, const ReadOptions& options, Progress& progress) const = 0;

private:
    ReaderInfo m_info;
};

} // namespace parallax
