// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The source browser (issue 20 §1): the highlighter's tokens, the gutter's numbers against the
// statistics, linked selection, finding files (search roots, remapping, Locate…) and big files.
#include "tests/common/testutil.h"
#include "views/selectionstate.h"
#include "views/source/showsource.h"
#include "views/source/sourceeditor.h"
#include "views/source/sourcehighlighter.h"
#include "views/source/sourceview.h"

#include <QApplication>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>

using namespace parallax;
using parallax::test::dataPath;

namespace {

/// The tokens of a line as "kind:text" for readable comparisons.
QStringList tokens(SourceLanguage language, const QString& line, int state = NormalState, int* next = nullptr)
{
    std::vector<SourceTokenRange> ranges;
    const int end = tokenizeSourceLine(language, line, state, &ranges);
    if (next)
        *next = end;
    static const char* kinds[] = { "kw", "comment", "string", "number", "pp" };
    QStringList out;
    for (const auto& r : ranges)
        out << QStringLiteral("%1:%2").arg(
            QLatin1String(kinds[static_cast<int>(r.token)]), line.mid(r.start, r.length));
    return out;
}

const QString WrapDir = dataPath(QStringLiteral("tau2/tau-profiles-wrap-params"));
const QString MainEvent = QStringLiteral("int main(int, char **) C [{main.c} {5,1}-{17,1}]");

} // namespace

