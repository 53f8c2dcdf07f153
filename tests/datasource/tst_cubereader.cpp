// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE reader against the facts in ../shared/data/{cubelib,tau2,cube/*,extrap}/MANIFEST.md and
// docs/FORMATS.md 5, pycubexr's CSV dumps of expected values (every value),
// values checked by hand against the raw .data bytes, the call-tree consistency relations of
// docs/SEMANTICS.md 1.4, and hand-made bad and unusual archives and XML.
#include "datasource/readers/cubereader.h"
#include "tests/common/minitar.h"
#include "tests/common/testutil.h"

#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtEndian>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <zlib.h>

using namespace parallax;
using namespace parallax::test;

namespace {

constexpr double Absent = -1e300;

QString scorep() { return dataPath(QStringLiteral("tau2/cube-scorep-cpi/profile.cubex")); }
QString cubelib(const char* relative) { return dataPath(QStringLiteral("cubelib/test/") + QLatin1String(relative)); }

TrialResult readCube(const QString& path, bool strict = false, int threads = 0)
{
    ReadOptions options;
    options.strict = strict;
    options.threads = threads;
    Progress progress;
    return CubeReader().read(path, options, progress);
}

std::shared_ptr<Trial> mustRead(const QString& path, int threads = 0)
{
    auto result = readCube(path, false, threads);
    if (!result.ok()) {
        qWarning("%s", qPrintable(result.error().toString()));
        return nullptr;
    }
    return result.value();
}

QString describe(const TrialResult& result)
{
    return result.ok() ? QStringLiteral("a trial") : result.error().toString();
}

bool near(double a, double b, double rel = 1e-9)
{
    return std::fabs(a - b) <= rel * std::max({ 1.0, std::fabs(a), std::fabs(b) });
}

/// A cell value: inclusive or exclusive of `metric`, or the calls/subrs when metric is "calls"/"subrs".
double cell(const Trial& t, ThreadKey key, const QString& event, const QString& metric, bool inclusive = false)
{
    const ThreadIndex ti = t.findThread(key);
    const EventId e = t.findEvent(event);
    if (!ti.isValid() || !e.isValid())
        return Absent;
    const IntervalRow& row = t.row(ti);
    const auto i = row.find(e);
    if (i < 0)
        return Absent;
    const auto k = static_cast<std::size_t>(i);
    if (metric == QLatin1String("calls"))
        return row.calls[k];
    if (metric == QLatin1String("subrs"))
        return row.subrs[k];
    const MetricId m = t.findMetric(metric);
    if (!m.isValid())
        return Absent;
    return inclusive ? row.inclusive(m.index(), k) : row.exclusive(m.index(), k);
}

double excl(const Trial& t, int node, const QString& event, const QString& metric)
{
    return cell(t, { node, 0, 0 }, event, metric, false);
}

double incl(const Trial& t, int node, const QString& event, const QString& metric)
{
    return cell(t, { node, 0, 0 }, event, metric, true);
}

/// Σ over threads and over the call-tree nodes (roots and call paths; not flat events that are not
/// roots) of the exclusive values: every cnode once.
double cnodeSum(const Trial& t, const QString& metric)
{
    const MetricId m = t.findMetric(metric);
    if (!m.isValid())
        return std::nan("");
    QSet<QString> roots;
    for (const auto& e : t.events())
        if (e.isCallPath())
            roots.insert(e.name.left(e.name.indexOf(QLatin1String(" => "))));
    bool anyPath = !roots.isEmpty();
    double sum = 0;
    for (std::size_t th = 0; th < t.threadCount(); ++th) {
        const IntervalRow& row = t.row(ThreadIndex(th));
        for (std::size_t i = 0; i < row.size(); ++i) {
            const auto& e = t.event(row.events[i]);
            if (e.isCallPath() || !anyPath || roots.contains(e.name))
                sum += row.exclusive(m.index(), i);
        }
    }
    return sum;
}

double callsSum(const Trial& t)
{
    QSet<QString> roots;
    for (const auto& e : t.events())
        if (e.isCallPath())
            roots.insert(e.name.left(e.name.indexOf(QLatin1String(" => "))));
    double sum = 0;
    for (std::size_t th = 0; th < t.threadCount(); ++th) {
        const IntervalRow& row = t.row(ThreadIndex(th));
        for (std::size_t i = 0; i < row.size(); ++i) {
            const auto& e = t.event(row.events[i]);
            if (e.isCallPath() || roots.contains(e.name))
                sum += row.calls[i];
        }
    }
    return sum;
}

QStringList metricNames(const Trial& t)
{
    QStringList names;
    for (const Metric& m : t.metrics())
        names << m.name;
    return names;
}

bool hasWarning(const Trial& t, const QString& part)
{
    for (const QString& w : t.warnings())
        if (w.contains(part))
            return true;
    return false;
}

/// docs/SEMANTICS.md 1.4 on every thread, for every additive metric: incl(p) = excl(p) + Σ incl(children),
/// subrs(p) = Σ calls(children); and the flat rule for flat events that are not call-tree roots.
void checkConsistency(const Trial& t)
{
    const QStringList nonAdditive
        = t.metadataValue(QStringLiteral("CUBE non-additive metrics")).split(QStringLiteral(", "), Qt::SkipEmptyParts);
    std::vector<std::vector<EventId>> children(t.eventCount());
    QSet<QString> roots;
    for (std::size_t e = 0; e < t.eventCount(); ++e) {
        const auto& ev = t.event(EventId(e));
        if (!ev.isCallPath())
            continue;
        QVERIFY2(ev.parent.isValid(), qPrintable(ev.name));
        children[ev.parent.index()].push_back(EventId(e));
        roots.insert(ev.name.left(ev.name.indexOf(QLatin1String(" => "))));
    }
    for (std::size_t th = 0; th < t.threadCount(); ++th) {
        const IntervalRow& row = t.row(ThreadIndex(th));
        for (std::size_t i = 0; i < row.size(); ++i) {
            const EventId p = row.events[i];
            const auto& pe = t.event(p);
            const bool treeNode = pe.isCallPath() || roots.contains(pe.name);
            for (std::size_t m = 0; m < t.metricCount(); ++m) {
                if (nonAdditive.contains(t.metric(MetricId(m)).name))
                    continue;
                if (treeNode) {
                    double sum = row.exclusive(m, i);
                    for (EventId c : children[p.index()]) {
                        const auto k = row.find(c);
                        if (k >= 0)
                            sum += row.inclusive(m, static_cast<std::size_t>(k));
                    }
                    QVERIFY2(near(row.inclusive(m, i), sum),
                        qPrintable(
                            QStringLiteral("%1, thread %2, %3: incl %4 != excl + children %5")
                                .arg(pe.name, t.threadKey(ThreadIndex(th)).toString(), t.metric(MetricId(m)).name)
                                .arg(row.inclusive(m, i), 0, 'g', 17)
                                .arg(sum, 0, 'g', 17)));
                } else {
                    // Flat rule: Σ over the call-path nodes whose leaf is this event.
                    double ex = 0, in = 0;
                    for (std::size_t j = 0; j < row.size(); ++j) {
                        const auto& q = t.event(row.events[j]);
                        if (!q.isCallPath() || q.name.mid(q.name.lastIndexOf(QLatin1String(" => ")) + 4) != pe.name)
                            continue;
                        ex += row.exclusive(m, j);
                        const QStringList parts = q.name.split(QStringLiteral(" => "));
                        if (parts.count(pe.name) == 1)
                            in += row.inclusive(m, j);
                    }
                    QVERIFY2(near(row.exclusive(m, i), ex), qPrintable(pe.name));
                    QVERIFY2(near(row.inclusive(m, i), in), qPrintable(pe.name));
                }
            }
            if (treeNode) {
                double calls = 0;
                for (EventId c : children[p.index()]) {
                    const auto k = row.find(c);
                    if (k >= 0)
                        calls += row.calls[static_cast<std::size_t>(k)];
                }
                QVERIFY2(row.subrs[i] == calls, qPrintable(pe.name));
            }
        }
    }
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), bytes.size());
}

QByteArray gzip(const QByteArray& data)
{
    z_stream z {};
    deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(static_cast<qsizetype>(deflateBound(&z, static_cast<uLong>(data.size()))) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(static_cast<qsizetype>(z.total_out));
    deflateEnd(&z);
    return out;
}

QByteArray zlibCompress(const QByteArray& data)
{
    uLongf size = compressBound(static_cast<uLong>(data.size()));
    QByteArray out(static_cast<qsizetype>(size), '\0');
    compress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(data.constData()),
        static_cast<uLong>(data.size()));
    out.resize(static_cast<qsizetype>(size));
    return out;
}

TarMember* member(QList<TarMember>& members, const QString& name)
{
    for (auto& m : members)
        if (m.name == name)
            return &m;
    return nullptr;
}

const TarMember* member(const QList<TarMember>& members, const QString& name)
{
    for (const auto& m : members)
        if (m.name == name)
            return &m;
    return nullptr;
}

/// Header offset, data offset and size of each member of a ustar archive.
struct MemberSpan {
    QString name;
    qint64 header, data, size;
};
QList<MemberSpan> spans(const QByteArray& tar)
{
    QList<MemberSpan> out;
    qint64 at = 0;
    for (const TarMember& m : readTar(tar)) {
        out.append({ m.name, at, at + 512, m.data.size() });
        at += 512 + (m.data.size() + 511) / 512 * 512;
    }
    return out;
}

QByteArray swapWords(const QByteArray& in, qsizetype from, int width)
{
    QByteArray out = in;
    for (qsizetype i = from; i + width <= out.size(); i += width)
        std::reverse(out.data() + i, out.data() + i + width);
    return out;
}

/// A small CUBE 3 document: main -> {foo, bar}, 2 processes of 1 thread, metrics Time and Visits.
QByteArray smallCube3(
    const QByteArray& fooName = "foo", const QByteArray& extraProgram = {}, const QByteArray& severity = {})
{
    QByteArray xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<cube version=\"3.0\">\n"
                     "<metrics>\n"
                     "<metric id=\"0\"><disp_name>Time</disp_name><uniq_name>time</uniq_name><dtype>FLOAT</dtype>"
                     "<uom>sec</uom></metric>\n"
                     "<metric id=\"1\"><disp_name>Visits</disp_name><uniq_name>visits</uniq_name><dtype>INTEGER</dtype>"
                     "<uom>occ</uom></metric>\n"
                     "</metrics>\n"
                     "<program>\n"
                     "<region id=\"0\" mod=\"a.c\" begin=\"1\" end=\"9\"><name>main</name></region>\n"
                     "<region id=\"1\" mod=\"a.c\" begin=\"10\" end=\"19\"><name>"
        + fooName
        + "</name></region>\n"
          "<region id=\"2\" mod=\"a.c\" begin=\"20\" end=\"29\"><name>bar</name></region>\n"
        + extraProgram
        + "<cnode id=\"0\" calleeId=\"0\">\n"
          "<cnode id=\"1\" calleeId=\"1\"></cnode>\n"
          "<cnode id=\"2\" calleeId=\"2\"></cnode>\n"
          "</cnode>\n"
          "</program>\n"
          "<system><machine Id=\"0\"><name>m</name><node Id=\"0\"><name>n</name>\n"
          "<process Id=\"0\"><name>p0</name><rank>0</rank><thread Id=\"0\"><name>t</name><rank>0</rank></thread>"
          "</process>\n"
          "<process Id=\"1\"><name>p1</name><rank>1</rank><thread Id=\"1\"><name>t</name><rank>0</rank></thread>"
          "</process>\n"
          "</node></machine></system>\n";
    xml += severity.isEmpty() ? QByteArray("<severity>\n"
                                           "<matrix metricId=\"0\"><row cnodeId=\"0\">1 2</row><row cnodeId=\"1\">3 4"
                                           "</row><row cnodeId=\"2\">5 0</row></matrix>\n"
                                           "<matrix metricId=\"1\"><row cnodeId=\"0\">1 1</row><row cnodeId=\"1\">2 2"
                                           "</row><row cnodeId=\"2\">1 0</row></matrix>\n"
                                           "</severity>\n")
                              : severity;
    xml += "</cube>\n";
    return xml;
}

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
    const QList<TarMember> members = readTar(readFile(cubex));
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

