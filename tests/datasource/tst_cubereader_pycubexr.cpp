// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE reader against pycubexr's CSV dumps of expected values (every value of cube/pycubexr,
// MANIFEST.md), read independently here: anchor.xml with QXmlStreamReader, the CSV to the digits
// printed; and the facts of the other cube/pycubexr samples (every data type, the call-tree trap).
#include "tests/datasource/cubetestutil.h"

#include <QXmlStreamReader>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

// ---- independent readings of the new samples' anchor.xml and CSV ground truth --------------------

/// What the CSV dumps need from anchor.xml, read here with QXmlStreamReader from the tar (minitar):
/// cnode id -> call path (region names joined with " => "), children, location Id -> ThreadKey,
/// metric uniq_name -> disp_name and dtype.
struct AnchorFacts {
    QHash<qint64, QString> path;
    QHash<qint64, QList<qint64>> children;
    QList<qint64> cnodes; // document order
    QHash<qint64, ThreadKey> location;
    QHash<QString, QString> dispName;
    QHash<QString, QString> dtype;
};

AnchorFacts anchorFacts(const QString& cubex)
{
    AnchorFacts f;
    const QList<TarMember> members = readTar(fileBytes(cubex));
    const TarMember* anchor = member(members, QStringLiteral("anchor.xml"));
    if (!anchor)
        return f;
    QXmlStreamReader xml(anchor->data);
    QHash<qint64, QString> regionName;
    QHash<qint64, QString> regionMangled;
    QList<qint64> cnodeStack;
    QList<qint64> regionStack;
    QString text, uniq, disp;
    qint64 groupRank = -1;
    qint64 locId = -1;
    bool inLocation = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            text.clear();
            const auto a = xml.attributes();
            if (xml.name() == u"region")
                regionStack << a.value(QLatin1String("id")).toLongLong();
            else if (xml.name() == u"cnode") {
                const qint64 id = a.value(QLatin1String("id")).toLongLong();
                const qint64 callee = a.value(QLatin1String("calleeId")).toLongLong();
                // pycubexr expects the mangled name where Score-P's demangler made a one-letter name a type
                QString name = regionName.value(callee);
                if (regionMangled.value(callee).size() == 1 && regionMangled.value(callee) != name)
                    name = regionMangled.value(callee);
                f.path.insert(
                    id, cnodeStack.isEmpty() ? name : f.path.value(cnodeStack.last()) + QStringLiteral(" => ") + name);
                if (!cnodeStack.isEmpty())
                    f.children[cnodeStack.last()] << id;
                f.cnodes << id;
                cnodeStack << id;
            } else if (xml.name() == u"locationgroup")
                groupRank = -1;
            else if (xml.name() == u"location") {
                inLocation = true;
                locId = a.value(QLatin1String("Id")).toLongLong();
            }
        } else if (xml.isCharacters()) {
            text += xml.text();
        } else if (xml.isEndElement()) {
            const QStringView n = xml.name();
            if (n == u"cnode")
                cnodeStack.removeLast();
            else if (n == u"region")
                regionStack.removeLast();
            else if (n == u"name" && !regionStack.isEmpty() && cnodeStack.isEmpty() && !inLocation)
                regionName.insert(regionStack.last(), text.trimmed());
            else if (n == u"mangled_name" && !regionStack.isEmpty())
                regionMangled.insert(regionStack.last(), text.trimmed());
            else if (n == u"uniq_name")
                uniq = text.trimmed();
            else if (n == u"disp_name")
                disp = text.trimmed();
            else if (n == u"dtype") {
                f.dispName.insert(uniq, disp);
                f.dtype.insert(uniq, text.trimmed());
            } else if (n == u"rank" && inLocation)
                f.location.insert(locId, ThreadKey { static_cast<int>(groupRank), 0, text.trimmed().toInt() });
            else if (n == u"rank")
                groupRank = text.trimmed().toLongLong();
            else if (n == u"location")
                inLocation = false;
        }
    }
    if (xml.hasError())
        qWarning("%s: %s", qPrintable(cubex), qPrintable(xml.errorString()));
    return f;
}

