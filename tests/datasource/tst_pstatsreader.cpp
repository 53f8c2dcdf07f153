// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The Python pstats reader against the facts in ../shared/data/hatchet/MANIFEST.md
// (cprofile-hatchet-pstats: 4 distinct files, 9 distinct names, total_tt 23.045403 s, top self
// `recursive` tottime 22.7388 s with ncalls 101202000 (1002000 primitive), `e` cumtime 23.0226 s),
// values read with Python's own marshal.load for the rest, and hand-made marshal bytes for the
// decoder's corners and for bad input (truncated, corrupted, wrong structure).
#include "datasource/readers/pstatsreader.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"

#include <QTemporaryDir>
#include <QtEndian>
#include <cmath>
#include <cstring>

using namespace parallax;
using namespace parallax::test;

namespace {

QString py3() { return dataPath(QStringLiteral("hatchet/cprofile-hatchet-pstats/cprofile-cycle.pstats")); }
QString py2() { return dataPath(QStringLiteral("hatchet/cprofile-hatchet-pstats/cprofile-cycle-py2.pstats")); }

TrialResult readPstats(const QString& path) { return readWith(PstatsReader(), path); }

std::shared_ptr<Trial> mustRead(const QString& path) { return mustReadWith(PstatsReader(), path); }

/// "excl", "incl", "calls" or "subrs" of an event on the one thread.
double value(const Trial& t, const QString& event, const char* what)
{
    return t.threadCount() != 1 ? Absent : fieldOf(t, ThreadIndex(0u), event, fieldNamed(what));
}

const QString Recursive = QStringLiteral("recursive [{pstats_reader_test.py} {27}]");
const QString FnE = QStringLiteral("e [{pstats_reader_test.py} {17}]");
const QString FnF = QStringLiteral("f [{pstats_reader_test.py} {21}]");
const QString FnG = QStringLiteral("g [{pstats_reader_test.py} {12}]");
const QString Disable = QStringLiteral("<method 'disable' of '_lsprof.Profiler' objects>");

/// Marshal bytes written by hand (Python 2 style unless said otherwise).
struct Marshal {
    QByteArray bytes;
    Marshal& raw(const QByteArray& b)
    {
        bytes += b;
        return *this;
    }
    Marshal& code(char c)
    {
        bytes += c;
        return *this;
    }
    Marshal& i32(qint32 v)
    {
        char b[4];
        qToLittleEndian(v, b);
        bytes += QByteArray(b, 4);
        return *this;
    }
    Marshal& integer(qint32 v) { return code('i').i32(v); }
    Marshal& real(double v)
    {
        char b[8];
        qToLittleEndian(v, b);
        code('g');
        bytes += QByteArray(b, 8);
        return *this;
    }
    Marshal& str(const QByteArray& s, char type = 's')
    {
        code(type).i32(static_cast<qint32>(s.size()));
        bytes += s;
        return *this;
    }
    Marshal& tuple(int n) { return code('(').i32(n); }
    Marshal& key(const QByteArray& file, int line, const QByteArray& func)
    {
        return tuple(3).str(file).integer(line).str(func);
    }
    /// One stats entry: key, then (cc, nc, tt, ct, callers...) with `callers` already encoded.
    Marshal& entry(
        const QByteArray& func, int line, int cc, int nc, double tt, double ct, const QByteArray& callers = "{0")
    {
        key("m.py", line, func).tuple(5).integer(cc).integer(nc).real(tt).real(ct);
        bytes += callers;
        return *this;
    }
};

QString writeTemp(QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    QString path = dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(bytes);
    return path;
}

/// Reads bytes that must fail; the error must name the file and a byte offset, and contain `part`.
void expectError(const QByteArray& bytes, const QString& part, qint64 offset = -2)
{
    QTemporaryDir dir;
    const QString path = writeTemp(dir, QStringLiteral("bad.pstats"), bytes);
    const auto result = readPstats(path);
    QVERIFY2(!result.ok(), "bad input must not read as a trial");
    const ReadError& e = result.error();
    QCOMPARE(e.file, path);
    QVERIFY2(e.byteOffset >= 0, qPrintable(e.toString()));
    QVERIFY2(e.message.contains(part), qPrintable(QStringLiteral("'%1' not in: %2").arg(part, e.toString())));
    if (offset != -2)
        QCOMPARE(e.byteOffset, offset);
}

} // namespace

