// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Source locations in event names and finding the recorded file (docs/SEMANTICS.md §12).
#include "datasource/model/sourcelocation.h"
#include "datasource/model/trial.h"
#include "tests/common/testutil.h"

#include <QTemporaryDir>
#include <QTest>

using namespace parallax;
using parallax::test::dataPath;

class TestSourceLocation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void forms_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("begin");
        QTest::addColumn<int>("beginColumn");
        QTest::addColumn<int>("end");
        QTest::addColumn<int>("endColumn");
        QTest::newRow("pdt") << QStringLiteral("int foo(int) C [{foo.c} {3,1}-{7,1}]") << QStringLiteral("foo.c") << 3
                             << 1 << 7 << 1;
        QTest::newRow("param") << QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] [ <size> = <100> ]")
                               << QStringLiteral("wb.c") << 5 << 1 << 11 << 1;
        QTest::newRow("callpath leaf") << QStringLiteral("int main(int, char **) C [{main.c} {5,1}-{17,1}] => int "
                                                         "foo(int) C [{foo.c} {3,1}-{7,1}]")
                                       << QStringLiteral("foo.c") << 3 << 1 << 7 << 1;
        QTest::newRow("line only") << QStringLiteral("[SAMPLE] compute.omp_fn.2 [{/home/u/matmult.c} {93}]")
                                   << QStringLiteral("/home/u/matmult.c") << 93 << 0 << 93 << 0;
        QTest::newRow("cube lines") << QStringLiteral("foo [{mod.f90} {10}-{20}]") << QStringLiteral("mod.f90") << 10
                                    << 0 << 20 << 0;
        QTest::newRow("file only") << QStringLiteral("bar [{lib.so}]") << QStringLiteral("lib.so") << 0 << 0 << 0 << 0;
        QTest::newRow("hpctoolkit loop") << QStringLiteral("main => Loop@cpi.c:44") << QStringLiteral("cpi.c") << 44
                                         << 0 << 44 << 0;
        QTest::newRow("hpctoolkit statement")
            << QStringLiteral("cpi.c:31") << QStringLiteral("cpi.c") << 31 << 0 << 31 << 0;
    }
    void forms()
    {
        QFETCH(QString, name);
        const auto loc = parseSourceLocation(name);
        QVERIFY(loc);
        QTEST(loc->file, "file");
        QTEST(loc->beginLine, "begin");
        QTEST(loc->beginColumn, "beginColumn");
        QTEST(loc->endLine, "end");
        QTEST(loc->endColumn, "endColumn");
    }

    void noLocation()
    {
        QVERIFY(!parseSourceLocation(u"MPI_Init()"));
        QVERIFY(!parseSourceLocation(u"[ <size> = <100> ]"));
        QVERIFY(!parseSourceLocation(u"std::vector<int>::size() const"));
        QVERIFY(!parseSourceLocation(u"a => b [{}]"));
    }

    // Every PDT location of the wrap sample names a file beside it, and the range covers the routine
    // (tau2 MANIFEST: main.c 5–17, foo.c 3–7, wb.c 5–11).
    void realSample()
    {
        const QString dir = dataPath(QStringLiteral("tau2/tau-profiles-wrap-params"));
        const auto trial = test::mustLoad(dir);
        QVERIFY(trial);
        int located = 0;
        for (const IntervalEvent& e : trial->events()) {
            const auto loc = parseSourceLocation(e.name);
            QCOMPARE(bool(loc), e.name.contains(QLatin1String("[{")));
            if (!loc)
                continue;
            ++located;
            const SourceFileLookup found = findSourceFile(loc->file, SourceSearch { { dir }, {} });
            QVERIFY2(!found.path.isEmpty(), qPrintable(loc->file));
            QFile f(found.path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QList<QByteArray> lines = f.readAll().split('\n');
            QVERIFY(loc->endLine <= lines.size());
            QVERIFY(loc->beginLine >= 1 && loc->endLine > loc->beginLine);
            QCOMPARE(lines[loc->endLine - 1].trimmed(), QByteArray("}"));
        }
        QCOMPARE(located, 6); // main, foo, __wrap_dgemm and its three parameter profiles
        const auto main = parseSourceLocation(
            trial->event(trial->findEvent(QStringLiteral("int main(int, char **) C [{main.c} {5,1}-{17,1}]"))).name);
        QVERIFY(main);
        QCOMPARE(*main, (SourceLocation { QStringLiteral("main.c"), 5, 1, 17, 1 }));
    }

    // The OpenMP/sampling ppk records absolute paths on another machine, lines without columns.
    void realAbsolutePaths()
    {
        const auto trial = test::mustLoad(dataPath(QStringLiteral("tau2/ppk/matmult-openmp-24thread-samples.ppk")));
        QVERIFY(trial);
        int lineOnly = 0;
        for (const IntervalEvent& e : trial->events()) {
            const auto loc = parseSourceLocation(e.name);
            if (loc && loc->file.startsWith(QLatin1String("/home/users/khuck/")) && loc->beginColumn == 0
                && loc->beginLine > 0)
                ++lineOnly;
        }
        QVERIFY(lineOnly > 0);
    }

    void searchRootsAndRemap()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString local = tmp.filePath(QStringLiteral("checkout/src/solver"));
        test::writeText(local + QStringLiteral("/matmult.c"), "int main() { return 0; }\n");
        const QString recorded = QStringLiteral("/home/users/khuck/src/solver/matmult.c");
        // Not found: every path tried is listed.
        SourceFileLookup miss = findSourceFile(recorded, {});
        QVERIFY(miss.path.isEmpty());
        QCOMPARE(miss.tried, QStringList { recorded });
        // A remapping of the prefix.
        const auto rule
            = parseRemap(QStringLiteral("/home/users/khuck/src=") + tmp.filePath(QStringLiteral("checkout/src")));
        QVERIFY(rule);
        QCOMPARE(findSourceFile(recorded, SourceSearch { {}, { *rule } }).path, local + QStringLiteral("/matmult.c"));
        // A prefix only remaps at a path boundary.
        const auto partial = parseRemap(QStringLiteral("/home/users/khu=") + tmp.path());
        QVERIFY(findSourceFile(recorded, SourceSearch { {}, { *partial } }).path.isEmpty());
        // A search root: the trailing parts of the recorded path are tried under it.
        const SourceFileLookup root
            = findSourceFile(recorded, SourceSearch { { tmp.filePath(QStringLiteral("checkout")) }, {} });
        QCOMPARE(root.path, local + QStringLiteral("/matmult.c"));
        QVERIFY(root.tried.size() > 1);
        // A relative recorded name under a root.
        QCOMPARE(
            findSourceFile(QStringLiteral("src/solver/matmult.c"),
                SourceSearch { { tmp.filePath(QStringLiteral("none")), tmp.filePath(QStringLiteral("checkout")) }, {} })
                .path,
            local + QStringLiteral("/matmult.c"));
        QVERIFY(!parseRemap(QStringLiteral("nodelimiter")));
        QVERIFY(!parseRemap(QStringLiteral("=/x")));
    }

    void sameFile()
    {
        QVERIFY(sameSourceFile(QStringLiteral("a.c"), QStringLiteral("a.c")));
        QVERIFY(sameSourceFile(QStringLiteral("/home/u/src/a.c"), QStringLiteral("src/a.c")));
        QVERIFY(sameSourceFile(QStringLiteral("a.c"), QStringLiteral("/x/a.c")));
        QVERIFY(!sameSourceFile(QStringLiteral("/x/ba.c"), QStringLiteral("a.c")));
        QVERIFY(!sameSourceFile(QStringLiteral("b.c"), QStringLiteral("a.c")));
    }
};

QTEST_GUILESS_MAIN(TestSourceLocation)
#include "tst_sourcelocation.moc"
