// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// SEAA semantic views (docs/SEMANTICS.md 5): the worked examples A, A2, B, C, D, E, F with their exact
// numbers, the model file rules, conservation over generated trials and random rule sets, and
// linearity with the algebra.
#include "algebra/operations.h"
#include "algebra/semanticbuiltin.h"
#include "algebra/semanticmodel.h"
#include "algebra/semanticprofile.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/readerregistry.h"

#include <QRandomGenerator>
#include <QTest>
#include <cmath>

using namespace parallax;
using namespace parallax::semantic;

namespace {

struct Cell {
    const char* event;
    double calls;
    double excl;
    double incl; ///< < 0: same as excl
};

/// A one-metric (TIME) trial: one row of cells per thread, and trial-wide metadata.
TrialPtr makeTrial(const QString& name, const std::vector<std::vector<Cell>>& threads,
    const QList<QPair<QString, QString>>& metadata = {})
{
    TrialBuilder b(name);
    b.setProvenance({ QStringLiteral("read"), name, QStringLiteral("test"), {}, {} });
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    for (std::size_t t = 0; t < threads.size(); ++t) {
        const ThreadIndex ti = b.addThread({ static_cast<int>(t), 0, 0 });
        for (const Cell& c : threads[t]) {
            const EventId e = b.addEvent(QString::fromUtf8(c.event));
            const double excl[] = { c.excl };
            const double incl[] = { c.incl < 0 ? c.excl : c.incl };
            b.addInterval(ti, e, c.calls, 0, excl, incl);
        }
    }
    for (const auto& [k, v] : metadata)
        b.addMetadata(k, v);
    return b.build();
}

Model parse(const QByteArray& json)
{
    auto result = parseModel(json, QStringLiteral("test.json"));
    if (auto* error = std::get_if<ModelError>(&result))
        qFatal("model does not parse: %s", qPrintable(error->toString()));
    return std::get<Model>(result);
}

QString parseError(const QByteArray& json)
{
    auto result = parseModel(json, QStringLiteral("bad.json"));
    if (auto* error = std::get_if<ModelError>(&result))
        return error->toString();
    return {};
}

ProfilePtr attr(const Model& m, const TrialPtr& t)
{
    auto result = attribute(m, t);
    if (auto* error = std::get_if<AttributionError>(&result))
        qFatal("attribution fails: %s", qPrintable(error->message));
    return std::get<ProfilePtr>(result);
}

QString attrError(const Model& m, const TrialPtr& t)
{
    auto result = attribute(m, t);
    if (auto* error = std::get_if<AttributionError>(&result))
        return error->message;
    return {};
}

int entity(const SemanticProfile& p, const char* id)
{
    const int r = p.findEntity(QString::fromUtf8(id));
    if (r < 0)
        qFatal("no entity %s", id);
    return r;
}

constexpr MetricId Time { 0u };
const ThreadIndex T0 { 0u };

/// Example A's trial (cube, per-face timers present).
TrialPtr cubeWithFaces(const QString& name, const std::vector<double>& faces, double generate = 2)
{
    static const char* faceNames[]
        = { "cost of processing face #0", "cost of processing face #1", "cost of processing face #2",
              "cost of processing face #3", "cost of processing face #4", "cost of processing face #5" };
    double sum = 0;
    std::vector<Cell> cells;
    for (std::size_t i = 0; i < faces.size(); ++i) {
        cells.push_back({ faceNames[i], faces[i] / 0.02, faces[i], -1 });
        sum += faces[i];
    }
    cells.push_back({ "main", 1, 0, sum + generate });
    cells.push_back({ "GenerateParticles", 1, generate, -1 });
    cells.push_back({ "ProcessParticle", sum / 0.02, 0, sum });
    return makeTrial(name, { cells });
}

const QByteArray cubeModel = R"M({
  "format": "parallax-semantic-model", "version": 1, "name": "cube faces", "source": "flat",
  "entities": [
    {"id": "pp", "kind": "stage", "name": "particle processing"},
    {"id": "face:0", "kind": "face", "name": "face #0", "parent": "pp", "attrs": {"particles": 500}}
  ],
  "associations": [
    {"id": "faces", "select": {"regex": "cost of processing face #(\\d+)"},
     "target": {"template": {"id": "face:{1}", "kind": "face", "name": "face #{1}",
                             "parent": "pp", "attrs": {"index": "{1}"}}},
     "policy": "DIRECT", "collection": "embedded"},
    {"id": "pp-own", "select": {"exact": "ProcessParticle"}, "target": "pp", "policy": "DIRECT"}
  ]
})M";

/// The A2 model: six declared faces with particle counts (or metadata references) and
/// ProcessParticle mapped to all six with `policy`.
QByteArray a2Model(const char* policy, bool metadataWeights = false)
{
    QByteArray entities = R"M({"id": "pp", "kind": "stage", "name": "particle processing"})M";
    const int particles[] = { 500, 600, 700, 800, 1000, 1300 };
    for (int i = 0; i < 6; ++i) {
        const QByteArray weight = metadataWeights
            ? QByteArray(R"M({"metadata": "particles.face)M") + QByteArray::number(i) + "\"}"
            : QByteArray::number(particles[i]);
        entities += ",\n    {\"id\": \"face:" + QByteArray::number(i) + "\", \"kind\": \"face\", \"name\": \"face #"
            + QByteArray::number(i) + "\", \"parent\": \"pp\", \"attrs\": {\"particles\": " + weight + "}}";
    }
    QByteArray weightAttr = QByteArray(policy) == "WEIGHTED" ? R"M(, "weight_attr": "particles")M" : "";
    return R"M({"format": "parallax-semantic-model", "version": 1, "name": "A2", "entities": [)M" + entities
        + R"M(], "associations": [{"id": "pp", "select": {"exact": "ProcessParticle"},
        "target": ["face:0", "face:1", "face:2", "face:3", "face:4", "face:5"], "policy": ")M"
        + policy + "\"" + weightAttr + "}]}";
}

/// Σ own over all entities = Σ excl over the source set, for every thread (values, calls, subrs).
void checkConservation(const SemanticProfile& p)
{
    QVERIFY2(p.conservationError() < 1e-12, qPrintable(QString::number(p.conservationError())));
}

} // namespace

class TestSemantic : public QObject {
    Q_OBJECT
private slots:
    void exampleA();
    void exampleA2();
    void exampleB();
    void exampleC();
    void exampleD();
    void exampleE();
    void exampleF();
    void modelFileErrors();
    void modelRoundTrip();
    void resolutionErrorsAndWarnings();
    void callPathSource();
    void conservationProperty();
    void linearityWithAlgebra();
    void builtinParameter();
    void builtinPhase();
    void builtinLayer();
    void builtinGroupAndFile();
};

