// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The three self-contained SEAA widgets of views/semantic (docs/SEMANTICS.md 5): the mapping inspector
// on the xmain workflow sample with a model of our own (tests/data/semantic/xmain-inspector.json:
// MPI and ADIOS regexes, an AMORTIZE rule onto entities that have their own timers, a selector that
// matches nothing), the rule editor's preview (errors with their line, a valid edit, nothing applied
// until Apply), and the semantic comparison of example F (DIRECT and trial-specific WEIGHTED give
// 0, 0, 4, 4, 4, 4) and of real samples. Every widget is also rendered headless to PNG; with
// PARALLAX_SEMANTIC_SCREENSHOTS=DIR the renders go to DIR/semantic-{inspector,rules,compare}.png.
#include "algebra/semanticmodel.h"
#include "algebra/semanticprofile.h"
#include "datasource/model/trialbuilder.h"
#include "tests/common/imagecheck.h"
#include "tests/common/semantictest.h"
#include "tests/common/testutil.h"
#include "views/charts/qcustomplotwrapper.h"
#include "views/semantic/semanticcodeeditor.h"
#include "views/semantic/semanticcomparison.h"
#include "views/semantic/semanticcomparisonmodel.h"
#include "views/semantic/semanticinspector.h"
#include "views/semantic/semanticinspectormodel.h"
#include "views/semantic/semanticpreviewmodel.h"
#include "views/semantic/semanticruleeditor.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBrush>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <cmath>
#include <map>

using namespace parallax;
using parallax::test::colourCount;
using namespace parallax::semantic;

namespace {

using Kind = SemanticInspectorModel::RowKind;

TrialPtr xmain()
{
    static const TrialPtr trial
        = test::mustLoad(test::dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
    return trial;
}

TrialPtr wrapParams()
{
    static const TrialPtr trial = test::mustLoad(test::dataPath(QStringLiteral("tau2/tau-profiles-wrap-params")));
    return trial;
}

QString modelPath() { return QStringLiteral(PARALLAX_SOURCE_DIR "/tests/data/semantic/xmain-inspector.json"); }

Model loadModel() { return test::modelOrDie(loadModelFile(modelPath()), "model does not load"); }

Model parse(const QByteArray& json)
{
    return test::modelOrDie(parseModel(json, QStringLiteral("test.json")), "model does not parse");
}

/// Σ over threads of excl(t, e, metric 0) for the flat events whose name matches.
double sumExclusive(const Trial& trial, const std::function<bool(const QString&)>& match, int* events = nullptr)
{
    double sum = 0;
    int count = 0;
    for (std::size_t e = 0; e < trial.eventCount(); ++e) {
        const IntervalEvent& event = trial.event(EventId(e));
        if (event.isCallPath() || !match(event.name))
            continue;
        ++count;
        for (std::size_t t = 0; t < trial.threadCount(); ++t) {
            const RowView row = trial.row(ThreadIndex(t));
            const auto i = row.find(EventId(e));
            if (i >= 0)
                sum += row.exclusive(0, static_cast<std::size_t>(i));
        }
    }
    if (events)
        *events = count;
    return sum;
}

bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::max({ 1.0, std::abs(a), std::abs(b) });
}

QModelIndex childOfKind(const QAbstractItemModel& m, const QModelIndex& parent, Kind kind, int nth = 0)
{
    for (int r = 0; r < m.rowCount(parent); ++r) {
        const QModelIndex i = m.index(r, 0, parent);
        if (static_cast<Kind>(i.data(SemanticInspectorModel::KindRole).toInt()) == kind && nth-- == 0)
            return i;
    }
    return {};
}

QString cell(const QAbstractItemModel& m, const QModelIndex& row, int column, int role = Qt::DisplayRole)
{
    return m.index(row.row(), column, row.parent()).data(role).toString();
}

/// Example A's cube (face timers present) with the given face values.
TrialPtr cubeWithFaces(const QString& name, const std::vector<double>& faces)
{
    TrialBuilder b(name);
    b.setProvenance({ QStringLiteral("read"), name, QStringLiteral("test"), {}, {} });
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    const ThreadIndex t = b.addThread({ 0, 0, 0 });
    double sum = 0;
    for (std::size_t i = 0; i < faces.size(); ++i) {
        const EventId e = b.addEvent(QStringLiteral("cost of processing face #%1").arg(i));
        const double v[] = { faces[i] };
        b.addInterval(t, e, faces[i] / 0.02, 0, v, v);
        sum += faces[i];
    }
    const double mainExcl[] = { 0 }, mainIncl[] = { sum + 2 };
    b.addInterval(t, b.addEvent(QStringLiteral("main")), 1, 0, mainExcl, mainIncl);
    const double gen[] = { 2 };
    b.addInterval(t, b.addEvent(QStringLiteral("GenerateParticles")), 1, 0, gen, gen);
    const double ppExcl[] = { 0 }, ppIncl[] = { sum };
    b.addInterval(t, b.addEvent(QStringLiteral("ProcessParticle")), sum / 0.02, 0, ppExcl, ppIncl);
    return b.build();
}

/// Example A2/F without face timers: ProcessParticle only, particles per face in the metadata.
TrialPtr cubeWithoutFaces(const QString& name, double processParticle, const std::vector<int>& particles)
{
    TrialBuilder b(name);
    b.setProvenance({ QStringLiteral("read"), name, QStringLiteral("test"), {}, {} });
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    const ThreadIndex t = b.addThread({ 0, 0, 0 });
    const double v[] = { processParticle };
    b.addInterval(t, b.addEvent(QStringLiteral("ProcessParticle")), processParticle / 0.02, 0, v, v);
    for (std::size_t i = 0; i < particles.size(); ++i)
        b.addMetadata(QStringLiteral("particles.face%1").arg(i), QString::number(particles[i]));
    return b.build();
}

const QByteArray cubeModel = R"M({
  "format": "parallax-semantic-model", "version": 1, "name": "cube faces", "source": "flat",
  "entities": [
    {"id": "pp", "kind": "stage", "name": "particle processing"}
  ],
  "associations": [
    {"id": "faces", "select": {"regex": "cost of processing face #(\\d+)"},
     "target": {"template": {"id": "face:{1}", "kind": "face", "name": "face #{1}", "parent": "pp"}}, "policy": "DIRECT"},
    {"id": "pp-own", "select": {"exact": "ProcessParticle"}, "target": "pp", "policy": "DIRECT"}
  ]
})M";