class TestPstatsReader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void detectsTheSamples()
    {
        for (const QString& path : { py3(), py2() }) {
            QCOMPARE(PstatsReader().sniff(path), 100);
            const auto trial = mustLoad(path);
            QVERIFY(trial);
            QCOMPARE(trial->provenance().reader, QStringLiteral("pstats"));
        }
        // Text files, directories and other binaries are not pstats.
        QCOMPARE(PstatsReader().sniff(dataPath(QStringLiteral("hatchet/tau-cpi-mpi/profile.0.0.0"))), 0);
        QCOMPARE(PstatsReader().sniff(dataPath(QStringLiteral("hatchet/cprofile-hatchet-pstats"))), 0);
        QCOMPARE(PstatsReader().sniff(dataPath(QStringLiteral("tau2/ppk/ring-2rank.ppk"))), 0);
    }

    void python3Sample()
    {
        const auto t = mustRead(py3());
        QVERIFY(t);
        QCOMPARE(t->threadCount(), std::size_t(1));
        QCOMPARE(t->threadKey(ThreadIndex(0u)), (ThreadKey { 0, 0, 0 }));
        QCOMPARE(t->metricCount(), std::size_t(1));
        QCOMPARE(t->metric(MetricId(0u)).name, QStringLiteral("TIME"));
        QCOMPARE(t->metric(MetricId(0u)).unit, QStringLiteral("us"));
        // MANIFEST: 9 distinct names, 4 distinct files; every caller edge is a call path.
        QCOMPARE(countEvents(*t, false), std::size_t(9));
        QCOMPARE(countEvents(*t, true), std::size_t(9));
        QCOMPARE(t->atomicEventCount(), std::size_t(0));
        QCOMPARE(t->metadataValue(QStringLiteral("pstats functions")), QStringLiteral("9"));
        QCOMPARE(t->metadataValue(QStringLiteral("pstats files")), QStringLiteral("4"));
        QCOMPARE(t->metadataValue(QStringLiteral("pstats total time (s)")), QStringLiteral("23.045403"));
        QVERIFY(t->metadataValue(QStringLiteral("pstats marshal")).startsWith(QLatin1String("Python 3")));
        QVERIFY2(t->warnings().isEmpty(), qPrintable(t->warnings().join(QLatin1Char('\n'))));

        // MANIFEST: top self `recursive` 22.7388 s, ncalls 101202000 (1002000 primitive).
        QVERIFY(near(value(*t, Recursive, "excl"), 22738800.0));
        QVERIFY(near(value(*t, Recursive, "incl"), 22738800.0));
        QCOMPARE(value(*t, Recursive, "calls"), 101202000.0);
        QCOMPARE(t->metadataValue(QStringLiteral("pstats primitive calls: ") + Recursive), QStringLiteral("1002000"));
        QVERIFY(t->metadataValue(QStringLiteral("pstats primitive calls: ") + FnG).isNull()); // cc == nc
        double top = 0;
        QString topName;
        double sumExcl = 0;
        const RowView row = t->row(ThreadIndex(0u));
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (t->event(row.events[i]).isCallPath())
                continue;
            sumExcl += row.exclusive(0, i);
            if (row.exclusive(0, i) > top) {
                top = row.exclusive(0, i);
                topName = t->event(row.events[i]).name;
            }
        }
        QCOMPARE(topName, Recursive);
        QVERIFY(near(sumExcl, 23045403.0)); // total_tt
        // MANIFEST: `e` cumtime 23.0226 s; the names hatchet shows as `g pstats_reader_test.py` and
        // `<method 'disable' ...Profiler' objects> ~`.
        QVERIFY(near(value(*t, FnE, "incl"), 23022600.0));
        QVERIFY(near(value(*t, FnE, "excl"), 267.0));
        QCOMPARE(value(*t, FnG, "calls"), 1001.0);
        QVERIFY(near(value(*t, FnG, "excl"), 257369.0));
        QVERIFY(near(value(*t, Disable, "excl"), 1.0));
        QVERIFY(near(value(*t, QStringLiteral("<built-in method builtins.next>"), "incl"), 40.0));
        QVERIFY(
            t->findEvent(QStringLiteral("__exit__ [{/usr/tce/packages/python/python-3.7.2/lib/python3.7/contextlib.py} "
                                        "{116}]"))
                .isValid());
        // subrs = calls made to profiled functions (from the callers dicts).
        QCOMPARE(value(*t, FnE, "subrs"), 1000.0);
        QCOMPARE(value(*t, FnF, "subrs"), 2000.0);
        QCOMPARE(value(*t, FnG, "subrs"), 1001000.0);
        QCOMPARE(value(*t, Recursive, "subrs"), 100200000.0);

        // Caller edges with their own values; the tuple there is (nc, cc, tt, ct).
        const QString gToRecursive = FnG + QStringLiteral(" => ") + Recursive;
        QCOMPARE(value(*t, gToRecursive, "calls"), 1001000.0);
        QVERIFY(near(value(*t, gToRecursive, "excl"), 237756.0));
        QVERIFY(near(value(*t, gToRecursive, "incl"), 22716062.0));
        const QString self = Recursive + QStringLiteral(" => ") + Recursive;
        QCOMPARE(value(*t, self, "calls"), 100200000.0);
        QVERIFY(near(value(*t, self, "excl"), 22500777.0));
        const QString eToF = FnE + QStringLiteral(" => ") + FnF;
        QVERIFY(near(value(*t, eToF, "incl"), 23022333.0));
        QCOMPARE(value(*t, eToF, "calls"), 1000.0);
        const EventId edge = t->findEvent(self);
        QVERIFY(edge.isValid());
        QCOMPARE(t->event(edge).parent, t->findEvent(Recursive));
        QCOMPARE(t->event(edge).leaf, t->findEvent(Recursive));
        QVERIFY(t->eventInGroup(edge, QStringLiteral("TAU_CALLPATH")));
        // The excl of the edges into a function add up to its excl (tt is split by caller).
        QVERIFY(near(value(*t, gToRecursive, "excl") + value(*t, self, "excl")
                + value(*t, FnF + QStringLiteral(" => ") + Recursive, "excl"),
            value(*t, Recursive, "excl")));
    }

    void python2Sample()
    {
        const auto t = mustRead(py2());
        QVERIFY(t);
        QCOMPARE(countEvents(*t, false), std::size_t(9));
        QCOMPARE(countEvents(*t, true), std::size_t(11));
        QCOMPARE(t->metadataValue(QStringLiteral("pstats files")), QStringLiteral("4"));
        QCOMPARE(t->metadataValue(QStringLiteral("pstats total time (s)")), QStringLiteral("2.361709"));
        QVERIFY(t->metadataValue(QStringLiteral("pstats marshal")).startsWith(QLatin1String("Python 2")));
        QVERIFY(near(value(*t, Recursive, "excl"), 2297906.0));
        QCOMPARE(value(*t, Recursive, "calls"), 10211100.0);
        QCOMPARE(t->metadataValue(QStringLiteral("pstats primitive calls: ") + Recursive), QStringLiteral("101100"));
        QCOMPARE(value(*t, QStringLiteral("<range>"), "calls"), 2002.0);
        QVERIFY(near(value(*t, FnE + QStringLiteral(" => <range>"), "excl"), 13.0));
        QVERIFY(near(value(*t, FnE, "incl"), 2359559.0));
        QCOMPARE(value(*t, Disable, "excl"), 0.0); // present, and 0
        QVERIFY(t->warnings().isEmpty());
    }

    void decoderCorners()
    {
        // Python 3 types: FLAG_REF, short ASCII strings, 'r' references, small tuples, text floats,
        // longs and unicode; a profile-module caller given as a bare count.
        QByteArray b;
        b += char('{' | 0x80); // ref 0: the dict
        b += char(')' | 0x80) + QByteArray(1, 3); // ref 1: key tuple
        b += char('z' | 0x80) + QByteArray(1, 4) + "a.py"; // ref 2: "a.py"
        b += char('i') + QByteArray("\x05\x00\x00\x00", 4);
        b += char('u') + QByteArray("\x05\x00\x00\x00", 4) + "caf\xc3\xa9"; // "café"
        b += char(')') + QByteArray(1, 5);
        b += char('i') + QByteArray("\x03\x00\x00\x00", 4); // primitive calls
        b += char('l') + QByteArray("\x02\x00\x00\x00", 4) + QByteArray("\x00\x00\x01\x00", 4); // 32768 calls
        b += char('f') + QByteArray(1, 3) + "0.5"; // tottime 0.5 s
        b += char('f') + QByteArray(1, 4) + "1e-6"; // cumtime 1 us
        b += char('{');
        b += char(')') + QByteArray(1, 3) + char('r') + QByteArray("\x02\x00\x00\x00", 4) + char('i')
            + QByteArray("\x09\x00\x00\x00", 4) + char('Z') + QByteArray(1, 4) + "main";
        b += char('i') + QByteArray("\x03\x00\x00\x00", 4); // a bare call count
        b += '0';
        b += '0';
        QTemporaryDir dir;
        const auto t = mustRead(writeTemp(dir, QStringLiteral("corners.pstats"), b));
        QVERIFY(t);
        const QString cafe = QStringLiteral("caf\u00e9 [{a.py} {5}]");
        QCOMPARE(value(*t, cafe, "calls"), 32768.0);
        QVERIFY(near(value(*t, cafe, "excl"), 500000.0));
        QVERIFY(near(value(*t, cafe, "incl"), 1.0));
        QCOMPARE(t->metadataValue(QStringLiteral("pstats primitive calls: ") + cafe), QStringLiteral("3"));
        const QString edge = QStringLiteral("main [{a.py} {9}] => ") + cafe;
        QCOMPARE(value(*t, edge, "calls"), 3.0);
        QCOMPARE(value(*t, edge, "excl"), 0.0);
        QVERIFY(hasWarning(*t, QStringLiteral("call count only")));
        QVERIFY(hasWarning(*t, QStringLiteral("no stats entry"))); // main has no entry of its own
        QVERIFY(t->metadataValue(QStringLiteral("pstats marshal")).startsWith(QLatin1String("Python 3")));
    }

    void python2StringReferences()
    {
        // 't' interns a string, 'R' refers to it by its index.
        Marshal m;
        m.code('{').tuple(3).str("x.py", 't').integer(1).str("f", 't');
        m.tuple(5).integer(1).integer(1).real(0.25).real(0.5);
        m.code('{').tuple(3).code('R').i32(0).integer(7).str("g", 't');
        m.tuple(4).integer(2).integer(2).real(0.25).real(0.5).code('0');
        m.code('0');
        QTemporaryDir dir;
        const auto t = mustRead(writeTemp(dir, QStringLiteral("refs.pstats"), m.bytes));
        QVERIFY(t);
        QVERIFY(near(value(*t, QStringLiteral("g [{x.py} {7}] => f [{x.py} {1}]"), "incl"), 500000.0));
        QCOMPARE(value(*t, QStringLiteral("g [{x.py} {7}] => f [{x.py} {1}]"), "calls"), 2.0);
    }

    void emptyDictAndTrailingBytes()
    {
        QTemporaryDir dir;
        const auto empty = mustRead(writeTemp(dir, QStringLiteral("empty.pstats"), QByteArray("{0")));
        QVERIFY(empty);
        QCOMPARE(empty->eventCount(), std::size_t(0));
        QCOMPARE(empty->threadCount(), std::size_t(1));
        QVERIFY(hasWarning(*empty, QStringLiteral("empty")));
        QFile f(py3());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray sample = f.readAll();
        const auto trailing = mustRead(writeTemp(dir, QStringLiteral("trailing.pstats"), sample + "junk"));
        QVERIFY(trailing);
        QVERIFY(hasWarning(*trailing, QStringLiteral("4 bytes after the stats dict (from byte 1065)")));
    }

    void truncatedEverywhere()
    {
        // Every proper prefix of both samples fails with an offset inside the file, never a crash.
        for (const QString& path : { py3(), py2() }) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray sample = f.readAll();
            QTemporaryDir dir;
            const qsizetype step = path == py3() ? 1 : 7;
            for (qsizetype n = 1; n < sample.size(); n += step) {
                const QString cut = writeTemp(dir, QStringLiteral("cut.pstats"), sample.left(n));
                const auto result = readPstats(cut);
                QVERIFY2(!result.ok(), qPrintable(QStringLiteral("prefix of %1 bytes read").arg(n)));
                QCOMPARE(result.error().file, cut);
                QVERIFY(result.error().byteOffset >= 0 && result.error().byteOffset <= n);
                QVERIFY(!result.error().message.isEmpty());
            }
        }
        QFile f(py3());
        QVERIFY(f.open(QIODevice::ReadOnly));
        // Byte 0x2e starts tottime of `g` ('g' + 8 bytes).
        expectError(
            f.readAll().left(50), QStringLiteral("the data ends at byte 50 while reading a binary float"), 0x2f);
    }

    void corruptedBytes()
    {
        QFile f(py3());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray sample = f.readAll();
        // Byte 0x1a is the type code of the first key's line number ('i' | FLAG_REF = 0xe9).
        QCOMPARE(static_cast<unsigned char>(sample[0x1a]), 0xe9);
        QByteArray bad = sample;
        bad[0x1a] = '\x01';
        expectError(bad, QStringLiteral("unknown or unsupported marshal type code 0x01"), 0x1a);
        // A back-reference beyond the objects read so far (byte 0x43: 'r' 1 -> 'r' 200).
        QCOMPARE(sample[0x43], 'r');
        bad = sample;
        bad[0x44] = char(200);
        expectError(bad, QStringLiteral("reference 200"), 0x43);
        // Every single-byte corruption of the sample reads or fails cleanly.
        QTemporaryDir dir;
        for (qsizetype i = 0; i < sample.size(); ++i) {
            for (unsigned char x : { 0xff, 0x00 }) {
                if (x == 0x00 && i % 3 != 0)
                    continue;
                bad = sample;
                bad[i] = static_cast<char>(x);
                const QString path = writeTemp(dir, QStringLiteral("flip.pstats"), bad);
                const auto result = readPstats(path);
                if (!result.ok())
                    QCOMPARE(result.error().file, path);
            }
        }
    }

    void wrongStructure()
    {
        expectError(Marshal().integer(5).bytes, QStringLiteral("expected a marshal dict"), 0);
        expectError(Marshal().code('{').integer(1).integer(2).code('0').bytes,
            QStringLiteral("expected a (file, line, function name) tuple as a stats key, found the int 1"), 1);
        // A stats value with 4 fields instead of 5.
        Marshal four;
        four.code('{').key("m.py", 1, "f").tuple(4).integer(1).integer(1).real(0).real(0).code('0');
        expectError(
            four.bytes, QStringLiteral("(primitive calls, calls, tottime, cumtime, callers dict) tuple of 'f'"));
        // A caller value that is a string.
        Marshal caller;
        caller.code('{').key("m.py", 1, "f").tuple(5).integer(1).integer(1).real(0).real(0);
        caller.code('{').key("m.py", 2, "g").str("oops").code('0').code('0');
        expectError(caller.bytes, QStringLiteral("of the caller 'g' of 'f [{m.py} {1}]', found the string 'oops'"));
        // Counts larger than the file.
        expectError(Marshal().code('{').tuple(1000000).bytes, QStringLiteral("container of 1000000 items"), 1);
        expectError(Marshal().code('{').code('s').i32(-1).bytes, QStringLiteral("string of -1 bytes"), 1);
        expectError(Marshal().code('{').code('l').i32(1 << 30).bytes, QStringLiteral("long of 1073741824 digits"), 1);
        // Deep nesting is refused, not recursed into.
        QByteArray deep("{");
        for (int i = 0; i < 5000; ++i)
            deep += QByteArray(")\x01", 2);
        expectError(deep, QStringLiteral("nested deeper than 100"));
        // A reference to the dict being read.
        QByteArray self;
        self += char('{' | 0x80);
        self += 'r';
        self += QByteArray("\x00\x00\x00\x00", 4);
        expectError(self, QStringLiteral("still being read"), 1);
        // A text float that is not a number.
        expectError(
            Marshal().code('{').key("m.py", 1, "f").tuple(5).integer(1).integer(1).code('f').raw("\x03x.5").bytes,
            QStringLiteral("'x.5' is not a float"));
        // Not marshal at all.
        expectError(QByteArray("Flat profile:\n"), QStringLiteral("expected a marshal dict"), 0);
        expectError(QByteArray(), QStringLiteral("empty file"), 0);
    }

    void oddValuesAreWarnings()
    {
        Marshal m;
        m.code('{').entry("f", 1, 1, 1, std::nan(""), 1.0).entry("g", 2, 1, 1, -0.5, 1.0);
        m.key("m.py", 3, "a=>b").tuple(5).integer(1).integer(1).real(0.1).real(0.1).raw("{0");
        m.code('0');
        QTemporaryDir dir;
        const auto t = mustRead(writeTemp(dir, QStringLiteral("odd.pstats"), m.bytes));
        QVERIFY(t);
        QVERIFY(hasWarning(*t, QStringLiteral("1 values were not finite")));
        QVERIFY(hasWarning(*t, QStringLiteral("1 values are negative")));
        QVERIFY(hasWarning(*t, QStringLiteral("contain '=>'")));
        QCOMPARE(value(*t, QStringLiteral("f [{m.py} {1}]"), "excl"), 0.0);
        QVERIFY(near(value(*t, QStringLiteral("g [{m.py} {2}]"), "excl"), -500000.0));
        QVERIFY(t->findEvent(QStringLiteral("a= >b [{m.py} {3}]")).isValid());
        for (const auto& e : t->events())
            QVERIFY(!e.isCallPath());
    }
};

QTEST_GUILESS_MAIN(TestPstatsReader)
#include "tst_pstatsreader.moc"