void TestSemantic::exampleA()
{
    const TrialPtr trial = cubeWithFaces(QStringLiteral("cube"), { 10, 12, 14, 16, 20, 26 });
    const ProfilePtr p = attr(parse(cubeModel), trial);
    checkConservation(*p);
    const double expectedParent[] = { 10.20, 12.24, 14.29, 16.33, 20.41, 26.53 };
    const double faces[] = { 10, 12, 14, 16, 20, 26 };
    const Scope thread = Scope::ofThread(T0);
    for (int i = 0; i < 6; ++i) {
        const int r = entity(*p, QStringLiteral("face:%1").arg(i).toUtf8().constData());
        QCOMPARE(p->roll(r, T0, Time), faces[i]);
        QCOMPARE(std::round(p->percentOfTotal(r, Time, thread) * 100) / 100, faces[i]);
        QCOMPARE(std::round(p->percentOfParent(r, Time, thread) * 100) / 100, expectedParent[i]);
        QVERIFY(p->inclusiveDerivable(r));
        QCOMPARE(p->inclusive(r, T0, Time), faces[i]);
        // The regex capture becomes a numeric attribute; face:0 keeps its declared particles.
        QCOMPARE(p->entity(r).attrs.value(QStringLiteral("index")).kind, AttrValue::Kind::Number);
        QCOMPARE(p->entity(r).attrs.value(QStringLiteral("index")).number, double(i));
        QCOMPARE(p->entity(r).component >= 0, true);
        QCOMPARE(p->components()[static_cast<std::size_t>(p->entity(r).component)].kind, Classification::OneToOne);
    }
    QCOMPARE(p->entity(entity(*p, "face:0")).attrs.value(QStringLiteral("particles")).number, 500.0);
    QCOMPARE(p->entity(entity(*p, "face:3")).name, QStringLiteral("face #3"));
    const int pp = entity(*p, "pp");
    QCOMPARE(p->roll(pp, T0, Time), 98.0);
    QCOMPARE(p->own(pp, T0, Time), 0.0); // the (self) row
    QCOMPARE(p->roll(p->unmappedEntity(), T0, Time), 2.0); // GenerateParticles + main
    double sum = 0;
    for (int root : p->roots())
        sum += p->roll(root, T0, Time);
    QCOMPARE(sum, 100.0);
    // 7 one-to-one components (6 faces, ProcessParticle -> pp); (unmapped) is not one.
    QCOMPARE(p->components().size(), std::size_t(7));
    for (const Component& c : p->components())
        QCOMPARE(c.kind, Classification::OneToOne);
    // Roll-up = children + (self).
    double children = 0;
    for (int c : p->entity(pp).children)
        children += p->roll(c, T0, Time);
    QCOMPARE(children + p->own(pp, T0, Time), p->roll(pp, T0, Time));
    QCOMPARE(p->calls(entity(*p, "face:5"), T0), 1300.0);
    QVERIFY(p->warnings().empty());
}

void TestSemantic::exampleA2()
{
    const TrialPtr trial = makeTrial(QStringLiteral("a2"), { { { "ProcessParticle", 4900, 98, -1 } } });
    const double measured[] = { 10, 12, 14, 16, 20, 26 };

    // AGGREGATE: one synthetic row {face:0, ...} = 98; the members have no number.
    {
        const ProfilePtr p = attr(parse(a2Model("AGGREGATE")), trial);
        checkConservation(*p);
        const int agg = entity(*p, "{face:0, face:1, face:2, face:3, face:4, face:5}");
        QVERIFY(p->entity(agg).isAggregate());
        QCOMPARE(p->roll(agg, T0, Time), 98.0);
        for (int i = 0; i < 6; ++i) {
            const int r = entity(*p, QStringLiteral("face:%1").arg(i).toUtf8().constData());
            QVERIFY(p->entity(r).aggregatedMember);
            QVERIFY(!p->present(r, T0));
            QCOMPARE(p->own(r, T0, Time), 0.0);
        }
        QCOMPARE(p->components().size(), std::size_t(1));
        QCOMPARE(p->components()[0].kind, Classification::OneToMany); // members count towards |R|
        QCOMPARE(p->components()[0].entities.size(), std::size_t(6));
        QCOMPARE(p->roll(entity(*p, "pp"), T0, Time), 98.0); // under the members' common parent
    }
    // AMORTIZE: 98/6 each, calls 4900/6, marked as an estimate; error vs the measured A.
    {
        const ProfilePtr p = attr(parse(a2Model("AMORTIZE")), trial);
        checkConservation(*p);
        const double errors[] = { 63.33, 36.11, 16.67, 2.08, -18.33, -37.18 };
        for (int i = 0; i < 6; ++i) {
            const int r = entity(*p, QStringLiteral("face:%1").arg(i).toUtf8().constData());
            QCOMPARE(std::round(p->own(r, T0, Time) * 1000) / 1000, 16.333);
            QCOMPARE(std::round(p->calls(r, T0) * 10) / 10, 816.7);
            QVERIFY(p->entity(r).estimate);
            const double error = 100 * (p->own(r, T0, Time) - measured[i]) / measured[i];
            QCOMPARE(std::round(error * 100) / 100, errors[i]);
        }
        QCOMPARE(p->components()[0].kind, Classification::OneToMany);
        // Σw = 1 per event.
        double w = 0;
        for (int e : p->edgesOf(trial->findEvent(QStringLiteral("ProcessParticle"))))
            w += p->edges()[static_cast<std::size_t>(e)].weight;
        QCOMPARE(w, 1.0);
    }
    // WEIGHTED by particles: exactly the measured values.
    {
        const ProfilePtr p = attr(parse(a2Model("WEIGHTED")), trial);
        checkConservation(*p);
        for (int i = 0; i < 6; ++i) {
            const int r = entity(*p, QStringLiteral("face:%1").arg(i).toUtf8().constData());
            QVERIFY(std::abs(p->own(r, T0, Time) - measured[i]) < 1e-12);
        }
    }
    // DIRECT with six targets is rejected when the file loads.
    const QString error = parseError(a2Model("DIRECT"));
    QVERIFY2(error.contains(QLatin1String("DIRECT needs exactly one target")), qPrintable(error));
    QVERIFY2(error.contains(QLatin1String("associations[0].policy")), qPrintable(error));
}

