// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The SEAA semantic views (issue 5, docs/SEMANTICS.md 5): the entity tree model on a real sample with a
// small model of our own (tests/data/semantic/workflow-model.json), (self) rows, n/a (aggregated),
// badges and classification, group-by-attribute, the bar chart's totals with and without mapping,
// the entity × thread matrix (also at 16,384 threads) and the window's job, errors and selection.
#include "algebra/semanticmodel.h"
#include "algebra/semanticprofile.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/readerregistry.h"
#include "tests/common/semantictest.h"
#include "views/common/threadfinder.h"
#include "views/selectionstate.h"
#include "views/semantic/semanticbarchart.h"
#include "views/semantic/semanticcomparison.h"
#include "views/semantic/semanticformat.h"
#include "views/semantic/semanticinspector.h"
#include "views/semantic/semanticmatrixview.h"
#include "views/semantic/semanticprofilemodel.h"
#include "views/semantic/semanticwindow.h"
#include "views/viewsetup.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <cmath>

using namespace parallax;
using namespace parallax::semantic;
using parallax::test::attributeOrDie;
using parallax::test::modelOrDie;

namespace {

const QString sample = QStringLiteral(PARALLAX_DATA_DIR "/tau2/tau-profiles-workflow-xmain-8rank");
const QString modelFile = QStringLiteral(PARALLAX_SOURCE_DIR "/tests/data/semantic/workflow-model.json");
const QString brokenFile = QStringLiteral(PARALLAX_SOURCE_DIR "/tests/data/semantic/broken-model.json");

TrialPtr readSample()
{
    Progress progress;
    TrialResult result = ReaderRegistry::instance().read(sample, ReadOptions(), progress);
    if (!result)
        qFatal("cannot read %s", qPrintable(sample));
    return result.value();
}

Model workflowModel() { return modelOrDie(loadModelFile(modelFile), "model"); }

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({ 1.0, std::abs(a), std::abs(b) }); }

QModelIndex findRow(const SemanticProfileModel& model, const QString& name, const QModelIndex& parent = {})
{
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex i = model.index(r, 0, parent);
        if (i.data().toString() == name)
            return i;
        const QModelIndex found = findRow(model, name, i);
        if (found.isValid())
            return found;
    }
    return {};
}

/// Checks that the displayed children of every row sum to its roll-up value.
void checkChildrenSum(const SemanticProfileModel& model, const QModelIndex& parent, int* checked)
{
    for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex row = model.index(r, 0, parent);
        const int children = model.rowCount(row);
        if (children > 0 && model.rowKind(row) == SemanticProfileModel::RowKind::Entity) {
            double sum = 0;
            for (int c = 0; c < children; ++c) {
                const double v = model.number(model.index(c, SemanticProfileModel::Value, row));
                if (!std::isnan(v))
                    sum += v;
            }
            const double value = model.number(model.index(r, SemanticProfileModel::Value, parent));
            QVERIFY2(near(sum, value),
                qPrintable(QStringLiteral("%1: children %2 != %3").arg(row.data().toString()).arg(sum).arg(value)));
            ++*checked;
        }
        checkChildrenSum(model, row, checked);
    }
}

} // namespace

