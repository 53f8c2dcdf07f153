// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The source browser's per-line costs are the statistics table's numbers (docs/SEMANTICS.md §12).
#include "algebra/operations.h"
#include "algebra/sourcecost.h"
#include "tests/common/minitar.h"
#include "tests/common/testutil.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>
#include <QXmlStreamReader>
#include <map>

using namespace parallax;
using parallax::test::dataPath;

class TestSourceCost : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void wrapSample()
    {
        const auto trial = test::mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
        QVERIFY(trial);
        const auto index = SourceIndex::of(*trial);
        QCOMPARE(index.get(), SourceIndex::of(*trial).get()); // cached
        QStringList files;
        for (const auto& f : index->files())
            files << QStringLiteral("%1:%2").arg(f.name).arg(f.events);
        QCOMPARE(
            files, (QStringList { QStringLiteral("foo.c:1"), QStringLiteral("main.c:1"), QStringLiteral("wb.c:4") }));

        // wb.c: __wrap_dgemm and its three parameter profiles all begin at line 5 (MANIFEST values).
        const SourceFileCosts total = sourceFileCosts(*trial, QStringLiteral("wb.c"), MetricId(0u), Statistic::Total);
        QCOMPARE(total.events.size(), std::size_t(4));
        QCOMPARE(total.eventsAtLine(5).size(), std::size_t(4));
        QVERIFY(total.eventsAtLine(6).empty());
        const SourceEventCost& top = total.events[total.eventsAtLine(5).front()];
        QCOMPARE(trial->event(top.event).name, QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]"));
        QCOMPARE(top.exclusive, 58.0 + 64.0);
        QCOMPARE(top.inclusive, 58.0 + 64.0);
        QCOMPARE(top.location.endLine, 11);
        QCOMPARE(total.maxInclusive, 122.0);
        const auto small
            = trial->findEvent(QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] [ <size> = <100000> ]"));
        QVERIFY(small.isValid());
        QCOMPARE(total.events[std::size_t(total.indexOf(small))].inclusive, 24.0);

        // Every statistic and metric: the same numbers as values.h's statisticValue (the table's).
        const auto stats = TrialStatistics::of(*trial);
        for (Statistic s : { Statistic::MeanAll, Statistic::Max, Statistic::Min, Statistic::StdDevAll }) {
            const SourceFileCosts costs = sourceFileCosts(*trial, QStringLiteral("main.c"), MetricId(0u), s);
            QCOMPARE(costs.events.size(), std::size_t(1));
            const EventId e = costs.events.front().event;
            QCOMPARE(costs.events.front().exclusive,
                *statisticValue(*trial, *stats, e, MetricId(0u), ValueType::Exclusive, s));
            QCOMPARE(costs.events.front().inclusive,
                *statisticValue(*trial, *stats, e, MetricId(0u), ValueType::Inclusive, s));
        }
        const SourceFileCosts mean
            = sourceFileCosts(*trial, QStringLiteral("/elsewhere/main.c"), MetricId(0u), Statistic::MeanAll);
        QCOMPARE(mean.events.size(), std::size_t(1));
        QCOMPARE(mean.events.front().inclusive, (1049725.0 + 1048975.0) / 2);
        QVERIFY(sourceFileCosts(*trial, QStringLiteral("dgemm.c"), MetricId(0u), Statistic::Total).events.empty());
    }

    // CUBE regions carry mod/begin/end: every region gets its location, not only those whose names
    // collide. cubelib test0.0 (MANIFEST): main, foo, bar in /ICL/CUBE/example.c at lines 21-100, 1-10,
    // 11-20; exclusive Time main [4, 0], foo [5, 9] on the two processes.
    void cubeRegions_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::newRow("cubex") << QStringLiteral("cubelib/test/test0.0/test0.0.cubex");
        QTest::newRow("cube3") << QStringLiteral("cubelib/test/test0.0/test0.0.cube");
    }
    void cubeRegions()
    {
        QFETCH(QString, sample);
        const auto trial = test::mustLoad(dataPath(sample));
        QVERIFY(trial);
        const QString file = QStringLiteral("/ICL/CUBE/example.c");
        struct Region {
            QString name;
            int begin, end;
            double exclusive; // Σ over the processes
            double inclusive;
        };
        const std::vector<Region> regions { { QStringLiteral("foo"), 1, 10, 5 + 9, 5 + 9 },
            { QStringLiteral("bar"), 11, 20, 0, 0 }, { QStringLiteral("main"), 21, 100, 4 + 0, 4 + 0 + 5 + 9 } };
        for (const Region& r : regions) {
            const EventId e = trial->findEvent(r.name);
            QVERIFY2(e.isValid(), qPrintable(r.name));
            QVERIFY(trial->recordedSourceLocation(e));
            QCOMPARE(sourceLocationOf(*trial, e), std::optional(SourceLocation { file, r.begin, 0, r.end, 0 }));
        }
        // A call path has its leaf region's location.
        const EventId mainFoo = trial->findEvent(QStringLiteral("main => foo"));
        QVERIFY(mainFoo.isValid());
        QCOMPARE(sourceLocationOf(*trial, mainFoo), sourceLocationOf(*trial, trial->findEvent(QStringLiteral("foo"))));

        const auto index = SourceIndex::of(*trial);
        QCOMPARE(index->files().size(), std::size_t(1));
        QCOMPARE(index->files().front().name, file);
        QCOMPARE(index->files().front().events, regions.size());
        QCOMPARE(trial->metric(MetricId(0u)).name, QStringLiteral("Time"));
        const SourceFileCosts costs
            = sourceFileCosts(*trial, QStringLiteral("example.c"), MetricId(0u), Statistic::Total);
        QCOMPARE(costs.events.size(), regions.size());
        const auto stats = TrialStatistics::of(*trial);
        for (const Region& r : regions) {
            const auto at = costs.eventsAtLine(r.begin);
            QCOMPARE(at.size(), std::size_t(1));
            const SourceEventCost& c = costs.events[at.front()];
            QCOMPARE(trial->event(c.event).name, r.name);
            QCOMPARE(c.location.endLine, r.end);
            QCOMPARE(c.exclusive, r.exclusive);
            QCOMPARE(c.inclusive, r.inclusive);
            QCOMPARE(c.exclusive,
                *statisticValue(*trial, *stats, c.event, MetricId(0u), ValueType::Exclusive, Statistic::Total));
        }
    }

    // A Score-P profile: each region's location as anchor.xml gives it (compiler-instrumented
    // functions have a file and a first line, end -1; MPI regions have mod "MPI" and no lines).
    void scorepRegionsAsTheAnchorGivesThem()
    {
        const QString path = dataPath(QStringLiteral("cube/pycubexr/time.p4.n2000.x1.r0/profile.cubex"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray anchor;
        for (const auto& m : test::readTar(f.readAll()))
            if (m.name == QLatin1String("anchor.xml"))
                anchor = m.data;
        QVERIFY(!anchor.isEmpty());
        struct Region {
            QString mod;
            int begin = -1, end = -1;
            QString name;
        };
        std::map<QString, Region> byId;
        QSet<QString> called;
        QXmlStreamReader xml(anchor);
        QString current;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (xml.name() == QLatin1String("region")) {
                current = xml.attributes().value(QLatin1String("id")).toString();
                byId[current] = { xml.attributes().value(QLatin1String("mod")).toString(),
                    xml.attributes().value(QLatin1String("begin")).toInt(),
                    xml.attributes().value(QLatin1String("end")).toInt(), {} };
            } else if (xml.name() == QLatin1String("name") && !current.isEmpty()) {
                byId[current].name = xml.readElementText().trimmed();
                current.clear();
            } else if (xml.name() == QLatin1String("cnode")) {
                called.insert(xml.attributes().value(QLatin1String("calleeId")).toString());
            }
        }
        QVERIFY(!xml.hasError());
        const auto trial = test::mustLoad(path);
        QVERIFY(trial);
        int located = 0;
        int unlocated = 0;
        QString sourceFile;
        for (const QString& id : called) {
            const Region& r = byId[id];
            const EventId e = trial->findEvent(r.name);
            QVERIFY2(e.isValid(), qPrintable(r.name));
            const auto location = sourceLocationOf(*trial, e);
            if (r.begin > 0) {
                QCOMPARE(location,
                    std::optional(SourceLocation { r.mod, r.begin, 0, r.end >= r.begin ? r.end : r.begin, 0 }));
                sourceFile = r.mod;
                ++located;
            } else {
                QVERIFY2(!location, qPrintable(r.name));
                ++unlocated;
            }
        }
        QVERIFY(located > 0);
        QVERIFY(unlocated > 0);
        // The per-line costs of the program's file are the statistics table's numbers.
        const MetricId time = trial->findMetric(QStringLiteral("Time"));
        QVERIFY(time.isValid());
        const auto stats = TrialStatistics::of(*trial);
        for (Statistic s : { Statistic::MeanAll, Statistic::Total, Statistic::Max }) {
            const SourceFileCosts costs = sourceFileCosts(*trial, sourceFile, time, s);
            QCOMPARE(costs.events.size(), std::size_t(located));
            for (const SourceEventCost& c : costs.events) {
                QCOMPARE(c.exclusive, *statisticValue(*trial, *stats, c.event, time, ValueType::Exclusive, s));
                QCOMPARE(c.inclusive, *statisticValue(*trial, *stats, c.event, time, ValueType::Inclusive, s));
            }
        }
    }

    // Caliper json-split: the "file:line" of the sampled sourceloc#cali.sampler.pc nodes, with the
    // full path (Hatchet's statement names keep only the base name).
    void caliperSourceloc()
    {
        const QString path = dataPath(QStringLiteral("hatchet/caliper-cpi-json/cpi-callpath-profile.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        const QJsonArray columns = doc.value(QLatin1String("columns")).toArray();
        const QJsonArray nodes = doc.value(QLatin1String("nodes")).toArray();
        qsizetype primary = -1;
        qsizetype loc = -1;
        for (qsizetype c = 0; c < columns.size(); ++c) {
            if (columns[c].toString() == QLatin1String("source.function#callpath.address"))
                primary = c;
            if (columns[c].toString() == QLatin1String("sourceloc#cali.sampler.pc"))
                loc = c;
        }
        QVERIFY(primary >= 0 && loc >= 0);
        QSet<QString> expected; // the labels of rows with a region, "UNKNOWN:0" aside
        for (const auto& row : doc.value(QLatin1String("data")).toArray()) {
            const QJsonArray cells = row.toArray();
            if (cells[primary].isNull() || cells[loc].isNull())
                continue;
            const QString label = nodes[cells[loc].toInt()].toObject().value(QLatin1String("label")).toString();
            if (label.section(QLatin1Char(':'), -1).toInt() > 0)
                expected.insert(label);
        }
        QVERIFY(expected.size() > 10);
        const auto trial = test::mustLoad(path);
        QVERIFY(trial);
        QSet<QString> got;
        int statements = 0;
        for (std::size_t i = 0; i < trial->eventCount(); ++i) {
            const EventId e(i);
            const SourceLocation* recorded = trial->recordedSourceLocation(e);
            if (!recorded)
                continue;
            QCOMPARE(recorded->endLine, recorded->beginLine);
            got.insert(QStringLiteral("%1:%2").arg(recorded->file).arg(recorded->beginLine));
            if (trial->eventInGroup(e, QStringLiteral("statement")) && !trial->event(e).isCallPath()) {
                // The statement's name is "<base name>:<line>" of the same location.
                const QString name = trial->event(e).name;
                QCOMPARE(
                    QStringLiteral("%1:%2").arg(recorded->file.section(QLatin1Char('/'), -1)).arg(recorded->beginLine),
                    name);
                QVERIFY(QFileInfo(recorded->file).isAbsolute());
                ++statements;
            }
        }
        QVERIFY(statements > 0);
        // Every location is a sampled label; a function sampled at different lines in different call
        // paths has none, so some labels of single-location regions are not an event's.
        QVERIFY2(expected.contains(got), qPrintable(QStringList((got - expected).values()).join(u' ')));
        QVERIFY(got.size() >= statements);
    }

    // difference and mean keep the location of the events they match, also when the matching policy
    // strips source blocks from names.
    void algebraKeepsLocations()
    {
        const auto a = test::mustLoad(dataPath(QStringLiteral("cubelib/test/test0.0/test0.0.cubex")));
        const auto b = test::mustLoad(dataPath(QStringLiteral("cubelib/test/test0.0/test0.0.cube")));
        QVERIFY(a && b);
        for (const AlgebraResult& result : { difference(*a, *b), mean({ a, b }) }) {
            QVERIFY2(result.ok(), qPrintable(result.error()));
            const Trial& t = *result.trial();
            for (const char* name : { "foo", "bar", "main", "main => foo" }) {
                const EventId e = t.findEvent(QString::fromLatin1(name));
                QVERIFY2(e.isValid(), name);
                QVERIFY(t.recordedSourceLocation(e));
                QCOMPARE(sourceLocationOf(t, e), sourceLocationOf(*a, a->findEvent(QString::fromLatin1(name))));
            }
        }
        // NO_SOURCE: "int foo(int) C [{foo.c} {3,1}-{7,1}]" becomes "int foo(int) C", which keeps the location.
        const auto wrap = test::mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
        QVERIFY(wrap);
        AlgebraOptions options;
        options.match.policy = EventMatchPolicy::NoSource;
        const AlgebraResult diff = difference(*wrap, *wrap, options);
        QVERIFY2(diff.ok(), qPrintable(diff.error()));
        int stripped = 0;
        for (std::size_t i = 0; i < wrap->eventCount(); ++i) {
            const auto location = sourceLocationOf(*wrap, EventId(i));
            if (!location)
                continue;
            const QString key = matchKey(wrap->event(EventId(i)).name, options.match);
            const EventId e = diff.trial()->findEvent(key);
            QVERIFY2(e.isValid(), qPrintable(key));
            QCOMPARE(sourceLocationOf(*diff.trial(), e), location);
            if (!parseSourceLocation(key))
                ++stripped;
        }
        QVERIFY(stripped > 0);
    }

    // A call-path profile: only flat events carry costs (a call path's cost is its flat event's share).
    void callPathsNotCounted()
    {
        const auto trial = test::mustLoad(dataPath(QStringLiteral("tau2/ppk/matmult-openmp-24thread-samples.ppk")));
        QVERIFY(trial);
        const auto index = SourceIndex::of(*trial);
        QVERIFY(!index->files().empty());
        for (const auto& file : index->files()) {
            const SourceFileCosts costs = sourceFileCosts(*trial, file.name, MetricId(0u), Statistic::MeanAll);
            QVERIFY(costs.events.size() >= file.events);
            for (const auto& c : costs.events)
                QVERIFY(!trial->event(c.event).isCallPath());
            for (std::size_t i = 1; i < costs.events.size(); ++i)
                QVERIFY(costs.events[i - 1].location.beginLine <= costs.events[i].location.beginLine);
        }
    }
};

QTEST_GUILESS_MAIN(TestSourceCost)
#include "tst_sourcecost.moc"
