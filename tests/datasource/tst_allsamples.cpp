// Every profile in ../shared/data opens: the registry detects a reader for it (a directory such as a
// TAU profile directory or an HPCToolkit database is one sample, a file another) and that reader
// reads it without an error.
//
// Files that are not profiles are skipped by rule (notAProfile: documentation, licences and provenance
// records, measurement or viewer configuration, source code, and the expected-value dumps a folder's
// MANIFEST.md describes as such). Samples of formats no reader takes yet are listed in `pending`, each
// with the issue that adds its reader; the list may only shrink: a listed sample that becomes readable
// fails the test (take it off the list), and so does any other sample that does not read.
#include "datasource/readers/readerregistry.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QTest>

#include <algorithm>

using namespace parallax;

namespace {

// The issue numbers are those of the issue texts (issue 12 "0."); the tracker numbers them 4 higher.
const char* const Otf2 = "OTF2 traces: the OTF2 reader of issue 15 (tracker #19, \"profiles cut from OTF2 traces\")";
const char* const ExtraP = "Extra-P input: the Extra-P readers of issue 13 (tracker #17, \"scaling and parameter models\")";
const char* const NoIssue = "no issue adds a reader for this format yet";

struct Pending {
    const char* path; // relative to the data folder; a directory stands for everything in it
    const char* why;
};

/// Samples no reader takes yet. Remove an entry when its reader lands (the test then says so).
const Pending pending[] = {
    { "otf2/fastotf2/simple-mi300-example-run", Otf2 },
    { "otf2/otf2-integrity-test/OTF2_Integrity_trace_1", Otf2 },
    { "otf2/pipit/ping-pong-otf2", Otf2 },
    { "otf2/pipit/ping-pong-otf2-papi", Otf2 },
    { "extrap/text/one_parameter_1.txt", ExtraP },
    { "extrap/text/one_parameter_6.txt", ExtraP },
    { "extrap/text/one_parameter_7.txt", ExtraP },
    { "extrap/text/one_parameter_segmented_1.txt", ExtraP },
    { "extrap/text/two_parameter_1.txt", ExtraP },
    { "extrap/text/two_parameter_3.txt", ExtraP },
    { "extrap/text/two_parameter_4.txt", ExtraP },
    { "extrap/text/three_parameter_3.txt", ExtraP },
    { "extrap/input/input_data_1p.txt", ExtraP },
    { "extrap/input/input_data_2p.txt", ExtraP },
    { "extrap/json/input_1.JSON", ExtraP },
    { "extrap/jsonlines/test1.jsonl", ExtraP },
    { "extrap/talpas/talpas_1.txt", ExtraP },
    // HPCToolkit 2020+ sparse database (meta.db, profile.db, cct.db, trace.db; format 4.0): the
    // HPCToolkit reader reads the 2017 experiment.xml + metric-db layout only.
    { "otf2/pipit/ping-pong-hpctoolkit", NoIssue },
    // Charm++ Projections logs (.sts, .projrc, gzipped .log per PE).
    { "otf2/pipit/ping-pong-projections", NoIssue },
};

/// Whether the folder's MANIFEST.md (the nearest one above the file) describes the file as expected
/// values: a line that names the file and calls it ground truth, gold, expected values or a payload.
bool manifestCallsExpected(const QFileInfo& f, const QString& root)
{
    QDir dir = f.dir();
    while (true) {
        QFile manifest(dir.filePath(QStringLiteral("MANIFEST.md")));
        if (manifest.open(QIODevice::ReadOnly)) {
            const QStringList lines = QString::fromUtf8(manifest.readAll()).split(QLatin1Char('\n'));
            static const char* const words[] = { "ground truth", "gold", "expected", "payload" };
            for (const QString& line : lines) {
                if (!line.contains(f.fileName()))
                    continue;
                for (const char* w : words)
                    if (line.contains(QLatin1String(w), Qt::CaseInsensitive))
                        return true;
            }
            return false;
        }
        if (QDir::cleanPath(dir.absolutePath()) == QDir::cleanPath(root) || !dir.cdUp())
            return false;
    }
}

/// Why a file is not a profile, or empty when it may be one.
QString notAProfile(const QFileInfo& f, const QString& root)
{
    const QString name = f.fileName();
    const QString suffix = f.suffix().toLower();
    if (suffix == QLatin1String("md") || name.startsWith(QLatin1String("LICENSE"), Qt::CaseInsensitive)
        || name.startsWith(QLatin1String("COPYING"), Qt::CaseInsensitive)
        || name.startsWith(QLatin1String("README"), Qt::CaseInsensitive) || name == QLatin1String("COMMIT")
        || name == QLatin1String("PROVENANCE.tsv"))
        return QStringLiteral("documentation, licence or provenance");
    static const QSet<QString> config { QStringLiteral("cfg"), QStringLiteral("ini"), QStringLiteral("yaml"),
        QStringLiteral("yml"), QStringLiteral("projrc") };
    if (config.contains(suffix) || name.endsWith(QLatin1String(".yaml.ex")))
        return QStringLiteral("configuration (e.g. Score-P's scorep.cfg, a CubeGUI profile.ini)");
    static const QSet<QString> source { QStringLiteral("c"), QStringLiteral("cc"), QStringLiteral("cpp"),
        QStringLiteral("cxx"), QStringLiteral("h"), QStringLiteral("hh"), QStringLiteral("hpp"), QStringLiteral("f"),
        QStringLiteral("f77"), QStringLiteral("f90"), QStringLiteral("f95"), QStringLiteral("py") };
    if (source.contains(suffix))
        return QStringLiteral("source code");
    static const QSet<QString> dumps { QStringLiteral("csv"), QStringLiteral("out"), QStringLiteral("data") };
    if (dumps.contains(suffix) && manifestCallsExpected(f, root)) {
        // A dump a reader takes (Hatchet's dataframe CSV is one) is read as a profile too.
        if (!ReaderRegistry::instance().detect(f.filePath()))
            return QStringLiteral("expected values (MANIFEST.md)");
    }
    return {};
}

QString relative(const QString& root, const QString& path) { return path.mid(root.size() + 1); }

/// Empty when the unit reads, else why not.
QString readError(const QString& unit, QString* format = nullptr)
{
    const Reader* reader = ReaderRegistry::instance().detect(unit);
    if (!reader)
        return QStringLiteral("no reader recognises it");
    Progress progress;
    const auto result = reader->read(unit, ReadOptions {}, progress);
    if (!result)
        return QStringLiteral("%1: %2").arg(reader->name(), result.error().toString());
    if (format)
        *format = reader->name();
    return {};
}

} // namespace