QByteArray weightedModel()
{
    QByteArray entities = R"M({"id": "pp", "kind": "stage", "name": "particle processing"})M";
    for (int i = 0; i < 6; ++i)
        entities += ",\n    {\"id\": \"face:" + QByteArray::number(i) + "\", \"kind\": \"face\", \"name\": \"face #"
            + QByteArray::number(i)
            + "\", \"parent\": \"pp\", \"attrs\": {\"particles\": {\"metadata\": \"particles.face"
            + QByteArray::number(i) + "\"}}}";
    return R"M({"format": "parallax-semantic-model", "version": 1, "name": "cube faces (weighted)", "entities": [)M"
        + entities + R"M(], "associations": [{"id": "pp", "select": {"exact": "ProcessParticle"},
        "target": ["face:0", "face:1", "face:2", "face:3", "face:4", "face:5"], "policy": "WEIGHTED", "weight_attr": "particles"}]})M";
}

/// One rank of a trial as a run of its own (thread 0,0,0), for comparing two real runs.
TrialPtr singleRank(const Trial& source, int node, const QString& name)
{
    TrialBuilder b(name);
    b.setProvenance({ QStringLiteral("read"), name, QStringLiteral("test"), {}, {} });
    for (const Metric& m : source.metrics())
        b.addMetric(m);
    const ThreadIndex t = b.addThread({ 0, 0, 0 });
    const RowView row = source.row(source.findThread({ node, 0, 0 }));
    std::map<std::uint32_t, EventId> ids;
    for (std::size_t e = 0; e < source.eventCount(); ++e) {
        const IntervalEvent& event = source.event(EventId(e));
        QStringList groups;
        for (GroupId g : event.groups)
            groups << source.groupName(g);
        ids[static_cast<std::uint32_t>(e)] = b.addEvent(event.name, groups);
    }
    const std::size_t metrics = source.metricCount();
    for (std::size_t i = 0; i < row.size(); ++i) {
        std::vector<double> excl(metrics), incl(metrics);
        for (std::size_t m = 0; m < metrics; ++m) {
            excl[m] = row.exclusive(m, i);
            incl[m] = row.inclusive(m, i);
        }
        b.addInterval(t, ids[row.events[i].index()], row.calls[i], row.subrs[i], excl, incl);
    }
    return b.build();
}

const SemanticComparisonRow& rowOf(const SemanticComparisonModel& m, const QString& id)
{
    const int r = m.findRow(id);
    if (r < 0)
        qFatal("no comparison row %s", qPrintable(id));
    return m.rows()[static_cast<std::size_t>(r)];
}

/// Renders to a temporary file (checked) and, when asked, to the screenshot directory.
template <typename Widget>
void checkRender(Widget& widget, const QString& name, const QSize& size, bool screenshot = true)
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(name + QStringLiteral(".png"));
    const QString error = widget.render(file, size);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QImage image(file);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), size * image.devicePixelRatio());
    // Not a blank image: more than a handful of distinct colours.
    QVERIFY(colourCount(image, 7) >= 10);
    const QString shots = qEnvironmentVariable("PARALLAX_SEMANTIC_SCREENSHOTS");
    if (screenshot && !shots.isEmpty()) {
        QDir().mkpath(shots);
        const QString shot = widget.render(QDir(shots).filePath(name + QStringLiteral(".png")), size);
        QVERIFY2(shot.isEmpty(), qPrintable(shot));
    }
}

} // namespace

class TestSemanticWidgets : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void inspectorRows();
    void inspectorWidget();
    void inspectorNotesOnly();
    void ruleEditorPreview();
    void ruleEditorInsertAndApply();
    void comparisonExampleF();
    void comparisonRealSamples();
};

void TestSemanticWidgets::initTestCase()
{
    QVERIFY(xmain());
    QVERIFY(wrapParams());
}