class TestSourceView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void languages()
    {
        QCOMPARE(sourceLanguageOf(QStringLiteral("a/b/wb.c")), SourceLanguage::C);
        QCOMPARE(sourceLanguageOf(QStringLiteral("x.cpp")), SourceLanguage::Cpp);
        QCOMPARE(sourceLanguageOf(QStringLiteral("x.C")), SourceLanguage::Cpp);
        QCOMPARE(sourceLanguageOf(QStringLiteral("solver.F90")), SourceLanguage::Fortran);
        QCOMPARE(sourceLanguageOf(QStringLiteral("old.f")), SourceLanguage::FortranFixed);
        QCOMPARE(sourceLanguageOf(QStringLiteral("run.py")), SourceLanguage::Python);
        QCOMPARE(sourceLanguageOf(QStringLiteral("README")), SourceLanguage::Plain);
    }

    void cTokens()
    {
        // wb.c of the wrap sample, lines 1, 5 and 8.
        QCOMPARE(tokens(SourceLanguage::C, QStringLiteral("#include <stdio.h>")),
            QStringList { QStringLiteral("pp:#include ") });
        QCOMPARE(tokens(SourceLanguage::C, QStringLiteral("int __wrap_dgemm(int size) {")),
            (QStringList { QStringLiteral("kw:int"), QStringLiteral("kw:int") }));
        QCOMPARE(tokens(SourceLanguage::C, QStringLiteral("  printf(\"size = %d\\n\", size); // done")),
            (QStringList { QStringLiteral("string:\"size = %d\\n\""), QStringLiteral("comment:// done") }));
        QCOMPARE(tokens(SourceLanguage::C, QStringLiteral("x = 1.5e-3f + 0x1F;")),
            (QStringList { QStringLiteral("number:1.5e-3f"), QStringLiteral("number:0x1F") }));
        // A block comment over two lines, and a word inside it is not a keyword.
        int next = -1;
        QCOMPARE(tokens(SourceLanguage::C, QStringLiteral("a; /* int"), NormalState, &next),
            QStringList { QStringLiteral("comment:/* int") });
        QCOMPARE(next, int(InBlockComment));
        QCOMPARE(tokens(SourceLanguage::C, QStringLiteral("return */ return"), next, &next),
            (QStringList { QStringLiteral("comment:return */"), QStringLiteral("kw:return") }));
        QCOMPARE(next, int(NormalState));
        // C++ keywords are not C's.
        QCOMPARE(tokens(SourceLanguage::C, QStringLiteral("class")), QStringList {});
        QCOMPARE(tokens(SourceLanguage::Cpp, QStringLiteral("template <typename T> class")),
            (QStringList { QStringLiteral("kw:template"), QStringLiteral("kw:typename"), QStringLiteral("kw:class") }));
    }

    void fortranTokens()
    {
        QCOMPARE(tokens(SourceLanguage::Fortran, QStringLiteral("  DO i = 1, n ! loop over 'cells'")),
            (QStringList {
                QStringLiteral("kw:DO"), QStringLiteral("number:1"), QStringLiteral("comment:! loop over 'cells'") }));
        QCOMPARE(tokens(SourceLanguage::Fortran, QStringLiteral("print *, 'it''s'")),
            (QStringList { QStringLiteral("kw:print"), QStringLiteral("string:'it'"), QStringLiteral("string:'s'") }));
        QCOMPARE(tokens(SourceLanguage::Fortran, QStringLiteral("x = 1.0d-3")),
            QStringList { QStringLiteral("number:1.0d-3") });
        // Fixed form: a C in column 1 is a comment line; in free form it is a name.
        QCOMPARE(tokens(SourceLanguage::FortranFixed, QStringLiteral("C     call solve")),
            QStringList { QStringLiteral("comment:C     call solve") });
        QCOMPARE(tokens(SourceLanguage::Fortran, QStringLiteral("C = 1")), QStringList { QStringLiteral("number:1") });
    }

    void pythonTokens()
    {
        QCOMPARE(tokens(SourceLanguage::Python, QStringLiteral("def f(self): return 'x'  # note")),
            (QStringList { QStringLiteral("kw:def"), QStringLiteral("kw:self"), QStringLiteral("kw:return"),
                QStringLiteral("string:'x'"), QStringLiteral("comment:# note") }));
        int next = -1;
        QCOMPARE(tokens(SourceLanguage::Python, QStringLiteral("s = \"\"\"doc"), NormalState, &next),
            QStringList { QStringLiteral("string:\"\"\"doc") });
        QCOMPARE(next, int(InTripleDouble));
        QCOMPARE(tokens(SourceLanguage::Python, QStringLiteral("end\"\"\" if"), next, &next),
            (QStringList { QStringLiteral("string:end\"\"\""), QStringLiteral("kw:if") }));
        QCOMPARE(next, int(NormalState));
        const QString text = QStringLiteral("a = 1\n'''\nx\n'''\nb = 2\n");
        const auto states = sourceLineStates(SourceLanguage::Python, text);
        QCOMPARE(states, (std::vector<std::uint8_t> { 0, 0, 2, 2, 0, 0 }));
    }

    // The gutter shows the statistics table's numbers of the events in the file.
    void gutterIsTheStatistics()
    {
        const auto trial = test::mustLoad(WrapDir);
        QVERIFY(trial);
        SelectionState state;
        state.setTrial(trial);
        SourceView view(&state);
        view.resize(1000, 600);
        view.show();
        state.selectEvent(trial->findEvent(QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]")));
        view.updateNow();
        QCOMPARE(view.path(), QDir(WrapDir).filePath(QStringLiteral("wb.c")));
        QCOMPARE(view.editor()->blockCount(), 12); // 11 lines and the empty one after the last newline
        QCOMPARE(view.editor()->markedFirst(), 5);
        QVERIFY(view.locateButton()->isHidden());
        const auto stats = TrialStatistics::of(*trial);
        const EventId top = trial->findEvent(QStringLiteral("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}]"));
        for (Statistic s : { Statistic::MeanAll, Statistic::Total, Statistic::Max }) {
            view.setStatistic(s);
            view.updateNow();
            const double excl = *statisticValue(*trial, *stats, top, state.metric(), ValueType::Exclusive, s);
            const double incl = *statisticValue(*trial, *stats, top, state.metric(), ValueType::Inclusive, s);
            const Metric& m = trial->metric(state.metric());
            QCOMPARE(view.editor()->gutterText(5),
                formatMetricValue(excl, m, state.timeUnit()) + QLatin1Char(' ')
                    + formatMetricValue(incl, m, state.timeUnit()) + QStringLiteral(" +3"));
        }
        QVERIFY(view.editor()->gutterText(6).isEmpty());
        // The highlighter formatted the shown lines only on demand, and "int" on line 5 is a keyword.
        QVERIFY(view.editor()->highlighter()->highlightedCount() > 0);
        const QTextBlock line5 = view.editor()->document()->findBlockByNumber(4);
        QVERIFY(!line5.layout()->formats().isEmpty());
    }

    // Clicking a cost selects its event everywhere; a "Show Source" request selects and shows.
    void linkedSelection()
    {
        const auto trial = test::mustLoad(WrapDir);
        QVERIFY(trial);
        SelectionState state;
        state.setTrial(trial);
        SourceView view(&state);
        view.resize(1000, 600);
        view.show();
        state.selectEvent(trial->findEvent(MainEvent));
        view.updateNow();
        QCOMPARE(view.recordedFile(), QStringLiteral("main.c"));
        state.selectEvent(trial->findEvent(QStringLiteral("MPI_Init()")));
        QCOMPARE(state.event(), trial->findEvent(QStringLiteral("MPI_Init()")));
        // Line 5 of main.c holds main alone: a click selects it.
        const int y
            = view.editor()->cursorRect(QTextCursor(view.editor()->document()->findBlockByNumber(4))).center().y();
        view.editor()->gutterClicked(QPoint(10, y), QPoint());
        QCOMPARE(state.event(), trial->findEvent(MainEvent));
        // The shared context-menu helper: only events with a location get the entry.
        QMenu menu;
        QVERIFY(!addShowSourceAction(&menu, &state, trial->findEvent(QStringLiteral("MPI_Init()"))));
        QAction* show = addShowSourceAction(
            &menu, &state, trial->findEvent(QStringLiteral("int foo(int) C [{foo.c} {3,1}-{7,1}]")));
        QVERIFY(show);
        QCOMPARE(show->text(), QStringLiteral("Show Source (foo.c:3)"));
        show->trigger();
        view.updateNow();
        QCOMPARE(view.recordedFile(), QStringLiteral("foo.c"));
        QCOMPARE(view.editor()->markedFirst(), 3);
    }

    // Not found beside the trial: the message lists the paths tried; Locate… makes a search root
    // (relative name) that the store keeps; an absolute recorded path gets a remapping.
    void locateAndStore()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString profiles = tmp.filePath(QStringLiteral("run"));
        QDir().mkpath(profiles);
        for (const char* f : { "profile.0.0.0", "profile.1.0.0" })
            QVERIFY(QFile::copy(QDir(WrapDir).filePath(QLatin1String(f)), QDir(profiles).filePath(QLatin1String(f))));
        const auto trial = test::mustLoad(profiles);
        QVERIFY(trial);
        SourceSearch stored;
        int saves = 0;
        SelectionState state;
        state.setTrial(trial);
        SourceView view(&state);
        view.setSearchStore({ [&](const Trial&) { return stored; },
            [&](const Trial&, const SourceSearch& s) {
                stored = s;
                ++saves;
            } });
        view.resize(1000, 600);
        view.show();
        state.selectEvent(trial->findEvent(MainEvent));
        view.updateNow();
        QVERIFY(view.path().isEmpty());
        QVERIFY(!view.locateButton()->isHidden());
        QVERIFY2(
            view.message().contains(QDir(profiles).filePath(QStringLiteral("main.c"))), qPrintable(view.message()));
        view.locate(WrapDir);
        view.finishLoading();
        QCOMPARE(view.path(), QDir(WrapDir).filePath(QStringLiteral("main.c")));
        QCOMPARE(saves, 1);
        QCOMPARE(stored.roots, QStringList { WrapDir });
        // A new view of the same trial finds the file through the store alone.
        SourceView again(&state);
        again.setSearchStore({ [&](const Trial&) { return stored; }, {} });
        again.resize(800, 400);
        again.show();
        again.updateNow();
        QCOMPARE(again.path(), QDir(WrapDir).filePath(QStringLiteral("main.c")));
    }

    // A 100,000-line file: read on the worker, only the visible lines are highlighted, the
    // gutter maps an event at line 99,990.
    void bigFile()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        QByteArray text;
        text.reserve(3 << 20);
        for (int i = 1; i <= 100000; ++i)
            text += "    x[" + QByteArray::number(i) + "] = y[i] * 2.0; /* line */\n";
        test::writeText(tmp.filePath(QStringLiteral("big.c")), text);
        // A trial whose event is located in big.c at line 99,990 (a TAU profile written here).
        const QString dir = tmp.filePath(QStringLiteral("run"));
        test::writeText(dir + QStringLiteral("/profile.0.0.0"),
            "1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n"
            "\"loop [{big.c} {99990,1}-{99995,1}]\" 1 0 40 40 0 GROUP=\"TAU_USER\"\n"
            "0 aggregates\n");
        const auto trial = test::mustLoad(dir);
        QVERIFY(trial);
        SelectionState state;
        state.setTrial(trial);
        SourceView view(&state);
        view.setSearchStore({ [&](const Trial&) { return SourceSearch { { tmp.path() }, {} }; }, {} });
        view.resize(1000, 600);
        view.show();
        state.selectEvent(EventId(0u));
        view.updateNow();
        QCOMPARE(view.path(), tmp.filePath(QStringLiteral("big.c")));
        QCOMPARE(view.editor()->blockCount(), 100001);
        QCOMPARE(view.editor()->markedFirst(), 99990);
        QVERIFY(!view.editor()->gutterText(99990).isEmpty());
        QVERIFY(view.editor()->verticalScrollBar()->value() > 99000); // the scroll bar counts lines
        QVERIFY(view.editor()->highlighter()->highlightedCount() < 200);
    }
};

QTEST_MAIN(TestSourceView)
#include "tst_sourceview.moc"
