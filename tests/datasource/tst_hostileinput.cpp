// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Hostile input (issue 18 §7, docs/FORMATS.md 11): a gigabyte of random bytes, counts that announce
// billions of records, deeply nested XML and JSON. Each is refused by `parallax-cli info` with an
// error naming the file and the line or byte, in bounded memory: the child's peak resident memory is
// printed and must stay under 200 MB (an upper bound, which counts this test's own memory at the fork,
// printed beside it: tests/common/measuredrun.h). OTF2 definitions that claim a 2^31-byte string,
// 2^31 group members or 2^40 ID map entries are refused the same way. Time is not asserted; a 60 s
// timeout only catches a hang.
#include "datasource/readers/readerregistry.h"
#include "tests/common/measuredrun.h"
#include "tests/common/ppkbytes.h"
#include "tests/common/testutil.h"

#include <QDir>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

using namespace parallax;
using namespace parallax::test;

namespace {

constexpr double MaxPeakRssMb = 200;

/// Runs `parallax-cli info ARGS` on hostile input: it must fail (exit 1, no crash, no hang) within
/// the memory bound, and its message must name the file and contain every one of `parts`.
void expectRefused(const QStringList& args, const QString& file, const QStringList& parts)
{
    const MeasuredRun run = runCliMeasured(QStringList { QStringLiteral("info") } + args);
    const QString err = QString::fromUtf8(run.err).trimmed();
    qInfo("%-40s exit %d, peak RSS %.1f MB (this test %.1f MB), %.2f s: %s", qPrintable(args.join(u' ').right(40)),
        run.exitCode, run.peakRssMb, run.parentRssMb, run.seconds, qPrintable(err.left(160)));
    QVERIFY2(!run.timedOut, "parallax-cli did not finish within 60 s");
    QVERIFY2(run.signal == 0, qPrintable(QStringLiteral("parallax-cli died of signal %1").arg(run.signal)));
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.peakRssMb < MaxPeakRssMb, qPrintable(QStringLiteral("peak RSS %1 MB").arg(run.peakRssMb)));
    QVERIFY2(err.startsWith(QStringLiteral("parallax-cli: ") + file), qPrintable(err));
    for (const QString& part : parts)
        QVERIFY2(err.contains(part), qPrintable(QStringLiteral("'%1' not in: %2").arg(part, err)));
}

/// `bytes` of xorshift64* output, written in 1 MiB pieces (never held at once).
bool writeRandom(const QString& path, qint64 bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    std::vector<std::uint64_t> block(std::size_t { 1 } << 17);
    for (qint64 written = 0; written < bytes;) {
        for (std::uint64_t& word : block) {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            word = state * 0x2545F4914F6CDD1Dull;
        }
        const qint64 n = std::min<qint64>(bytes - written, static_cast<qint64>(block.size() * sizeof(std::uint64_t)));
        if (file.write(reinterpret_cast<const char*>(block.data()), n) != n)
            return false;
        written += n;
    }
    return true;
}

/// The magic, version 1 and an empty header block of a packed profile: the metrics come next.
Bytes ppkVersion1()
{
    Bytes b;
    b.magic().i32(1).i32(1).i32(0);
    return b;
}

/// A copy of the OTF2 sample PARALLAX_DATA_DIR/otf2/pipit/ping-pong-otf2 (anchor, definitions and
/// events) in `dir`; the path of its anchor file.
QString copyOtf2Sample(const QString& dir)
{
    const QString sample = dataPath(QStringLiteral("otf2/pipit/ping-pong-otf2/"));
    QDir(dir).mkpath(QStringLiteral("traces"));
    for (const char* name :
        { "traces.otf2", "traces.def", "traces/0.def", "traces/0.evt", "traces/1.def", "traces/1.evt" }) {
        const QString to = dir + QLatin1Char('/') + QLatin1String(name);
        if (!QFile::copy(sample + QLatin1String(name), to)
            || !QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner))
            return {};
    }
    return dir + QStringLiteral("/traces.otf2");
}

