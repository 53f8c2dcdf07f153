// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/writers/tausnapshotwriter.h"

#include "datasource/readers/metadataparser.h"
#include "datasource/writers/savefile.h"
#include "datasource/writers/tauwriter.h"

#include <QDir>
#include <algorithm>
#include <charconv>
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

void appendText(std::string& out, const QString& text) { out += escapeMetadataText(text.toStdString()); }

/// One snapshot of a thread: its name, timestamp and rows (the final profile for a thread without
/// a series).
struct Snap {
    QString name;
    qint64 timestamp = 0;
    RowView row;
    const AtomicRow* atomics = nullptr;
};

std::vector<Snap> snapsOf(const Trial& trial, ThreadIndex t)
{
    std::vector<Snap> snaps;
    for (const ProfileSnapshot& s : trial.timeSeries(t))
        snaps.push_back({ s.name, s.timestamp, RowView(s.row), &s.atomicRow });
    if (snaps.empty())
        snaps.push_back({ QStringLiteral("final"), 0, trial.row(t), &trial.atomicRow(t) });
    return snaps;
}

void writeThread(const Trial& trial, ThreadIndex t, BufferedOut& out)
{
    const ThreadKey& key = trial.threadKey(t);
    const std::string id
        = std::to_string(key.node) + '.' + std::to_string(key.context) + '.' + std::to_string(key.thread) + ".0";
    const std::vector<Snap> snaps = snapsOf(trial, t);
    std::string& s = out.buffer();
    s += "<profile_xml>\n<thread id=\"" + id + "\" node=\"" + std::to_string(key.node) + "\" context=\""
        + std::to_string(key.context) + "\" thread=\"" + std::to_string(key.thread) + "\">\n<metadata>\n";
    const StringPool& strings = trial.strings();
    for (const auto* entries : { &trial.metadata(), &trial.threadMetadata(t) })
        for (const MetadataEntry& e : *entries) {
            s += "<attribute><name>";
            appendText(s, strings.get(e.key));
            s += "</name><value>";
            appendText(s, strings.get(e.value));
            s += "</value></attribute>\n";
        }
    s += "</metadata>\n</thread>\n\n<definitions thread=\"" + id + "\">\n";
    for (std::size_t m = 0; m < trial.metricCount(); ++m) {
        s += "<metric id=\"" + std::to_string(m) + "\"><name>";
        appendText(s, trial.metric(MetricId(m)).name);
        s += "</name><units>unknown</units></metric>\n";
    }
    // Every event and user event any snapshot of this thread uses, by the trial's ids.
    std::vector<EventId> events;
    std::vector<AtomicEventId> atomics;
    for (const Snap& snap : snaps) {
        events.insert(events.end(), snap.row.events.begin(), snap.row.events.end());
        atomics.insert(atomics.end(), snap.atomics->events.begin(), snap.atomics->events.end());
    }
    std::sort(events.begin(), events.end());
    events.erase(std::unique(events.begin(), events.end()), events.end());
    std::sort(atomics.begin(), atomics.end());
    atomics.erase(std::unique(atomics.begin(), atomics.end()), atomics.end());
    for (const EventId e : events) {
        const IntervalEvent& event = trial.event(e);
        s += "<event id=\"" + std::to_string(e.index()) + "\"><name>";
        appendText(s, event.rawName.isEmpty() ? event.name : event.rawName);
        s += "</name><group>";
        for (std::size_t g = 0; g < event.groups.size(); ++g) {
            if (g > 0)
                s += '|';
            appendText(s, trial.groupName(event.groups[g]));
        }
        s += "</group></event>\n";
    }
    for (const AtomicEventId e : atomics) {
        const AtomicEvent& event = trial.atomicEvent(e);
        s += "<userevent id=\"" + std::to_string(e.index()) + "\"><name>";
        appendText(s, event.rawName.isEmpty() ? event.name : event.rawName);
        s += "</name></userevent>\n";
    }
    s += "</definitions>\n";
    std::string metrics;
    for (std::size_t m = 0; m < trial.metricCount(); ++m)
        metrics += std::to_string(m) + ' ';
    for (std::size_t k = 0; k < snaps.size(); ++k) {
        const Snap& snap = snaps[k];
        if (k > 0)
            s += "<profile_xml>\n";
        s += "\n<profile thread=\"" + id + "\">\n<name>";
        appendText(s, snap.name);
        s += "</name>\n";
        if (snap.timestamp != 0)
            s += "<timestamp>" + std::to_string(snap.timestamp) + "</timestamp>\n";
        s += "<interval_data metrics=\"" + metrics + "\">\n";
        const RowView& row = snap.row;
        const std::size_t metricCount = row.size() == 0 ? 0 : row.excl.size() / row.size();
        for (std::size_t i = 0; i < row.size(); ++i) {
            s += std::to_string(row.events[i].index());
            for (const double v : { row.calls[i], row.subrs[i] }) {
                s += ' ';
                appendNumber(s, v);
            }
            for (std::size_t m = 0; m < trial.metricCount(); ++m) {
                s += ' ';
                appendNumber(s, m < metricCount ? row.exclusive(m, i) : 0.0);
                s += ' ';
                appendNumber(s, m < metricCount ? row.inclusive(m, i) : 0.0);
            }
            s += '\n';
            out.maybeFlush();
        }
        s += "</interval_data>\n<atomic_data>\n";
        const AtomicRow& a = *snap.atomics;
        for (std::size_t i = 0; i < a.size(); ++i) {
            s += std::to_string(a.events[i].index());
            for (const double v : { a.count[i], a.max[i], a.min[i], a.mean[i], a.sumSquares[i] }) {
                s += ' ';
                appendNumber(s, v);
            }
            s += '\n';
        }
        s += "</atomic_data>\n</profile>\n\n</profile_xml>\n";
        out.maybeFlush();
    }
}

} // namespace

QString TauSnapshotWriter::write(const Trial& trial, const QString& directory)
{
    if (!QDir().mkpath(directory))
        return QStringLiteral("%1: cannot create the directory").arg(directory);
    if (trial.metricCount() == 0)
        return QStringLiteral("%1: the trial has no metric to write").arg(directory);
    return TauWriter::writeThreadFiles(
        trial, directory, QStringLiteral("snapshot"), [&](ThreadIndex t, const QString& path) {
            return writeSaved(path, [&](QSaveFile& file) {
                BufferedOut out(file);
                writeThread(trial, t, out);
                out.flush();
            });
        });
}

} // namespace parallax
