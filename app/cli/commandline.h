// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/values.h"
#include "datasource/model/trial.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <optional>
#include <utility>
#include <vector>

namespace parallax::cli {

/// The exit status of both programs (`parallax-cli` and `parallax`), documented in the README and
/// in `--help`: 0 success, 1 the work failed (unreadable input, database error, a name the input
/// does not have), 2 the command line is wrong (unknown command or option, missing or bad value).
enum Exit : int { ExitSuccess = 0, ExitFailure = 1, ExitUsage = 2 };

/// The paragraph every `--help` ends with.
QString exitStatusHelp();

/// "parallax-cli: MESSAGE" on standard error; returns ExitFailure.
int failure(const QString& message);
/// "parallax-cli: warning: MESSAGE" on standard error.
void warning(const QString& message);
/// The statistic across threads named on a command line (`--statistic`): mean (over all threads),
/// mean-present, total, min, max, sd, sd-present (docs/SEMANTICS.md §2); nullopt for another name.
std::optional<Statistic> statisticOf(const QString& name);
/// "mean (over all threads, the default), mean-present, total, min, max, sd or sd-present": the
/// names statisticOf() takes, for help texts and errors.
QString statisticNames();
/// Bytes (or UTF-8 text) on standard output, unchanged.
void printOut(const QByteArray& bytes);
void printOut(const QString& text);

/// One command's options (`pprof`, `db load`, `db model save`...), parsed by QCommandLineParser:
/// `--opt value` and `--opt=value`, compacted short options (`-sm`, `-n10`, `-n 10`), options
/// after positional arguments, `--` ending the options, and `-h`/`--help` printing the command's
/// help to standard output.
class Command {
public:
    /// `name` as typed after parallax-cli ("pprof", "db load"); `arguments` the synopsis of the
    /// positional arguments ("[DIR] [node numbers...]"); `description` the lines printed under
    /// the usage line.
    Command(QString name, QString arguments, const QString& description);

    /// Adds an option and returns it, to be kept for isSet()/value().
    QCommandLineOption add(const QCommandLineOption& option);
    QCommandLineOption add(const QStringList& names, const QString& description, const QString& valueName = {});
    /// A positional argument, for the help text only.
    void addArgument(const QString& name, const QString& description);
    /// Text after the option and argument lists (before the exit status).
    void setEpilogue(const QString& text) { m_epilogue = text; }

    /// Parses the words after the command name. Returns std::nullopt when the command is to run,
    /// else the exit code to return: ExitSuccess after --help (printed to standard output),
    /// ExitUsage after an unknown option or a missing value (named on standard error).
    std::optional<int> parse(const QStringList& args);

    const QCommandLineParser& parser() const { return m_parser; }
    bool isSet(const QCommandLineOption& option) const { return m_parser.isSet(option); }
    QString value(const QCommandLineOption& option) const { return m_parser.value(option); }
    QStringList values(const QCommandLineOption& option) const { return m_parser.values(option); }
    QStringList positional() const { return m_parser.positionalArguments(); }

    /// The whole help text: usage line, description, options, arguments, epilogue, exit status.
    QString helpText() const;

    /// "parallax-cli NAME: MESSAGE" and a pointer to --help on standard error; returns ExitUsage.
    int usageError(const QString& message) const;

    /// An integer option's value in [min, max]; `fallback` when the option is absent. A value
    /// that is not a whole number, or out of range, is a usage error naming the option and the
    /// value: std::nullopt after it has been printed.
    std::optional<qint64> integer(const QCommandLineOption& option, qint64 min, qint64 max, qint64 fallback) const;
    /// The same for a positional argument or any other text (`what` names it in the message).
    std::optional<qint64> integer(const QString& what, const QString& text, qint64 min, qint64 max) const;

    /// A thread given as N,C,T (`--thread`): three whole numbers from 0; otherwise a usage error
    /// naming `what` and the text, and std::nullopt after it has been printed.
    std::optional<ThreadKey> threadKey(const QString& what, const QString& text) const;

    /// A repeatable KEY=VALUE option's pairs (`--where`); a value without '=' or with an empty KEY
    /// is a usage error naming it: std::nullopt after it has been printed.
    std::optional<std::vector<std::pair<QString, QString>>> keyValues(const QCommandLineOption& option) const;

    /// A reader name for --format: empty, or a reader Parallax has (else a usage error listing them).
    bool checkReader(const QString& name) const;
    /// Like checkReader for `--to NAME`: an empty name or a known writer passes; otherwise a usage
    /// error naming the writers.
    bool checkWriter(const QString& name) const;

    /// An operand of the algebra, convert and semantic commands: a path, or db:ID with ID a whole
    /// number (else a usage error naming the operand).
    bool checkOperand(const QString& spec) const;

    /// The --format NAME and --db LOCATION options of a command that reads a trial (a path or db:ID).
    struct TrialSource {
        QCommandLineOption format;
        QCommandLineOption db;
    };
    /// Adds --format and --db.
    TrialSource addTrialSource();
    /// After parse(), for a command of one PATH: checks --format and that exactly one positional
    /// argument is there, a path or db:ID. The PATH, or std::nullopt after a usage error ("give one
    /// PATH") has been printed.
    std::optional<QString> onePath(const TrialSource& source) const;

    const QString& name() const { return m_name; }

private:
    QString m_name;
    QString m_arguments;
    QString m_epilogue;
    QCommandLineParser m_parser;
    QCommandLineOption m_help;
    QCommandLineOption m_noCache;
};

/// A number for JSON output: NaN and infinities become null.
QJsonValue jsonNumber(double value);

/// "--name" or "-n" as typed, for messages.
QString optionText(const QCommandLineOption& option);

} // namespace parallax::cli