void TestSemantic::exampleB()
{
    const TrialPtr statements = makeTrial(QStringLiteral("b"),
        { { { "A=1;", 1, 1, -1 }, { "B=2;", 1, 2, -1 }, { "C=3;", 1, 3, -1 }, { "D=4;", 1, 4, -1 },
            { "E=5;", 1, 5, -1 } } });
    // B1: one entity per statement (template), grouped by the attribute form.
    const Model b1 = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "B1", "associations": [
        {"id": "stmt", "select": {"regex": "(.)=(\\d);"},
         "target": {"template": {"id": "stmt:{0}", "kind": "statement", "name": "{0}", "attrs": {"form": "Array=scalar"}}}}]})M");
    const ProfilePtr p1 = attr(b1, statements);
    checkConservation(*p1);
    QCOMPARE(p1->components().size(), std::size_t(5));
    for (const Component& c : p1->components())
        QCOMPARE(c.kind, Classification::OneToOne);
    const auto groups = groupByAttribute(*p1, QStringLiteral("form"), Time, Scope::ofThread(T0));
    QCOMPARE(groups.front().value, QStringLiteral("Array=scalar"));
    QCOMPARE(groups.front().own, 15.0);
    QCOMPARE(groups.front().entities.size(), std::size_t(5));

    // B2: one regex maps all five to one entity (many-to-one).
    const Model b2 = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "B2",
        "entities": [{"id": "as", "kind": "form", "name": "Array=scalar"}],
        "associations": [{"id": "all", "select": {"regex": ".=\\d;"}, "target": "as"}]})M");
    const ProfilePtr p2 = attr(b2, statements);
    checkConservation(*p2);
    QCOMPARE(p2->roll(entity(*p2, "as"), T0, Time), 15.0);
    QCOMPARE(p2->components().size(), std::size_t(1));
    QCOMPARE(p2->components()[0].kind, Classification::ManyToOne);
    QVERIFY(!p2->inclusiveDerivable(entity(*p2, "as"))); // five events, no call paths

    // Conversely: one event "Array=scalar" = 15 mapped to the five statements.
    const TrialPtr one = makeTrial(QStringLiteral("b3"), { { { "Array=scalar", 1, 15, -1 } } });
    const QByteArray decl = R"M([{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "D"}, {"id": "E"}])M";
    auto converse = [&](const char* policy) {
        return parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "B3", "entities": )M" + decl
            + R"M(, "associations": [{"id": "x", "select": {"exact": "Array=scalar"}, "target": ["A", "B", "C", "D", "E"], "policy": ")M"
            + policy + "\"}]}");
    };
    const ProfilePtr agg = attr(converse("AGGREGATE"), one);
    QCOMPARE(agg->roll(entity(*agg, "{A, B, C, D, E}"), T0, Time), 15.0);
    for (const char* s : { "A", "B", "C", "D", "E" })
        QVERIFY(!agg->present(entity(*agg, s), T0));
    const ProfilePtr am = attr(converse("AMORTIZE"), one);
    for (const char* s : { "A", "B", "C", "D", "E" }) {
        QCOMPARE(am->own(entity(*am, s), T0, Time), 3.0);
        QVERIFY(am->entity(entity(*am, s)).estimate);
    }
    checkConservation(*agg);
    checkConservation(*am);
}

void TestSemantic::exampleC()
{
    const TrialPtr trial = makeTrial(QStringLiteral("pooma"),
        { { { "main", 1, 0, 100 }, { "Pooma::blockAndEvaluate()", 1, 99.81, -1 }, { "A=B+C+D;", 1, 0.10, -1 },
              { "C=E-A+2.0*B;", 1, 0.09, -1 } },
            { { "main", 1, 0, 100 }, { "A=B+C+D;", 1, 60, -1 }, { "C=E-A+2.0*B;", 1, 38, -1 }, { "other", 1, 2, -1 } },
            { { "main", 1, 0, 100 }, { "A=B+C+D;", 1, 58, -1 }, { "C=E-A+2.0*B;", 1, 40, -1 },
                { "other", 1, 2, -1 } } });
    const Model model = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "POOMA",
        "entities": [{"id": "s1", "kind": "statement", "name": "A=B+C+D;"}, {"id": "s2", "kind": "statement", "name": "C=E-A+2.0*B;"}],
        "associations": [{"id": "s1", "select": {"exact": "A=B+C+D;"}, "target": "s1", "collection": "external"},
                         {"id": "s2", "select": {"exact": "C=E-A+2.0*B;"}, "target": "s2", "collection": "external"}]})M");
    const ProfilePtr p = attr(model, trial);
    checkConservation(*p);
    const int s1 = entity(*p, "s1"), s2 = entity(*p, "s2");
    const Stat a = p->stat(s1, Time, Quantity::Roll), b = p->stat(s2, Time, Quantity::Roll);
    QCOMPARE(std::round(a.total * 100) / 100, 118.10);
    QCOMPARE(std::round(b.total * 100) / 100, 78.09);
    QCOMPARE(std::round((a.total + b.total) * 100) / 100, 196.19);
    QCOMPARE(std::round(1000 * a.total / (a.total + b.total)) / 10, 60.2);
    QCOMPARE(std::round(1000 * b.total / (a.total + b.total)) / 10, 39.8);
    QCOMPARE(std::round(a.meanAll * 100) / 100, 39.37);
    QCOMPARE(std::round(b.meanAll * 100) / 100, 26.03);
    QCOMPARE(std::round(p->scoped(s1, Time, Quantity::Roll, Scope::mean()) * 100) / 100, 39.37);
    QCOMPARE(std::round(p->stat(p->unmappedEntity(), Time, Quantity::Roll).total * 100) / 100, 103.81);
    double all = 0;
    for (std::size_t t = 0; t < 3; ++t)
        for (std::size_t r = 0; r < p->entities().size(); ++r)
            all += p->own(static_cast<int>(r), ThreadIndex(t), Time);
    QCOMPARE(std::round(all * 100) / 100, 300.0);
    // On t0 alone the statements are 0.19 % of the thread.
    const double t0
        = p->percentOfTotal(s1, Time, Scope::ofThread(T0)) + p->percentOfTotal(s2, Time, Scope::ofThread(T0));
    QCOMPARE(std::round(t0 * 100) / 100, 0.19);
    // Present on every thread where one of its events ran (all three).
    QCOMPARE(a.present, std::size_t(3));
}

void TestSemantic::exampleD()
{
    // Four nodes; node 0 is the one the example details.
    const double roll[] = { 79.91, 90.00, 93.00, 94.29 };
    std::vector<std::vector<Cell>> threads;
    for (double r : roll) {
        const double scale = (r - 4.91) / 75.0;
        threads.push_back({ { "main", 1, 100 - r, 100 }, { "Task execution", 1, 4.91, r },
            { "SerialMPM::interpolateParticlesToGrid", 1000000, 30 * scale, -1 },
            { "SerialMPM::computeStressTensor", 800000, 20 * scale, -1 },
            { "SerialMPM::interpolateToParticlesAndUpdate", 700000, 15 * scale, -1 },
            { "SerialMPM::computeInternalForce", 500000, 10 * scale, -1 } });
    }
    const TrialPtr trial = makeTrial(QStringLiteral("uintah"), threads);
    const Model model = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "Uintah",
        "entities": [{"id": "Task execution", "kind": "phase"}],
        "associations": [
          {"id": "tasks", "select": {"regex": "SerialMPM::(.+)"},
           "target": {"template": {"id": "task:{1}", "kind": "task", "name": "{1}", "parent": "Task execution"}}},
          {"id": "exec", "select": {"exact": "Task execution"}, "target": "Task execution"}]})M");
    const ProfilePtr p = attr(model, trial);
    checkConservation(*p);
    const int exec = entity(*p, "Task execution");
    const Scope node0 = Scope::ofThread(T0);
    QCOMPARE(std::round(p->roll(exec, T0, Time) * 100) / 100, 79.91);
    const char* tasks[] = { "task:interpolateParticlesToGrid", "task:computeStressTensor",
        "task:interpolateToParticlesAndUpdate", "task:computeInternalForce" };
    const double parent[] = { 37.54, 25.03, 18.77, 12.51 };
    double sum = 0;
    for (int i = 0; i < 4; ++i) {
        const double pct = p->percentOfParent(entity(*p, tasks[i]), Time, node0);
        QCOMPARE(std::round(pct * 100) / 100, parent[i]);
        sum += pct;
    }
    const double self = 100 * p->own(exec, T0, Time) / p->roll(exec, T0, Time);
    QCOMPARE(std::round(self * 100) / 100, 6.14);
    QVERIFY(std::abs(sum + self - 100) < 1e-9); // compare unrounded: the rounded values give 99.99
    QCOMPARE(std::round(p->roll(p->unmappedEntity(), T0, Time) * 100) / 100, 20.09);
    QCOMPARE(std::round(p->percentOfTotal(exec, Time, Scope::mean()) * 100) / 100, 89.30);
    QCOMPARE(std::round(p->percentOfTotal(exec, Time, Scope::total()) * 100) / 100, 89.30);
    QCOMPARE(p->calls(entity(*p, tasks[0]), T0), 1000000.0);
}