/// OTF2 compressed unsigned integers (little endian): a byte count, then the bytes.
QByteArray otf2Compressed(std::uint64_t value)
{
    QByteArray bytes;
    for (; value > 0; value >>= 8)
        bytes += static_cast<char>(value & 0xff);
    return static_cast<char>(bytes.size()) + bytes;
}

QByteArray repeated(const char* piece, int times)
{
    QByteArray out;
    out.reserve(static_cast<qsizetype>(std::strlen(piece)) * times);
    for (int i = 0; i < times; ++i)
        out += piece;
    return out;
}

} // namespace

class TestHostileInput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void randomGigabyte()
    {
        // Named as a TAU profile, so that the TAU reader takes its directory; every reader is made
        // to read it too (--format), as a user may ask.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("profile.0.0.0"));
        QVERIFY(writeRandom(file, qint64 { 1 } << 30));
        expectRefused({ dir.path() }, file, { QStringLiteral("(byte "), QStringLiteral("binary data") });
        const QString unnamed = dir.filePath(QStringLiteral("random.bin"));
        QVERIFY(QFile::link(file, unnamed));
        expectRefused({ unnamed }, unnamed, { QStringLiteral("no reader recognises") });
        for (const Reader* reader : ReaderRegistry::instance().readers())
            expectRefused({ QStringLiteral("--format"), reader->name(), file }, file, {});
    }

    void tauAnnouncesBillions()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("profile.0.0.0"));
        const QByteArray header = "# Name Calls Subrs Excl Incl ProfileCalls #\n";
        const QByteArray main = "\"main\" 1 0 10 10 0 GROUP=\"TAU_DEFAULT\"\n";
        writeText(file, "1000000000 templated_functions_MULTI_TIME\n" + header + main);
        expectRefused(
            { dir.path() }, file, { QStringLiteral(":4:"), QStringLiteral("1 of the 1000000000 event lines") });
        writeText(file,
            "1 templated_functions_MULTI_TIME\n" + header + main
                + "0 aggregates\n1000000000 userevents\n# eventname numevents max min mean sumsqr\n");
        expectRefused(
            { dir.path() }, file, { QStringLiteral(":7:"), QStringLiteral("0 of the 1000000000 user event lines") });
        writeText(file,
            "1 templated_functions_MULTI_TIME\n" + header
                + "\"main\" 1 0 10 10 1000000000000 GROUP=\"TAU_DEFAULT\"\n0 aggregates\n");
        expectRefused({ dir.path() }, file, { QStringLiteral("per-call lines") });
    }

    void ppkClaimsHugeArrays()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("claims.ppk"));
        constexpr std::int32_t Huge = 0x7fffffff; // 2^31 - 1, the largest i32 count
        // The function list, the records of a thread, the trial metadata of a version 2 header.
        writeText(file, ppkVersion1().i32(1).str("TIME").i32(0).i32(Huge).str("main()").i32(0).data);
        expectRefused({ file }, file, { QStringLiteral("(byte 48)"), QStringLiteral("function name 2 of 2147483647") });
        writeText(file,
            ppkVersion1()
                .i32(1)
                .str("TIME")
                .i32(0)
                .i32(1)
                .str("main()")
                .i32(0)
                .i32(0)
                .i32(1)
                .i32(0)
                .i32(0)
                .i32(0)
                .i32(Huge)
                .i32(0)
                .f64(1)
                .f64(0)
                .f64(10)
                .f64(10)
                .data);
        expectRefused(
            { file }, file, { QStringLiteral("(byte 108)"), QStringLiteral("function profile 2 of 2147483647") });
        writeText(file, Bytes().magic().i32(2).i32(1).i32(Huge).i32(0).i32(Huge).str("key").str("value").data);
        expectRefused(
            { file }, file, { QStringLiteral("(byte 38)"), QStringLiteral("trial metadata key 2 of 2147483647") });
        // One more is 2^31, which an i32 holds only as a negative number.
        writeText(file, ppkVersion1().i32(1).str("TIME").i32(0).i32(std::numeric_limits<std::int32_t>::min()).data);
        expectRefused({ file }, file, { QStringLiteral("(byte 32)"), QStringLiteral("negative (-2147483648)") });
    }

    void otf2DefinitionsClaimHugeSizes()
    {
        // libotf2 allocates what a definition record claims before it checks the claim; the reader
        // checks the records first (docs/FORMATS.md, OTF2). Each file keeps the sample's 18-byte
        // chunk header (record 3, little endian, two event numbers), so the first record is byte 18.
        QTemporaryDir dir;
        const QString anchor = copyOtf2Sample(dir.path());
        QVERIFY(!anchor.isEmpty());
        const QString global = dir.filePath(QStringLiteral("traces.def"));
        QFile sample(global);
        QVERIFY(sample.open(QIODevice::ReadOnly));
        const QByteArray header = sample.read(18);
        sample.close();
        const QByteArray endOfFile("\x02\x01", 2);
        // A string record (type 10) of 2^31 bytes: the length byte 0xff, then 8 bytes.
        QByteArray length8(8, '\0');
        length8[3] = static_cast<char>(0x80);
        QByteArray def = header + '\x0a' + '\xff' + length8 + otf2Compressed(1) + "main" + '\0' + endOfFile;
        writeText(global, def);
        expectRefused({ anchor }, global,
            { QStringLiteral("(byte 18)"),
                QStringLiteral("a string of 2147483648 bytes in a file of %1 bytes").arg(def.size()) });
        // A group (type 18) of 2^31 members, of which the record holds two.
        const QByteArray group = otf2Compressed(0) + otf2Compressed(0) + '\x02'
            + otf2Compressed(std::uint64_t { 1 } << 31) + otf2Compressed(0) + otf2Compressed(1);
        def = header + '\x12' + static_cast<char>(group.size()) + group + endOfFile;
        writeText(global, def);
        expectRefused({ anchor }, global,
            { QStringLiteral("(byte 23)"),
                QStringLiteral("a group of 2147483648 entries in a record of %1 bytes").arg(group.size()) });
        // A location's mapping table (type 5) whose ID map claims 2^40 entries.
        QVERIFY(QFile::remove(global));
        QVERIFY(QFile::copy(dataPath(QStringLiteral("otf2/pipit/ping-pong-otf2/traces.def")), global));
        const QString local = dir.filePath(QStringLiteral("traces/0.def"));
        const QByteArray table = QByteArray(1, '\0') + otf2Compressed(std::uint64_t { 1 } << 40) + '\x01'
            + otf2Compressed(1) + otf2Compressed(2);
        writeText(local, header + '\x05' + static_cast<char>(table.size()) + table + endOfFile);
        expectRefused({ anchor }, local,
            { QStringLiteral("(byte 21)"),
                QStringLiteral("an ID map of 1099511627776 entries in a record of %1 bytes").arg(table.size()) });
    }

    void deeplyNestedXml()
    {
        QTemporaryDir dir;
        const QByteArray xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
        // CUBE: a million nested unknown elements, and a call tree 100,000 levels deep.
        const QString cube = dir.filePath(QStringLiteral("deep.cube"));
        writeText(cube, xml + "<cube version=\"3.0\">\n" + repeated("<x>", 1000000) + repeated("</x>", 1000000));
        expectRefused({ cube }, cube, { QStringLiteral(":3:"), QStringLiteral("nested more than 1000 elements") });
        writeText(cube,
            xml
                + "<cube version=\"3.0\"><metrics><metric id=\"0\"><uniq_name>time</uniq_name><dtype>FLOAT</dtype>"
                  "<uom>sec</uom></metric></metrics><program><region id=\"0\" mod=\"m\" begin=\"1\" end=\"2\">"
                  "<name>f</name></region>\n"
                + repeated("<cnode id=\"0\" calleeId=\"0\">", 100000) + repeated("</cnode>", 100000));
        expectRefused({ cube }, cube, { QStringLiteral(":3:"), QStringLiteral("<cnode> is nested more than 1000") });
        // HPCToolkit: call frames 100,000 deep.
        const QString database = dir.filePath(QStringLiteral("hpctoolkit-database"));
        const QString experiment = database + QStringLiteral("/experiment.xml");
        QByteArray frames;
        for (int i = 0; i < 50000; ++i)
            frames
                += QStringLiteral("<PF i=\"%1\" s=\"3\" l=\"0\" lm=\"4\" f=\"5\" n=\"3\"><C i=\"%2\" s=\"7\" l=\"0\">")
                       .arg(2 * i + 2)
                       .arg(2 * i + 3)
                       .toLatin1();
        writeText(experiment,
            xml + "<HPCToolkitExperiment version=\"2.0\"><SecCallPathProfile i=\"0\" n=\"x\"><SecCallPathProfileData>\n"
                + frames);
        expectRefused({ QStringLiteral("--format"), QStringLiteral("hpctoolkit"), database }, experiment,
            { QStringLiteral(":3:"), QStringLiteral("nested more than 2000 elements") });
        // A TAU snapshot: a million nested elements.
        const QString snapshot = dir.filePath(QStringLiteral("snapshot.0.0.0"));
        writeText(snapshot, xml + "<profile_xml>\n" + repeated("<x>", 1000000) + repeated("</x>", 1000000));
        expectRefused({ snapshot }, snapshot, { QStringLiteral(":3:"), QStringLiteral("nested more than 1000") });
    }

    void deeplyNestedTauMetadata()
    {
        // A TAU profile's metadata block nested 100,000 deep: the profile is read, and the block is
        // given up with a warning that names the file, the line and the byte (TAU's own reader skips
        // a bad block too; the values do not depend on it).
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("profile.0.0.0"));
        writeText(file,
            "1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls # <metadata>"
                + repeated("<attribute>", 100000) + "</metadata>\n\"main\" 1 0 10 10 0 GROUP=\"TAU_DEFAULT\"\n"
                + "0 aggregates\n");
        const MeasuredRun run = runCliMeasured({ QStringLiteral("info"), dir.path() });
        qInfo("TAU metadata 100,000 deep: exit %d, peak RSS %.1f MB (this test %.1f MB)", run.exitCode, run.peakRssMb,
            run.parentRssMb);
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.peakRssMb < MaxPeakRssMb);
        const QString out = QString::fromUtf8(run.out);
        QVERIFY2(out.contains(file + QStringLiteral(":2: metadata block is malformed at byte ")), qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("nested deeper than 64 levels")), qPrintable(out));
    }

    void deeplyNestedJson()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("deep.json"));
        const QByteArray arrays = repeated("[", 1000000) + repeated("]", 1000000);
        // The readers that parse with QJsonDocument, which stops at 1024 levels.
        writeText(file, arrays);
        for (const char* format : { "hatchet-json", "timemory", "pyinstrument" })
            expectRefused({ QStringLiteral("--format"), QString::fromLatin1(format), file }, file,
                { QStringLiteral(":1:"), QStringLiteral("too deeply nested") });
        // Caliper's json-split parser (256 levels) and the Parallax JSON trial (a fixed schema).
        writeText(file, "{\"data\": " + arrays + "}");
        expectRefused({ QStringLiteral("--format"), QStringLiteral("caliper-json"), file }, file,
            { QStringLiteral(":1:"), QStringLiteral("nested more than 256 deep") });
        writeText(file, "{\"format\": \"parallax-trial\", \"version\": 1, \"metadata\": {\"a\": " + arrays + "}}");
        expectRefused({ file }, file, { QStringLiteral("(byte 61)"), QStringLiteral("expected '\"' (a string)") });
    }
};

QTEST_GUILESS_MAIN(TestHostileInput)
#include "tst_hostileinput.moc"