QString pycubexr(const char* relative) { return dataPath(QStringLiteral("cube/pycubexr/") + QLatin1String(relative)); }
QString cube3(const char* relative)
{
    return dataPath(QStringLiteral("cube/scalasca-cube3/") + QLatin1String(relative));
}

} // namespace

class TestCubeReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sniffAndDetect_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* f : { "test0.0/test0.0.cube", "test0.0/test0.0.cubex", "test1.1/template.cube",
                 "test1.2/empty.cube", "test1.2/no_structure.cube", "test2/template.cube", "test28/template1.cube",
                 "test28/template2.cube", "test32/example.cube", "test33_CubeProxy/proxy.cubex" })
            QTest::newRow(f) << cubelib(f);
        QTest::newRow("scorep") << scorep();
    }
    void sniffAndDetect()
    {
        QFETCH(QString, file);
        QCOMPARE(CubeReader().sniff(file), 100);
        const Reader* r = ReaderRegistry::instance().detect(file);
        QVERIFY(r);
        QCOMPARE(r->name(), QStringLiteral("cube"));
        QVERIFY2(load(file).ok(), qPrintable(describe(load(file))));
    }

    void sniffOthers()
    {
        CubeReader reader;
        QCOMPARE(reader.sniff(dataPath(QStringLiteral("hatchet/tau-cpi-mpi"))), 0);
        QCOMPARE(reader.sniff(dataPath(QStringLiteral("hatchet/tau-cpi-mpi/profile.0.0.0"))), 0);
        QCOMPARE(reader.sniff(dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk"))), 0);
        QCOMPARE(reader.sniff(cubelib("test2/template.data")), 0);
        QCOMPARE(reader.name(), QStringLiteral("cube"));
        QCOMPARE(reader.description(), QStringLiteral("CUBE profile (Score-P, Scalasca)"));
        QCOMPARE(reader.filePatterns(),
            QStringList({ QStringLiteral("*.cubex"), QStringLiteral("*.cube"), QStringLiteral("*.cube.gz") }));
        // A tar under another name is recognised by its anchor.xml; a .cubex that is no tar still
        // goes to this reader, which says what is wrong.
        QTemporaryDir dir;
        const QString tarPath = dir.filePath(QStringLiteral("profile.tar"));
        writeFile(tarPath, readFile(cubelib("test0.0/test0.0.cubex")));
        QCOMPARE(reader.sniff(tarPath), 95);
        const QString other = dir.filePath(QStringLiteral("other.tar"));
        writeFile(other, makeTar({ { QStringLiteral("x.txt"), "x" } }));
        QCOMPARE(reader.sniff(other), 0);
        const QString fake = dir.filePath(QStringLiteral("fake.cubex"));
        writeFile(fake, "hello");
        QCOMPARE(reader.sniff(fake), 50);
        const auto r = readCube(fake);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("not a tar archive")), qPrintable(describe(r)));
        QCOMPARE(r.error().file, fake);
    }

    // ---- tau2/cube-scorep-cpi (MANIFEST + docs/FORMATS.md 8) ---------------------------------------------

    void scorepFacts()
    {
        const auto t = mustRead(scorep());
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("Creator")), QStringLiteral("Score-P 7.1"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE format version")), QStringLiteral("4.4"));
        QCOMPARE(metricNames(*t),
            QStringList({ QStringLiteral("Visits"), QStringLiteral("Time"), QStringLiteral("Minimum Inclusive Time"),
                QStringLiteral("Maximum Inclusive Time"), QStringLiteral("Hits"), QStringLiteral("bytes_put"),
                QStringLiteral("bytes_get"), QStringLiteral("io_bytes_read"), QStringLiteral("io_bytes_written"),
                QStringLiteral("bytes_sent"), QStringLiteral("bytes_received") }));
        QCOMPARE(t->metric(t->findMetric(QStringLiteral("Time"))).unit, QStringLiteral("sec"));
        QCOMPARE(t->metric(t->findMetric(QStringLiteral("Visits"))).unit, QStringLiteral("count"));
        QCOMPARE(t->metric(t->findMetric(QStringLiteral("bytes_sent"))).unit, QStringLiteral("bytes"));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric Time")).contains(QLatin1String("type INCLUSIVE")));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric Visits")).contains(QLatin1String("type EXCLUSIVE")));
        // 387 regions, 11 cnodes, 4 locations.
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("387"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("11"));
        QCOMPARE(t->threads(), std::vector<ThreadKey>({ { 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 0 } }));
        // Machine and node names: the same on every thread, so trial-wide; process names per thread.
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE machine")), QStringLiteral("machine Linux"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE node")), QStringLiteral("node quartz1"));
        QCOMPARE(
            t->metadataValue(QStringLiteral("CUBE process"), t->findThread({ 2, 0, 0 })), QStringLiteral("MPI Rank 2"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE thread"), t->findThread({ 2, 0, 0 })),
            QStringLiteral("Master thread"));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE misc members")).contains(QLatin1String("remapping.spec")));
        // 11 cnodes: the root (a flat event) and 10 call paths; 11 flat events (10 regions, one of them
        // MPI_Bcast twice: region 20 keeps the name, region 386 gets its source location).
        std::size_t flat = 0, paths = 0;
        for (const auto& e : t->events())
            (e.isCallPath() ? paths : flat) += 1;
        QCOMPARE(paths, std::size_t(10));
        QCOMPARE(flat, std::size_t(11));
        const QString bcast2 = QStringLiteral(
            "MPI_Bcast [{/g/g92/cankur1/tools/scorep/scorep-7.1/src/adapters/mpi/SCOREP_Mpi_Coll.c} {719}-{740}]");
        QVERIFY(t->findEvent(bcast2).isValid());
        QVERIFY(t->findEvent(QStringLiteral("cpi => main => iteration => ") + bcast2).isValid());
        QVERIFY(hasWarning(*t, QStringLiteral("share their name")));
        QVERIFY(t->eventInGroup(t->findEvent(QStringLiteral("MPI_Init")), QStringLiteral("mpi")));
        QVERIFY(
            t->eventInGroup(t->findEvent(QStringLiteral("cpi => main => MPI_Init")), QStringLiteral("TAU_CALLPATH")));
        QCOMPARE(t->provenance().reader, QStringLiteral("cube"));
        QCOMPARE(t->provenance().source, QFileInfo(scorep()).absoluteFilePath());

        // Rank 0 inclusive time (docs/FORMATS.md 8).
        const QString time = QStringLiteral("Time");
        QVERIFY(std::fabs(incl(*t, 0, QStringLiteral("cpi"), time) - 5.055626) < 5e-7);
        QVERIFY(std::fabs(incl(*t, 0, QStringLiteral("cpi => main"), time) - 5.055581) < 5e-7);
        QVERIFY(std::fabs(incl(*t, 0, QStringLiteral("cpi => main => MPI_Init"), time) - 0.506504) < 5e-7);
        QVERIFY(std::fabs(incl(*t, 0, QStringLiteral("cpi => main => iteration"), time) - 4.539142) < 5e-7);
        // Rank 0 visits to iteration: the calls, and the Visits metric.
        QCOMPARE(cell(*t, { 0, 0, 0 }, QStringLiteral("cpi => main => iteration"), QStringLiteral("calls")), 100082.0);
        QCOMPARE(excl(*t, 0, QStringLiteral("cpi => main => iteration"), QStringLiteral("Visits")), 100082.0);
        // bytes_sent rows {6,7}: MPI_Bcast [800000,0,0,0]; MPI_Reduce 400000 on each rank.
        const QString sent = QStringLiteral("bytes_sent");
        const QString bcast = QStringLiteral("cpi => main => iteration => MPI_Bcast");
        const QString reduce = QStringLiteral("cpi => main => iteration => MPI_Reduce");
        QCOMPARE(excl(*t, 0, bcast, sent), 800000.0);
        for (int r = 1; r < 4; ++r)
            QCOMPARE(excl(*t, r, bcast, sent), 0.0); // present (visited), nothing sent
        for (int r = 0; r < 4; ++r)
            QCOMPARE(excl(*t, r, reduce, sent), 400000.0);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi"), sent), 800000.0 + 400000.0);
        // Metrics without .data members (5-8) are all zero.
        for (const char* m : { "bytes_put", "bytes_get", "io_bytes_read", "io_bytes_written" })
            QCOMPARE(cnodeSum(*t, QLatin1String(m)), 0.0);
        checkConsistency(*t);
    }

    void scorepHandValues()
    {
        // Raw doubles of 1.data (INCLUSIVE time, sibling-block rows 0,1,2,3,4,5,8,9,6,7,10) and
        // 0.data (EXCLUSIVE visits, pre-order rows), decoded by hand from the member bytes.
        const auto t = mustRead(scorep());
        QVERIFY(t);
        const QString time = QStringLiteral("Time");
        const double cpi = 5.055625617385637, main = 5.0555813527782085, init = 0.5065039521570334,
                     size = 0.0030605724957162082, rank = 0.0003665794505637287, iteration = 4.539142315657635,
                     cold = 0.0020281095124839916, finalize = 0.004361493084857271, bcast = 2.045318423534962,
                     reduce = 2.114011346227246;
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi"), time), cpi);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi => main => iteration.cold.1"), time), cold);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi => main => MPI_Finalize"), time), finalize);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi => main => iteration => MPI_Bcast"), time), bcast);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi => main => iteration => MPI_Reduce"), time), reduce);
        QVERIFY(near(excl(*t, 0, QStringLiteral("cpi"), time), cpi - main));
        QVERIFY(near(excl(*t, 0, QStringLiteral("cpi => main"), time),
            main - (init + size + rank + iteration + cold + finalize)));
        QVERIFY(near(excl(*t, 0, QStringLiteral("cpi => main"), time), 0.000118330419918));
        QVERIFY(near(excl(*t, 0, QStringLiteral("cpi => main => iteration"), time), 0.3798125458954269));
        // The sampled MPI_Bcast (cnode 10) ran on rank 1 only: visits row 8 = (0,1,0,0), time row 10.
        const QString bcast2 = QStringLiteral("cpi => main => iteration => MPI_Bcast [{/g/g92/cankur1/tools/scorep/"
                                              "scorep-7.1/src/adapters/mpi/SCOREP_Mpi_Coll.c} {719}-{740}]");
        QCOMPARE(incl(*t, 0, bcast2, time), Absent);
        QCOMPARE(incl(*t, 1, bcast2, time), 4.174784125470135e-05);
        QCOMPARE(cell(*t, { 1, 0, 0 }, bcast2, QStringLiteral("calls")), 1.0);
        // Visits on rank 3: main 100123 (row 1), iteration.cold.1 24 (row 9 -> cnode 8).
        QCOMPARE(excl(*t, 3, QStringLiteral("cpi => main"), QStringLiteral("Visits")), 100123.0);
        QCOMPARE(excl(*t, 3, QStringLiteral("cpi => main => iteration.cold.1"), QStringLiteral("Visits")), 24.0);
        QCOMPARE(cell(*t, { 3, 0, 0 }, QStringLiteral("cpi => main"), QStringLiteral("subrs")),
            1.0 + 1 + 1 + 100095 + 24 + 1);
        // Hits (EXCLUSIVE, pre-order): iteration 95 on rank 3, MPI_Bcast 4/24/113/125.
        QCOMPARE(excl(*t, 3, QStringLiteral("cpi => main => iteration"), QStringLiteral("Hits")), 95.0);
        QCOMPARE(excl(*t, 2, QStringLiteral("cpi => main => iteration => MPI_Bcast"), QStringLiteral("Hits")), 113.0);
        // Flat events: MPI_Bcast is region 20 only; main equals its single path.
        QCOMPARE(excl(*t, 0, QStringLiteral("MPI_Bcast"), QStringLiteral("Hits")), 4.0);
        QCOMPARE(incl(*t, 0, QStringLiteral("main"), time), main);
    }

    void scorepNonAdditive()
    {
        const auto t = mustRead(scorep());
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE non-additive metrics")),
            QStringLiteral("Minimum Inclusive Time, Maximum Inclusive Time"));
        // excl = incl = the stored per-cnode value (2.data / 3.data, pre-order rows).
        const QString minTime = QStringLiteral("Minimum Inclusive Time");
        const QString maxTime = QStringLiteral("Maximum Inclusive Time");
        const QString path = QStringLiteral("cpi => main => iteration => MPI_Bcast");
        QCOMPARE(excl(*t, 0, path, minTime), 3.773285607080648e-05);
        QCOMPARE(incl(*t, 0, path, minTime), 3.773285607080648e-05);
        QCOMPARE(excl(*t, 0, path, maxTime), 0.0027380691219425356);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi"), maxTime), 5.055625617385637);
        QCOMPARE(incl(*t, 0, QStringLiteral("cpi => main"), minTime), 9.874232523690097e-06);
    }

    void bothArchiveOrders()
    {
        // anchor.xml first and every .index before its .data: one pass. Same trial as the original
        // (anchor last, .data before .index: two passes).
        QList<TarMember> members = readTar(readFile(scorep()));
        QCOMPARE(members.size(), 16);
        std::stable_sort(members.begin(), members.end(), [](const TarMember& a, const TarMember& b) {
            auto rank = [](const TarMember& m) {
                return m.name == QLatin1String("anchor.xml") ? 0 : m.name.endsWith(QLatin1String(".index")) ? 1 : 2;
            };
            return rank(a) < rank(b);
        });
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("reordered.cubex"));
        writeFile(path, makeTar(members));
        const auto a = mustRead(scorep());
        const auto b = mustRead(path);
        QVERIFY(a && b);
        QCOMPARE(a->eventCount(), b->eventCount());
        for (std::size_t th = 0; th < a->threadCount(); ++th) {
            QCOMPARE(a->row(ThreadIndex(th)).events, b->row(ThreadIndex(th)).events);
            QCOMPARE(a->row(ThreadIndex(th)).excl, b->row(ThreadIndex(th)).excl);
            QCOMPARE(a->row(ThreadIndex(th)).incl, b->row(ThreadIndex(th)).incl);
            QCOMPARE(a->row(ThreadIndex(th)).calls, b->row(ThreadIndex(th)).calls);
        }
        // Single-threaded row building gives the same trial too.
        const auto c = mustRead(scorep(), 1);
        QVERIFY(c);
        QCOMPARE(a->row(ThreadIndex(std::size_t(2))).incl, c->row(ThreadIndex(std::size_t(2))).incl);
    }

    // ---- cubelib samples ------------------------------------------------------------------------------

    void test00CubeAndCubex()
    {
        const auto x = mustRead(cubelib("test0.0/test0.0.cube"));
        const auto y = mustRead(cubelib("test0.0/test0.0.cubex"));
        const auto z = mustRead(cubelib("test2/template.cube")); // same content (MANIFEST)
        QVERIFY(x && y && z);
        for (const auto& t : { x, y, z }) {
            QCOMPARE(metricNames(*t),
                QStringList({ QStringLiteral("Time"), QStringLiteral("User time"), QStringLiteral("System time") }));
            QCOMPARE(t->threads(), std::vector<ThreadKey>({ { 0, 0, 0 }, { 1, 0, 1 } }));
            QVERIFY(t->metadataValue(QStringLiteral("CUBE metric User time")).contains(QLatin1String("parent Time")));
            QCOMPARE(t->metadataValue(QStringLiteral("description")), QStringLiteral("a simple example"));
            QCOMPARE(t->metadataValue(QStringLiteral("CUBE machine")), QStringLiteral("MSC"));
            QCOMPARE(t->metadataValue(QStringLiteral("CUBE node")), QStringLiteral("Athena"));
            QCOMPARE(t->metadataValue(QStringLiteral("CUBE process"), t->findThread({ 1, 0, 1 })),
                QStringLiteral("Process 1"));
            QVERIFY(t->metadataValue(QStringLiteral("CUBE topologies")).contains(QLatin1String("5 (periodic) x 5")));
            QVERIFY(hasWarning(*t, QStringLiteral("no Visits metric")));
            const ThreadKey t0 { 0, 0, 0 }, t1 { 1, 0, 1 };
            const QString time = QStringLiteral("Time");
            const QString user = QStringLiteral("User time");
            const QString sys = QStringLiteral("System time");
            // Uniq_name1: main [4,0], foo [5,9]; Uniq_name2: main [2,1], foo [0,3]; Uniq_name3: foo [0,323].
            QCOMPARE(cell(*t, t0, QStringLiteral("main"), time), 4.0);
            QCOMPARE(cell(*t, t1, QStringLiteral("main"), time), 0.0);
            QCOMPARE(cell(*t, t0, QStringLiteral("main => foo"), time), 5.0);
            QCOMPARE(cell(*t, t1, QStringLiteral("main => foo"), time), 9.0);
            QCOMPARE(cell(*t, t0, QStringLiteral("main"), time, true), 9.0);
            QCOMPARE(cell(*t, t1, QStringLiteral("main"), time, true), 9.0);
            QCOMPARE(cell(*t, t0, QStringLiteral("main"), user), 2.0);
            QCOMPARE(cell(*t, t1, QStringLiteral("main => foo"), user), 3.0);
            QCOMPARE(cell(*t, t1, QStringLiteral("main => foo"), sys), 323.0);
            QCOMPARE(cell(*t, t1, QStringLiteral("main"), sys, true), 323.0);
            QCOMPARE(cell(*t, t0, QStringLiteral("main => foo"), QStringLiteral("calls")), 0.0);
            // bar is zero everywhere: absent; foo on thread 0 is present (Time 5).
            QCOMPARE(cell(*t, t0, QStringLiteral("main => bar"), time), Absent);
            QVERIFY(t->findEvent(QStringLiteral("bar")).isValid());
            checkConsistency(*t);
        }
        // The cubex keeps its misc members (docs/FORMATS.md 5.3: they must be preserved).
        QVERIFY(
            y->metadataValue(QStringLiteral("CUBE misc Humpty Dumpty")).startsWith(QLatin1String("Humpty Dumpty sat")));
        QVERIFY(y->metadataValue(QStringLiteral("CUBE misc Jabberwocky")).contains(QLatin1String("bryllyg")));
        QCOMPARE(y->metadataValue(QStringLiteral("CUBE format version")), QStringLiteral("4.0"));
        QCOMPARE(x->metadataValue(QStringLiteral("CUBE format version")), QStringLiteral("3.0"));
        const QByteArray expected = readFile(cubelib("test0.0/template.out"));
        QVERIFY(expected.contains(y->metadataValue(QStringLiteral("CUBE misc Humpty Dumpty")).trimmed().toUtf8()));
    }

    void test11RawAmpersand()
    {
        const QString file = cubelib("test1.1/template.cube");
        const auto t = mustRead(file);
        QVERIFY(t);
        QVERIFY2(hasWarning(*t, QStringLiteral("bare '&'")), qPrintable(t->warnings().join(QLatin1Char('\n'))));
        QVERIFY(hasWarning(*t, QStringLiteral("first at line 1268")));
        QCOMPARE(t->metricCount(), std::size_t(47));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("176"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("21"));
        QCOMPARE(t->threadCount(), std::size_t(32));
        for (int p = 0; p < 8; ++p)
            for (int th = 0; th < 4; ++th)
                QVERIFY(t->findThread({ p, 0, th }).isValid());
        // Region 172: the raw '&' and the entities around it.
        const QString region = QStringLiteral("parallel \" < --&--' & ggg> & >>");
        QVERIFY(t->findEvent(region).isValid());
        QVERIFY(t->findEvent(QStringLiteral("main => ") + region).isValid());
        // Σ Time = 9.609755 = Execution 4.892569 + Overhead 0.003509 + Idle Threads 4.713678 (metric tree
        // stored inclusively); Σ Visits 2576; top cnode `step` 864 visits.
        const double time = cnodeSum(*t, QStringLiteral("Time"));
        QVERIFY2(std::fabs(time - 9.609755) < 5e-7, qPrintable(QString::number(time, 'g', 12)));
        QVERIFY(std::fabs(cnodeSum(*t, QStringLiteral("Execution")) - 4.892569) < 5e-7);
        QVERIFY(std::fabs(cnodeSum(*t, QStringLiteral("Overhead")) - 0.003509) < 5e-7);
        QVERIFY(std::fabs(cnodeSum(*t, QStringLiteral("Idle Threads")) - 4.713678) < 1e-6);
        QVERIFY(near(time,
            cnodeSum(*t, QStringLiteral("Execution")) + cnodeSum(*t, QStringLiteral("Overhead"))
                + cnodeSum(*t, QStringLiteral("Idle Threads"))));
        QCOMPARE(cnodeSum(*t, QStringLiteral("Visits")), 2576.0);
        QCOMPARE(callsSum(*t), 2576.0);
        double step = 0;
        for (std::size_t th = 0; th < t->threadCount(); ++th) {
            const IntervalRow& row = t->row(ThreadIndex(th));
            const auto i = row.find(t->findEvent(QStringLiteral("step")));
            if (i >= 0)
                step += row.calls[static_cast<std::size_t>(i)];
        }
        QCOMPARE(step, 864.0);
        // Duplicate disp_names are told apart by uniq_name.
        QVERIFY(t->findMetric(QStringLiteral("Barrier (15Barrier)")).isValid());
        QVERIFY(t->findMetric(QStringLiteral("Barrier (22Barrier)")).isValid());
        checkConsistency(*t);

        // equal.cube is byte-identical; not_equal2 negates three values; not_equal1 renames metrics.
        const auto same = mustRead(cubelib("test1.1/equal.cube"));
        const auto data = mustRead(cubelib("test1.1/not_equal2.cube"));
        const auto dims = mustRead(cubelib("test1.1/not_equal1.cube"));
        QVERIFY(same && data && dims);
        std::size_t differing = 0;
        for (std::size_t th = 0; th < t->threadCount(); ++th) {
            QCOMPARE(same->row(ThreadIndex(th)).excl, t->row(ThreadIndex(th)).excl);
            const auto& a = t->row(ThreadIndex(th)).excl;
            const auto& b = data->row(ThreadIndex(th)).excl;
            QCOMPARE(a.size(), b.size());
            for (std::size_t i = 0; i < a.size(); ++i)
                differing += a[i] != b[i] ? 1 : 0;
        }
        QVERIFY(differing >= 3);
        QVERIFY(dims->metadataValue(QStringLiteral("CUBE metric API")).contains(QLatin1String("28API_"))
            || dims->metadataValue(QStringLiteral("CUBE metric Critical")).contains(QLatin1String("Critical_")));
    }

    void test12EmptyAndNoStructure()
    {
        const auto empty = mustRead(cubelib("test1.2/empty.cube"));
        QVERIFY(empty);
        QCOMPARE(empty->threadCount(), std::size_t(32));
        QCOMPARE(empty->metricCount(), std::size_t(47));
        QCOMPARE(empty->cellCount(), std::size_t(0)); // every value 0: nothing ran
        QVERIFY(hasWarning(*empty, QStringLiteral("fewer values than threads")));
        QVERIFY(hasWarning(*empty, QStringLiteral("bare '&'")));
        QVERIFY(readCube(cubelib("test1.2/empty.cube"), true).ok()); // short rows are not data loss
        const auto none = mustRead(cubelib("test1.2/no_structure.cube"));
        QVERIFY(none);
        QCOMPARE(none->threadCount(), std::size_t(0));
        QCOMPARE(none->metricCount(), std::size_t(0));
        QCOMPARE(none->eventCount(), std::size_t(0));
        QVERIFY(!none->metadataValue(QStringLiteral("CUBE format version")).isEmpty());
        const auto nonEmpty = mustRead(cubelib("test1.2/non_empty1.cube"));
        QVERIFY(nonEmpty);
        QVERIFY(nonEmpty->cellCount() > 0);
    }

    void test28Tau2Cube()
    {
        const auto t1 = mustRead(cubelib("test28/template1.cube"));
        QVERIFY(t1);
        QCOMPARE(t1->metadataValue(QStringLiteral("CUBE_CT_AGGR")), QStringLiteral("MAX"));
        QCOMPARE(metricNames(*t1), QStringList({ QStringLiteral("BGP"), QStringLiteral("CALLS") }));
        QCOMPARE(t1->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("195"));
        QCOMPARE(t1->eventCount(), std::size_t(195)); // every region a root cnode: 195 flat events
        QCOMPARE(t1->threadCount(), std::size_t(1));
        const QString s3d = QStringLiteral("S3D [{main.pp.f90} {4,3}-{130,17}]");
        const QString getrates = QStringLiteral("GETRATES_I [{getrates_i.pp.f} {40,7}-{99,9}]");
        QCOMPARE(excl(*t1, 0, s3d, QStringLiteral("BGP")), 3115316612.0);
        QCOMPARE(excl(*t1, 0, getrates, QStringLiteral("BGP")), 1769934105.0);
        QCOMPARE(excl(*t1, 0, getrates, QStringLiteral("CALLS")), 1350000.0);

        const auto t2 = mustRead(cubelib("test28/template2.cube"));
        QVERIFY(t2);
        const QString main = QStringLiteral("main() (calls f1, f5)");
        const QString f1 = main + QStringLiteral(" => f1() (sleeps 1 sec, calls f2, f4)");
        const QString f2 = QStringLiteral("f2() (sleeps 2 sec, calls f3)");
        const QString f3 = QStringLiteral("f3() (sleeps 3 sec)");
        const QString f4 = QStringLiteral("f4() (sleeps 4 sec, calls f2)");
        QCOMPARE(t2->eventCount(), std::size_t(6 + 7));
        // TIME rows 0,1,2,3,4,2,3,5 are exclusive; Σ 20 = main incl.
        QCOMPARE(incl(*t2, 0, main, QStringLiteral("TIME")), 20.0);
        QCOMPARE(excl(*t2, 0, f1 + QStringLiteral(" => ") + f2, QStringLiteral("TIME")), 2.0);
        QCOMPARE(incl(*t2, 0, f1 + QStringLiteral(" => ") + f4, QStringLiteral("TIME")), 4.0 + 2 + 3);
        QCOMPARE(excl(*t2, 0, f2, QStringLiteral("TIME")), 4.0); // flat: two call paths
        QCOMPARE(incl(*t2, 0, f2, QStringLiteral("TIME")), 10.0);
        QCOMPARE(excl(*t2, 0, f3, QStringLiteral("TIME")), 6.0);
        // CALLS rows -1,-1,0,1,0,0,1,1: stored as differences, so inclusive values are call counts.
        QCOMPARE(excl(*t2, 0, main, QStringLiteral("CALLS")), -1.0);
        QCOMPARE(incl(*t2, 0, main, QStringLiteral("CALLS")), 1.0);
        QCOMPARE(incl(*t2, 0, f1 + QStringLiteral(" => ") + f4, QStringLiteral("CALLS")), 1.0);
        QCOMPARE(cnodeSum(*t2, QStringLiteral("TIME")), 20.0);
        QCOMPARE(cnodeSum(*t2, QStringLiteral("CALLS")), 1.0);
        checkConsistency(*t2);
    }

    void test32Negative()
    {
        const auto t = mustRead(cubelib("test32/example.cube"));
        QVERIFY(t);
        QCOMPARE(t->metricCount(), std::size_t(4));
        QCOMPARE(t->threadCount(), std::size_t(2));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("3"));
        QVERIFY(near(cnodeSum(*t, QStringLiteral("Time")), 6827.1));
        QVERIFY(near(cnodeSum(*t, QStringLiteral("User time")), -691.3));
        QVERIFY(near(cnodeSum(*t, QStringLiteral("NEWTime")), 49));
        QVERIFY(near(cnodeSum(*t, QStringLiteral("NEW User time")), 339));
        QVERIFY(t->findEvent(QStringLiteral("<<init>>foo")).isValid());
        const ThreadIndex t0 = t->findThread({ 0, 0, 0 });
        QVERIFY(t0.isValid());
        QCOMPARE(cell(*t, t->threadKey(t0), QStringLiteral("main"), QStringLiteral("Time")), -1123.4);
        double foo = 0;
        for (std::size_t th = 0; th < t->threadCount(); ++th)
            foo += cell(*t, t->threadKey(ThreadIndex(th)), QStringLiteral("<<init>>foo"), QStringLiteral("Time"));
        QVERIFY(near(foo, 3691.3));
        QVERIFY(
            t->metadataValue(QStringLiteral("CUBE metric NEW User time")).contains(QLatin1String("parent NEWTime")));
        checkConsistency(*t);
    }

    void test33DenseProxy()
    {
        const auto t = mustRead(cubelib("test33_CubeProxy/proxy.cubex"));
        QVERIFY(t);
        QCOMPARE(metricNames(*t), QStringList({ QStringLiteral("Time"), QStringLiteral("Visits") }));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("236"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("236"));
        QCOMPARE(t->threadCount(), std::size_t(1));
        // 236 cnodes: 8 roots (MPI, OpenMP, ...) with 228 children; 236 flat events.
        std::size_t flat = 0, paths = 0;
        for (const auto& e : t->events())
            (e.isCallPath() ? paths : flat) += 1;
        QCOMPARE(paths, std::size_t(228));
        QCOMPARE(flat, std::size_t(236));
        QCOMPARE(cnodeSum(*t, QStringLiteral("Time")), 228.0);
        QCOMPARE(cnodeSum(*t, QStringLiteral("Visits")), 228.0);
        QVERIFY(t->warnings().isEmpty());
        checkConsistency(*t);
    }

    void gzipped()
    {
        QTemporaryDir dir;
        const QString plain = cubelib("test1.1/template.cube");
        const QString gz = dir.filePath(QStringLiteral("template.cube.gz"));
        writeFile(gz, gzip(readFile(plain)));
        QCOMPARE(CubeReader().sniff(gz), 100);
        const auto a = mustRead(plain);
        const auto b = mustRead(gz);
        QVERIFY(a && b);
        QCOMPARE(a->eventCount(), b->eventCount());
        for (std::size_t th = 0; th < a->threadCount(); ++th)
            QCOMPARE(a->row(ThreadIndex(th)).excl, b->row(ThreadIndex(th)).excl);
        QVERIFY(hasWarning(*b, QStringLiteral("first at line 1268")));
        // Two gzip members are one stream.
        const QByteArray all = readFile(cubelib("test0.0/test0.0.cube"));
        const QString two = dir.filePath(QStringLiteral("two.cube.gz"));
        writeFile(two, gzip(all.left(1000)) + gzip(all.mid(1000)));
        const auto c = mustRead(two);
        QVERIFY(c);
        QCOMPARE(cell(*c, { 1, 0, 1 }, QStringLiteral("main => foo"), QStringLiteral("System time")), 323.0);
        // Truncated gzip: the XML ends early.
        const QString cut = dir.filePath(QStringLiteral("cut.cube.gz"));
        writeFile(cut, gzip(readFile(plain)).left(9000));
        const auto r = readCube(cut);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("truncated")), qPrintable(describe(r)));
        QVERIFY(r.error().line > 0);
        // Corrupt deflate data.
        QByteArray bad = gzip(readFile(plain));
        for (qsizetype i = 200; i < 260; ++i)
            bad[i] = static_cast<char>(bad[i] ^ 0x5a);
        const QString corrupt = dir.filePath(QStringLiteral("corrupt.cube.gz"));
        writeFile(corrupt, bad);
        const auto rc = readCube(corrupt);
        QVERIFY(!rc.ok());
        QVERIFY2(rc.error().message.contains(QLatin1String("gzip")) || rc.error().line > 0, qPrintable(describe(rc)));
    }

    // ---- the '&' filter ------------------------------------------------------------------------------

    void ampersands()
    {
        QTemporaryDir dir;
        // Entities stay, bare '&'s are escaped (in text and attributes), CDATA and comments are untouched.
        const QByteArray name = "a & b &amp; c &lt;&#x41;&#66; <![CDATA[x & y]]><!-- & -->&&";
        QByteArray xml = smallCube3(name);
        xml.replace("<attr", "<attr");
        xml.replace("<metrics>", "<attr key=\"k&v\" value=\"1 & 2\"/>\n<metrics>");
        const QString path = dir.filePath(QStringLiteral("amp.cube"));
        writeFile(path, xml);
        const auto t = mustRead(path);
        QVERIFY(t);
        QVERIFY(t->findEvent(QStringLiteral("a & b & c <AB x & y&&")).isValid());
        QCOMPARE(t->metadataValue(QStringLiteral("k&v")), QStringLiteral("1 & 2"));
        QVERIFY2(hasWarning(*t, QStringLiteral("5 bare '&'")), qPrintable(t->warnings().join(QLatin1Char('\n'))));
        // A bare '&' on either side of every 256 KiB chunk boundary.
        for (int shift = -12; shift <= 12; shift += 3) {
            QByteArray big = smallCube3("x & y");
            const qsizetype at = big.indexOf("x & y");
            const qsizetype pad = 256 * 1024 - at - 2 + shift;
            big.insert(big.indexOf("<metrics>"), "<!--" + QByteArray(pad - 7, 'c') + "-->\n");
            const QString p = dir.filePath(QStringLiteral("boundary.cube"));
            writeFile(p, big);
            const auto b = mustRead(p);
            QVERIFY(b);
            QVERIFY2(b->findEvent(QStringLiteral("x & y")).isValid(), qPrintable(QString::number(shift)));
            QVERIFY(hasWarning(*b, QStringLiteral("1 bare '&'")));
        }
        // No warning without bare ampersands.
        const auto clean = mustRead(cubelib("test0.0/test0.0.cube"));
        QVERIFY(clean && !hasWarning(*clean, QStringLiteral("bare")));
    }

    // ---- unusual but valid input ---------------------------------------------------------------------

    void cube3Features()
    {
        QTemporaryDir dir;
        // Parameters, two call sites of one region under one parent, a derived-looking metric in CUBE 3
        // (no type: read as exclusive), and the smallCube3 values.
        const QByteArray program = "<region id=\"3\" mod=\"a.c\" begin=\"30\" end=\"39\"><name>baz</name></region>\n";
        QByteArray xml = smallCube3("foo", program);
        xml.replace("<cnode id=\"2\" calleeId=\"2\"></cnode>\n",
            "<cnode id=\"2\" calleeId=\"2\"></cnode>\n"
            "<cnode id=\"3\" line=\"5\" calleeId=\"3\"><parameter partype=\"numeric\" parkey=\"size\" "
            "parvalue=\"100\"/>"
            "</cnode>\n"
            "<cnode id=\"4\" line=\"7\" calleeId=\"2\"></cnode>\n");
        xml.replace("<row cnodeId=\"2\">5 0</row></matrix>",
            "<row cnodeId=\"2\">5 0</row><row cnodeId=\"3\">7 0</row><row cnodeId=\"4\">0.5 0.25</row></matrix>");
        xml.replace("<row cnodeId=\"2\">1 0</row></matrix>",
            "<row cnodeId=\"2\">1 0</row><row cnodeId=\"3\">3 0</row><row cnodeId=\"4\">2 1</row></matrix>");
        const QString path = dir.filePath(QStringLiteral("features.cube"));
        writeFile(path, xml);
        const auto t = mustRead(path);
        QVERIFY(t);
        const QString param = QStringLiteral("main => baz [ <size> = <100> ]");
        QVERIFY(t->findEvent(param).isValid());
        QVERIFY(t->eventInGroup(t->findEvent(param), QStringLiteral("TAU_PARAM")));
        QCOMPARE(excl(*t, 0, param, QStringLiteral("Time")), 7.0);
        QCOMPARE(cell(*t, { 0, 0, 0 }, param, QStringLiteral("calls")), 3.0);
        // main => bar twice (lines 0 and 7): summed, with a warning.
        QCOMPARE(excl(*t, 0, QStringLiteral("main => bar"), QStringLiteral("Time")), 5.5);
        QCOMPARE(excl(*t, 1, QStringLiteral("main => bar"), QStringLiteral("Time")), 0.25);
        QCOMPARE(cell(*t, { 1, 0, 0 }, QStringLiteral("main => bar"), QStringLiteral("calls")), 1.0);
        QVERIFY(hasWarning(*t, QStringLiteral("same call path")));
        QCOMPARE(incl(*t, 0, QStringLiteral("main"), QStringLiteral("Time")), 1 + 3 + 5 + 7 + 0.5);
        QCOMPARE(cell(*t, { 0, 0, 0 }, QStringLiteral("main"), QStringLiteral("subrs")), 2.0 + 1 + 3 + 2);
        QCOMPARE(t->threads(), std::vector<ThreadKey>({ { 0, 0, 0 }, { 1, 0, 0 } }));
        checkConsistency(*t);

        // Recursion: main -> foo -> main. The root event holds the flat totals (with a warning).
        QByteArray rec = smallCube3();
        rec.replace("<cnode id=\"2\" calleeId=\"2\"></cnode>\n",
            "<cnode id=\"2\" calleeId=\"2\"><cnode id=\"3\" calleeId=\"0\"></cnode></cnode>\n");
        rec.replace("<row cnodeId=\"2\">5 0</row></matrix>",
            "<row cnodeId=\"2\">5 0</row><row cnodeId=\"3\">10 0</row></matrix>");
        const QString recPath = dir.filePath(QStringLiteral("recursion.cube"));
        writeFile(recPath, rec);
        const auto r = mustRead(recPath);
        QVERIFY(r);
        QVERIFY(hasWarning(*r, QStringLiteral("also occur deeper")));
        QCOMPARE(excl(*r, 0, QStringLiteral("main"), QStringLiteral("Time")), 11.0); // 1 + 10
        QCOMPARE(incl(*r, 0, QStringLiteral("main"), QStringLiteral("Time")), 19.0); // outermost only
        QCOMPARE(incl(*r, 0, QStringLiteral("main => bar => main"), QStringLiteral("Time")), 10.0);

        // Locations sharing a (process rank, thread rank): the second takes context 1.
        QByteArray clash = smallCube3();
        clash.replace("<rank>1</rank><thread Id=\"1\">", "<rank>0</rank><thread Id=\"1\">");
        const QString clashPath = dir.filePath(QStringLiteral("clash.cube"));
        writeFile(clashPath, clash);
        const auto c = mustRead(clashPath);
        QVERIFY(c);
        QCOMPARE(c->threads(), std::vector<ThreadKey>({ { 0, 0, 0 }, { 0, 1, 0 } }));
        QVERIFY(hasWarning(*c, QStringLiteral("next free context")));
        QCOMPARE(cell(*c, { 0, 1, 0 }, QStringLiteral("main => foo"), QStringLiteral("Time")), 4.0);

        // A CUBE 4 anchor on its own: structure only, all zero, with a warning.
        const QString anchor = dir.filePath(QStringLiteral("anchor.cube"));
        writeFile(anchor, readTar(readFile(scorep())).last().data);
        const auto a = mustRead(anchor);
        QVERIFY(a);
        QCOMPARE(a->cellCount(), std::size_t(0));
        QVERIFY(hasWarning(*a, QStringLiteral("outside a .cubex")));
    }

    void cubexVariants()
    {
        QTemporaryDir dir;
        const QList<TarMember> original = readTar(readFile(cubelib("test0.0/test0.0.cubex")));
        const auto reference = mustRead(cubelib("test0.0/test0.0.cubex"));
        QVERIFY(reference);
        auto same = [&](const QList<TarMember>& members, const QString& name) {
            const QString path = dir.filePath(name);
            writeFile(path, makeTar(members));
            const auto t = mustRead(path);
            QVERIFY2(t, qPrintable(name));
            for (std::size_t th = 0; th < reference->threadCount(); ++th) {
                QCOMPARE(t->row(ThreadIndex(th)).events, reference->row(ThreadIndex(th)).events);
                QCOMPARE(t->row(ThreadIndex(th)).excl, reference->row(ThreadIndex(th)).excl);
                QCOMPARE(t->row(ThreadIndex(th)).incl, reference->row(ThreadIndex(th)).incl);
            }
        };
        // Big-endian writer: the index mark reads 0x01000000; every u32 and value is swapped.
        QList<TarMember> swapped = original;
        for (auto& m : swapped) {
            if (m.name.endsWith(QLatin1String(".index"))) {
                QByteArray b = swapWords(m.data.left(15), 11, 4) + swapWords(m.data.mid(15, 2), 0, 2)
                    + m.data.mid(17, 1) + swapWords(m.data.mid(18), 0, 4);
                m.data = b;
            } else if (m.name.endsWith(QLatin1String(".data"))) {
                m.data = m.data.left(10) + swapWords(m.data.mid(10), 0, 8);
            }
        }
        QCOMPARE(member(swapped, QStringLiteral("0.index"))->data.mid(11, 4), QByteArray("\0\0\0\1", 4));
        same(swapped, QStringLiteral("bigendian.cubex"));
        // Compressed data (ZCUBEX.DATA, docs/FORMATS.md 5.3 ✘): one zlib entry per row.
        QList<TarMember> compressed = original;
        for (auto& m : compressed) {
            if (!m.name.endsWith(QLatin1String(".data")))
                continue;
            const QByteArray payload = m.data.mid(10);
            QByteArray header, blocks;
            auto i64 = [](qint64 v) {
                QByteArray b(8, '\0');
                qToLittleEndian(v, b.data());
                return b;
            };
            const qsizetype row = 16;
            const qint64 entries = (payload.size() + row - 1) / row;
            header += i64(entries);
            for (qint64 e = 0; e < entries; ++e) {
                const QByteArray z = zlibCompress(payload.mid(e * row, row));
                header += i64(e * row) + i64(blocks.size()) + i64(z.size());
                blocks += z;
            }
            m.data = QByteArray("ZCUBEX.DATA") + header + blocks;
        }
        same(compressed, QStringLiteral("compressed.cubex"));
        // DENSE index for metric 2 (3 cnodes x 2 locations, pre-order rows).
        QList<TarMember> dense = original;
        member(dense, QStringLiteral("2.index"))->data
            = member(original, QStringLiteral("2.index"))->data.left(17) + '\3';
        QByteArray rows(3 * 2 * 8, '\0');
        qToLittleEndian<qint64>(323, rows.data() + (1 * 2 + 1) * 8);
        member(dense, QStringLiteral("2.data"))->data = QByteArray("CUBEX.DATA") + rows;
        same(dense, QStringLiteral("dense.cubex"));
        // Misc members and a leading "./" are fine; a member for an unknown metric is reported.
        QList<TarMember> extra = original;
        extra.append(TarMember { QStringLiteral("7.index"), member(original, QStringLiteral("2.index"))->data });
        extra.append(TarMember { QStringLiteral("7.data"), member(original, QStringLiteral("2.data"))->data });
        for (auto& m : extra)
            if (m.name == QLatin1String("anchor.xml"))
                m.name = QStringLiteral("./anchor.xml");
        const QString extraPath = dir.filePath(QStringLiteral("extra.cubex"));
        writeFile(extraPath, makeTar(extra));
        const auto e = mustRead(extraPath);
        QVERIFY(e);
        QVERIFY(hasWarning(*e, QStringLiteral("'7.data' belongs to no metric")));
        QVERIFY(!readCube(extraPath, true).ok()); // strict: data that belongs nowhere is an error
        // Trailing zero rows are normal (test0.0's 0.data has 3 rows for 2 entries); non-zero ones
        // belong to no cnode: a warning, an error under strict.
        QList<TarMember> trailing = original;
        QByteArray& data = member(trailing, QStringLiteral("2.data"))->data;
        data += QByteArray(8, '\0');
        data[data.size() - 8] = 9;
        data += QByteArray(8, '\0');
        const QString trailingPath = dir.filePath(QStringLiteral("trailing.cubex"));
        writeFile(trailingPath, makeTar(trailing));
        const auto tr = mustRead(trailingPath);
        QVERIFY(tr);
        QVERIFY(hasWarning(*tr, QStringLiteral("1 of them non-zero")));
        const auto strict = readCube(trailingPath, true);
        QVERIFY(!strict.ok());
        QVERIFY(strict.error().message.contains(QLatin1String("'2.data'")));
        QVERIFY(!hasWarning(*reference, QStringLiteral("non-zero")));
        // A derived metric (CubePL, no data) is skipped with a warning.
        QList<TarMember> derived = original;
        QByteArray& anchor = member(derived, QStringLiteral("anchor.xml"))->data;
        anchor.replace("</metrics>",
            "<metric id=\"3\" type=\"POSTDERIVED\"><disp_name>Ratio</disp_name><uniq_name>ratio</uniq_name>"
            "<dtype>DOUBLE</dtype><uom></uom><cubepl>metric::time()/2</cubepl></metric>\n</metrics>");
        const QString derivedPath = dir.filePath(QStringLiteral("derived.cubex"));
        writeFile(derivedPath, makeTar(derived));
        const auto d = mustRead(derivedPath);
        QVERIFY(d);
        QCOMPARE(d->metricCount(), std::size_t(3));
        QVERIFY(hasWarning(*d, QStringLiteral("derived metric 'Ratio'")));
        // Small dtypes: INT32 values for metric 2.
        QList<TarMember> small = original;
        member(small, QStringLiteral("anchor.xml"))
            ->data.replace("<uniq_name>Uniq_name3</uniq_name>\n        <dtype>INTEGER",
                "<uniq_name>Uniq_name3</uniq_name>\n        <dtype>INT32");
        QByteArray values(2 * 4, '\0');
        qToLittleEndian<qint32>(-323, values.data() + 4);
        member(small, QStringLiteral("2.data"))->data = QByteArray("CUBEX.DATA") + values;
        const QString smallPath = dir.filePath(QStringLiteral("int32.cubex"));
        writeFile(smallPath, makeTar(small));
        const auto s = mustRead(smallPath);
        QVERIFY(s);
        QCOMPARE(cell(*s, { 1, 0, 1 }, QStringLiteral("main => foo"), QStringLiteral("System time")), -323.0);
        // A composite dtype becomes one metric per part: COMPLEX is (re, im), two f64 per value.
        QList<TarMember> complex = original;
        member(complex, QStringLiteral("anchor.xml"))
            ->data.replace("<uniq_name>Uniq_name3</uniq_name>\n        <dtype>INTEGER",
                "<uniq_name>Uniq_name3</uniq_name>\n        <dtype>COMPLEX");
        QByteArray pairs(2 * 16, '\0');
        qToLittleEndian<double>(323.5, pairs.data() + 16);
        qToLittleEndian<double>(-1.25, pairs.data() + 24);
        member(complex, QStringLiteral("2.data"))->data = QByteArray("CUBEX.DATA") + pairs;
        const QString complexPath = dir.filePath(QStringLiteral("complex.cubex"));
        writeFile(complexPath, makeTar(complex));
        const auto cx = mustRead(complexPath);
        QVERIFY(cx);
        QCOMPARE(metricNames(*cx),
            QStringList({ QStringLiteral("Time"), QStringLiteral("User time"), QStringLiteral("System time (re)"),
                QStringLiteral("System time (im)") }));
        QCOMPARE(cell(*cx, { 1, 0, 1 }, QStringLiteral("main => foo"), QStringLiteral("System time (re)")), 323.5);
        QCOMPARE(cell(*cx, { 1, 0, 1 }, QStringLiteral("main => foo"), QStringLiteral("System time (im)")), -1.25);
        QVERIFY(readCube(complexPath, true).ok());
        // A record cut short is a size mismatch naming the member.
        member(complex, QStringLiteral("2.data"))->data = QByteArray("CUBEX.DATA") + pairs.left(24);
        writeFile(complexPath, makeTar(complex));
        auto bad = readCube(complexPath);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.contains(QLatin1String("member '2.data'"))
                && bad.error().message.contains(QLatin1String("16-byte COMPLEX values")),
            qPrintable(describe(bad)));
        // SCALE_FUNC (no known layout) is not read: a warning, and an error under strict (its .data is dropped).
        member(complex, QStringLiteral("anchor.xml"))->data.replace("<dtype>COMPLEX", "<dtype>SCALE_FUNC");
        writeFile(complexPath, makeTar(complex));
        const auto sf = mustRead(complexPath);
        QVERIFY(sf);
        QCOMPARE(sf->metricCount(), std::size_t(2));
        QVERIFY(hasWarning(*sf, QStringLiteral("data type SCALE_FUNC")));
        QVERIFY(!readCube(complexPath, true).ok());
        // NDOUBLES(n) with an absurd n is no layout either.
        member(complex, QStringLiteral("anchor.xml"))->data.replace("<dtype>SCALE_FUNC", "<dtype>NDOUBLES(100000000)");
        writeFile(complexPath, makeTar(complex));
        const auto nd = mustRead(complexPath);
        QVERIFY(nd);
        QVERIFY(hasWarning(*nd, QStringLiteral("data type NDOUBLES(100000000)")));
        // Row ids are positions in a per-metric enumeration (docs/FORMATS.md 5.3), not cnode ids: with the
        // children of main written bar (id 2) before foo (id 1), row 1 of an EXCLUSIVE metric is bar
        // (pre-order), of a SIMPLE metric foo (id order).
        for (const bool simple : { false, true }) {
            QList<TarMember> reordered = original;
            QByteArray& a = member(reordered, QStringLiteral("anchor.xml"))->data;
            const qsizetype foo = a.indexOf("      <cnode id=\"1\"");
            const qsizetype bar = a.indexOf("      <cnode id=\"2\"");
            const qsizetype end = a.indexOf("\n    </cnode>", bar) + 1; // main's closing tag
            const QByteArray fooText = a.mid(foo, bar - foo);
            const QByteArray barText = a.mid(bar, end - bar);
            a.replace(foo, end - foo, QByteArray(barText + fooText));
            if (simple)
                a.replace("<metric id=\"2\">", "<metric id=\"2\" type=\"SIMPLE\">");
            const QString path = dir.filePath(QStringLiteral("order.cubex"));
            writeFile(path, makeTar(reordered));
            const auto o = mustRead(path);
            QVERIFY(o);
            const QString sys = QStringLiteral("System time");
            QCOMPARE(cell(*o, { 1, 0, 1 }, simple ? QStringLiteral("main => foo") : QStringLiteral("main => bar"), sys),
                323.0);
            QVERIFY(o->metadataValue(QStringLiteral("CUBE metric System time"))
                        .contains(simple ? QLatin1String("type SIMPLE") : QLatin1String("type EXCLUSIVE")));
        }
    }

    // ---- bad input ---------------------------------------------------------------------------------------

    void truncatedCubex()
    {
        QTemporaryDir dir;
        const QByteArray full = readFile(scorep());
        const QList<MemberSpan> layout = spans(full);
        QCOMPARE(layout.last().name, QStringLiteral("anchor.xml"));
        struct Cut {
            qint64 at;
            QString mentions;
        };
        QList<Cut> cuts;
        cuts.append({ 0, QStringLiteral("not a tar archive") });
        cuts.append({ 300, QStringLiteral("tar") }); // inside the first header
        for (const MemberSpan& s : layout) {
            cuts.append({ s.data + s.size / 2, QLatin1Char('\'') + s.name + QLatin1Char('\'') }); // inside its data
            cuts.append({ s.header + 100, QStringLiteral("tar") }); // inside its header
        }
        cuts.append({ layout.last().data + layout.last().size - 1, QStringLiteral("'anchor.xml'") });
        // At a member boundary: the archive just ends, without anchor.xml.
        cuts.append({ layout.last().header, QStringLiteral("no member 'anchor.xml'") });
        for (const Cut& cut : cuts) {
            const QString path = dir.filePath(QStringLiteral("cut-%1.cubex").arg(cut.at));
            writeFile(path, full.left(cut.at));
            const auto r = readCube(path);
            QVERIFY2(!r.ok(), qPrintable(QStringLiteral("cut at %1 read").arg(cut.at)));
            QCOMPARE(r.error().file, path);
            QVERIFY2(r.error().message.contains(cut.mentions, Qt::CaseInsensitive),
                qPrintable(QStringLiteral("cut at %1: %2 (expected to mention %3)")
                               .arg(cut.at)
                               .arg(describe(r), cut.mentions)));
            QVERIFY2(
                r.error().line > 0 || r.error().byteOffset >= 0 || cut.mentions.startsWith(QLatin1String("no member")),
                qPrintable(describe(r)));
        }
    }

    void corruptIndexAndData()
    {
        QTemporaryDir dir;
        const QList<TarMember> original = readTar(readFile(cubelib("test0.0/test0.0.cubex")));
        auto expectError = [&](const QList<TarMember>& members, const QString& name, const QStringList& mentions) {
            const QString path = dir.filePath(name);
            writeFile(path, makeTar(members));
            const auto r = readCube(path);
            QVERIFY2(!r.ok(), qPrintable(name));
            QCOMPARE(r.error().file, path);
            for (const QString& m : mentions)
                QVERIFY2(r.error().message.contains(m),
                    qPrintable(QStringLiteral("%1: %2 (expected '%3')").arg(name, describe(r), m)));
        };
        auto withIndex = [&](const QByteArray& index) {
            QList<TarMember> m = original;
            member(m, QStringLiteral("0.index"))->data = index;
            return m;
        };
        const QByteArray index = member(original, QStringLiteral("0.index"))->data;
        QByteArray magic = index;
        magic[0] = 'X';
        expectError(
            withIndex(magic), QStringLiteral("magic.cubex"), { QStringLiteral("'0.index'"), QStringLiteral("byte 0") });
        expectError(withIndex(index.left(10)), QStringLiteral("short.cubex"),
            { QStringLiteral("'0.index'"), QStringLiteral("18-byte") });
        expectError(withIndex(index.left(26)), QStringLiteral("size.cubex"),
            { QStringLiteral("'0.index'"), QStringLiteral("size mismatch") });
        expectError(withIndex(index + QByteArray(4, '\0')), QStringLiteral("longer.cubex"),
            { QStringLiteral("size mismatch") });
        QByteArray mark = index;
        mark[12] = 7;
        expectError(
            withIndex(mark), QStringLiteral("mark.cubex"), { QStringLiteral("byte 11"), QStringLiteral("byte-order") });
        QByteArray format = index;
        format[17] = 2;
        expectError(withIndex(format), QStringLiteral("format.cubex"),
            { QStringLiteral("byte 17"), QStringLiteral("BITVECTOR") });
        QByteArray row = index;
        row[26] = 7;
        expectError(
            withIndex(row), QStringLiteral("row.cubex"), { QStringLiteral("row id 7"), QStringLiteral("byte 26") });
        QByteArray twice = index;
        twice[26] = 0;
        expectError(withIndex(twice), QStringLiteral("twice.cubex"), { QStringLiteral("listed twice") });
        // Data: a size mismatch (not whole values; fewer rows than the index), a bad marker.
        QList<TarMember> m1 = original;
        member(m1, QStringLiteral("2.data"))->data.chop(3);
        expectError(
            m1, QStringLiteral("partial.cubex"), { QStringLiteral("'2.data'"), QStringLiteral("size mismatch") });
        QList<TarMember> m2 = original;
        member(m2, QStringLiteral("2.data"))->data.chop(48);
        expectError(
            m2, QStringLiteral("rows.cubex"), { QStringLiteral("'2.data'"), QStringLiteral("ends after 0 of 1 rows") });
        QList<TarMember> m3 = original;
        member(m3, QStringLiteral("1.data"))->data[2] = 'X';
        expectError(
            m3, QStringLiteral("datamarker.cubex"), { QStringLiteral("'1.data'"), QStringLiteral("CUBEX.DATA") });
        // One member of a pair missing.
        QList<TarMember> m4 = original;
        m4.removeIf([](const TarMember& m) { return m.name == QLatin1String("1.index"); });
        expectError(m4, QStringLiteral("noindex.cubex"), { QStringLiteral("'1.data' has no matching '1.index'") });
        QList<TarMember> m5 = original;
        m5.removeIf([](const TarMember& m) { return m.name == QLatin1String("1.data"); });
        expectError(m5, QStringLiteral("nodata.cubex"), { QStringLiteral("'1.index' has no matching '1.data'") });
        // No anchor.xml.
        QList<TarMember> m6 = original;
        m6.removeIf([](const TarMember& m) { return m.name == QLatin1String("anchor.xml"); });
        expectError(m6, QStringLiteral("noanchor.cubex"),
            { QStringLiteral("no member 'anchor.xml'"), QStringLiteral("Humpty Dumpty") });
        // Compressed data that does not inflate.
        QList<TarMember> m7 = original;
        member(m7, QStringLiteral("2.data"))->data = QByteArray("ZCUBEX.DATA") + QByteArray::fromHex("0100000000000000")
            + QByteArray(16, '\0') + QByteArray::fromHex("0400000000000000") + "junk";
        expectError(
            m7, QStringLiteral("zjunk.cubex"), { QStringLiteral("'2.data'"), QStringLiteral("does not inflate") });
    }

    void brokenAnchor()
    {
        QTemporaryDir dir;
        const QList<TarMember> original = readTar(readFile(cubelib("test0.0/test0.0.cubex")));
        auto withAnchor = [&](const QByteArray& from, const QByteArray& to) {
            QList<TarMember> m = original;
            QByteArray& a = member(m, QStringLiteral("anchor.xml"))->data;
            const qsizetype at = a.indexOf(from);
            if (at >= 0)
                a.replace(at, from.size(), to);
            return m;
        };
        struct Case {
            QByteArray from, to;
            QString mentions;
            bool lineOfChange; // the error is reported on the line of the changed text
        };
        const QList<Case> cases = {
            { "</cnode>\n      <cnode id=\"2\"", "<cnode id=\"2\"", QStringLiteral("malformed XML"), false },
            { "calleeId=\"2\"", "calleeId=\"99\"", QStringLiteral("calls region 99"), true },
            { "<cnode id=\"2\"", "<cnode id=\"1\"", QStringLiteral("cnode id 1 is defined twice"), true },
            { "<cube version=\"4.0\">", "<cube version=\"7.1\">", QStringLiteral("unsupported version"), true },
            { "<cube version", "<kube version", QStringLiteral("expected the root element <cube>"), true },
            { "<metric id=\"1\">", "<metric id=\"x\">", QStringLiteral("numeric metric id"), true },
            { "</cube>", "", QStringLiteral("ends inside <cube>"), false },
        };
        for (const Case& c : cases) {
            const QList<TarMember> members = withAnchor(c.from, c.to);
            const QByteArray anchor = member(original, QStringLiteral("anchor.xml"))->data;
            const qint64 line = anchor.left(anchor.indexOf(c.from)).count('\n') + 1;
            const QString path = dir.filePath(QStringLiteral("anchor.cubex"));
            writeFile(path, makeTar(members));
            const auto r = readCube(path);
            QVERIFY2(!r.ok(), qPrintable(c.mentions));
            QVERIFY2(r.error().message.contains(c.mentions), qPrintable(describe(r)));
            QVERIFY2(r.error().message.startsWith(QLatin1String("anchor.xml line")), qPrintable(describe(r)));
            QVERIFY(r.error().line > 0);
            if (c.lineOfChange)
                QCOMPARE(r.error().line, line);
            QVERIFY(r.error().toString().startsWith(path + QLatin1Char(':')));
        }
    }

    void badCube3()
    {
        QTemporaryDir dir;
        auto expectError = [&](const QByteArray& xml, const QString& mentions, qint64 line = -1) {
            const QString path = dir.filePath(QStringLiteral("bad.cube"));
            writeFile(path, xml);
            const auto r = readCube(path);
            QVERIFY2(!r.ok(), qPrintable(mentions));
            QVERIFY2(r.error().message.contains(mentions), qPrintable(describe(r)));
            QVERIFY(r.error().line > 0);
            if (line > 0)
                QCOMPARE(r.error().line, line);
        };
        const QByteArray good = smallCube3();
        const qint64 rowLine = good.left(good.indexOf("<matrix metricId=\"0\">")).count('\n') + 1;
        QByteArray unknownRow = good;
        unknownRow.replace("<row cnodeId=\"1\">3 4", "<row cnodeId=\"77\">3 4");
        expectError(unknownRow, QStringLiteral("<row cnodeId=\"77\">: no cnode has this id"), rowLine);
        QByteArray unknownMatrix = good;
        unknownMatrix.replace("<matrix metricId=\"1\">", "<matrix metricId=\"5\">");
        expectError(unknownMatrix, QStringLiteral("no metric has this id"), rowLine + 1);
        QByteArray notNumber = good;
        notNumber.replace("3 4", "3 four");
        expectError(notNumber, QStringLiteral("'four' (expected a number)"), rowLine);
        QByteArray twice = good;
        twice.replace("<row cnodeId=\"1\">3 4</row>", "<row cnodeId=\"1\">3 4</row><row cnodeId=\"1\">3 4</row>");
        expectError(twice, QStringLiteral("a second <row> for cnode 1"));
        expectError(good.left(good.size() / 2), QStringLiteral("(truncated file?)"));
        QByteArray unclosed = good;
        unclosed.replace("</program>", "</programm>");
        expectError(unclosed, QStringLiteral("malformed XML"));
        QByteArray late = good;
        late.replace("</severity>", "</severity><system></system>");
        expectError(late, QStringLiteral("<system> after <severity>"));
        QByteArray entity = good;
        entity.replace("<name>bar</name>", "<name>bar&#0;</name>");
        expectError(entity, QStringLiteral("malformed XML"));
        // A row with more values than threads loses data: a warning, an error under strict.
        QByteArray longRow = good;
        longRow.replace("3 4</row>", "3 4 5</row>");
        const QString path = dir.filePath(QStringLiteral("long.cube"));
        writeFile(path, longRow);
        const auto t = mustRead(path);
        QVERIFY(t);
        QVERIFY(hasWarning(*t, QStringLiteral("more values than threads")));
        QVERIFY(!readCube(path, true).ok());
        // Not a file.
        const auto d = readCube(dir.path());
        QVERIFY(!d.ok());
        QVERIFY(d.error().message.contains(QLatin1String("not a file")));
    }

    void progressAndCancel()
    {
        QStringList stages;
        qint64 lastDone = 0;
        Progress progress([&](const QString& stage, qint64 done, qint64) {
            if (stages.isEmpty() || stages.last() != stage)
                stages << stage;
            lastDone = std::max(lastDone, done);
        });
        const auto r = CubeReader().read(scorep(), ReadOptions(), progress);
        QVERIFY(r.ok());
        QVERIFY2(stages.contains(QStringLiteral("Reading CUBE archive")), qPrintable(stages.join(QLatin1Char(','))));
        QVERIFY(stages.contains(QStringLiteral("Reading CUBE severities"))); // anchor.xml is last: 2 passes
        QVERIFY(stages.contains(QStringLiteral("Building the trial")));
        for (const QString& file : { scorep(), cubelib("test1.1/template.cube") }) {
            Progress cancelled;
            cancelled.cancel();
            const auto c = CubeReader().read(file, ReadOptions(), cancelled);
            QVERIFY(!c.ok());
            QCOMPARE(c.error().message, QStringLiteral("cancelled"));
        }
    }

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
        int flat = 0, paths = 0;
        for (const auto& e : t->events())
            (e.isCallPath() ? paths : flat)++;
        QCOMPARE(paths, 45); // 46 cnodes under the one root bg_time
        QCOMPARE(flat, 31); // distinct regions on cnodes
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

    // ---- cube/scalasca-cube3 (MANIFEST.md): pattern metrics, Cartesian topologies ------------------

    void cube3PatternMetricsAndTopologies()
    {
        const auto t = mustRead(cube3("cubew-test3-template.cube"));
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE format version")), QStringLiteral("3.0"));
        QCOMPARE(t->metadataValue(QStringLiteral("description")), QStringLiteral("a simple example"));
        QCOMPARE(t->metadataValue(QStringLiteral("experiment time")), QStringLiteral("November 1st, 2004"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE mirrors")).count(QLatin1String("kojak/")), 4);
        QCOMPARE(t->metricCount(), std::size_t(40));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("169"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("300"));
        QCOMPARE(t->threadCount(), std::size_t(64));
        // Pattern metrics: display name, unique name, dtype, unit, URL, description.
        const QString barrier = t->metadataValue(QStringLiteral("CUBE metric Wait at Barrier"));
        for (const char* part : { "uniq_name mpi_barrier_wait", "dtype FLOAT", "uom sec",
                 "url http://www.cs.utk.edu/sys.html", "Waiting time in front of MPI barriers" })
            QVERIFY2(barrier.contains(QLatin1String(part)), qPrintable(barrier));
        // "@mirror@" is the first <murl>.
        QVERIFY2(t->metadataValue(QStringLiteral("CUBE metric Time"))
                     .contains(QLatin1String("url http://icl.cs.utk.edu/software/kojak/patterns-2.1.html#execution")),
            qPrintable(t->metadataValue(QStringLiteral("CUBE metric Time"))));
        // Display names used twice are told apart by uniq_name; the hierarchy is kept.
        QVERIFY(t->findMetric(QStringLiteral("Late Sender (mpi_latesender)")).isValid());
        QVERIFY(t->findMetric(QStringLiteral("Late Sender (mpi_cls_count)")).isValid());
        QCOMPARE(t->metric(t->findMetric(QStringLiteral("Late Sender (mpi_cls_count)"))).unit, QStringLiteral("count"));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric Messages in Wrong Order (mpi_latesender_wo)"))
                    .contains(QLatin1String("parent Late Sender (mpi_latesender)")));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric Late Sender (mpi_latesender)"))
                    .contains(QLatin1String("Time a receiving process is waiting for a message")));
        // Four named topologies, one with 14 dimensions.
        QString third = QStringLiteral("Third: 3 (periodic)");
        for (int d = 1; d < 14; ++d)
            third += QStringLiteral(" x 3");
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE topologies")),
            QStringLiteral("My Topology 1: 5 (periodic) x 5; Application topology 3: 3 (periodic) x 3; Second: 3 "
                           "(periodic) x 3 x 3 x 3; ")
                + third);
        // Severities: metric 0 (Time) on cnode 0 starts 0 1 2 3; metric 4 (mpi_latesender) 4 5 6 7. The
        // root's region UNKNOWN is also cnode 169 (rows 169 170 ... and 173 174 ...), so its event holds
        // the flat totals of both (docs/SEMANTICS.md 1.4), with a warning.
        QVERIFY(hasWarning(*t, QStringLiteral("1 call-tree root(s) also occur deeper")));
        for (int l = 0; l < 4; ++l) {
            const ThreadKey key { l, 0, l };
            QCOMPARE(cell(*t, key, QStringLiteral("UNKNOWN"), QStringLiteral("Time")), double(l + 169 + l));
            QCOMPARE(cell(*t, key, QStringLiteral("UNKNOWN"), QStringLiteral("Late Sender (mpi_latesender)")),
                double(4 + l + 173 + l));
        }
    }

    void cube3KojakPatterns()
    {
        const auto t = mustRead(cube3("kojak-example-ctest-pomp.cube"));
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE_CT_AGGR")), QStringLiteral("SUM"));
        QCOMPARE(t->metricCount(), std::size_t(47));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE regions")), QStringLiteral("176"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("21"));
        QCOMPARE(t->threadCount(), std::size_t(32)); // 8 processes x 4 threads
        QVERIFY(t->findThread(ThreadKey { 7, 0, 3 }).isValid());
        QVERIFY(t->metadataValue(QStringLiteral("CUBE topologies")).isEmpty()); // an empty <topologies>
        // KOJAK unique names (id + display name), pattern hierarchy, URLs from the mirror.
        const QString lateSender = t->metadataValue(QStringLiteral("CUBE metric Late Sender"));
        QVERIFY2(lateSender.contains(QLatin1String("uniq_name 11Late Sender"))
                && lateSender.contains(QLatin1String("parent P2P"))
                && lateSender.contains(QLatin1String(
                    "url http://icl.cs.utk.edu/projectsfiles/kojak/software/kojak/patterns-2.2.html#mpi_late_sender")),
            qPrintable(lateSender));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric P2P")).contains(QLatin1String("parent Communication")));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE metric Wait at Barrier (26Wait at Barrier)"))
                    .contains(QLatin1String("parent Implict")));
        for (const char* e :
            { "main => parallel => sequential => !$omp parallel @ctest-pomp.c:48 => !$omp for @ctest-pomp.c:53 => step",
                "main => parallel => p2p => MPI_Wait", "main => MPI_Finalize => TRACING" })
            QVERIFY2(t->findEvent(QLatin1String(e)).isValid(), e);
        // 0Time on cnode 0 (main), and 17Wait at Barrier only on cnodes 12 and 14 (both MPI_Barrier).
        for (int th = 0; th < 4; ++th) {
            QCOMPARE(
                cell(*t, ThreadKey { 0, 0, th }, QStringLiteral("main"), QStringLiteral("Time")), 0.000181790997885);
            QCOMPARE(
                cell(*t, ThreadKey { 1, 0, th }, QStringLiteral("main"), QStringLiteral("Time")), 0.000236111001868);
        }
        const QString wait = QStringLiteral("Wait at Barrier (17Wait at Barrier)");
        QCOMPARE(
            cell(*t, ThreadKey { 0, 0, 0 }, QStringLiteral("main => parallel => MPI_Barrier"), wait), 0.0403733120002);
        QCOMPARE(
            cell(*t, ThreadKey { 1, 0, 0 }, QStringLiteral("main => parallel => MPI_Barrier"), wait), 0.042913903002);
        const double elsewhere = cell(*t, ThreadKey { 0, 0, 0 }, QStringLiteral("main => MPI_Init"), wait);
        QVERIFY(elsewhere == 0 || elsewhere == Absent);
        checkConsistency(*t);
    }

    // ---- extrap/cubeset (MANIFEST.md C): Score-P 1.3 .cubex with a gzip anchor.xml and ZCUBEX.DATA ---

    void extrapCompressedCubex()
    {
        const QString file = dataPath(QStringLiteral("extrap/cubeset/multi_parameter/mm.x25y25z25.r1/profile.cubex"));
        const auto t = mustRead(file);
        QVERIFY(t);
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE anchor.xml compression")), QStringLiteral("gzip"));
        QCOMPARE(t->metadataValue(QStringLiteral("Creator")), QStringLiteral("Score-P 1.3"));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE cnodes")), QStringLiteral("4"));
        QCOMPARE(t->threadCount(), std::size_t(1));
        const QList<TarMember> members = readTar(readFile(file));
        QVERIFY(member(members, QStringLiteral("1.data"))->data.startsWith("ZCUBEX.DATA"));
        // Values (MANIFEST, verified there with pycubexr), to the digits given.
        QVERIFY(std::fabs(excl(*t, 0, QStringLiteral("main"), QStringLiteral("Time")) - 1.2093e-05) <= 5e-10);
        QVERIFY(std::fabs(incl(*t, 0, QStringLiteral("main"), QStringLiteral("Time")) - 4.5026e-05) <= 5e-10);
        QVERIFY(
            std::fabs(incl(*t, 0, QStringLiteral("main => init_mat"), QStringLiteral("Time")) - 1.5117e-05) <= 5e-10);
        QVERIFY(
            std::fabs(incl(*t, 0, QStringLiteral("main => zero_mat"), QStringLiteral("Time")) - 1.655e-06) <= 5e-10);
        QVERIFY(
            std::fabs(incl(*t, 0, QStringLiteral("main => mat_mul"), QStringLiteral("Time")) - 1.6161e-05) <= 5e-10);
        checkConsistency(*t);
        // Every run of the 3x3x3 grid reads.
        for (const char* x : { "1", "10", "25" })
            for (const char* y : { "1", "10", "25" })
                for (const char* z : { "1", "10", "25" }) {
                    const QString run
                        = dataPath(QStringLiteral("extrap/cubeset/multi_parameter/mm.x%1y%2z%3.r1/profile.cubex")
                                       .arg(QLatin1String(x), QLatin1String(y), QLatin1String(z)));
                    QVERIFY2(readCube(run).ok(), qPrintable(describe(readCube(run))));
                }
    }

    void extrapSimpleThreaded()
    {
        // 2 processes x 2 threads; every value scales linearly with f (MANIFEST C).
        for (int f : { 1, 5 }) {
            const auto t = mustRead(
                dataPath(QStringLiteral("extrap/cubeset/simple_threaded/example.f%1/cube-example%1.cubex").arg(f)));
            QVERIFY(t);
            const ThreadKey keys[] = { { 0, 0, 0 }, { 0, 0, 1 }, { 1, 0, 0 }, { 1, 0, 1 } };
            const double foo[] = { 5.0, 0, 4.9, 0 }, bar[] = { 4.2, 0, 4.1, 0 }, omp[] = { 3.5, 3.2, 3.4, 3.1 },
                         main[] = { 14.0, 3.2, 13.9, 3.1 };
            auto value = [&](ThreadKey k, const char* event, const char* metric, bool inclusive) {
                const double v = cell(*t, k, QLatin1String(event), QLatin1String(metric), inclusive);
                return v == Absent ? 0.0 : v;
            };
            for (int l = 0; l < 4; ++l) {
                QVERIFY(near(value(keys[l], "main => foo", "Time", true), f * foo[l]));
                QVERIFY(near(value(keys[l], "main => bar", "Time", true), f * bar[l]));
                QVERIFY(near(value(keys[l], "main => omp parallel", "Time", true), f * omp[l]));
                QVERIFY(near(value(keys[l], "main", "Time", true), f * main[l]));
                QCOMPARE(value(keys[l], "main => omp parallel", "Visits", true), 6.0 * f);
            }
            QCOMPARE(value(keys[0], "main => foo", "Visits", true), 8.0);
            QCOMPARE(value(keys[0], "main => bar", "Visits", true), 7.0 * f);
            QCOMPARE(value(keys[0], "main => zero", "Visits", true), 1.0);
        }
    }

    // ---- regressions found on the new samples --------------------------------------------------------

    void gzipAnchor()
    {
        // CubeW built with zlib gzips anchor.xml inside the tar (extrap/cubeset, Score-P 1.3).
        const QList<TarMember> original = readTar(readFile(cubelib("test0.0/test0.0.cubex")));
        const QByteArray anchorXml = member(original, QStringLiteral("anchor.xml"))->data;
        QTemporaryDir dir;
        QList<TarMember> zipped = original;
        member(zipped, QStringLiteral("anchor.xml"))->data = gzip(anchorXml);
        const QString path = dir.filePath(QStringLiteral("gz.cubex"));
        writeFile(path, makeTar(zipped));
        const auto plain = mustRead(cubelib("test0.0/test0.0.cubex"));
        const auto t = mustRead(path);
        QVERIFY(plain && t);
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE anchor.xml compression")), QStringLiteral("gzip"));
        QCOMPARE(metricNames(*t), metricNames(*plain));
        QCOMPARE(cnodeSum(*t, QStringLiteral("Time")), cnodeSum(*plain, QStringLiteral("Time")));
        // Two gzip members back to back are one stream (as gunzip reads them).
        const qsizetype half = anchorXml.size() / 2;
        member(zipped, QStringLiteral("anchor.xml"))->data = gzip(anchorXml.left(half)) + gzip(anchorXml.mid(half));
        writeFile(path, makeTar(zipped));
        QVERIFY2(readCube(path).ok(), qPrintable(describe(readCube(path))));
        // Corrupt, truncated and trailing bytes: errors that name the member and the compressed byte.
        QByteArray corrupt = gzip(anchorXml);
        for (qsizetype i = 20; i < 40; ++i)
            corrupt[i] = char(0xff);
        member(zipped, QStringLiteral("anchor.xml"))->data = corrupt;
        writeFile(path, makeTar(zipped));
        auto r = readCube(path);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("member 'anchor.xml', compressed byte "))
                && r.error().message.contains(QLatin1String("corrupt gzip data")),
            qPrintable(describe(r)));
        QVERIFY(r.error().byteOffset > 512);
        member(zipped, QStringLiteral("anchor.xml"))->data = gzip(anchorXml).left(60);
        writeFile(path, makeTar(zipped));
        r = readCube(path);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("the gzip stream ends early (truncated member")),
            qPrintable(describe(r)));
        // (Bytes after the end of the XML are not read, as in a plain anchor.xml; bytes between gzip
        // members, inside the document, are an error.)
        member(zipped, QStringLiteral("anchor.xml"))->data
            = gzip(anchorXml.left(half)) + "junk" + gzip(anchorXml.mid(half));
        writeFile(path, makeTar(zipped));
        r = readCube(path);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("data after the end of the gzip stream")),
            qPrintable(describe(r)));
    }

    void sniffTextAboutCube()
    {
        // A MANIFEST.md that quotes <cube version="4.4"> is no CUBE file (it used to sniff as one).
        QTemporaryDir dir;
        const QString md = dir.filePath(QStringLiteral("MANIFEST.md"));
        writeFile(md, "# notes\n\n| producer | `<cube version=\"4.4\">`; Cube 4.8.2 |\n");
        QCOMPARE(CubeReader().sniff(md), 0);
        QVERIFY(!ReaderRegistry::instance().detect(md)
            || ReaderRegistry::instance().detect(md)->name() != QLatin1String("cube"));
        QCOMPARE(CubeReader().sniff(dataPath(QStringLiteral("cube/pycubexr/MANIFEST.md"))), 0);
        // XML with a byte-order mark, or white space first, still is.
        const QString bom = dir.filePath(QStringLiteral("bom.xml"));
        writeFile(bom, "\xEF\xBB\xBF\n  <?xml version=\"1.0\"?>\n<cube version=\"3.0\"></cube>\n");
        QCOMPARE(CubeReader().sniff(bom), 100);
    }

    void registryLoad()
    {
        const auto r = load(scorep());
        QVERIFY2(r.ok(), qPrintable(describe(r)));
        QCOMPARE(r.value()->provenance().reader, QStringLiteral("cube"));
        QVERIFY(ReaderRegistry::instance().find(QStringLiteral("cube")));
    }
};

QTEST_GUILESS_MAIN(TestCubeReader)
#include "tst_cubereader.moc"