void TestSemantic::exampleE()
{
    const TrialPtr trial = makeTrial(QStringLiteral("e"), { { { "e1", 1, 20, -1 }, { "e2", 1, 10, -1 } } });
    const Model model = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "E",
        "entities": [{"id": "r1"}, {"id": "r2"}],
        "associations": [{"id": "a1", "select": {"exact": "e1"}, "target": ["r1", "r2"], "policy": "AMORTIZE"},
                         {"id": "a2", "select": {"exact": "e2"}, "target": "r2"}]})M");
    const ProfilePtr p = attr(model, trial);
    checkConservation(*p);
    QCOMPARE(p->own(entity(*p, "r1"), T0, Time), 10.0);
    QCOMPARE(p->own(entity(*p, "r2"), T0, Time), 20.0);
    QCOMPARE(p->components().size(), std::size_t(1));
    QCOMPARE(p->components()[0].events.size(), std::size_t(2));
    QCOMPARE(p->components()[0].entities.size(), std::size_t(2));
    QCOMPARE(p->components()[0].kind, Classification::ManyToMany);
    QCOMPARE(p->associationReports()[0].contributed[0], 20.0);
    // Amortising onto r2, which also has a per-instance timer (e2), is flagged.
    bool warned = false;
    for (const Warning& w : p->warnings())
        warned = warned
            || (w.association == QLatin1String("a1") && w.message.contains(QLatin1String("per-instance timers")));
    QVERIFY(warned);
}

void TestSemantic::exampleF()
{
    const std::vector<double> aFaces { 10, 12, 14, 16, 20, 26 }, bFaces { 10, 12, 18, 20, 24, 30 };
    const TrialPtr a = cubeWithFaces(QStringLiteral("cube"), aFaces);
    const TrialPtr b = cubeWithFaces(QStringLiteral("cuboid"), bFaces);
    const Model direct = parse(cubeModel);
    const ProfilePtr pa = attr(direct, a), pb = attr(direct, b);
    const double expected[] = { 0, 0, 4, 4, 4, 4 };
    const auto rows = semanticDifference(*pb, *pa, QStringLiteral("TIME"), Scope::ofThread(T0), Scope::ofThread(T0));
    auto find = [&](const std::vector<DiffRow>& rs, const QString& id) {
        for (const DiffRow& r : rs)
            if (r.id == id)
                return r;
        qFatal("no row %s", qPrintable(id));
    };
    for (int i = 0; i < 6; ++i)
        QCOMPARE(find(rows, QStringLiteral("face:%1").arg(i)).diff, expected[i]);
    QCOMPARE(find(rows, QStringLiteral("pp")).diff, 16.0);

    // Without face timers: trial-specific WEIGHTED (weights from each trial's metadata), mapped
    // per trial and then diffed, gives the same values.
    const int pa_[] = { 500, 600, 700, 800, 1000, 1300 }, pb_[] = { 500, 600, 900, 1000, 1200, 1500 };
    QList<QPair<QString, QString>> ma, mb;
    for (int i = 0; i < 6; ++i) {
        ma.append({ QStringLiteral("particles.face%1").arg(i), QString::number(pa_[i]) });
        mb.append({ QStringLiteral("particles.face%1").arg(i), QString::number(pb_[i]) });
    }
    const TrialPtr a2 = makeTrial(QStringLiteral("cube"), { { { "ProcessParticle", 4900, 98, -1 } } }, ma);
    const TrialPtr b2 = makeTrial(QStringLiteral("cuboid"), { { { "ProcessParticle", 5700, 114, -1 } } }, mb);
    const Model weighted = parse(a2Model("WEIGHTED", true));
    QVERIFY(!weighted.isLinear());
    QVERIFY(direct.isLinear());
    const ProfilePtr wa = attr(weighted, a2), wb = attr(weighted, b2);
    const auto wrows = semanticDifference(*wb, *wa, QStringLiteral("TIME"), Scope::ofThread(T0), Scope::ofThread(T0));
    for (int i = 0; i < 6; ++i)
        QVERIFY(std::abs(find(wrows, QStringLiteral("face:%1").arg(i)).diff - expected[i]) < 1e-9);

    // Mapping the diff itself (+16) with B's weights would give 1.40, 1.68, ... : refused, because
    // the differing metadata is not trial-wide in the diff (docs/SEMANTICS.md 5.5).
    AlgebraOptions options;
    const AlgebraResult diff = difference(*b2, *a2, options);
    QVERIFY2(diff.ok(), qPrintable(diff.error()));
    const QString error = attrError(weighted, diff.trial());
    QVERIFY2(error.contains(QLatin1String("particles.face2")) || error.contains(QLatin1String("particles.face")),
        qPrintable(error));
    QVERIFY2(error.contains(QLatin1String("not linear")), qPrintable(error));
    // The linear DIRECT model maps the diff fine, and equals the semantic diff (5.5).
    const AlgebraResult faceDiff = difference(*b, *a, options);
    QVERIFY2(faceDiff.ok(), qPrintable(faceDiff.error()));
    const ProfilePtr pd = attr(direct, faceDiff.trial());
    for (int i = 0; i < 6; ++i)
        QCOMPARE(pd->roll(entity(*pd, QStringLiteral("face:%1").arg(i).toUtf8().constData()), T0, Time), expected[i]);
}

