// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// pyinstrument JSON reader.
//
// pyinstrument's JSON renderer writes the session fields (start_time, duration, sample_count,
// program, cpu_time) and "root_frame": a frame object {function, file_path_short, file_path,
// line_no, time, is_application_code, group_id, children: [frames]} whose "time" is the frame's
// inclusive wall time in seconds (the samples that fell in it, times the sampling interval).
//
// What the model gets
// -------------------
// * One thread (0, 0, 0) and one metric "time" (unit "sec").
// * Each frame becomes a call-tree node named like Hatchet shows it: "function file", with the
//   short file path ("<module> examples.py", "read hatchet/readers/caliper_reader.py"; falling back
//   to file_path, then to the function alone). Call paths are "a => b => c"; flat events are summed
//   per name (inclusive over the outermost frames), see CallTreeEvents. Two sibling frames with the
//   same name but another line_no (the sample has two "_format_strings
//   pandas/io/formats/format.py", lines 1213 and 1435) stay separate: the later is named
//   "... [line 1435]".
// * incl = time; excl = time - sum of the children's time (Hatchet's "time"). Rounding in the file
//   can make that slightly negative; such values are kept, with a warning.
// * Calls and subrs are 0: a sampling profiler does not count calls.
// * Frames of application code (is_application_code) are in group PYINSTRUMENT_APPLICATION, the
//   others in PYINSTRUMENT_LIBRARY.
// * Metadata: "pyinstrument start_time", "duration", "sample_count", "program", "cpu_time" (and
//   any other scalar session field) as written.
// Errors name the file, the line of the offending key ("root_frame" or the first frame key that
// is wrong) and the frame's JSON path.

#include "datasource/readers/pyinstrumentreader.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/calltreeevents.h"
#include "datasource/readers/jsoninput.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>

