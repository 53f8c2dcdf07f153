// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The Advisor view (issue 20 §2): docs/SEMANTICS.md 7.2's worked example shown with its reasons,
// the thresholds as settings, a routine selected in another view added by the button, the preview
// per rule, the overhead against a baseline read in the job, and both files written and parsed back.
#include "algebra/instrumentationfiles.h"
#include "datasource/writers/tauwriter.h"
#include "tests/common/advisorexample.h"
#include "tests/common/testutil.h"
#include "views/advisor/advisorview.h"
#include "views/selectionstate.h"
#include "views/viewsetup.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace parallax;
using namespace parallax::test;

namespace {

/// SEMANTICS 7.2's example plus main; `scale` multiplies main's and qux's time.
std::shared_ptr<const Trial> example(double scale = 1)
{
    std::vector<AdvisorCell> cells { mainCell(scale) };
    for (const AdvisorCell& c : workedExampleCells(scale))
        cells.push_back(c);
    return advisorTrial(cells);
}

/// The column-0 texts of a view's rows, in the view's (sorted) order.
QStringList rows(QTreeView* view)
{
    QStringList out;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        out << view->model()->index(r, 0).data().toString();
    return out;
}

} // namespace

class TestAdvisorView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void workedExample()
    {
        SelectionState state;
        const auto trial = example();
        state.setTrial(trial);
        AdvisorView view(&state);
        view.resize(1200, 800);
        view.show();
        view.updateNow();
        QVERIFY(view.advice());
        QCOMPARE(rows(view.suggestionsView()), QStringList { QStringLiteral("qux") });
        QCOMPARE(view.suggestionsView()->model()->index(0, 1).data().toString(), QStringLiteral("lightweight"));
        QVERIFY(view.suggestionsView()->model()->index(0, 7).data().toString().contains(QStringLiteral("≥")));

        // The thresholds are settings: the present-only mean adds foo.
        LightweightRule rule;
        rule.presentOnlyMean = true;
        view.setRule(rule);
        view.updateNow();
        QStringList got = rows(view.suggestionsView());
        got.sort();
        QCOMPARE(got, (QStringList { QStringLiteral("foo"), QStringLiteral("qux") }));
        view.setRule(LightweightRule {});

        // A routine selected in any view goes on the list with the button.
        QPushButton* addSelected = nullptr;
        for (auto* b : view.findChildren<QPushButton*>())
            if (b->text() == QLatin1String("Add selected routine"))
                addSelected = b;
        QVERIFY(addSelected);
        QVERIFY(!addSelected->isEnabled());
        state.selectEvent(trial->findEvent(QStringLiteral("bar")));
        QVERIFY(addSelected->isEnabled());
        addSelected->click();
        view.updateNow();
        QCOMPARE(view.userRoutines(), QStringList { QStringLiteral("bar") });
        got = rows(view.suggestionsView());
        got.sort();
        QCOMPARE(got, (QStringList { QStringLiteral("bar"), QStringLiteral("qux") }));
        const Advice& a = *view.advice();
        QCOMPARE(a.excludeNames(ReasonUser), QStringList { QStringLiteral("bar") });

        // A click on a suggestion selects its event everywhere.
        const QModelIndex quxIndex
            = view.suggestionsView()->model()->index(rows(view.suggestionsView()).indexOf(QStringLiteral("qux")), 0);
        QTest::mouseClick(view.suggestionsView()->viewport(), Qt::LeftButton, {},
            view.suggestionsView()->visualRect(quxIndex).center());
        QCOMPARE(state.event(), trial->findEvent(QStringLiteral("qux")));

        // The files of what is shown, parsed back.
        QTemporaryDir tmp;
        const QString tau = tmp.filePath(QStringLiteral("select.tau"));
        const QString filt = tmp.filePath(QStringLiteral("scorep.filter"));
        QCOMPARE(view.writeTauSelect(tau, false), QString());
        QCOMPARE(view.writeScorepFilter(filt), QString());
        QFile tf(tau);
        QVERIFY(tf.open(QIODevice::ReadOnly));
        QCOMPARE(parseTauSelectFile(QString::fromUtf8(tf.readAll())).exclude,
            (QStringList { QStringLiteral("bar"), QStringLiteral("qux") }));
        QFile ff(filt);
        QVERIFY(ff.open(QIODevice::ReadOnly));
        QString error;
        const ScorepFilter f = parseScorepFilter(QString::fromUtf8(ff.readAll()), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(scorepFilterExcludes(f, QStringLiteral("bar")));
        QVERIFY(scorepFilterExcludes(f, QStringLiteral("qux")));
        QVERIFY(!scorepFilterExcludes(f, QStringLiteral("main")));
        // Merging into the file just written changes nothing.
        QCOMPARE(view.writeTauSelect(tau, true), QString());
        QFile again(tau);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(parseTauSelectFile(QString::fromUtf8(again.readAll())).exclude.size(), 2);
    }

    void overheadWithBaseline()
    {
        QTemporaryDir tmp;
        const QString baseDir = tmp.filePath(QStringLiteral("base"));
        QCOMPARE(TauWriter::write(*example(1.0), baseDir), QString());
        SelectionState state;
        state.setTrial(example(1.25));
        AdvisorView view(&state);
        view.resize(1200, 800);
        view.show();
        view.setBaselinePath(baseDir);
        view.updateNow(); // reads the baseline in the job and waits
        QVERIFY(view.advice() && view.advice()->overhead);
        QCOMPARE(view.advice()->overhead->total, 0.25);
        // The pairs: main and qux 25 % more in the full run, the others equal.
        QTreeView* o = view.overheadView();
        QCOMPARE(o->model()->rowCount(), 5);
        for (int r = 0; r < 5; ++r) {
            const QString name = o->model()->index(r, 0).data().toString();
            const double overhead = o->model()->index(r, 3).data(SortRole).toDouble();
            QCOMPARE(overhead, name == QLatin1String("main") || name == QLatin1String("qux") ? 0.25 : 0.0);
        }
        // A baseline that does not read: a message, no overhead.
        view.setBaselinePath(tmp.filePath(QStringLiteral("missing")));
        view.updateNow();
        QVERIFY(view.advice() && !view.advice()->overhead);
        QVERIFY(view.statusLabel()->text().contains(QLatin1String("Baseline")));
    }
};

QTEST_MAIN(TestAdvisorView)
#include "tst_advisorview.moc"