class TestAllSamples : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rules_data();
    void rules();
    void everySampleOpens();
};

void TestAllSamples::rules_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("profile");
    QTest::newRow("manifest") << QStringLiteral("cube/pycubexr/MANIFEST.md") << false;
    QTest::newRow("licence") << QStringLiteral("cube/scalasca-cube3/LICENSE-cubew-COPYING") << false;
    QTest::newRow("provenance") << QStringLiteral("extrap/PROVENANCE.tsv") << false;
    QTest::newRow("scorep.cfg") << QStringLiteral("cube/pycubexr/kripke.p8.d2.g32.r1/scorep.cfg") << false;
    QTest::newRow("cubegui ini") << QStringLiteral("extrap/cubeset/multi_parameter/mm.x1y1z1.r1/profile.ini") << false;
    QTest::newRow("source") << QStringLiteral("tau2/tau-profiles-wrap-params/dgemm.c") << false;
    QTest::newRow("csv ground truth") << QStringLiteral("cube/pycubexr/time.p4.n2000.x1.r0/excl.csv") << false;
    QTest::newRow("csv ground truth 2") << QStringLiteral("tau2/tauprofile-xml-merged/tauprofile.xml.csv") << false;
    QTest::newRow("expected stdout") << QStringLiteral("cubelib/test/test0.0/template.out") << false;
    QTest::newRow("misc payload") << QStringLiteral("cubelib/test/test2/template.data") << false;
    // A gold CSV a reader takes (Hatchet's dataframe) is read; a gprof ".out" is a profile.
    QTest::newRow("readable gold csv") << QStringLiteral("hatchet/hpctoolkit-cpi-graphframe.csv") << true;
    QTest::newRow("gprof .out") << QStringLiteral("tau2/gprof-wrf/gprof.out") << true;
    QTest::newRow("cubex") << QStringLiteral("cube/pycubexr/call_tree_test/call_tree_test.cubex") << true;
    QTest::newRow("cube3 next to a template.data") << QStringLiteral("cubelib/test/test2/template.cube") << true;
}

void TestAllSamples::rules()
{
    QFETCH(QString, path);
    QFETCH(bool, profile);
    const QString root = QStringLiteral(PARALLAX_DATA_DIR);
    const QFileInfo f(root + QLatin1Char('/') + path);
    QVERIFY2(f.isFile(), qPrintable(f.filePath()));
    const QString why = notAProfile(f, root);
    QVERIFY2(why.isEmpty() == profile, qPrintable(path + QStringLiteral(": ") + why));
}