void TestSemanticWidgets::inspectorRows()
{
    const TrialPtr trial = xmain();
    const ProfilePtr p = test::attributeOrDie(loadModel(), trial);
    SemanticInspectorModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProfile(p);
    // Four associations in file order, then (unmapped); no model-wide warnings.
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("mpi"));
    QCOMPARE(model.index(3, 0).data().toString(), QStringLiteral("cuda"));
    QVERIFY(!model.modelWarningsIndex().isValid());

    // MPI: every MPI_ routine, one-to-one, what they cost in all.
    int mpiEvents = 0;
    const double mpiTotal = sumExclusive(
        *trial, [](const QString& n) { return n.startsWith(QLatin1String("MPI_")); }, &mpiEvents);
    QVERIFY(mpiEvents >= 20);
    const QModelIndex mpi = model.associationIndex(QStringLiteral("mpi"));
    QCOMPARE(cell(model, mpi, SemanticInspectorModel::Selector), QStringLiteral("regex: MPI_(\\w+)\\(\\)\\s*"));
    QCOMPARE(cell(model, mpi, SemanticInspectorModel::Policy), QStringLiteral("DIRECT"));
    QCOMPARE(cell(model, mpi, SemanticInspectorModel::Priority), QStringLiteral("0"));
    QCOMPARE(model.index(mpi.row(), SemanticInspectorModel::Events).data(SortRole).toInt(), mpiEvents);
    QCOMPARE(model.rowCount(mpi), mpiEvents); // the expandable list of matched events
    QCOMPARE(cell(model, mpi, SemanticInspectorModel::Classification), QStringLiteral("1:1"));
    QCOMPARE(cell(model, mpi, SemanticInspectorModel::Weights), QStringLiteral("1"));
    QVERIFY(cell(model, mpi, SemanticInspectorModel::Targets).contains(QLatin1String("mpi:Barrier")));
    QVERIFY(near(model.value(mpi), mpiTotal));
    QVERIFY(model.index(mpi.row(), 0).data(SemanticInspectorModel::WarningRole).toStringList().isEmpty());
    QVERIFY(!model.index(mpi.row(), 0).data(Qt::BackgroundRole).isValid());
    // An event row: its target and weight.
    const QModelIndex barrier = [&] {
        for (int r = 0; r < model.rowCount(mpi); ++r)
            if (model.index(r, 0, mpi).data().toString().startsWith(QLatin1String("MPI_Barrier(")))
                return model.index(r, 0, mpi);
        return QModelIndex();
    }();
    QVERIFY(barrier.isValid());
    QCOMPARE(cell(model, barrier, SemanticInspectorModel::Targets), QStringLiteral("mpi:Barrier"));
    QCOMPARE(cell(model, barrier, SemanticInspectorModel::Weights), QStringLiteral("1"));
    QVERIFY(near(model.value(barrier),
        sumExclusive(*trial, [](const QString& n) { return n.startsWith(QLatin1String("MPI_Barrier(")); })));

    // ADIOS: wins open, write, close; the two helpers match too but a higher priority wins them
    // (a note on the association, two "lost" rows).
    const QModelIndex adios = model.associationIndex(QStringLiteral("adios"));
    QCOMPARE(cell(model, adios, SemanticInspectorModel::Events), QStringLiteral("3 (+2 lost)"));
    const QStringList adiosWarnings = adios.data(SemanticInspectorModel::WarningRole).toStringList();
    QCOMPARE(adiosWarnings.size(), 1);
    QVERIFY2(adiosWarnings.front().contains(QLatin1String("matched twice")), qPrintable(adiosWarnings.front()));
    const QModelIndex lost = childOfKind(model, adios, Kind::Shadowed);
    QVERIFY(lost.isValid());
    QCOMPARE(cell(model, lost, SemanticInspectorModel::Targets), QStringLiteral("won by 'adios-helpers'"));
    QVERIFY(childOfKind(model, adios, Kind::Warning).isValid());
    QVERIFY(adios.data(Qt::BackgroundRole).isValid());

    // AMORTIZE onto io:write and io:close, which have their own timers: the warning, edges of 1/2.
    const QModelIndex helpers = model.associationIndex(QStringLiteral("adios-helpers"));
    QCOMPARE(cell(model, helpers, SemanticInspectorModel::Policy), QStringLiteral("AMORTIZE ≈"));
    QCOMPARE(cell(model, helpers, SemanticInspectorModel::Priority), QStringLiteral("1"));
    QCOMPARE(model.index(helpers.row(), SemanticInspectorModel::Events).data(SortRole).toInt(), 2);
    QCOMPARE(cell(model, helpers, SemanticInspectorModel::Targets), QStringLiteral("io:write, io:close"));
    QCOMPARE(cell(model, helpers, SemanticInspectorModel::Weights), QStringLiteral("1/2 each"));
    // io:write and io:close each get a timer and both helpers: one many-to-many component.
    QCOMPARE(cell(model, helpers, SemanticInspectorModel::Classification), QStringLiteral("n:m"));
    const QStringList helperWarnings = helpers.data(SemanticInspectorModel::WarningRole).toStringList();
    QCOMPARE(helperWarnings.size(), 1);
    QVERIFY2(helperWarnings.front().contains(
                 QLatin1String("amortisation is used although per-instance timers exist for io:write, io:close")),
        qPrintable(helperWarnings.front()));
    QVERIFY(cell(model, helpers, SemanticInspectorModel::Warnings).contains(QLatin1String("per-instance timers")));
    QCOMPARE(helpers.data(Qt::BackgroundRole).value<QBrush>().color(), QColor(0xff, 0xe8, 0xa8));
    const QModelIndex warningRow = childOfKind(model, helpers, Kind::Warning);
    QVERIFY(warningRow.isValid());
    QVERIFY(warningRow.data().toString().contains(QLatin1String("amortisation")));
    const QModelIndex helperEvent = childOfKind(model, helpers, Kind::Event);
    QCOMPARE(model.rowCount(helperEvent), 2); // one edge per target
    const QModelIndex edge = model.index(0, 0, helperEvent);
    QCOMPARE(static_cast<Kind>(edge.data(SemanticInspectorModel::KindRole).toInt()), Kind::Edge);
    QCOMPARE(cell(model, edge, SemanticInspectorModel::Weights), QStringLiteral("0.5"));
    QCOMPARE(cell(model, helperEvent, SemanticInspectorModel::Weights), QStringLiteral("0.5, 0.5"));
    QVERIFY(near(model.value(edge) * 2, model.value(helperEvent)));
    const double helperTotal = sumExclusive(*trial, [](const QString& n) {
        return n == QLatin1String("ADIOS group size") || n == QLatin1String("ADIOS flexpath copy buffer");
    });
    QVERIFY(near(model.value(helpers), helperTotal));

    // The selector that matches nothing.
    const QModelIndex cuda = model.associationIndex(QStringLiteral("cuda"));
    QCOMPARE(model.rowCount(cuda), 1); // the warning row only
    QCOMPARE(model.index(cuda.row(), SemanticInspectorModel::Events).data(SortRole).toInt(), 0);
    QCOMPARE(cell(model, cuda, SemanticInspectorModel::Targets), QStringLiteral("gpu"));
    QVERIFY(cuda.data(SemanticInspectorModel::WarningRole)
                .toStringList()
                .join(QString())
                .contains(QLatin1String("matched no event")));
    QVERIFY(model.value(cuda) == 0);

    // (unmapped): the other events (.TAU application), and everything adds up to the total: 100 %.
    const QModelIndex unmapped = model.unmappedIndex();
    QVERIFY(unmapped.isValid());
    QCOMPARE(unmapped.data().toString(), QStringLiteral("(unmapped)"));
    QStringList unmappedEvents;
    for (int r = 0; r < model.rowCount(unmapped); ++r)
        unmappedEvents << model.index(r, 0, unmapped).data().toString();
    QVERIFY2(
        unmappedEvents.contains(QStringLiteral(".TAU application")), qPrintable(unmappedEvents.join(QLatin1Char('|'))));
    for (const QString& e : unmappedEvents)
        QVERIFY2(!e.startsWith(QLatin1String("MPI_")) && !e.startsWith(QLatin1String("ADIOS")), qPrintable(e));
    const double all = sumExclusive(*trial, [](const QString&) { return true; });
    double sum = 0;
    for (int r = 0; r < model.rowCount(); ++r)
        sum += model.value(model.index(r, 0));
    QVERIFY(near(sum, all));
    QVERIFY(near(model.value(unmapped), all - mpiTotal - helperTotal - model.value(adios)));
    QCOMPARE(model.warningCount(), static_cast<int>(p->warnings().size()));

    // Mean per thread: the total over 8 threads / 8; the header says so.
    model.setValueScope(SemanticInspectorModel::ValueScope::Mean);
    QVERIFY(near(model.value(mpi), mpiTotal / 8));
    QVERIFY(model.headerData(SemanticInspectorModel::Value, Qt::Horizontal).toString().contains(QLatin1String("mean")));
    const QString percentText = cell(model, mpi, SemanticInspectorModel::Percent);
    QVERIFY(percentText.endsWith(QLatin1String(" %")));
    QVERIFY(near(QLocale(QLocale::English).toDouble(percentText.chopped(2).remove(QLatin1Char(','))),
        100 * mpiTotal / all, 1e-3));
}

