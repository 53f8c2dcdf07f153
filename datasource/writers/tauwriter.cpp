// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/writers/tauwriter.h"

#include "datasource/model/poolwait.h"
#include "datasource/readers/metadataparser.h"

#include <QDir>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentMap>
#include <charconv>
#include <initializer_list>
#include <mutex>
#include <numeric>
#include <string>

namespace parallax {

namespace {

void appendNumber(std::string& out, double v)
{
    // Shortest text that reads back to the same double.
    char buf[64];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, ec == std::errc() ? ptr : buf);
}

void appendAttribute(std::string& out, const QString& key, const QString& value)
{
    out += "<attribute><name>";
    out += escapeMetadataText(key.toStdString());
    out += "</name><value>";
    out += escapeMetadataText(value.toStdString());
    out += "</value></attribute>";
}

/// The start of an event's line: its name as the source wrote it, in double quotes.
template <typename Event> void appendEventName(std::string& out, const Event& event)
{
    out += '"';
    out += (event.rawName.isEmpty() ? event.name : event.rawName).toStdString();
    out += '"';
}

/// A space and the value, for each value.
void appendValues(std::string& out, std::initializer_list<double> values)
{
    for (const double v : values) {
        out += ' ';
        appendNumber(out, v);
    }
}

QString writeFile(const Trial& trial, std::size_t metricIndex, ThreadIndex t, const QString& path)
{
    const RowView row = trial.row(t);
    const std::size_t n = row.size();
    const Metric& metric = trial.metric(MetricId(metricIndex));
    std::string out;
    out.reserve(256 + n * 96);
    out += std::to_string(n);
    out += " templated_functions_MULTI_";
    out += metric.name.toStdString();
    out += "\n# Name Calls Subrs Excl Incl ";
    const bool sqr = !row.exclSqr.empty();
    if (sqr)
        out += "SumExclSqr ";
    out += "ProfileCalls # <metadata>";
    appendAttribute(out, QStringLiteral("Metric Name"), metric.name);
    const StringPool& strings = trial.strings();
    for (const auto& e : trial.metadata())
        appendAttribute(out, strings.get(e.key), strings.get(e.value));
    for (const auto& e : trial.threadMetadata(t))
        appendAttribute(out, strings.get(e.key), strings.get(e.value));
    out += "</metadata>\n";
    for (std::size_t i = 0; i < n; ++i) {
        const IntervalEvent& event = trial.event(row.events[i]);
        appendEventName(out, event);
        appendValues(out, { row.calls[i], row.subrs[i], row.exclusive(metricIndex, i), row.inclusive(metricIndex, i) });
        if (sqr)
            appendValues(out, { row.exclSqr[metricIndex * n + i] });
        out += " 0 GROUP=\"";
        for (std::size_t g = 0; g < event.groups.size(); ++g) {
            if (g > 0)
                out += " | ";
            out += trial.groupName(event.groups[g]).toStdString();
        }
        out += "\"\n";
    }
    out += "0 aggregates\n";
    const AtomicRow& atomics = trial.atomicRow(t);
    if (metricIndex == 0 && atomics.size() > 0) {
        out += std::to_string(atomics.size());
        out += " userevents\n# eventname numevents max min mean sumsqr\n";
        for (std::size_t i = 0; i < atomics.size(); ++i) {
            const AtomicEvent& event = trial.atomicEvent(atomics.events[i]);
            appendEventName(out, event);
            appendValues(
                out, { atomics.count[i], atomics.max[i], atomics.min[i], atomics.mean[i], atomics.sumSquares[i] });
            out += '\n';
        }
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
    if (file.write(out.data(), static_cast<qint64>(out.size())) != static_cast<qint64>(out.size()) || !file.commit())
        return QStringLiteral("%1: write failed: %2").arg(path, file.errorString());
    return {};
}

} // namespace

QString TauWriter::multiDirectoryName(const QString& metric)
{
    QString name = metric;
    for (const QChar c : QStringLiteral("/\\?%*:|\"<>= "))
        name.replace(c, QLatin1Char('_'));
    return QStringLiteral("MULTI__") + name;
}

QString TauWriter::write(const Trial& trial, const QString& directory)
{
    if (!QDir().mkpath(directory))
        return QStringLiteral("%1: cannot create the directory").arg(directory);
    if (trial.metricCount() == 0)
        return QStringLiteral("%1: the trial has no metric to write").arg(directory);
    for (std::size_t m = 0; m < trial.metricCount(); ++m) {
        QString dir = directory;
        if (trial.metricCount() > 1) {
            dir = QDir(directory).filePath(multiDirectoryName(trial.metric(MetricId(m)).name));
            if (!QDir().mkpath(dir))
                return QStringLiteral("%1: cannot create the directory").arg(dir);
        }
        QString error = writeThreadFiles(trial, dir, QStringLiteral("profile"),
            [&](ThreadIndex t, const QString& path) { return writeFile(trial, m, t, path); });
        if (!error.isEmpty())
            return error;
    }
    return {};
}

QString TauWriter::writeThreadFiles(const Trial& trial, const QString& directory, const QString& prefix,
    const std::function<QString(ThreadIndex, const QString&)>& write)
{
    std::vector<std::size_t> indices(trial.threadCount());
    std::iota(indices.begin(), indices.end(), std::size_t(0));
    std::mutex mutex;
    QString firstError;
    waitInPool([&] {
        QtConcurrent::blockingMap(indices, [&](std::size_t t) {
            const ThreadKey& key = trial.threadKey(ThreadIndex(t));
            const QString path = QDir(directory).filePath(
                QStringLiteral("%1.%2.%3.%4").arg(prefix).arg(key.node).arg(key.context).arg(key.thread));
            const QString error = write(ThreadIndex(t), path);
            if (!error.isEmpty()) {
                std::lock_guard lock(mutex);
                if (firstError.isEmpty())
                    firstError = error;
            }
        });
    });
    return firstError;
}

} // namespace parallax
