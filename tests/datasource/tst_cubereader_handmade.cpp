// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE reader on hand-made archives and XML (docs/FORMATS.md 5): the samples' members reordered,
// recompressed or byte-swapped, unusual but valid CUBE 3 and 4 input, and bad input: truncated
// archives, corrupt .index and .data members, broken anchor.xml and CUBE 3 XML. Every error names the
// file and where, and says what was expected.
#include "tests/datasource/cubetestutil.h"

#include <QTemporaryDir>
#include <QtEndian>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

using namespace parallax;
using namespace parallax::test;

namespace {

QByteArray zlibCompress(const QByteArray& data)
{
    uLongf size = compressBound(static_cast<uLong>(data.size()));
    QByteArray out(static_cast<qsizetype>(size), '\0');
    compress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(data.constData()),
        static_cast<uLong>(data.size()));
    out.resize(static_cast<qsizetype>(size));
    return out;
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

} // namespace

class TestCubeReaderHandmade : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ---- the samples' members in another order ------------------------------------------------------

    void bothArchiveOrders()
    {
        // anchor.xml first and every .index before its .data: one pass. Same trial as the original
        // (anchor last, .data before .index: two passes).
        QList<TarMember> members = readTar(fileBytes(scorep()));
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
            const qsizetype pad = qsizetype { 256 } * 1024 - at - 2 + shift;
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
        writeFile(anchor, readTar(fileBytes(scorep())).last().data);
        const auto a = mustRead(anchor);
        QVERIFY(a);
        QCOMPARE(a->cellCount(), std::size_t(0));
        QVERIFY(hasWarning(*a, QStringLiteral("outside a .cubex")));
    }

    void cubexVariants()
    {
        QTemporaryDir dir;
        const QList<TarMember> original = readTar(fileBytes(cubelib("test0.0/test0.0.cubex")));
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
        QByteArray rows(qsizetype { 3 } * 2 * 8, '\0');
        qToLittleEndian<qint64>(323, rows.data() + (qsizetype { 1 } * 2 + 1) * 8);
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
        QByteArray values(qsizetype { 2 } * 4, '\0');
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
        QByteArray pairs(qsizetype { 2 } * 16, '\0');
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
        const QByteArray full = fileBytes(scorep());
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
        const QList<TarMember> original = readTar(fileBytes(cubelib("test0.0/test0.0.cubex")));
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
        const QList<TarMember> original = readTar(fileBytes(cubelib("test0.0/test0.0.cubex")));
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

    // ---- regressions found on the new samples --------------------------------------------------------

    void gzipAnchor()
    {
        // CubeW built with zlib gzips anchor.xml inside the tar (extrap/cubeset, Score-P 1.3).
        const QList<TarMember> original = readTar(fileBytes(cubelib("test0.0/test0.0.cubex")));
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

    void badTopologyCoordinates()
    {
        // pycubexr's time.p4 cart (docs/FORMATS.md 5): bad <coord>s are skipped with a warning naming the
        // line; a dim without a positive size is an error.
        QTemporaryDir dir;
        const QString source = dataPath(QStringLiteral("cube/pycubexr/time.p4.n2000.x1.r0/profile.cubex"));
        const QList<TarMember> original = readTar(fileBytes(source));
        const QByteArray anchor = member(original, QStringLiteral("anchor.xml"))->data;
        auto write = [&](const QList<std::pair<QByteArray, QByteArray>>& edits) {
            QList<TarMember> m = original;
            QByteArray& a = member(m, QStringLiteral("anchor.xml"))->data;
            for (const auto& [from, to] : edits) {
                const qsizetype at = a.indexOf(from);
                if (at >= 0)
                    a.replace(at, from.size(), to);
            }
            QString path = dir.filePath(QStringLiteral("cart.cubex"));
            writeFile(path, makeTar(m));
            return path;
        };
        const QByteArray wrongCount = "<coord locId=\"2\">2 0</coord>";
        QVERIFY(anchor.contains(wrongCount));
        const qint64 line = anchor.left(anchor.indexOf(wrongCount)).count('\n') + 1;
        const auto t = mustRead(write({ { wrongCount, "<coord locId=\"2\">2</coord>" },
            { "<coord locId=\"3\">3 0</coord>", "<coord locId=\"3\">3 7</coord><coord locId=\"99\">0 0</coord>" } }));
        QVERIFY(t);
        QVERIFY2(hasWarning(*t,
                     QStringLiteral("3 topology coordinate(s) ignored; the first: line %1: <coord> '2' of topology "
                                    "'Process x Thread': expected 2 coordinates")
                         .arg(line)),
            qPrintable(t->warnings().join(QLatin1Char('\n'))));
        QCOMPARE(t->metadataValue(QStringLiteral("CUBE coordinates 0"), t->findThread(ThreadKey { 1, 0, 0 })),
            QStringLiteral("1 0"));
        QVERIFY(t->metadataValue(QStringLiteral("CUBE coordinates 0"), t->findThread(ThreadKey { 2, 0, 0 })).isNull());
        QVERIFY(t->metadataValue(QStringLiteral("CUBE coordinates 0"), t->findThread(ThreadKey { 3, 0, 0 })).isNull());
        const auto r = readCube(write({ { "<dim name=\"Process\" size=\"4\"", "<dim name=\"Process\" size=\"0\"" } }));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QLatin1String("<dim size=\"0\">: expected a positive size")),
            qPrintable(describe(r)));
    }
};

QTEST_GUILESS_MAIN(TestCubeReaderHandmade)
#include "tst_cubereader_handmade.moc"