void TestSemanticWidgets::inspectorWidget()
{
    SemanticInspector inspector;
    QSignalSpy computed(&inspector, &SemanticInspector::computed);
    inspector.setModel(loadModel(), xmain());
    QVERIFY(inspector.isComputing());
    inspector.waitForResult();
    QVERIFY(!inspector.isComputing());
    QCOMPARE(computed.count(), 1);
    QCOMPARE(computed.front().front().toBool(), true);
    QVERIFY(inspector.errorMessage().isEmpty());
    QCOMPARE(inspector.inspectorModel()->rowCount(), 5);
    const QString banner = inspector.warningText();
    QVERIFY2(banner.contains(QLatin1String("cuda")) && banner.contains(QLatin1String("adios-helpers"))
            && banner.contains(QLatin1String("2 warnings")) && banner.contains(QLatin1String("1 note")),
        qPrintable(banner));
    // The rows with warnings are expanded.
    QTreeView* view = inspector.treeView();
    const auto* proxy = view->model();
    bool helpersExpanded = false;
    for (int r = 0; r < proxy->rowCount(); ++r)
        if (proxy->index(r, 0).data().toString() == QLatin1String("adios-helpers"))
            helpersExpanded = view->isExpanded(proxy->index(r, 0));
    QVERIFY(helpersExpanded);
    QVERIFY(inspector.hasProblems());
    QVERIFY2(banner.startsWith(QStringLiteral("⚠ 2 warnings")), qPrintable(banner));
    QVERIFY(inspector.setMetric(QStringLiteral("TIME")));
    QVERIFY(!inspector.setMetric(QStringLiteral("PAPI_NOPE")));

    // A model that cannot be applied: the error instead of the tree.
    Model tie = loadModel();
    tie.associations[2].priority = 0;
    inspector.setModel(tie, xmain());
    inspector.waitForResult();
    QVERIFY2(inspector.errorMessage().contains(QLatin1String("adios-helpers")), qPrintable(inspector.errorMessage()));
    QCOMPARE(inspector.inspectorModel()->rowCount(), 0);

    // A superseded job's result is dropped: only the last request is shown.
    inspector.setModel(tie, xmain());
    inspector.setModel(loadModel(), xmain());
    inspector.waitForResult();
    QVERIFY(inspector.errorMessage().isEmpty());
    QCOMPARE(inspector.inspectorModel()->rowCount(), 5);

    checkRender(inspector, QStringLiteral("semantic-inspector"), QSize(1400, 800));
}