namespace parallax {

namespace {

} // namespace

PyinstrumentReader::PyinstrumentReader()
    : Reader(
        { QStringLiteral("pyinstrument"), QStringLiteral("pyinstrument JSON profile"), { QStringLiteral("*.json") } })
{
}

int PyinstrumentReader::sniff(const QString& path) const
{
    const QByteArray head = JsonInput::head(path);
    if (!JsonInput::startsWithObject(head))
        return 0;
    if (head.contains("\"root_frame\"") && (head.contains("\"function\"") || head.contains("\"sample_count\"")))
        return 100;
    return 0;
}

TrialResult PyinstrumentReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    (void)options;
    return readJsonDocument(*this, path, progress,
        [&](const QJsonDocument& doc, const QByteArray& text, TrialBuilder& builder,
            QStringList& warnings) -> std::optional<ReadError> {
            if (!doc.isObject())
                throw ParseError::at(
                    0, QStringLiteral("expected a JSON object with a \"root_frame\" (pyinstrument -r json)"));
            const QJsonObject top = doc.object();
            const QJsonValue rootValue = top.value(QLatin1String("root_frame"));
            if (!rootValue.isObject())
                throw ParseError::at(JsonInput::offsetOfKey(text, "root_frame"),
                    QStringLiteral("expected \"root_frame\" to be a frame object (function, file_path_short, time, "
                                   "children)"));
            CallTreeEvents tree(1);
            std::vector<double> time; // per node
            std::vector<double> childTime;
            struct Pending {
                QJsonObject frame;
                std::size_t parent;
                QString where;
            };
            std::vector<Pending> stack { { rootValue.toObject(), CallTreeEvents::NoParent,
                QStringLiteral("root_frame") } };
            std::size_t negative = 0;
            while (!stack.empty()) {
                if (progress.isCancelled())
                    throw Cancelled {};
                Pending p = std::move(stack.back());
                stack.pop_back();
                const QJsonObject& f = p.frame;
                const QJsonValue function = f.value(QLatin1String("function"));
                const QJsonValue t = f.value(QLatin1String("time"));
                if (!function.isString())
                    throw ParseError::at(JsonInput::offsetOfKey(text, "function"),
                        QStringLiteral("frame %1: expected a string \"function\"").arg(p.where));
                if (!t.isDouble())
                    throw ParseError::at(JsonInput::offsetOfKey(text, "time"),
                        QStringLiteral("frame %1 (%2): expected a number \"time\"").arg(p.where, function.toString()));
                QString file = f.value(QLatin1String("file_path_short")).toString();
                if (file.isEmpty())
                    file = f.value(QLatin1String("file_path")).toString();
                const QString name
                    = file.isEmpty() ? function.toString() : function.toString() + QLatin1Char(' ') + file;
                const QJsonValue line = f.value(QLatin1String("line_no"));
                const QString distinguisher
                    = line.isDouble() ? QStringLiteral("line %1").arg(line.toInteger()) : QString();
                const QJsonValue app = f.value(QLatin1String("is_application_code"));
                QStringList groups;
                if (app.isBool())
                    groups << (app.toBool() ? QStringLiteral("PYINSTRUMENT_APPLICATION")
                                            : QStringLiteral("PYINSTRUMENT_LIBRARY"));
                const std::size_t node = tree.addNode(p.parent, name, distinguisher, groups);
                time.push_back(t.toDouble());
                childTime.push_back(0.0);
                if (p.parent != CallTreeEvents::NoParent)
                    childTime[p.parent] += t.toDouble();
                const QJsonValue children = f.value(QLatin1String("children"));
                if (!children.isUndefined() && !children.isNull() && !children.isArray())
                    throw ParseError::at(JsonInput::offsetOfKey(text, "children"),
                        QStringLiteral("frame %1 (%2): expected \"children\" to be an array")
                            .arg(p.where, function.toString()));
                const QJsonArray kids = children.toArray();
                // Pushed in reverse so that they are added in document order (depth-first pre-order).
                for (qsizetype k = kids.size(); k-- > 0;) {
                    if (!kids[k].isObject())
                        throw ParseError::at(JsonInput::offsetOfKey(text, "children"),
                            QStringLiteral("frame %1.children[%2]: expected a frame object").arg(p.where).arg(k));
                    stack.push_back({ kids[k].toObject(), node, p.where + QStringLiteral(".children[%1]").arg(k) });
                }
            }
            builder.addMetric(Metric(QStringLiteral("time"), QStringLiteral("sec")));
            const ThreadIndex thread = builder.addThread(ThreadKey { 0, 0, 0 });
            QString error;
            if (!tree.createEvents(builder, warnings, error))
                throw ParseError::at(0, error);
            CallTreeEvents::ThreadValues values;
            values.reset(tree.nodeCount(), 1);
            double mostNegative = 0;
            for (std::size_t i = 0; i < tree.nodeCount(); ++i) {
                values.incl[i] = time[i];
                values.excl[i] = time[i] - childTime[i];
                values.present[i] = 1;
                if (values.excl[i] < -1e-12) {
                    ++negative;
                    mostNegative = std::min(mostNegative, values.excl[i]);
                }
            }
            std::vector<IntervalRow> rows(1);
            rows[thread.index()] = tree.makeRow(values);
            builder.setIntervalRows(std::move(rows));
            if (negative > 0)
                warnings << QStringLiteral(
                    "%1 frame(s) have children whose times add up to more than their own (rounding "
                    "in the file); their exclusive time is negative (down to %2 s)")
                                .arg(negative)
                                .arg(mostNegative);
            for (auto it = top.constBegin(); it != top.constEnd(); ++it) {
                const QString value = JsonInput::scalarText(it.value());
                if (it.key() != QLatin1String("root_frame") && !value.isNull())
                    builder.addMetadata(QStringLiteral("pyinstrument ") + it.key(), value);
            }
            builder.addMetadata(QStringLiteral("pyinstrument frames"), QString::number(tree.nodeCount()));
            return std::nullopt;
        });
}

} // namespace parallax