void TestSemantic::modelFileErrors()
{
    auto expectError = [](const QByteArray& json, const char* needle, int line) {
        const QString error = parseError(json);
        QVERIFY2(error.contains(QLatin1String(needle)), qPrintable(error));
        if (line > 0)
            QVERIFY2(error.startsWith(QStringLiteral("bad.json:%1:").arg(line)), qPrintable(error));
    };
    const QByteArray head = "{\"format\": \"parallax-semantic-model\", \"version\": 1, \"name\": \"x\",\n";
    // Unknown key, with its line and key path.
    expectError(
        head + "\"entities\": [\n {\"id\": \"a\"},\n {\"id\": \"b\", \"colour\": \"red\"}\n],\n\"associations\": []}",
        "unknown key 'colour'", 4);
    // Duplicate ids.
    expectError(head + "\"entities\": [\n {\"id\": \"a\"},\n {\"id\": \"a\"}\n], \"associations\": []}",
        "duplicate entity id 'a'", 4);
    // Dangling parent.
    expectError(head + "\"entities\": [\n {\"id\": \"a\", \"parent\": \"zz\"}\n], \"associations\": []}",
        "parent 'zz', which is not declared", 3);
    // Hierarchy cycle.
    expectError(head
            + "\"entities\": [{\"id\": \"a\", \"parent\": \"b\"}, {\"id\": \"b\", \"parent\": \"a\"}], "
              "\"associations\": []}",
        "hierarchy cycle", 0);
    // path_regex and callpath_parent in flat mode.
    expectError(head
            + "\"entities\": [{\"id\": \"a\"}],\n\"associations\": [\n{\"id\": \"p\", \"select\": {\"path_regex\": "
              "\"x.*\"}, \"target\": \"a\"}]}",
        "needs call paths", 4);
    expectError(head
            + "\"entities\": [{\"id\": \"a\"}], \"associations\": [{\"id\": \"p\", \"select\": {\"callpath_parent\": "
              "\"x\"}, \"target\": \"a\"}]}",
        "'callpath_parent' needs call paths", 0);
    // Invalid regex, unknown policy, unknown selector, missing target entity, WEIGHTED without attr.
    expectError(head
            + "\"associations\": [{\"id\": \"p\", \"select\": {\"regex\": \"(a\"}, \"target\": {\"template\": {\"id\": "
              "\"x\"}}}]}",
        "invalid regular expression", 0);
    expectError(head
            + "\"entities\": [{\"id\": \"a\"}], \"associations\": [{\"id\": \"p\", \"select\": {\"exact\": \"x\"}, "
              "\"target\": \"a\", \"policy\": \"SPLIT\"}]}",
        "unknown policy 'SPLIT'", 0);
    expectError(head
            + "\"entities\": [{\"id\": \"a\"}], \"associations\": [{\"id\": \"p\", \"select\": {\"name\": \"x\"}, "
              "\"target\": \"a\"}]}",
        "unknown selector 'name'", 0);
    expectError(head + "\"associations\": [{\"id\": \"p\", \"select\": {\"exact\": \"x\"}, \"target\": \"nobody\"}]}",
        "target 'nobody' is not a declared entity", 0);
    expectError(head
            + "\"entities\": [{\"id\": \"a\"}], \"associations\": [{\"id\": \"p\", \"select\": {\"exact\": \"x\"}, "
              "\"target\": [\"a\"], \"policy\": \"WEIGHTED\"}]}",
        "WEIGHTED needs 'weight_attr'", 0);
    expectError(head + "\"source\": \"tree\", \"associations\": []}", "'source' must be", 2);
    expectError("{\"format\": \"parallax-semantic-model\", \"version\": 1,\n \"associations\": [\n {\"id\": }]}",
        "invalid JSON", 3);
    expectError("{\"format\": \"cube\", \"version\": 1, \"associations\": []}", "parallax-semantic-model", 1);
}

void TestSemantic::modelRoundTrip()
{
    const Model m = parse(cubeModel);
    const Model again = parse(toJson(m));
    QCOMPARE(toJson(again), toJson(m));
    QCOMPARE(again.associations.size(), std::size_t(2));
    QCOMPARE(again.associations[0].target.entityTemplate->id, QStringLiteral("face:{1}"));
    QCOMPARE(again.entities[1].attrs.value(QStringLiteral("particles")).number, 500.0);
    const Model weighted = parse(a2Model("WEIGHTED", true));
    QCOMPARE(toJson(parse(toJson(weighted))), toJson(weighted));
    QCOMPARE(
        parse(toJson(weighted)).entities[1].attrs.value(QStringLiteral("particles")).kind, AttrValue::Kind::Metadata);
}

void TestSemantic::resolutionErrorsAndWarnings()
{
    const TrialPtr trial = makeTrial(
        QStringLiteral("r"), { { { "MPI_Send()", 4, 3, -1 }, { "MPI_Recv()", 4, 5, -1 }, { "compute", 1, 10, -1 } } });
    // Two associations of the same (highest) priority match one event: a configuration error
    // naming the event and both associations.
    const Model tie = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "tie",
        "entities": [{"id": "mpi"}, {"id": "send"}],
        "associations": [{"id": "all-mpi", "select": {"regex": "MPI_.*"}, "target": "mpi"},
                         {"id": "send", "select": {"exact": "MPI_Send()"}, "target": "send"}]})M");
    const QString error = attrError(tie, trial);
    QVERIFY2(error.contains(QLatin1String("MPI_Send()")) && error.contains(QLatin1String("all-mpi"))
            && error.contains(QLatin1String("send")),
        qPrintable(error));
    // With a priority the specific one wins; the general one reports the event it lost; a
    // selector that matches nothing is reported.
    const Model ordered = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "ordered",
        "entities": [{"id": "mpi"}, {"id": "send"}, {"id": "io"}],
        "associations": [{"id": "all-mpi", "select": {"regex": "MPI_.*"}, "target": "mpi"},
                         {"id": "send", "priority": 1, "select": {"exact": "MPI_Send()"}, "target": "send"},
                         {"id": "io", "select": {"regex": "fread|fwrite"}, "target": "io"}]})M");
    const ProfilePtr p = attr(ordered, trial);
    checkConservation(*p);
    QCOMPARE(p->own(entity(*p, "send"), T0, Time), 3.0);
    QCOMPARE(p->own(entity(*p, "mpi"), T0, Time), 5.0);
    QCOMPARE(p->own(p->unmappedEntity(), T0, Time), 10.0);
    QStringList warnings;
    for (const Warning& w : p->warnings())
        warnings << w.association + QLatin1String(": ") + w.message;
    QVERIFY2(
        warnings.filter(QStringLiteral("all-mpi: 1 event(s) it matches are matched twice and won by a higher-priority "
                                       "association: 'MPI_Send()'"))
                .size()
            == 1,
        qPrintable(warnings.join(QLatin1Char('\n'))));
    QVERIFY2(warnings.filter(QStringLiteral("io: selector regex 'fread|fwrite' matched no event")).size() == 1,
        qPrintable(warnings.join(QLatin1Char('\n'))));
    // A template attribute that conflicts with the declared one is an error.
    const Model conflict = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "c",
        "entities": [{"id": "op:Send", "attrs": {"kind": "p2p"}}],
        "associations": [{"id": "ops", "select": {"regex": "MPI_(\\w+)\\(\\)"},
          "target": {"template": {"id": "op:{1}", "attrs": {"kind": "collective"}}}}]})M");
    QVERIFY(attrError(conflict, trial).contains(QLatin1String("already has p2p")));
    // A template whose parent nobody creates.
    const Model orphan = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "o",
        "associations": [{"id": "ops", "select": {"regex": "MPI_(\\w+)\\(\\)"},
          "target": {"template": {"id": "op:{1}", "parent": "layer:MPI"}}}]})M");
    QVERIFY(attrError(orphan, trial).contains(QLatin1String("'layer:MPI'")));
    // WEIGHTED weights that sum to 0.
    const Model zero = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "z",
        "entities": [{"id": "a", "attrs": {"w": 0}}, {"id": "b", "attrs": {"w": 0}}],
        "associations": [{"id": "z", "select": {"exact": "compute"}, "target": ["a", "b"], "policy": "WEIGHTED", "weight_attr": "w"}]})M");
    QVERIFY(attrError(zero, trial).contains(QLatin1String("sum to 0")));
    // Escaped braces in templates stay literal.
    const Model braces = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "b",
        "associations": [{"id": "ops", "select": {"regex": "MPI_(\\w+)\\(\\)"},
          "target": {"template": {"id": "{{{1}}}", "name": "MPI {1}"}}}]})M");
    const ProfilePtr pb = attr(braces, trial);
    QCOMPARE(pb->entity(entity(*pb, "{Send}")).name, QStringLiteral("MPI Send"));
}