void TestSemanticWidgets::inspectorNotesOnly()
{
    // MPI routines are also matched by the catch-all, which loses on priority: notes, no warning.
    // The banner says so without the warning sign and no association opens expanded (issue 14: it
    // read "⚠ 0 warnings" and every row with a note was open).
    const Model model = parse(R"({"format": "parallax-semantic-model", "version": 1, "name": "notes",
        "source": "flat",
        "entities": [{"id": "mpi", "kind": "layer"}, {"id": "app", "kind": "layer"}],
        "associations": [
          {"id": "mpi", "priority": 1, "select": {"regex": "MPI_.*"}, "target": "mpi", "policy": "DIRECT"},
          {"id": "all", "select": {"regex": ".*"}, "target": "app", "policy": "DIRECT"}]})");
    SemanticInspector inspector;
    inspector.setModel(model, xmain());
    inspector.waitForResult();
    QVERIFY2(inspector.errorMessage().isEmpty(), qPrintable(inspector.errorMessage()));
    QVERIFY(!inspector.hasProblems());
    const QString banner = inspector.warningText();
    QVERIFY2(banner.startsWith(QLatin1String("No warnings, 1 note")), qPrintable(banner));
    QVERIFY2(
        !banner.contains(QStringLiteral("⚠")) && !banner.contains(QLatin1String("0 warnings")), qPrintable(banner));
    QTreeView* view = inspector.treeView();
    const auto* proxy = view->model();
    QVERIFY(proxy->rowCount() >= 2);
    for (int r = 0; r < proxy->rowCount(); ++r) {
        const QModelIndex row = proxy->index(r, 0);
        if (static_cast<Kind>(row.data(SemanticInspectorModel::KindRole).toInt()) == Kind::Association) {
            QVERIFY2(!view->isExpanded(row), qPrintable(row.data().toString()));
            QVERIFY(!row.data(SemanticInspectorModel::ProblemRole).toBool());
        }
    }
    // The notes are still there, on the association that lost the events.
    bool noted = false;
    for (int r = 0; r < proxy->rowCount(); ++r)
        noted = noted || !proxy->index(r, 0).data(SemanticInspectorModel::WarningRole).toStringList().isEmpty();
    QVERIFY(noted);
}

void TestSemanticWidgets::ruleEditorPreview()
{
    const TrialPtr trial = xmain();
    const Model applied = loadModel();
    SemanticRuleEditor editor;
    QSignalSpy appliedSpy(&editor, &SemanticRuleEditor::modelApplied);
    editor.setTrial(trial);
    editor.setAppliedModel(applied);
    editor.waitForPreview();
    QVERIFY2(editor.previewOk(), qPrintable(editor.errorMessage()));
    SemanticPreviewModel* preview = editor.previewTable();
    QAbstractItemModelTester tester(preview, QAbstractItemModelTester::FailureReportingMode::QtTest);
    // The applied model's own text: before = after everywhere.
    QVERIFY(preview->rowCount() > 10);
    for (int r = 0; r < preview->rowCount(); ++r)
        QVERIFY(near(preview->beforeValue(r), preview->afterValue(r)));
    QVERIFY2(editor.conservationText().contains(QStringLiteral("✓")), qPrintable(editor.conservationText()));
    QVERIFY(near(preview->attributedAfter(), preview->sourceTotal()));

    // An error: the message with its line, the line highlighted, nothing applicable.
    const QString broken = QStringLiteral(
        "{\"format\": \"parallax-semantic-model\", \"version\": 1, \"name\": \"x\",\n" // 1
        "  \"entities\": [\n" // 2
        "    {\"id\": \"mpi\"},\n" // 3
        "    {\"id\": \"io\"},\n" // 4
        "    {\"id\": \"app\", \"colour\": \"red\"}\n" // 5
        "  ],\n" // 6
        "  \"associations\": [{\"id\": \"mpi\", \"select\": {\"regex\": \"MPI_.*\"}, \"target\": \"mpi\"}]\n" // 7
        "}\n");
    editor.setText(broken);
    editor.waitForPreview();
    QVERIFY(!editor.previewOk());
    QCOMPARE(editor.errorLine(), 5);
    QCOMPARE(editor.editor()->errorLine(), 5);
    QVERIFY2(editor.errorMessage().contains(QLatin1String("unknown key 'colour'")), qPrintable(editor.errorMessage()));
    QVERIFY(!editor.canApply());
    QVERIFY(!editor.apply());

    // A JSON syntax error, typed (debounced): also with its line.
    editor.editor()->setPlainText(
        QString(broken).replace(QStringLiteral("\"colour\": \"red\""), QStringLiteral("\"kind\": ")));
    QVERIFY(editor.isPreviewing());
    editor.waitForPreview();
    QVERIFY(!editor.previewOk());
    QCOMPARE(editor.errorLine(), 5);

    // An attribution error (two associations of the same priority win an event): the line of the
    // association it names.
    Model tie = applied;
    tie.associations[2].priority = 0;
    const QString tieText = QString::fromUtf8(toJson(tie));
    editor.setText(tieText);
    editor.waitForPreview();
    QVERIFY(!editor.previewOk());
    QVERIFY2(editor.errorMessage().contains(QLatin1String("configuration error")), qPrintable(editor.errorMessage()));
    QVERIFY(editor.errorLine() > 0);
    QVERIFY2(tieText.split(QLatin1Char('\n')).value(editor.errorLine() - 1).contains(QLatin1String("adios")),
        qPrintable(tieText.split(QLatin1Char('\n')).value(editor.errorLine() - 1)));

    // A valid edit: the helpers go DIRECT to io:write instead of being amortised. The values change
    // in the preview; the applied model does not.
    QString edited = QString::fromUtf8(toJson(applied));
    Model direct = applied;
    direct.associations[2].policy = Policy::Direct;
    direct.associations[2].target.ids = { QStringLiteral("io:write") };
    edited = QString::fromUtf8(toJson(direct));
    editor.setText(edited);
    editor.waitForPreview();
    QVERIFY2(editor.previewOk(), qPrintable(editor.errorMessage()));
    QCOMPARE(editor.editor()->errorLine(), 0);
    const double helpers = sumExclusive(*trial, [](const QString& n) {
        return n == QLatin1String("ADIOS group size") || n == QLatin1String("ADIOS flexpath copy buffer");
    });
    const int write = preview->findRow(QStringLiteral("io:write"));
    const int close = preview->findRow(QStringLiteral("io:close"));
    QVERIFY(write >= 0 && close >= 0);
    QVERIFY(near(preview->afterValue(write) - preview->beforeValue(write), helpers / 2));
    QVERIFY(near(preview->afterValue(close) - preview->beforeValue(close), -helpers / 2));
    QVERIFY(preview->index(write, SemanticPreviewModel::Change).data().toString().startsWith(QLatin1Char('+')));
    QVERIFY(near(preview->attributedAfter(), preview->sourceTotal()));
    QVERIFY(editor.conservationText().contains(QStringLiteral("✓")));
    // Nothing applied yet.
    QCOMPARE(appliedSpy.count(), 0);
    QVERIFY(editor.appliedModel().has_value());
    QCOMPARE(editor.appliedModel()->associations[2].policy, Policy::Amortize);
    QVERIFY(editor.canApply());

    checkRender(editor, QStringLiteral("semantic-rules"), QSize(1400, 800));

    // Apply: the signal with the new model; before = after afterwards.
    QVERIFY(editor.apply());
    QCOMPARE(appliedSpy.count(), 1);
    QCOMPARE(appliedSpy.front().front().value<Model>().associations[2].policy, Policy::Direct);
    QCOMPARE(editor.appliedModel()->associations[2].policy, Policy::Direct);
    editor.waitForPreview();
    QVERIFY(editor.previewOk());
    for (int r = 0; r < preview->rowCount(); ++r)
        QVERIFY(near(preview->beforeValue(r), preview->afterValue(r)));

    // Save writes the text.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("edited.json"));
    QVERIFY(editor.saveToFile(file).isEmpty());
    auto reread = loadModelFile(file);
    QVERIFY(std::holds_alternative<Model>(reread));
    QCOMPARE(std::get<Model>(reread).associations[2].policy, Policy::Direct);
}