/// Half a unit in the last printed digit of a CSV number ("0.853407" -> 5e-7, "3.5713e-005" ->
/// 5e-10); 0 for a plain integer, which must match exactly.
double printedTolerance(const QString& token)
{
    QString mantissa = token.trimmed();
    int exponent = 0;
    const qsizetype e = mantissa.indexOf(QLatin1Char('e'), 0, Qt::CaseInsensitive);
    if (e >= 0) {
        exponent = mantissa.mid(e + 1).toInt();
        mantissa = mantissa.left(e);
    }
    const qsizetype dot = mantissa.indexOf(QLatin1Char('.'));
    if (dot < 0 && e < 0)
        return 0;
    const int decimals = dot < 0 ? 0 : static_cast<int>(mantissa.size() - dot - 1);
    return 0.5 * std::pow(10.0, exponent - decimals) * (1 + 1e-9);
}

/// Compares every value of a pycubexr CSV dump (excl.csv or incl.csv: one row per cnode and
/// location, one column per metric uniq_name) with the trial. Returns the number of values compared.
int compareCsvDump(const Trial& t, const AnchorFacts& a, const QString& csvPath, bool inclusive)
{
    QFile csv(csvPath);
    if (!csv.open(QIODevice::ReadOnly)) {
        qWarning("cannot open %s", qPrintable(csvPath));
        return -1;
    }
    const QStringList lines = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QStringList header = lines.value(0).split(QLatin1Char(','));
    for (QString& h : header)
        h = h.trimmed();
    if (header.size() < 3 || header[0] != QLatin1String("Cnode ID") || header[1] != QLatin1String("Thread ID")) {
        qWarning("%s: unexpected header", qPrintable(csvPath));
        return -1;
    }
    // The cell of a cnode on a location, for one metric; absent cells are 0.
    auto value = [&](qint64 cnode, ThreadKey key, const QString& metric, bool incl) {
        const double v = cell(t, key, a.path.value(cnode), metric, incl);
        return v == Absent ? 0.0 : v;
    };
    int compared = 0;
    for (qsizetype l = 1; l < lines.size(); ++l) {
        const QStringList cols = lines[l].split(QLatin1Char(','));
        if (cols.size() != header.size()) {
            qWarning("%s line %lld: %lld columns", qPrintable(csvPath), static_cast<long long>(l + 1),
                static_cast<long long>(cols.size()));
            return -1;
        }
        const qint64 cnode = cols[0].toLongLong();
        const ThreadKey key = a.location.value(cols[1].toLongLong(), ThreadKey { -1, -1, -1 });
        if (!a.path.contains(cnode) || key.node < 0) {
            qWarning("%s line %lld: unknown cnode or location", qPrintable(csvPath), static_cast<long long>(l + 1));
            return -1;
        }
        for (qsizetype c = 2; c < header.size(); ++c) {
            const QString uniq = header[c];
            const QString metric = a.dispName.value(uniq);
            const QString dtype = a.dtype.value(uniq);
            const double expected = cols[c].trimmed().toDouble();
            double actual = 0;
            if (inclusive && (dtype == QLatin1String("MINDOUBLE") || dtype == QLatin1String("MAXDOUBLE"))) {
                // CubeGUI's value of a collapsed node: the minimum (maximum) over its subtree. The
                // trial keeps each call path's own value (excl = incl = stored).
                const bool isMin = dtype == QLatin1String("MINDOUBLE");
                actual = value(cnode, key, metric, false);
                QList<qint64> todo = a.children.value(cnode);
                while (!todo.isEmpty()) {
                    const qint64 d = todo.takeLast();
                    const double v = value(d, key, metric, false);
                    actual = isMin ? std::min(actual, v) : std::max(actual, v);
                    todo << a.children.value(d);
                }
            } else {
                actual = value(cnode, key, metric, inclusive);
            }
            const double tolerance = printedTolerance(cols[c]);
            if (!(std::fabs(actual - expected) <= tolerance)) {
                qWarning("%s line %lld, %s (%s), cnode %lld '%s' on %s: the trial has %.17g, the CSV %s",
                    qPrintable(csvPath), static_cast<long long>(l + 1), qPrintable(uniq), qPrintable(metric),
                    static_cast<long long>(cnode), qPrintable(a.path.value(cnode)), qPrintable(key.toString()), actual,
                    qPrintable(cols[c]));
                return -1;
            }
            ++compared;
        }
    }
    return compared;
}

} // namespace

