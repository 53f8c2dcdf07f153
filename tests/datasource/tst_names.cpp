// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/model/names.h"

#include <QTest>

using namespace parallax;

class TestNames : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void canonical_data()
    {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<QString>("canonical");
        // docs/FORMATS.md 1.4 and docs/SEMANTICS.md 1.4.
        QTest::newRow("trailing") << QStringLiteral("MPI_Init()  ") << QStringLiteral("MPI_Init()");
        QTest::newRow("callpath") << QStringLiteral(".TAU application => MPI_Finalize()   => MPI_File_open()")
                                  << QStringLiteral(".TAU application => MPI_Finalize() => MPI_File_open()");
        QTest::newRow("param") << QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]   [ <size> = <100> ]  ")
                               << QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] [ <size> = <100> ]");
        QTest::newRow("snapshot") << QStringLiteral(".TAU application ") << QStringLiteral(".TAU application");
        QTest::newRow("no spaces") << QStringLiteral("a=>b") << QStringLiteral("a => b");
        QTest::newRow("tabs") << QStringLiteral("a\t\tb") << QStringLiteral("a b");
    }
    void canonical()
    {
        QFETCH(QString, raw);
        QFETCH(QString, canonical);
        QCOMPARE(QString::fromStdString(names::canonical(raw.toStdString())), canonical);
    }

    void pprofName()
    {
        // pprof keeps one trailing space and drops [{...}] locations unless -a or "Loop:".
        QCOMPARE(names::pprofName("MPI_Init()  ", false), std::string("MPI_Init() "));
        QCOMPARE(names::pprofName("int main(int, char **) C [{main.c} {5,1}-{17,1}]  ", false),
            std::string("int main(int, char **) C "));
        QCOMPARE(names::pprofName("int main(int, char **) C [{main.c} {5,1}-{17,1}]  ", true),
            std::string("int main(int, char **) C [{main.c} {5,1}-{17,1}] "));
        QCOMPARE(names::pprofName("Loop: INTEGRATE [{integrate_erk.pp.f90} {75,3}-{95,13}]", false),
            std::string("Loop: INTEGRATE [{integrate_erk.pp.f90} {75,3}-{95,13}]"));
        QCOMPARE(names::pprofName("  lead  x", false), std::string("  lead x"));
    }

    void components()
    {
        const auto parts = names::callPathComponents("a => b c => d");
        QCOMPARE(parts.size(), std::size_t(3));
        QCOMPARE(std::string(parts[1]), std::string("b c"));
        QVERIFY(names::isCallPath("a => b"));
        QVERIFY(!names::isCallPath("a"));
        std::string_view event, context;
        QVERIFY(names::splitContextEvent("Message size : ADIOS open : x => MPI_Bcast()", event, context));
        QCOMPARE(std::string(event), std::string("Message size"));
        QCOMPARE(std::string(context), std::string("ADIOS open : x => MPI_Bcast()"));
        QCOMPARE(names::withoutSourceLocation("int foo(int) C [{foo.c} {3,1}-{7,1}]"), std::string("int foo(int) C"));
    }
};

QTEST_GUILESS_MAIN(TestNames)
#include "tst_names.moc"