void TestSemanticWidgets::ruleEditorInsertAndApply()
{
    const TrialPtr trial = xmain();
    SemanticRuleEditor editor;
    editor.setTrial(trial);
    editor.setAppliedModel(loadModel());
    editor.waitForPreview();
    QVERIFY(editor.previewOk());

    // The form: .TAU application DIRECT to a new entity "app" (declared by the insert).
    AssociationDraft draft;
    draft.selector = SelectorKind::Exact;
    draft.value = QStringLiteral(".TAU application");
    draft.targets = { QStringLiteral("app") };
    draft.policy = Policy::Direct;
    QCOMPARE(editor.insertAssociation(draft), QString());
    QVERIFY(editor.text().contains(QLatin1String("{\"id\": \"rule-5\", \"policy\": \"DIRECT\", \"select\": {\"exact\": "
                                                 "\".TAU application\"}, \"target\": \"app\"}")));
    QVERIFY(editor.text().contains(QLatin1String("{\"id\": \"app\", \"kind\": \"entity\", \"name\": \"app\"}")));
    editor.waitForPreview();
    QVERIFY2(editor.previewOk(), qPrintable(editor.errorMessage()));
    QCOMPARE(editor.editedModel()->associations.size(), std::size_t(5));
    SemanticPreviewModel* preview = editor.previewTable();
    const double app = sumExclusive(*trial, [](const QString& n) { return n == QLatin1String(".TAU application"); });
    const int appRow = preview->findRow(QStringLiteral("app"));
    QVERIFY(appRow >= 0);
    QVERIFY(near(preview->afterValue(appRow), app));
    QCOMPARE(preview->index(appRow, SemanticPreviewModel::Before).data().toString(), QStringLiteral("— (new)"));
    const int unmapped = preview->findRow(QStringLiteral("(unmapped)"));
    QVERIFY(unmapped >= 0);
    QVERIFY(near(preview->beforeValue(unmapped) - preview->afterValue(unmapped), app));
    QCOMPARE(editor.appliedModel()->associations.size(), std::size_t(4));

    // Form errors: DIRECT with two targets, a duplicate id, invalid JSON.
    draft.targets = { QStringLiteral("a"), QStringLiteral("b") };
    QVERIFY(editor.insertAssociation(draft).contains(QLatin1String("exactly one")));
    draft.targets = { QStringLiteral("app") };
    draft.id = QStringLiteral("mpi");
    QVERIFY(editor.insertAssociation(draft).contains(QLatin1String("exists already")));
    const QString before = editor.text();
    editor.setText(before.left(before.size() - 4));
    draft.id.clear();
    QVERIFY(editor.insertAssociation(draft).startsWith(QLatin1String("Fix the JSON first")));

    // Into a model without associations and entities at all.
    editor.setText(QStringLiteral("{\"format\": \"parallax-semantic-model\", \"version\": 1, \"name\": \"empty\"}"));
    draft.selector = SelectorKind::Regex;
    draft.value = QStringLiteral("MPI_.*");
    draft.targets = { QStringLiteral("comm") };
    QCOMPARE(editor.insertAssociation(draft), QString());
    editor.waitForPreview();
    QVERIFY2(editor.previewOk(), qPrintable(editor.errorMessage() + QLatin1Char('\n') + editor.text()));
    QCOMPARE(editor.editedModel()->associations.size(), std::size_t(1));
    QCOMPARE(editor.editedModel()->entities.size(), std::size_t(1));
    QVERIFY(editor.apply());
    QCOMPARE(editor.appliedModel()->name, QStringLiteral("empty"));
}