void TestSemantic::callPathSource()
{
    // main => solve => MPI_Send; main => io. Call-path source: each node's exclusive once.
    const TrialPtr trial = makeTrial(QStringLiteral("cp"),
        { { { "main", 1, 2, 40 }, { "solve", 1, 20, 30 }, { "MPI_Send()", 2, 10, -1 }, { "io", 1, 8, -1 },
            { "main => solve", 1, 20, 30 }, { "main => solve => MPI_Send()", 2, 10, -1 },
            { "main => io", 1, 8, -1 } } });
    const Model model
        = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "cp", "source": "callpath",
        "entities": [{"id": "solver"}, {"id": "comm", "parent": "solver"}, {"id": "main"}],
        "associations": [{"id": "solver", "select": {"callpath_parent": "main"}, "target": "solver"},
                         {"id": "comm", "priority": 1, "select": {"path_regex": ".* => MPI_.*"}, "target": "comm"},
                         {"id": "main", "select": {"exact": "main"}, "target": "main"}]})M");
    const ProfilePtr p = attr(model, trial);
    checkConservation(*p);
    QCOMPARE(p->sourceEvents().size(), std::size_t(4)); // main, and the three paths
    const int solver = entity(*p, "solver"), comm = entity(*p, "comm");
    QCOMPARE(p->own(solver, T0, Time), 28.0); // solve 20 + io 8
    QCOMPARE(p->own(comm, T0, Time), 10.0);
    QCOMPARE(p->roll(solver, T0, Time), 38.0);
    QCOMPARE(p->roll(entity(*p, "main"), T0, Time), 2.0);
    // Inclusive from the top events: main => solve (30, covering its child) + main => io (8).
    QVERIFY(p->inclusiveDerivable(solver));
    QCOMPARE(p->inclusive(solver, T0, Time), 38.0);
    QCOMPARE(p->inclusive(comm, T0, Time), 10.0);
    QCOMPARE(p->inclusive(entity(*p, "main"), T0, Time), 40.0);
}

void TestSemantic::conservationProperty()
{
    // Generated trials (random events, some with call paths) and random rule sets of every
    // policy and selector kind: Σ own = Σ excl for every thread and metric, and for calls/subrs.
    QRandomGenerator rng(20261122);
    for (int round = 0; round < 60; ++round) {
        TrialBuilder b(QStringLiteral("gen"));
        b.setProvenance({ QStringLiteral("read"), QStringLiteral("gen"), QStringLiteral("test"), {}, {} });
        b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
        b.addMetric(Metric(QStringLiteral("PAPI_FP_OPS"), QStringLiteral("count")));
        const int events = 3 + rng.bounded(20);
        const int threads = 1 + rng.bounded(6);
        const bool paths = rng.bounded(2) == 1;
        QStringList names;
        for (int e = 0; e < events; ++e)
            names << QStringLiteral("%1_%2")
                         .arg(QStringList { QStringLiteral("MPI"), QStringLiteral("solve"), QStringLiteral("io"),
                             QStringLiteral("omp") }[rng.bounded(4)])
                         .arg(e);
        if (paths)
            for (int e = 1; e < events; ++e)
                names << names[0] + QStringLiteral(" => ") + names[e];
        for (int t = 0; t < threads; ++t) {
            const ThreadIndex ti = b.addThread({ t, 0, 0 });
            for (const QString& n : names) {
                if (rng.bounded(5) == 0)
                    continue; // absent on this thread
                const EventId e = b.addEvent(
                    n, { n.contains(QLatin1String("MPI")) ? QStringLiteral("MPI") : QStringLiteral("TAU_USER") });
                const double excl[] = { rng.bounded(1000.0), rng.bounded(1e6) };
                const double incl[] = { excl[0] + rng.bounded(100.0), excl[1] };
                b.addInterval(ti, e, 1 + rng.bounded(50), rng.bounded(5), excl, incl);
            }
        }
        const TrialPtr trial = b.build();
        Model m;
        m.name = QStringLiteral("random");
        m.source = paths && rng.bounded(2) ? SourceSet::CallPath : SourceSet::Flat;
        const int entityCount = 1 + rng.bounded(6);
        for (int r = 0; r < entityCount; ++r) {
            Entity e { QStringLiteral("r%1").arg(r), QStringLiteral("k"), QStringLiteral("r%1").arg(r),
                r > 0 && rng.bounded(2) ? QStringLiteral("r%1").arg(rng.bounded(r)) : QString(), {} };
            e.attrs.insert(QStringLiteral("w"), AttrValue::fromNumber(1 + rng.bounded(10)));
            m.entities.push_back(e);
        }
        const QStringList prefixes { QStringLiteral("MPI"), QStringLiteral("solve"), QStringLiteral("io"),
            QStringLiteral("omp") };
        for (int a = 0; a < 1 + rng.bounded(8); ++a) {
            Association as;
            as.id = QStringLiteral("a%1").arg(a);
            as.priority = a; // distinct priorities: no ties
            const int kind = rng.bounded(3);
            if (kind == 0) {
                as.select.kind = SelectorKind::Regex;
                as.select.value = prefixes[rng.bounded(4)] + QStringLiteral("_(\\d+)");
            } else if (kind == 1) {
                as.select.kind = SelectorKind::Group;
                as.select.value = QStringLiteral("MPI");
            } else {
                as.select.kind = SelectorKind::Exact;
                as.select.value
                    = names[rng.bounded(static_cast<int>(names.size()))].section(QStringLiteral(" => "), -1);
            }
            compileSelector(as.select);
            const int policy = rng.bounded(5);
            if (policy == 4 && kind == 0) {
                as.target.entityTemplate = EntityTemplate { QStringLiteral("t:{1}"), QStringLiteral("gen"),
                    QStringLiteral("{0}"), m.entities.front().id, { { QStringLiteral("n"), QStringLiteral("{1}") } } };
                as.policy = Policy::Direct;
            } else {
                const int k = policy == 0 ? 1 : 1 + rng.bounded(entityCount);
                for (int i = 0; i < k; ++i)
                    if (!as.target.ids.contains(m.entities[static_cast<std::size_t>(i)].id))
                        as.target.ids << m.entities[static_cast<std::size_t>(i)].id;
                as.policy = policy == 0 || policy == 4 ? Policy::Direct
                    : policy == 1                      ? Policy::Amortize
                    : policy == 2                      ? Policy::Weighted
                                                       : Policy::Aggregate;
                if (as.policy == Policy::Direct)
                    as.target.ids = as.target.ids.mid(0, 1);
                if (as.policy == Policy::Weighted)
                    as.weightAttr = QStringLiteral("w");
            }
            m.associations.push_back(as);
        }
        const auto error = validateModel(m);
        QVERIFY2(!error, error ? qPrintable(error->toString()) : "");
        const ProfilePtr p = attr(m, trial);
        QVERIFY2(p->conservationError() < 1e-12,
            qPrintable(QStringLiteral("round %1: %2").arg(round).arg(p->conservationError())));
        for (int e : [&] {
                 std::vector<int> all;
                 for (EventId id : p->sourceEvents())
                     for (int k : p->edgesOf(id))
                         all.push_back(k);
                 return all;
             }()) {
            QVERIFY(p->edges()[static_cast<std::size_t>(e)].weight >= 0);
        }
        for (EventId id : p->sourceEvents()) {
            double w = 0;
            for (int k : p->edgesOf(id))
                w += p->edges()[static_cast<std::size_t>(k)].weight;
            QVERIFY(std::abs(w - 1) < 1e-12); // Σ_r w(e,r) = 1
        }
        // Roll-up of the roots = Σ own.
        for (std::size_t t = 0; t < trial->threadCount(); ++t) {
            double roots = 0, own = 0;
            for (int r : p->roots())
                roots += p->roll(r, ThreadIndex(t), Time);
            for (std::size_t r = 0; r < p->entities().size(); ++r)
                own += p->own(static_cast<int>(r), ThreadIndex(t), Time);
            QVERIFY(std::abs(roots - own) <= 1e-9 * std::max(1.0, std::abs(own)));
        }
    }
}