class TestSemanticViews : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_trial = readSample();
        m_profile = attributeOrDie(workflowModel(), m_trial);
        QVERIFY(m_profile->conservationError() < 1e-9);
    }

    void treeRows()
    {
        SemanticProfileModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProfile(m_profile);
        model.setMetric(m_trial->findMetric(QStringLiteral("TIME")));
        // Roots: the application and (unmapped) (MPI_Gather is not mapped).
        QStringList roots;
        for (int r = 0; r < model.rowCount(); ++r)
            roots << model.index(r, 0).data().toString();
        QVERIFY2(roots.contains(QStringLiteral("application")), qPrintable(roots.join(QLatin1Char('|'))));
        QVERIFY(roots.contains(QStringLiteral("(unmapped)")));
        const QModelIndex app = findRow(model, QStringLiteral("application"));
        // .TAU application has exclusive time: a (self) child.
        QStringList children;
        for (int r = 0; r < model.rowCount(app); ++r)
            children << model.index(r, 0, app).data().toString();
        QVERIFY2(children.contains(QStringLiteral("(self)")), qPrintable(children.join(QLatin1Char('|'))));
        QVERIFY(children.contains(QStringLiteral("communication")));
        QVERIFY(children.contains(QStringLiteral("ADIOS I/O")));

        // The displayed children sum to the parent, for every scope.
        for (const Scope& scope : { Scope::mean(), Scope::total(), Scope::ofThread(ThreadIndex(3u)) }) {
            model.setScope(scope);
            int checked = 0;
            checkChildrenSum(model, {}, &checked);
            QVERIFY(checked >= 4);
            // The roots sum to the attributed total, which is the source total (conservation).
            double roots = 0;
            for (int r = 0; r < model.rowCount(); ++r)
                roots += model.number(model.index(r, SemanticProfileModel::Value));
            QVERIFY(near(roots, semanticview::sourceTotal(*m_profile, model.metric(), scope)));
        }
        model.setScope(Scope::mean());

        // Members of the AGGREGATE show n/a, the aggregate carries the number.
        const QModelIndex comms = findRow(model, QStringLiteral("communicators"));
        QVERIFY(comms.isValid());
        QCOMPARE(comms.siblingAtColumn(SemanticProfileModel::Own).data().toString(), QStringLiteral("n/a"));
        QVERIFY(comms.siblingAtColumn(SemanticProfileModel::Own)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QLatin1String("n/a (aggregated)")));
        QVERIFY(comms.siblingAtColumn(SemanticProfileModel::Own).data(SemanticProfileModel::NotAvailableRole).toBool());
        bool aggregateSeen = false;
        for (std::size_t r = 0; r < m_profile->entities().size(); ++r)
            if (m_profile->entity(static_cast<int>(r)).isAggregate()) {
                const QModelIndex i = model.indexOfEntity(static_cast<int>(r));
                QVERIFY(i.isValid());
                QVERIFY(model.number(i.siblingAtColumn(SemanticProfileModel::Value)) > 0);
                QVERIFY(i.siblingAtColumn(SemanticProfileModel::Policy)
                            .data()
                            .toString()
                            .contains(QStringLiteral("AGGREGATE")));
                QCOMPARE(
                    i.siblingAtColumn(SemanticProfileModel::Classification).data().toString(), QStringLiteral("n:m"));
                aggregateSeen = true;
            }
        QVERIFY(aggregateSeen);

        // Badges and Table 2.
        const QModelIndex write = findRow(model, QStringLiteral("ADIOS write"));
        QVERIFY(write.siblingAtColumn(SemanticProfileModel::Policy)
                    .data()
                    .toString()
                    .contains(QStringLiteral("AMORTIZE ≈")));
        QVERIFY(write.siblingAtColumn(SemanticProfileModel::Own).data().toString().startsWith(QStringLiteral("≈")));
        const QModelIndex coll = findRow(model, QStringLiteral("collectives"));
        QCOMPARE(coll.siblingAtColumn(SemanticProfileModel::Policy).data().toString(), QStringLiteral("DIRECT"));
        QCOMPARE(coll.siblingAtColumn(SemanticProfileModel::Classification).data().toString(), QStringLiteral("n:1"));
        // % of parent of the children of communication sum to 100.
        const QModelIndex comm = findRow(model, QStringLiteral("communication"));
        double pct = 0;
        for (int r = 0; r < model.rowCount(comm); ++r)
            pct += model.number(model.index(r, SemanticProfileModel::PercentParent, comm));
        QVERIFY(std::abs(pct - 100) < 1e-6);
        // Inclusive: one event (ADIOS open) is derivable, several events without call paths are not.
        const QModelIndex open = findRow(model, QStringLiteral("ADIOS open"));
        QVERIFY(!std::isnan(model.number(open.siblingAtColumn(SemanticProfileModel::Inclusive))));
        QCOMPARE(
            coll.siblingAtColumn(SemanticProfileModel::Inclusive).data().toString(), QStringLiteral("not derivable"));
        // Sorting is numeric.
        QCOMPARE(coll.siblingAtColumn(SemanticProfileModel::Value).data(SortRole).typeId(), QMetaType::Double);
    }

    void groupByAttribute()
    {
        SemanticProfileModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProfile(m_profile);
        QVERIFY(model.attributeKeys().contains(QStringLiteral("layer")));
        model.setGroupByAttribute(QStringLiteral("layer"));
        QStringList groups;
        double sum = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            groups << model.index(r, 0).data().toString();
            sum += model.number(model.index(r, SemanticProfileModel::Value));
            QCOMPARE(model.rowKind(model.index(r, 0)), SemanticProfileModel::RowKind::Group);
        }
        QVERIFY2(groups.contains(QStringLiteral("MPI")) && groups.contains(QStringLiteral("I/O"))
                && groups.contains(QStringLiteral("user")),
            qPrintable(groups.join(QLatin1Char('|'))));
        // Groups sum own values: they conserve.
        QVERIFY(near(sum, semanticview::sourceTotal(*m_profile, model.metric(), Scope::mean())));
        const auto byAlgebra
            = parallax::semantic::groupByAttribute(*m_profile, QStringLiteral("layer"), model.metric(), Scope::mean());
        QCOMPARE(static_cast<std::size_t>(model.rowCount()), byAlgebra.size());
        model.setGroupByAttribute({});
        QVERIFY(findRow(model, QStringLiteral("application")).isValid());
    }

    void barChartTotalsAgree()
    {
        SemanticBarChart chart;
        chart.resize(1000, 700);
        chart.setProfile(m_profile);
        for (const Scope& scope : { Scope::mean(), Scope::total(), Scope::ofThread(ThreadIndex(5u)) }) {
            chart.setScope(scope);
            for (bool with : { true, false }) {
                chart.setWithMapping(with);
                QVERIFY(!chart.bars().empty());
                QVERIFY(near(chart.totalWithMapping(), chart.totalWithoutMapping()));
                double sum = 0;
                for (const auto& bar : chart.bars())
                    sum += bar.value;
                // The bars (with the "(n more)" bar) add up to the total shown.
                QVERIFY(near(sum, with ? chart.totalWithMapping() : chart.totalWithoutMapping()));
                QVERIFY(chart.title().contains(QStringLiteral("(equal)")));
                for (std::size_t i = 1; i < chart.bars().size(); ++i)
                    if (!chart.bars()[i].rest)
                        QVERIFY(chart.bars()[i - 1].value >= chart.bars()[i].value);
            }
        }
        chart.setWithMapping(true);
        chart.setLevel(0);
        QStringList labels;
        for (const auto& bar : chart.bars())
            labels << bar.label;
        QVERIFY2(labels.contains(QStringLiteral("application")), qPrintable(labels.join(QLatin1Char('|'))));
        chart.setLevel(-1);
        bool estimate = false;
        for (const auto& bar : chart.bars())
            estimate = estimate || bar.badge.contains(QStringLiteral("≈"));
        QVERIFY(estimate);
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("bars.png"));
        QCOMPARE(chart.exportImage(png, 900, 600), QString());
        QVERIFY(QImage(png).width() == 900);
    }

    void matrixConserves()
    {
        SemanticMatrixView matrix;
        matrix.resize(900, 500);
        matrix.setProfile(m_profile);
        matrix.setLevel(-1);
        QCOMPARE(matrix.threadCount(), m_trial->threadCount());
        const MetricId m = m_trial->findMetric(QStringLiteral("TIME"));
        for (std::size_t t = 0; t < matrix.threadCount(); ++t) {
            double sum = 0;
            for (std::size_t s = 0; s < matrix.slices().size(); ++s)
                sum += matrix.value(s, ThreadIndex(t));
            QVERIFY(near(sum, m_profile->sourceTotal(ThreadIndex(t), m)));
        }
        QTemporaryDir dir;
        QCOMPARE(matrix.exportImage(dir.filePath(QStringLiteral("m.png"))), QString());
    }

    void matrixManyThreads()
    {
        // 16,384 threads, 40 events in 4 groups: draws aggregated per pixel column.
        TrialBuilder b(QStringLiteral("many"));
        b.setProvenance({ QStringLiteral("read"), QStringLiteral("many"), QStringLiteral("test"), {}, {} });
        b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
        std::vector<EventId> events;
        events.reserve(40);
        for (int e = 0; e < 40; ++e)
            events.push_back(b.addEvent(QStringLiteral("phase%1_kernel%2").arg(e % 4).arg(e)));
        for (int t = 0; t < 16384; ++t) {
            const ThreadIndex ti = b.addThread({ t, 0, 0 });
            for (int e = 0; e < 40; ++e) {
                const double v[] = { 1.0 + (t * 7 + e * 13) % 50 };
                b.addInterval(ti, events[static_cast<std::size_t>(e)], 1, 0, v, v);
            }
        }
        const TrialPtr trial = b.build();
        auto parsed
            = parseModel(R"J({"format": "parallax-semantic-model", "version": 1, "name": "phases", "source": "flat",
            "entities": [], "associations": [{"id": "p", "select": {"regex": "phase(\\d)_kernel(\\d+)"},
            "target": {"template": {"id": "phase{1}", "kind": "phase", "name": "phase {1}"}}, "policy": "DIRECT"}]})J");
        QVERIFY(std::holds_alternative<Model>(parsed));
        const ProfilePtr profile = attributeOrDie(std::get<Model>(parsed), trial);
        SemanticMatrixView matrix;
        matrix.resize(1000, 500);
        matrix.show();
        QElapsedTimer timer;
        timer.start();
        matrix.setProfile(profile);
        QCOMPARE(matrix.slices().size(), std::size_t(4));
        const QImage image = matrix.canvas()->grab().toImage();
        qInfo("16,384 threads: set and painted in %lld ms", static_cast<long long>(timer.elapsed()));
        QVERIFY(!image.isNull());
        QVERIFY(matrix.threadsPerColumn() > 10);
        matrix.setBarWidth(4);
        QVERIFY(!matrix.canvas()->grab().toImage().isNull());
        QCOMPARE(matrix.threadsPerColumn(), 1.0);
    }

    void windowAttributesInAJob()
    {
        SelectionState state;
        state.setTrial(m_trial);
        SemanticWindow window(m_trial, &state);
        QSignalSpy computed(&window, &SemanticWindow::computed);
        window.setModelFile(modelFile);
        QVERIFY(window.isComputing());
        window.waitForResult();
        QCOMPARE(computed.count(), 1);
        QVERIFY2(window.errorMessage().isEmpty(), qPrintable(window.errorMessage()));
        QVERIFY(window.profile());
        QVERIFY(window.profileModel()->rowCount() >= 2);

        // Selecting an entity selects its dominant event in the linked selection.
        const int coll = window.profile()->findEntity(QStringLiteral("coll"));
        window.selectEntity(coll);
        QVERIFY(state.event().isValid());
        const QString name = m_trial->event(state.event()).name;
        QVERIFY2(name.startsWith(QStringLiteral("MPI_Allreduce")) || name.startsWith(QStringLiteral("MPI_Barrier"))
                || name.startsWith(QStringLiteral("MPI_Allgather")),
            qPrintable(name));
        // ... and an event selected elsewhere selects its entity here.
        state.selectEvent(m_trial->findEvent(QStringLiteral("ADIOS open")));
        QCOMPARE(window.selectedEntity(), window.profile()->findEntity(QStringLiteral("io:open")));

        // A configuration error is a message, not a crash.
        window.setModelFile(brokenFile);
        window.waitForResult();
        QVERIFY(!window.errorMessage().isEmpty());
        QVERIFY(!window.profile());
        QCOMPARE(window.profileModel()->rowCount(), 0);
        window.setModelFile(QStringLiteral("/no/such/model.json"));
        window.waitForResult();
        QVERIFY(!window.errorMessage().isEmpty());

        // Adding a tab is one line; placeholders can be replaced.
        const int before = window.tabs()->count();
        window.addTab(new QWidget, QStringLiteral("Extra"));
        QCOMPARE(window.tabs()->count(), before + 1);
        window.setTabPage(SemanticWindow::Tab::Inspector, new QTreeView);
        QVERIFY(qobject_cast<QTreeView*>(window.tabPage(SemanticWindow::Tab::Inspector)));
        QCOMPARE(window.tabs()->tabText(static_cast<int>(SemanticWindow::Tab::Inspector)), QStringLiteral("Inspector"));
    }

    void windowScopeAndThread()
    {
        // Issue 14: every tab starts on the mean (the main window's statistic) and keeps the window's scope;
        // the thread of the one-thread scope is a labelled "go to thread" field shown only on that scope
        // (it was an unlabelled, disabled spin box).
        SemanticWindow window(m_trial);
        window.resize(1400, 900);
        window.show();
        window.setModelFile(modelFile);
        window.waitForResult();
        window.inspector()->waitForResult();
        QCOMPARE(window.scope().kind, Scope::Kind::Mean);
        QCOMPARE(window.inspector()->inspectorModel()->valueScope(), SemanticInspectorModel::ValueScope::Mean);
        QCOMPARE(window.comparison()->scope(), Scope::Kind::Mean);
        ThreadFinder* finder = window.threadFinder();
        QVERIFY(!finder->isVisible());

        // Total in the window: the Inspector and the comparison follow.
        window.setScope(Scope::total());
        QCOMPARE(window.inspector()->inspectorModel()->valueScope(), SemanticInspectorModel::ValueScope::Total);
        QCOMPARE(window.comparison()->scope(), Scope::Kind::Total);
        // ... and back to the mean from the Inspector's own box, as the user does.
        auto* inspectorScope = window.inspector()->findChildren<QComboBox*>().at(1);
        QCOMPARE(inspectorScope->itemText(0), QStringLiteral("Mean per thread"));
        inspectorScope->setCurrentIndex(0);
        Q_EMIT inspectorScope->activated(0);
        QCOMPARE(window.scope().kind, Scope::Kind::Mean);
        QCOMPARE(window.profileModel()->scope().kind, Scope::Kind::Mean);

        // One thread: the field appears with its label, and a thread typed there is the scope.
        const ThreadIndex third(2u);
        window.setScope(Scope::ofThread(ThreadIndex(0u)));
        QVERIFY(finder->isVisible());
        bool labelled = false;
        for (QLabel* l : finder->parentWidget()->findChildren<QLabel*>())
            labelled
                = labelled || (l->buddy() == finder && l->isVisible() && l->text().contains(QLatin1String("Thread")));
        QVERIFY(labelled);
        QCOMPARE(finder->text(), m_trial->threadKey(ThreadIndex(0u)).toString());
        finder->setText(m_trial->threadKey(third).toString());
        finder->choose();
        QCOMPARE(window.scope().kind, Scope::Kind::Thread);
        QCOMPARE(window.scope().thread, third);
        QCOMPARE(window.comparison()->scope(), Scope::Kind::Thread);
        // PARALLAX_SEMANTIC_SCREENSHOTS=DIR: the window on one thread, to look at.
        if (const QString shots = qEnvironmentVariable("PARALLAX_SEMANTIC_SCREENSHOTS");
            !shots.isEmpty() && QDir().mkpath(shots))
            QVERIFY(window.grab().save(QDir(shots).filePath(QStringLiteral("semantic-one-thread.png"))));
        window.setScope(Scope::mean());
        QVERIFY(!finder->isVisible());
        QVERIFY(finder->parentWidget()->findChildren<QSpinBox*>(Qt::FindDirectChildrenOnly).isEmpty());
    }

    void windowProfileFits()
    {
        // Issue 14: at 1400x900 the Profile table showed "%…" and "unmapp…": every column now has room for
        // its header (each line of a two-line header) and its cells, all columns are in view, and the
        // chart's caption lines fit the chart.
        SemanticWindow window(m_trial);
        window.resize(1400, 900);
        window.show();
        window.setModelFile(modelFile);
        window.waitForResult();
        QTest::qWait(50);
        QTreeView* view = window.treeView();
        view->expandAll();
        window.setScope(Scope::mean()); // re-fits after the expansion, as a user's change does
        const QHeaderView* header = view->header();
        const QFontMetrics metrics(header->font());
        int used = 0;
        for (int c = 0; c < header->count(); ++c) {
            if (header->isSectionHidden(c))
                continue;
            used += header->sectionSize(c);
            const QStringList lines = view->model()->headerData(c, Qt::Horizontal).toString().split(u'\n');
            for (const QString& line : lines)
                QVERIFY2(header->sectionSize(c) >= metrics.horizontalAdvance(line) + 8,
                    qPrintable(QStringLiteral("header '%1' cut: %2 px").arg(line).arg(header->sectionSize(c))));
            if (c != SemanticProfileModel::Entity)
                QVERIFY2(header->sectionSize(c) >= static_cast<const QAbstractItemView*>(view)->sizeHintForColumn(c),
                    qPrintable(lines.join(u' ')));
        }
        QCOMPARE(view->model()->headerData(SemanticProfileModel::PercentParent, Qt::Horizontal).toString(),
            QStringLiteral("%\nof parent"));
        for (int c = 0; c < header->count(); ++c)
            QVERIFY2(used <= view->viewport()->width(),
                qPrintable(QStringLiteral("%1 px of columns in %2 px").arg(used).arg(view->viewport()->width())));
        // The name column takes the spare width and shows the longest top-level name.
        QVERIFY(header->sectionSize(SemanticProfileModel::Entity) >= 160);
        const QStringList caption = window.barChart()->title().split(u'\n');
        QCOMPARE(caption.size(), 3);
        const QFontMetrics captionMetrics(window.barChart()->font());
        for (const QString& line : caption)
            QVERIFY2(captionMetrics.horizontalAdvance(line) < window.barChart()->width(), qPrintable(line));
        // Bar labels too long for the chart beside the table keep their first parts (value first).
        QCOMPARE(window.barChart()->labelOverflow(), 0);
        QVERIFY(window.barChart()->barLabel(0).startsWith(QLatin1String("40,550.250")));
    }

    void windowRenders()
    {
        SemanticWindow window(m_trial);
        window.resize(1200, 800);
        window.show();
        window.setModelFile(modelFile);
        QTemporaryDir dir;
        for (auto view : { SemanticWindow::View::Bars, SemanticWindow::View::Tree, SemanticWindow::View::Matrix }) {
            const QString file = dir.filePath(QStringLiteral("v%1.png").arg(static_cast<int>(view)));
            bool done = false;
            QString error;
            window.renderView(view, file, QSize(1200, 800), [&](const QString& e) {
                error = e;
                done = true;
            });
            QTRY_VERIFY(done);
            QCOMPARE(error, QString());
            QVERIFY(!QImage(file).isNull());
        }
    }

private:
    TrialPtr m_trial;
    ProfilePtr m_profile;
};

QTEST_MAIN(TestSemanticViews)
#include "tst_semantic_views.moc"