void TestSemanticWidgets::comparisonExampleF()
{
    // docs/SEMANTICS.md example F with A = the cuboid (faces 10, 12, 18, 20, 24, 30) and B = the cube
    // (10, 12, 14, 16, 20, 26), so that Δ = A − B = 0, 0, 4, 4, 4, 4.
    const std::vector<double> expected { 0, 0, 4, 4, 4, 4 };
    const TrialPtr cuboid = cubeWithFaces(QStringLiteral("cuboid"), { 10, 12, 18, 20, 24, 30 });
    const TrialPtr cube = cubeWithFaces(QStringLiteral("cube"), { 10, 12, 14, 16, 20, 26 });
    SemanticComparison direct;
    QAbstractItemModelTester tester(direct.comparisonModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    direct.setInput(parse(cubeModel), cuboid, cube);
    direct.setScope(Scope::Kind::Thread, { 0, 0, 0 });
    direct.waitForResult();
    QVERIFY2(direct.errorMessage().isEmpty(), qPrintable(direct.errorMessage()));
    QVERIFY(direct.isLinear());
    const SemanticComparisonModel& m = *direct.comparisonModel();
    for (int i = 0; i < 6; ++i) {
        const SemanticComparisonRow& row = rowOf(m, QStringLiteral("face:%1").arg(i));
        QCOMPARE(row.diff.diff, expected[static_cast<std::size_t>(i)]);
        QVERIFY(row.diff.inA && row.diff.inB);
        QVERIFY(!row.diff.estimate);
    }
    QCOMPARE(rowOf(m, QStringLiteral("pp")).diff.diff, 16.0);
    QCOMPARE(m.rows().front().diff.id, QStringLiteral("pp")); // sorted by |Δ|
    QCOMPARE(direct.totalA(), 116.0);
    QCOMPARE(direct.totalB(), 100.0);
    // Δ% = 100·(A − B)/A: face 2 is 18 vs 14.
    const QModelIndex face2 = m.index(m.findRow(QStringLiteral("face:2")), SemanticComparisonModel::DeltaPercent);
    QCOMPARE(face2.data().toString(), QStringLiteral("+22.2 %"));
    QCOMPARE(m.index(m.findRow(QStringLiteral("face:0")), SemanticComparisonModel::DeltaPercent).data().toString(),
        QStringLiteral("0.0 %"));
    // The bars: the changed entities, largest first; the unchanged faces have none.
    QCOMPARE(direct.barEntities().size(), 5);
    QCOMPARE(direct.barEntities().front(), QStringLiteral("pp"));
    QVERIFY(!direct.barEntities().contains(QStringLiteral("face:0")));
    QCOMPARE(direct.chart()->plottableCount(), 2);
    // Linear: the diff trial attributed through the model agrees.
    QVERIFY(std::isnan(direct.diffTrialDisagreement()));
    direct.setCheckDiffTrial(true);
    direct.waitForResult();
    QVERIFY2(direct.diffTrialError().isEmpty(), qPrintable(direct.diffTrialError()));
    QVERIFY(direct.diffTrialDisagreement() < 1e-9);
    QVERIFY(m.hasMapped());
    for (int i = 0; i < 6; ++i)
        QCOMPARE(rowOf(m, QStringLiteral("face:%1").arg(i)).mapped, expected[static_cast<std::size_t>(i)]);
    QVERIFY(direct.linearityText().contains(QLatin1String("linear")));

    // Trial-specific WEIGHTED (no face timers; particles from each trial's metadata): each trial
    // with its own weights, then the difference — the same 0, 0, 4, 4, 4, 4.
    const TrialPtr a2 = cubeWithoutFaces(QStringLiteral("cuboid"), 114, { 500, 600, 900, 1000, 1200, 1500 });
    const TrialPtr b2 = cubeWithoutFaces(QStringLiteral("cube"), 98, { 500, 600, 700, 800, 1000, 1300 });
    SemanticComparison weighted;
    weighted.setInput(parse(weightedModel()), a2, b2);
    weighted.waitForResult();
    QVERIFY2(weighted.errorMessage().isEmpty(), qPrintable(weighted.errorMessage()));
    QVERIFY(!weighted.isLinear());
    const SemanticComparisonModel& w = *weighted.comparisonModel();
    for (int i = 0; i < 6; ++i) {
        const SemanticComparisonRow& row = rowOf(w, QStringLiteral("face:%1").arg(i));
        QVERIFY2(std::abs(row.diff.diff - expected[static_cast<std::size_t>(i)]) < 1e-9,
            qPrintable(QString::number(row.diff.diff)));
        QVERIFY(row.diff.estimate);
        QCOMPARE(
            w.index(w.findRow(row.diff.id), SemanticComparisonModel::Estimate).data().toString(), QStringLiteral("≈"));
    }
    // Never the diff trial: the check cannot be switched on, and the UI says why.
    weighted.setCheckDiffTrial(true);
    weighted.waitForResult();
    QVERIFY(!weighted.checksDiffTrial());
    QVERIFY(std::isnan(weighted.diffTrialDisagreement()));
    QVERIFY(!w.hasMapped());
    QVERIFY(weighted.linearityText().contains(QLatin1String("not linear")));
    // Issue 14: user-facing text says what happens, never cites a document section.
    QVERIFY(weighted.linearityText().contains(QLatin1String("per-trial attribution")));
    QVERIFY(!weighted.linearityText().contains(QLatin1String("SEMANTICS.md")));
    // Mean and total over the one thread agree here; an unknown thread is an error.
    weighted.setScope(Scope::Kind::Total);
    weighted.waitForResult();
    QVERIFY(std::abs(rowOf(w, QStringLiteral("face:5")).diff.diff - 4) < 1e-9);
    weighted.setScope(Scope::Kind::Thread, { 3, 0, 0 });
    weighted.waitForResult();
    QVERIFY(weighted.errorMessage().contains(QLatin1String("no thread 3,0,0")));
    weighted.setScope(Scope::Kind::Mean);
    weighted.waitForResult();
    QVERIFY(weighted.errorMessage().isEmpty());

    checkRender(weighted, QStringLiteral("semantic-compare-weighted"), QSize(1200, 700));
}

void TestSemanticWidgets::comparisonRealSamples()
{
    // The wrap-params trial against itself: every Δ is 0, and so is the attributed diff trial.
    const Model params = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "wrap parameters",
        "entities": [{"id": "wrapped", "kind": "layer", "name": "wrapped routines"}],
        "associations": [
          {"id": "params", "priority": 1, "select": {"regex": ".*\\[ <(\\w+)> = <(\\w+)> \\]\\s*"},
           "target": {"template": {"id": "{1}={2}", "kind": "parameter", "name": "{1} = {2}", "parent": "wrapped"}}},
          {"id": "wrap", "select": {"regex": ".*__wrap_.*"}, "target": "wrapped"}]})M");
    const TrialPtr wrap = wrapParams();
    SemanticComparison self;
    self.setInput(params, wrap, wrap);
    self.setCheckDiffTrial(true);
    self.waitForResult();
    QVERIFY2(self.errorMessage().isEmpty(), qPrintable(self.errorMessage()));
    const SemanticComparisonModel& s = *self.comparisonModel();
    QVERIFY(s.rowCount() >= 3);
    bool parameterRows = false;
    for (const SemanticComparisonRow& row : s.rows()) {
        QCOMPARE(row.diff.diff, 0.0);
        QVERIFY(row.diff.inA && row.diff.inB);
        parameterRows = parameterRows || row.diff.kind == QLatin1String("parameter");
    }
    QVERIFY(parameterRows);
    QVERIFY(self.barEntities().isEmpty());
    QCOMPARE(self.totalA(), self.totalB());
    QVERIFY2(self.diffTrialError().isEmpty(), qPrintable(self.diffTrialError()));
    QCOMPARE(self.diffTrialDisagreement(), 0.0);

    // Two ranks of the xmain workflow as two runs: Δ per entity = the difference of the events'
    // exclusive values, and the linear model's diff trial agrees.
    const TrialPtr rank0 = singleRank(*xmain(), 0, QStringLiteral("xmain rank 0"));
    const TrialPtr rank1 = singleRank(*xmain(), 1, QStringLiteral("xmain rank 1"));
    SemanticComparison ranks;
    ranks.setInput(loadModel(), rank0, rank1);
    ranks.setCheckDiffTrial(true);
    ranks.waitForResult();
    QVERIFY2(ranks.errorMessage().isEmpty(), qPrintable(ranks.errorMessage()));
    QVERIFY(ranks.isLinear());
    const SemanticComparisonModel& r = *ranks.comparisonModel();
    auto excl = [](const Trial& t, const char* prefix) {
        return sumExclusive(t, [prefix](const QString& n) { return n.startsWith(QLatin1String(prefix)); });
    };
    QVERIFY(near(rowOf(r, QStringLiteral("mpi:Barrier")).diff.diff,
        excl(*rank0, "MPI_Barrier(") - excl(*rank1, "MPI_Barrier(")));
    QVERIFY(near(rowOf(r, QStringLiteral("mpi")).diff.diff, excl(*rank0, "MPI_") - excl(*rank1, "MPI_")));
    QVERIFY(near(ranks.totalA() - ranks.totalB(), sumExclusive(*rank0, [](const QString&) {
        return true;
    }) - sumExclusive(*rank1, [](const QString&) { return true; })));
    QVERIFY2(ranks.diffTrialError().isEmpty(), qPrintable(ranks.diffTrialError()));
    QVERIFY(ranks.diffTrialDisagreement() <= 1e-6 * std::max(std::abs(ranks.totalA()), 1.0));
    // Sorted by |Δ|.
    for (std::size_t i = 1; i < r.rows().size(); ++i)
        QVERIFY(std::abs(r.rows()[i - 1].diff.diff) >= std::abs(r.rows()[i].diff.diff));
    QVERIFY(!ranks.barEntities().isEmpty());

    checkRender(ranks, QStringLiteral("semantic-compare"), QSize(1400, 800));
}

QTEST_MAIN(TestSemanticWidgets)
#include "tst_semantic_widgets.moc"