void TestAllSamples::everySampleOpens()
{
    const ReaderRegistry& registry = ReaderRegistry::instance();
    const QString root = QDir::cleanPath(QStringLiteral(PARALLAX_DATA_DIR));
    QVERIFY2(QFileInfo(root).isDir(), qPrintable(root));

    QHash<QString, const Pending*> pendingByPath;
    QStringList failures;
    for (const Pending& p : pending) {
        const QString path = root + QLatin1Char('/') + QLatin1String(p.path);
        if (!QFileInfo::exists(path))
            failures << QStringLiteral("%1: listed as not yet readable, but it is not in the data folder").arg(QLatin1String(p.path));
        pendingByPath.insert(path, &p);
    }

    QStringList units; // what a user would open: a directory a reader takes, or a file
    QSet<QString> covered;
    auto inside = [&](const QString& path) {
        return std::any_of(covered.cbegin(), covered.cend(), [&](const QString& c) { return path.startsWith(c + QLatin1Char('/')); });
    };
    QDirIterator dirs(root, QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    QStringList allDirs;
    while (dirs.hasNext())
        allDirs << dirs.next();
    allDirs.sort(); // parents before children
    for (const QString& dir : allDirs) {
        if (inside(dir))
            continue;
        // A directory is one sample when a reader is confident about it (a TAU profile directory,
        // an HPCToolkit database), or when it is a pending multi-file sample (an OTF2 trace); a low
        // score is a reader's fallback guess for any directory.
        int best = 0;
        for (const Reader* r : registry.readers())
            best = std::max(best, r->sniff(dir));
        if (best >= 50 || pendingByPath.contains(dir)) {
            units << dir;
            covered.insert(dir);
        }
    }
    QDirIterator files(root, QDir::Files, QDirIterator::Subdirectories);
    QMap<QString, int> skipped;
    while (files.hasNext()) {
        const QFileInfo f(files.next());
        if (inside(f.filePath()))
            continue;
        const QString why = notAProfile(f, root);
        if (!why.isEmpty()) {
            ++skipped[why];
            if (pendingByPath.contains(f.filePath()))
                failures << QStringLiteral("%1: listed as not yet readable, but the rules say it is no profile (%2)")
                                .arg(relative(root, f.filePath()), why);
            continue;
        }
        units << f.filePath();
    }
    units.sort();

    QMap<QString, int> byFormat;
    int stillPending = 0;
    for (const QString& unit : units) {
        const auto p = pendingByPath.constFind(unit);
        if (p != pendingByPath.cend()) {
            // Readable when the sample, or (for a directory) any file in it, reads.
            QString readable;
            QString format;
            if (readError(unit, &format).isEmpty())
                readable = unit;
            if (readable.isEmpty() && QFileInfo(unit).isDir()) {
                QDirIterator inner(unit, QDir::Files, QDirIterator::Subdirectories);
                while (readable.isEmpty() && inner.hasNext()) {
                    const QString f = inner.next();
                    if (readError(f, &format).isEmpty())
                        readable = f;
                }
            }
            if (!readable.isEmpty())
                failures << QStringLiteral("%1: listed as not yet readable (%2), but %3 now reads (%4): take it off the list")
                                .arg(relative(root, unit), QLatin1String((*p)->why), relative(root, readable), format);
            ++stillPending;
            continue;
        }
        QString format;
        const QString error = readError(unit, &format);
        if (!error.isEmpty()) {
            failures << QStringLiteral("%1: %2").arg(relative(root, unit), error);
            continue;
        }
        ++byFormat[format];
    }
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    QString summary;
    int read = 0;
    for (auto it = byFormat.cbegin(); it != byFormat.cend(); ++it) {
        summary += QStringLiteral("%1: %2  ").arg(it.key()).arg(it.value());
        read += it.value();
    }
    QString skipSummary;
    for (auto it = skipped.cbegin(); it != skipped.cend(); ++it)
        skipSummary += QStringLiteral("%1: %2; ").arg(it.key()).arg(it.value());
    qInfo("%d samples read (%s), %d not yet readable (listed), non-profile files skipped: %s", read, qPrintable(summary),
        stillPending, qPrintable(skipSummary));
    QCOMPARE(stillPending, int(std::size(pending)));
    QVERIFY(read >= 101); // 101 profiles in the data folder on 2026-11-25
}

QTEST_GUILESS_MAIN(TestAllSamples)
#include "tst_allsamples.moc"