void TestSemantic::linearityWithAlgebra()
{
    // S(A − B) = S(A) − S(B) and S(mean) = mean(S) for a linear model (DIRECT, AMORTIZE,
    // AGGREGATE, literal WEIGHTED), thread by thread.
    const TrialPtr a = makeTrial(QStringLiteral("A"),
        { { { "main", 1, 5, 100 }, { "MPI_Send()", 3, 20, -1 }, { "solve", 2, 60, -1 }, { "io", 1, 15, -1 } },
            { { "main", 1, 6, 90 }, { "MPI_Send()", 3, 24, -1 }, { "solve", 2, 50, -1 }, { "io", 1, 10, -1 } } });
    const TrialPtr b = makeTrial(QStringLiteral("B"),
        { { { "main", 1, 4, 80 }, { "MPI_Send()", 3, 10, -1 }, { "solve", 2, 50, -1 }, { "io", 1, 16, -1 } },
            { { "main", 1, 7, 70 }, { "MPI_Send()", 3, 14, -1 }, { "solve", 2, 40, -1 }, { "extra", 1, 9, -1 } } });
    const Model model = parse(R"M({"format": "parallax-semantic-model", "version": 1, "name": "lin",
        "entities": [{"id": "comm", "attrs": {"w": 1}}, {"id": "compute", "attrs": {"w": 3}}, {"id": "x"}, {"id": "y"}],
        "associations": [{"id": "mpi", "select": {"regex": "MPI_.*"}, "target": ["comm", "compute"], "policy": "WEIGHTED", "weight_attr": "w"},
                         {"id": "solve", "select": {"exact": "solve"}, "target": ["compute", "x"], "policy": "AMORTIZE"},
                         {"id": "io", "select": {"exact": "io"}, "target": ["x", "y"], "policy": "AGGREGATE"}]})M");
    QVERIFY(model.isLinear());
    const ProfilePtr pa = attr(model, a), pb = attr(model, b);
    const AlgebraResult d = difference(*a, *b);
    QVERIFY2(d.ok(), qPrintable(d.error()));
    const ProfilePtr pd = attr(model, d.trial());
    const AlgebraResult m = mean({ a, b });
    QVERIFY2(m.ok(), qPrintable(m.error()));
    const ProfilePtr pm = attr(model, m.trial());
    for (const ResolvedEntity& e : pd->entities()) {
        const int rd = pd->findEntity(e.id), ra = pa->findEntity(e.id), rb = pb->findEntity(e.id),
                  rm = pm->findEntity(e.id);
        for (std::size_t t = 0; t < 2; ++t) {
            const ThreadIndex ti(t);
            const double va = ra >= 0 ? pa->own(ra, ti, Time) : 0, vb = rb >= 0 ? pb->own(rb, ti, Time) : 0;
            QVERIFY2(std::abs(pd->own(rd, ti, Time) - (va - vb)) < 1e-9, qPrintable(e.id));
            QVERIFY2(std::abs(pm->own(rm, ti, Time) - (va + vb) / 2) < 1e-9, qPrintable(e.id));
            QVERIFY2(
                std::abs(pd->calls(rd, ti) - ((ra >= 0 ? pa->calls(ra, ti) : 0) - (rb >= 0 ? pb->calls(rb, ti) : 0)))
                    < 1e-9,
                qPrintable(e.id));
        }
    }
    // Merge of two metrics: each metric's semantic profile is the operand's.
    checkConservation(*pd);
    checkConservation(*pm);
}

namespace {

TrialPtr readSample(const QString& relative)
{
    Progress progress;
    auto result
        = ReaderRegistry::instance().read(QStringLiteral(PARALLAX_DATA_DIR "/") + relative, ReadOptions {}, progress);
    if (!result)
        qFatal("%s", qPrintable(result.error().toString()));
    return result.value();
}

ProfilePtr builtin(const QString& name, const TrialPtr& trial)
{
    const auto model = makeBuiltinModel(name, *trial);
    if (!model)
        qFatal("no built-in %s", qPrintable(name));
    const auto error = validateModel(*model);
    if (error)
        qFatal("built-in %s invalid: %s", qPrintable(name), qPrintable(error->toString()));
    // A built-in model is an ordinary model: its file reads back to the same model.
    const auto again = parseModel(toJson(*model));
    if (!std::holds_alternative<Model>(again) || toJson(std::get<Model>(again)) != toJson(*model))
        qFatal("built-in %s does not round-trip through its file", qPrintable(name));
    return attr(*model, trial);
}

double flatExclusive(const Trial& t, ThreadIndex th, const std::function<bool(const QString&)>& pick)
{
    double sum = 0;
    const RowView row = t.row(th);
    for (std::size_t i = 0; i < row.size(); ++i)
        if (!t.event(row.events[i]).isCallPath() && pick(t.event(row.events[i]).name))
            sum += row.exclusive(0, i);
    return sum;
}

} // namespace

void TestSemantic::builtinParameter()
{
    // tau2/tau-profiles-wrap-params: one entity per `size` value under __wrap_dgemm.
    const TrialPtr trial = readSample(QStringLiteral("tau2/tau-profiles-wrap-params"));
    const ProfilePtr p = builtin(QStringLiteral("parameter"), trial);
    checkConservation(*p);
    int dgemm = -1;
    for (std::size_t r = 0; r < p->entities().size(); ++r)
        if (p->entity(static_cast<int>(r)).kind == QLatin1String("routine")
            && p->entity(static_cast<int>(r)).name.contains(QLatin1String("__wrap_dgemm")))
            dgemm = static_cast<int>(r);
    QVERIFY(dgemm >= 0);
    QStringList values;
    double children = 0;
    for (int c : p->entity(dgemm).children) {
        const ResolvedEntity& e = p->entity(c);
        QCOMPARE(e.kind, QStringLiteral("parameter"));
        QCOMPARE(e.attrs.value(QStringLiteral("parameter")).text, QStringLiteral("size"));
        values << e.attrs.value(QStringLiteral("value")).toString();
        children += p->roll(c, T0, Time);
    }
    values.sort();
    QCOMPARE(values, (QStringList { QStringLiteral("100"), QStringLiteral("10000"), QStringLiteral("100000") }));
    QCOMPARE(p->roll(p->findEntity(QStringLiteral("param:int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] [size = 100]")),
                 T0, Time),
        28.0);
    // The routine = its parameter values (28 + 18 + 12); the base timer, which measured the same
    // 58 us, is kept apart so the routine is not counted twice.
    QCOMPARE(children, 58.0);
    QCOMPARE(p->roll(dgemm, T0, Time), 58.0);
    QCOMPARE(p->roll(p->findEntity(QStringLiteral("(also measured by parameter timers)")), T0, Time), 58.0);
}

