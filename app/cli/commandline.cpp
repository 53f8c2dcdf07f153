// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/commandline.h"

#include "datasource/readers/readerregistry.h"
#include "datasource/writers/writerregistry.h"

#include <QHash>
#include <cmath>
#include <cstdio>
#include <limits>

namespace parallax::cli {

QString exitStatusHelp()
{
    return QStringLiteral("Exit status: 0 success, 1 the work failed (unreadable input, database error, a name\n"
                          "the input does not have), 2 usage error (unknown command or option, bad value).\n");
}

int failure(const QString& message)
{
    std::fprintf(stderr, "parallax-cli: %s\n", message.toLocal8Bit().constData());
    return ExitFailure;
}

std::optional<Statistic> statisticOf(const QString& name)
{
    static const QHash<QString, Statistic> names { { QStringLiteral("mean"), Statistic::MeanAll },
        { QStringLiteral("mean-present"), Statistic::MeanPresent }, { QStringLiteral("total"), Statistic::Total },
        { QStringLiteral("min"), Statistic::Min }, { QStringLiteral("max"), Statistic::Max },
        { QStringLiteral("sd"), Statistic::StdDevAll }, { QStringLiteral("sd-present"), Statistic::StdDevPresent } };
    const auto it = names.constFind(name);
    if (it == names.cend())
        return std::nullopt;
    return it.value();
}

QString statisticNames()
{
    return QStringLiteral("mean (over all threads, the default), mean-present, total, min, max, sd or sd-present");
}

void warning(const QString& message)
{
    std::fprintf(stderr, "parallax-cli: warning: %s\n", message.toLocal8Bit().constData());
}

void printOut(const QByteArray& bytes)
{
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
}

void printOut(const QString& text) { printOut(text.toUtf8()); }

QJsonValue jsonNumber(double value) { return std::isfinite(value) ? QJsonValue(value) : QJsonValue(); }

std::optional<std::vector<std::pair<QString, QString>>> Command::keyValues(const QCommandLineOption& option) const
{
    std::vector<std::pair<QString, QString>> pairs;
    for (const QString& v : values(option)) {
        const qsizetype eq = v.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            usageError(QStringLiteral("%1: '%2' is not KEY=VALUE").arg(optionText(option), v));
            return std::nullopt;
        }
        pairs.emplace_back(v.left(eq), v.mid(eq + 1));
    }
    return pairs;
}

QString optionText(const QCommandLineOption& option)
{
    // The long name when there is one: that is what the help lists first for most options.
    const QStringList names = option.names();
    for (const QString& n : names)
        if (n.size() > 1)
            return QStringLiteral("--") + n;
    return names.isEmpty() ? QString() : QStringLiteral("-") + names.first();
}

Command::Command(QString name, QString arguments, const QString& description)
    : m_name(std::move(name))
    , m_arguments(std::move(arguments))
    , m_help({ QStringLiteral("h"), QStringLiteral("help") }, QStringLiteral("Print this help and exit."))
    , m_noCache(QStringLiteral("no-cache"), QStringLiteral("Parse profiles again instead of using the trial cache."))
{
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsCompactedShortOptions);
    m_parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    m_parser.setApplicationDescription(description);
    m_parser.addOption(m_help);
    m_parser.addOption(m_noCache);
}

QCommandLineOption Command::add(const QCommandLineOption& option)
{
    m_parser.addOption(option);
    return option;
}

QCommandLineOption Command::add(const QStringList& names, const QString& description, const QString& valueName)
{
    return add(QCommandLineOption(names, description, valueName));
}

void Command::addArgument(const QString& name, const QString& description)
{
    m_parser.addPositionalArgument(name, description);
}

std::optional<int> Command::parse(const QStringList& args)
{
    const bool ok = m_parser.parse(QStringList { QStringLiteral("parallax-cli ") + m_name } + args);
    // --help wins over anything else on the line, as in most tools.
    if (m_parser.isSet(m_help)) {
        printOut(helpText());
        return ExitSuccess;
    }
    if (!ok)
        return usageError(m_parser.errorText());
    // Every read goes through ReaderRegistry::read, which honours the variable (docs/FORMATS.md 9).
    if (m_parser.isSet(m_noCache))
        qputenv("PARALLAX_NO_CACHE", "1");
    return std::nullopt;
}