class TestCubeReaderPycubexr : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ---- cube/pycubexr (MANIFEST.md; the CSV dumps are pycubexr's expected values) -----------------

    void pycubexrCsvGroundTruth_data()
    {
        QTest::addColumn<QString>("cubex");
        QTest::addColumn<int>("cells"); // cnodes x locations
        QTest::addColumn<int>("metrics");
        QTest::newRow("time.p4.n2000.x1.r0") << pycubexr("time.p4.n2000.x1.r0/profile.cubex") << 46 * 4 << 10;
        QTest::newRow("call_tree_test") << pycubexr("call_tree_test/call_tree_test.cubex") << 18 << 8;
    }
    void pycubexrCsvGroundTruth()
    {
        QFETCH(QString, cubex);
        QFETCH(int, cells);
        QFETCH(int, metrics);
        const auto t = mustRead(cubex);
        QVERIFY(t);
        const AnchorFacts a = anchorFacts(cubex);
        QCOMPARE(a.cnodes.size() * a.location.size(), qsizetype(cells));
        QCOMPARE(int(t->metricCount()), metrics);
        // Every value of both dumps, to the digits printed: exclusive and inclusive along the call tree.
        const QString dir = QFileInfo(cubex).absolutePath();
        QCOMPARE(compareCsvDump(*t, a, dir + QStringLiteral("/excl.csv"), false), cells * metrics);
        QCOMPARE(compareCsvDump(*t, a, dir + QStringLiteral("/incl.csv"), true), cells * metrics);
        checkConsistency(*t);
    }

    void pycubexrTimeP4Facts()
    {
        const auto t = mustRead(pycubexr("time.p4.n2000.x1.r0/profile.cubex"));
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("Creator")), QStringLiteral("Score-P 9.0-dev"));
        QCOMPARE(t->metadataValue(QStringLiteral("Cube Version")), QStringLiteral("4.8.2"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE_CT_AGGR")), QStringLiteral("SUM"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE format version")), QStringLiteral("4.4"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE topologies")), QStringLiteral("Process x Thread: 4 x 1"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("46"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("262"));
        QCOMPARE(t->threadCount(), std::size_t(4));
        QCOMPARE(metricNames(*t),
            QStringList({ QStringLiteral("Visits"), QStringLiteral("Time"), QStringLiteral("Minimum Inclusive Time"),
                QStringLiteral("Maximum Inclusive Time"), QStringLiteral("bytes_put"), QStringLiteral("bytes_get"),
                QStringLiteral("io_bytes_read"), QStringLiteral("io_bytes_written"), QStringLiteral("bytes_sent"),
                QStringLiteral("bytes_received") }));
        QCOMPARE(countEvents(*t, true), std::size_t(45)); // 46 cnodes under the one root bg_time
        QCOMPARE(countEvents(*t, false), std::size_t(31)); // distinct regions on cnodes
        QVERIFY(t->findEvent(QStringLiteral("bg_time => main")).isValid());
        QVERIFY(t->findEvent(QStringLiteral("bg_time => main => MODEL_1(unsigned long, unsigned long, int, int)"))
                    .isValid());
        const double rootIncl[] = { 0.8534074635, 0.8439409241, 0.8427086890, 0.8440937403 };
        const double rootExcl[] = { 3.5713e-05, 3.46356e-05, 3.72385e-05, 3.70558e-05 };
        const double init[] = { 0.46024222, 0.45069852, 0.44946289, 0.45093212 };
        const double visits[] = { 4215323, 4201123, 4201123, 4201123 };
        for (int r = 0; r < 4; ++r) {
            QVERIFY(std::fabs(incl(*t, r, QStringLiteral("bg_time"), QStringLiteral("Time")) - rootIncl[r]) <= 5e-11);
            QVERIFY(std::fabs(excl(*t, r, QStringLiteral("bg_time"), QStringLiteral("Time")) - rootExcl[r]) <= 5e-10);
            QVERIFY(
                std::fabs(incl(*t, r, QStringLiteral("bg_time => main => MPI_Init"), QStringLiteral("Time")) - init[r])
                <= 5e-9);
            QCOMPARE(incl(*t, r, QStringLiteral("bg_time"), QStringLiteral("Visits")), visits[r]);
        }
        QVERIFY(t->warnings().isEmpty());
    }

    void pycubexrCallTreeTrap()
    {
        const auto t = mustRead(pycubexr("call_tree_test/call_tree_test.cubex"));
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("Creator")), QStringLiteral("Score-P 8.4"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("18"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE topologies")), QStringLiteral("Process x Thread: 1 x 1"));
        // Score-P's demangler read the functions a, b, c, d as the type codes "signed char", "bool",
        // "char", "double": the mangled names are the functions' names (as pycubexr expects).
        for (const char* leaf : { "a", "b", "c", "d" }) {
            const QString path = QStringLiteral("test.x => main => ") + QLatin1String(leaf);
            QVERIFY2(t->findEvent(path).isValid(), qPrintable(path));
            for (int i = 1; i <= 3; ++i)
                QVERIFY(t->findEvent(path + QStringLiteral(" => %1%2").arg(QLatin1String(leaf)).arg(i)).isValid());
        }
        for (const char* wrong : { "signed char", "bool", "char", "double" })
            QVERIFY2(!t->findEvent(QString::fromLatin1(wrong)).isValid(), wrong);
        QVERIFY(hasWarning(*t, QStringLiteral("4 region name(s) are a C++ type")));
        QVERIFY(hasWarning(*t, QStringLiteral("'signed char' -> 'a'")));
        // Inclusive time and visits (MANIFEST), to the digits given.
        const struct {
            const char* path;
            const char* time;
            double visits;
        } expected[] = { { "test.x", "74.0505", 72 }, { "test.x => main", "74.0500", 71 },
            { "test.x => main => a", "60.001", 7 }, { "test.x => main => a => a1", "10.0001", 1 },
            { "test.x => main => a => a2", "20.0002", 2 }, { "test.x => main => a => a3", "30.0004", 3 },
            { "test.x => main => b", "12.0020", 14 }, { "test.x => main => b => b1", "2.0003", 2 },
            { "test.x => main => b => b2", "4.0006", 4 }, { "test.x => main => b => b3", "6.0009", 6 },
            { "test.x => main => c", "1.8029", 21 }, { "test.x => main => c => c1", "0.30043", 3 } };
        for (const auto& e : expected) {
            const QString path = QLatin1String(e.path);
            const double time = incl(*t, 0, path, QStringLiteral("Time"));
            QVERIFY2(std::fabs(time - QByteArray(e.time).toDouble()) <= printedTolerance(QLatin1String(e.time)),
                qPrintable(QStringLiteral("%1: %2").arg(path).arg(time, 0, 'g', 12)));
            QCOMPARE(incl(*t, 0, path, QStringLiteral("Visits")), e.visits);
        }
    }

    void pycubexrEveryDataType()
    {
        const QString file = pycubexr("test_only_files/cube-values_example.cubex");
        const auto t = mustRead(file);
        QVERIFY(t);
        QVERIFY(t->metadataValue(QStringLiteral("CUBE Library version")).startsWith(QLatin1String("CubeLib-4.8.2")));
        QCOMPARE(t->metadataValue(QStringLiteral("ScaleFuncPresent")), QStringLiteral("1"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("3"));
        // Every plain numeric type is imported as a metric; every composite type as one metric per part
        // (RATE main/duration, TAU_ATOMIC count/min/max/sum/sum of squares, HISTOGRAM(5) min/max/5 bins,
        // NDOUBLES(10) 10 parts, COMPLEX re/im); SCALE_FUNC (unsupported in pycubexr too) is skipped with
        // a warning, an error under strict mode.
        const QStringList plain { QStringLiteral("INT8"), QStringLiteral("UINT8"), QStringLiteral("INT16"),
            QStringLiteral("UINT16"), QStringLiteral("INT32"), QStringLiteral("UINT32"), QStringLiteral("INT64"),
            QStringLiteral("UINT64"), QStringLiteral("DOUBLE"), QStringLiteral("MINDOUBLE"),
            QStringLiteral("MAXDOUBLE") };
        QStringList expectedMetrics = plain;
        auto parts = [&](const QString& name, const QStringList& list) {
            for (const QString& p : list)
                expectedMetrics << QStringLiteral("%1 (%2)").arg(name, p);
        };
        const QStringList atomic { QStringLiteral("count"), QStringLiteral("min"), QStringLiteral("max"),
            QStringLiteral("sum"), QStringLiteral("sum of squares") };
        parts(QStringLiteral("RATE"), { QStringLiteral("main"), QStringLiteral("duration") });
        parts(QStringLiteral("TAU_ATOMIC"), atomic);
        parts(QStringLiteral("HISTOGRAM5"),
            { QStringLiteral("min"), QStringLiteral("max"), QStringLiteral("bin 1"), QStringLiteral("bin 2"),
                QStringLiteral("bin 3"), QStringLiteral("bin 4"), QStringLiteral("bin 5") });
        QStringList ten;
        for (int i = 1; i <= 10; ++i)
            ten << QString::number(i);
        parts(QStringLiteral("NDOUBLES10"), ten);
        parts(QStringLiteral("COMPLEX"), { QStringLiteral("re"), QStringLiteral("im") });
        parts(QStringLiteral("TAU_ATOMIC2"), atomic);
        QCOMPARE(metricNames(*t), expectedMetrics);
        QVERIFY(hasWarning(*t, QStringLiteral("'SCALE_FUNC3' has the data type SCALE_FUNC")));
        QVERIFY(
            hasWarning(*t, QStringLiteral("member '15.data' belongs to metric 'SCALE_FUNC3', which is not imported")));
        QCOMPARE(t->warnings().size(), 3); // SCALE_FUNC, its member, no Visits metric
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric TAU_ATOMIC (min)"))
                    .contains(QLatin1String("dtype TAU_ATOMIC, part min")));
        QVERIFY(
            t->metadataValue(QStringLiteral("CUBE non-additive metrics")).contains(QLatin1String("TAU_ATOMIC (max)")));
        QCOMPARE(t->metric(t->findMetric(QStringLiteral("TAU_ATOMIC (count)"))).unit, QStringLiteral("count"));
        const auto strict = readCube(file, true);
        QVERIFY(!strict.ok());
        QVERIFY2(strict.error().message.contains(QLatin1String("SCALE_FUNC"))
                && strict.error().message.contains(QLatin1String("(strict mode)")),
            qPrintable(describe(strict)));
        // Locations are listed in the order Id 0, 2, 1, 3; values are stored in Id order.
        const AnchorFacts a = anchorFacts(file);
        QCOMPARE(a.location.size(), qsizetype(4));
        QCOMPARE(a.location.value(2).toString(), QStringLiteral("0,0,2"));
        QCOMPARE(a.location.value(1).toString(), QStringLiteral("1,0,1"));
        const double doubles[3][4] = { { 1.1, 2.2, 3.3, 4.4 }, { 5.5, 6.6, 7.7, 8.8 }, { 9.9, 10.1, 11.11, 12.12 } };
        const QString paths[3]
            = { QStringLiteral("main"), QStringLiteral("main => foo"), QStringLiteral("main => bar") };
        for (int c = 0; c < 3; ++c) {
            for (int l = 0; l < 4; ++l) {
                const ThreadKey key = a.location.value(l);
                // INT8..UINT64 and DOUBLE are INCLUSIVE metrics: the stored value is the inclusive one.
                for (int m = 0; m < 8; ++m)
                    QCOMPARE(cell(*t, key, paths[c], plain[m], true), double(4 * c + l + 1));
                QCOMPARE(cell(*t, key, paths[c], QStringLiteral("DOUBLE"), true), doubles[c][l]);
                // MIN/MAXDOUBLE are EXCLUSIVE and non-additive: excl = incl = stored.
                for (const QString& m : { QStringLiteral("MINDOUBLE"), QStringLiteral("MAXDOUBLE") }) {
                    QCOMPARE(cell(*t, key, paths[c], m, false), doubles[c][l]);
                    QCOMPARE(cell(*t, key, paths[c], m, true), doubles[c][l]);
                }
            }
        }
        // main's exclusive INT8 = 1 - 5 - 9 on location 0 (inclusive metric minus its children).
        QCOMPARE(cell(*t, a.location.value(0), paths[0], QStringLiteral("INT8"), false), -13.0);
        // RATE on main: (1, 1), (1, 2), (1, 3), (1, 4); TAU_ATOMIC on main (n, min, max, sum, sum2):
        // (1,1,1,1,1), (2,1,3,4,10), (3,1,5,9,35), (5,1,11,27,205); foo on location 0 all zero.
        const double atomicMain[4][5]
            = { { 1, 1, 1, 1, 1 }, { 2, 1, 3, 4, 10 }, { 3, 1, 5, 9, 35 }, { 5, 1, 11, 27, 205 } };
        for (int l = 0; l < 4; ++l) {
            const ThreadKey key = a.location.value(l);
            QCOMPARE(cell(*t, key, paths[0], QStringLiteral("RATE (main)"), true), 1.0);
            QCOMPARE(cell(*t, key, paths[0], QStringLiteral("RATE (duration)"), true), double(l + 1));
            for (int p = 0; p < 5; ++p) {
                const QString metric = QStringLiteral("TAU_ATOMIC (%1)").arg(atomic[p]);
                QCOMPARE(cell(*t, key, paths[0], metric, false), atomicMain[l][p]);
                if (p == 1 || p == 2) // min and max are non-additive: inclusive = stored
                    QCOMPARE(cell(*t, key, paths[0], metric, true), atomicMain[l][p]);
            }
        }
        for (const QString& p : atomic) {
            const double v = cell(*t, a.location.value(0), paths[1], QStringLiteral("TAU_ATOMIC (%1)").arg(p));
            QVERIFY(v == 0 || v == Absent);
        }
        checkConsistency(*t);
    }

    void pycubexrKripke()
    {
        const auto t = mustRead(pycubexr("kripke.p8.d2.g32.r1/profile.cubex"));
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("Creator")), QStringLiteral("Score-P 1.4"));
        QCOMPARE(t->metadataValue(QStringLiteral("Cube Version")), QStringLiteral("4.3"));
        QCOMPARE(t->metricCount(), std::size_t(15));
        QCOMPARE(t->threadCount(), std::size_t(8));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("14"));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE topologies")).isEmpty()); // no <cart> (older Score-P)
        for (const char* m : { "task_migration_loss", "PAPI_FP_OPS", "PEVT_L2_STORE_LINE", "bytes_received" })
            QVERIFY2(t->findMetric(QLatin1String(m)).isValid(), m);
        for (const char* e : { "PARALLEL => MPI_Init", "PARALLEL => Solve", "PARALLEL => Solve => LTimes",
                 "PARALLEL => Solve => LPlusTimes", "PARALLEL => Solve => Sweep" })
            QVERIFY2(t->findEvent(QLatin1String(e)).isValid(), e);
        const double time[] = { 18.6006, 18.5867, 18.5759, 18.5780, 18.5717, 18.5725, 18.5714, 18.5746 };
        for (int r = 0; r < 8; ++r)
            QVERIFY2(std::fabs(incl(*t, r, QStringLiteral("PARALLEL"), QStringLiteral("Time")) - time[r]) <= 5e-5,
                qPrintable(QString::number(r)));
        checkConsistency(*t);
    }
};

QTEST_GUILESS_MAIN(TestCubeReaderPycubexr)
#include "tst_cubereader_pycubexr.moc"