void TestSemantic::builtinPhase()
{
    // ppk/phases-callpath-1thread: one entity per phase (252 TAU_PHASE phases).
    const TrialPtr trial = readSample(QStringLiteral("tau2/ppk/phases-callpath-1thread.ppk"));
    const ProfilePtr p = builtin(QStringLiteral("phase"), trial);
    checkConservation(*p);
    int phases = 0;
    for (const ResolvedEntity& e : p->entities())
        phases += e.kind == QLatin1String("phase") ? 1 : 0;
    int inGroup = 0;
    for (std::size_t i = 0; i < trial->eventCount(); ++i)
        inGroup
            += !trial->event(EventId(i)).isCallPath() && trial->eventInGroup(EventId(i), QStringLiteral("TAU_PHASE"))
            ? 1
            : 0;
    QCOMPARE(phases, inGroup);
    QCOMPARE(phases, 252);
    QCOMPARE(p->entities().size(), std::size_t(253)); // the phases and (unmapped)
    QCOMPARE(p->own(p->unmappedEntity(), T0, Time), 0.0);
    // Every phase's roll-up is its inclusive time; the top phase holds the whole run.
    const int mainPhase = p->findEntity(QStringLiteral("phase:main()"));
    QVERIFY(mainPhase >= 0);
    const double mainIncl = trial->row(T0).inclusive(
        0, static_cast<std::size_t>(trial->row(T0).find(trial->findEvent(QStringLiteral("main()")))));
    QVERIFY(std::abs(p->roll(mainPhase, T0, Time) - mainIncl) < 1e-6 * mainIncl);
    QVERIFY(std::abs(p->inclusive(mainPhase, T0, Time) - mainIncl) < 1e-6 * mainIncl);
    const int it0 = p->findEntity(QStringLiteral("phase:Iteration 0"));
    const double it0Incl = trial->row(T0).inclusive(
        0, static_cast<std::size_t>(trial->row(T0).find(trial->findEvent(QStringLiteral("Iteration 0")))));
    // Iteration 0's roll-up is its inclusive time minus the IO Phase inside it, which the IO Phase
    // entity holds (IO Phase is entered from every iteration, so it sits under main()).
    const EventId ioInIt0 = trial->findEvent(QStringLiteral("Iteration 0 => IO Phase"));
    QVERIFY(ioInIt0.isValid());
    const double ioIncl = trial->row(T0).inclusive(0, static_cast<std::size_t>(trial->row(T0).find(ioInIt0)));
    QVERIFY(ioIncl > 0);
    QVERIFY(std::abs(p->roll(it0, T0, Time) + ioIncl - it0Incl) < 1e-6 * it0Incl);
    QVERIFY(std::abs(p->inclusive(it0, T0, Time) - it0Incl) < 1e-6 * it0Incl);
    QCOMPARE(p->entity(it0).parent, mainPhase);
    QCOMPARE(
        p->entity(p->findEntity(QStringLiteral("phase:IO Phase"))).parent, mainPhase); // entered from every iteration
}

void TestSemantic::builtinLayer()
{
    // tau2/tau-profiles-workflow-xmain-8rank: MPI, ADIOS (I/O) and user code, summing to the total.
    const TrialPtr trial = readSample(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank"));
    const ProfilePtr p = builtin(QStringLiteral("layer"), trial);
    checkConservation(*p);
    const int mpi = p->findEntity(QStringLiteral("layer:mpi")), io = p->findEntity(QStringLiteral("layer:io")),
              user = p->findEntity(QStringLiteral("layer:user"));
    QVERIFY(mpi >= 0 && io >= 0 && user >= 0);
    for (std::size_t t = 0; t < trial->threadCount(); ++t) {
        const ThreadIndex th(t);
        const double m
            = flatExclusive(*trial, th, [](const QString& n) { return n.startsWith(QLatin1String("MPI_")); });
        const double a
            = flatExclusive(*trial, th, [](const QString& n) { return n.startsWith(QLatin1String("ADIOS")); });
        const double u
            = flatExclusive(*trial, th, [](const QString& n) { return n == QLatin1String(".TAU application"); });
        QVERIFY(m > 0 && a > 0 && u > 0);
        QCOMPARE(p->roll(mpi, th, Time), m);
        QCOMPARE(p->roll(io, th, Time), a);
        QCOMPARE(p->roll(user, th, Time), u);
        QCOMPARE(p->roll(p->unmappedEntity(), th, Time), 0.0);
        // The three layers sum to the thread's total (.TAU application inclusive).
        QVERIFY(std::abs(m + a + u - p->threadTop(th, Time)) <= 1e-9 * p->threadTop(th, Time));
        QCOMPARE(std::round(p->percentOfTotal(mpi, Time, Scope::ofThread(th))
                     + p->percentOfTotal(io, Time, Scope::ofThread(th))
                     + p->percentOfTotal(user, Time, Scope::ofThread(th))),
            100.0);
    }
    for (const Warning& w : p->warnings())
        QVERIFY2(w.note, qPrintable(w.message));
}

void TestSemantic::builtinGroupAndFile()
{
    const TrialPtr trial = readSample(QStringLiteral("tau2/tau-profiles-wrap-params"));
    const ProfilePtr groups = builtin(QStringLiteral("group"), trial);
    checkConservation(*groups);
    // TAU_PARAM (3 events) is more specific than TAU_USER (4): the parameter timers go there.
    QCOMPARE(groups->roll(groups->findEntity(QStringLiteral("group:TAU_PARAM")), T0, Time), 58.0);
    QCOMPARE(groups->roll(groups->findEntity(QStringLiteral("group:TAU_USER")), T0, Time), 15.0 + 58.0);
    QCOMPARE(groups->roll(groups->findEntity(QStringLiteral("group:MPI")), T0, Time), 1047345.0 + 2256.0);
    const ProfilePtr files = builtin(QStringLiteral("file"), trial);
    checkConservation(*files);
    QCOMPARE(files->roll(files->findEntity(QStringLiteral("file:main.c")), T0, Time), 51.0);
    QCOMPARE(files->roll(files->findEntity(QStringLiteral("file:foo.c")), T0, Time), 15.0);
    QCOMPARE(files->roll(files->findEntity(QStringLiteral("file:wb.c")), T0, Time), 58.0 * 2);
    QCOMPARE(files->roll(files->unmappedEntity(), T0, Time), 1047345.0 + 2256.0); // MPI has no source location
    QVERIFY(!makeBuiltinModel(QStringLiteral("nonsense"), *trial));
}

QTEST_GUILESS_MAIN(TestSemantic)
#include "tst_semantic.moc"