QString Command::helpText() const
{
    // QCommandLineParser's text, with our own usage line (its own names the executable's path).
    QString text = m_parser.helpText();
    const qsizetype firstLine = text.indexOf(QLatin1Char('\n'));
    QString usage = QStringLiteral("Usage: parallax-cli ") + m_name + QStringLiteral(" [options]");
    if (!m_arguments.isEmpty())
        usage += QLatin1Char(' ') + m_arguments;
    text = usage + text.mid(firstLine);
    if (!m_epilogue.isEmpty()) {
        if (!text.endsWith(QLatin1String("\n\n")))
            text += QLatin1Char('\n');
        text += m_epilogue;
        if (!text.endsWith(QLatin1Char('\n')))
            text += QLatin1Char('\n');
    }
    return text + QLatin1Char('\n') + exitStatusHelp();
}

int Command::usageError(const QString& message) const
{
    std::fprintf(stderr, "parallax-cli %s: %s\nTry 'parallax-cli %s --help' for more information.\n",
        m_name.toLocal8Bit().constData(), message.toLocal8Bit().constData(), m_name.toLocal8Bit().constData());
    return ExitUsage;
}

std::optional<qint64> Command::integer(const QString& what, const QString& text, qint64 min, qint64 max) const
{
    bool ok = false;
    const qint64 v = text.trimmed().toLongLong(&ok, 10);
    if (!ok) {
        usageError(QStringLiteral("%1: '%2' is not a whole number").arg(what, text));
        return std::nullopt;
    }
    if (v < min || v > max) {
        const QString range = max == std::numeric_limits<qint64>::max()
            ? QStringLiteral("from %1").arg(min)
            : QStringLiteral("from %1 to %2").arg(min).arg(max);
        usageError(
            QStringLiteral("%1: %2 is out of range (expected a whole number %3)").arg(what, text.trimmed(), range));
        return std::nullopt;
    }
    return v;
}

std::optional<ThreadKey> Command::threadKey(const QString& what, const QString& text) const
{
    const QStringList parts = text.split(QLatin1Char(','));
    if (parts.size() != 3) {
        usageError(QStringLiteral("%1: '%2' is not N,C,T").arg(what, text));
        return std::nullopt;
    }
    int numbers[3];
    for (int i = 0; i < 3; ++i) {
        const auto v = integer(what, parts[i], 0, std::numeric_limits<int>::max());
        if (!v)
            return std::nullopt;
        numbers[i] = static_cast<int>(*v);
    }
    return ThreadKey { numbers[0], numbers[1], numbers[2] };
}

std::optional<qint64> Command::integer(const QCommandLineOption& option, qint64 min, qint64 max, qint64 fallback) const
{
    if (!m_parser.isSet(option))
        return fallback;
    return integer(optionText(option), m_parser.value(option), min, max);
}

bool Command::checkReader(const QString& name) const
{
    if (name.isEmpty() || ReaderRegistry::instance().find(name))
        return true;
    QStringList names;
    for (const Reader* r : ReaderRegistry::instance().readers())
        names << r->name();
    usageError(
        QStringLiteral("--format: no reader named '%1' (readers: %2)").arg(name, names.join(QStringLiteral(", "))));
    return false;
}

bool Command::checkWriter(const QString& name) const
{
    if (name.isEmpty() || WriterRegistry::instance().find(name))
        return true;
    QStringList known;
    for (const WriterInfo* w : WriterRegistry::instance().writers())
        known.append(w->name);
    usageError(QStringLiteral("--to %1: Parallax writes %2").arg(name, known.join(QStringLiteral(", "))));
    return false;
}

bool Command::checkOperand(const QString& spec) const
{
    if (!spec.startsWith(QLatin1String("db:")))
        return true;
    return integer(QStringLiteral("operand %1: db:ID").arg(spec), spec.mid(3), 0, std::numeric_limits<qint64>::max())
        .has_value();
}

Command::TrialSource Command::addTrialSource()
{
    return { add({ QStringLiteral("format") }, QStringLiteral("Read with this reader instead of detecting the format."),
                 QStringLiteral("NAME")),
        add({ QStringLiteral("db") },
            QStringLiteral("The database for db:ID operands (default $PARALLAX_DB or the default database)."),
            QStringLiteral("LOCATION")) };
}

std::optional<QString> Command::onePath(const TrialSource& source) const
{
    if (!checkReader(value(source.format)))
        return std::nullopt;
    const QStringList paths = positional();
    if (paths.size() != 1) {
        usageError(QStringLiteral("give one PATH"));
        return std::nullopt;
    }
    if (!checkOperand(paths.front()))
        return std::nullopt;
    return paths.front();
}

} // namespace parallax::cli
