// Every profile in ../shared/data opens: the registry detects a reader for it (a directory such as a
// TAU profile directory or an HPCToolkit database is one sample, a file another) and that reader
// reads it without an error. The only files skipped are the ones that are not profiles, each listed
// below with the reason. A new sample that no reader takes fails this test.
#include "datasource/readers/readerregistry.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QSet>
#include <QTest>

#include <algorithm>

using namespace parallax;

namespace {

/// Files in the data folder that are not profiles.
bool notAProfile(const QFileInfo& f)
{
    static const QSet<QString> names { QStringLiteral("MANIFEST.md"), QStringLiteral("LICENSE"), QStringLiteral("LICENSE.txt"),
        QStringLiteral("COPYING"), QStringLiteral("COMMIT") };
    if (names.contains(f.fileName()))
        return true;
    // CubeLib's expected test outputs: stdout of a test program (poems) and a misc-data payload.
    const QString path = f.filePath();
    return path.endsWith(QLatin1String("/cubelib/test/test0.0/template.out"))
        || path.endsWith(QLatin1String("/cubelib/test/test7/template.out"))
        || path.endsWith(QLatin1String("/cubelib/test/test2/template.data"));
}

} // namespace

class TestAllSamples : public QObject {
    Q_OBJECT
private slots:
    void everySampleOpens();
};

void TestAllSamples::everySampleOpens()
{
    const ReaderRegistry& registry = ReaderRegistry::instance();
    const QString root = QStringLiteral(PARALLAX_DATA_DIR);
    QVERIFY2(QFileInfo(root).isDir(), qPrintable(root));
    QStringList units; // what a user would open: a directory a reader takes, or a file
    QSet<QString> covered;
    QDirIterator dirs(root, QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    QStringList allDirs { root };
    while (dirs.hasNext())
        allDirs << dirs.next();
    allDirs.sort(); // parents before children
    for (const QString& dir : allDirs) {
        bool inside = false;
        for (const QString& c : covered)
            inside = inside || dir.startsWith(c + QLatin1Char('/'));
        if (inside || dir == root)
            continue;
        // A directory is one sample when a reader is confident about it (a TAU profile directory,
        // an HPCToolkit database); a low score is a reader's fallback guess for any directory.
        int best = 0;
        for (const Reader* r : registry.readers())
            best = std::max(best, r->sniff(dir));
        if (best >= 50) {
            units << dir;
            covered.insert(dir);
        }
    }
    QDirIterator files(root, QDir::Files, QDirIterator::Subdirectories);
    int skipped = 0;
    while (files.hasNext()) {
        const QFileInfo f(files.next());
        bool inside = false;
        for (const QString& c : covered)
            inside = inside || f.filePath().startsWith(c + QLatin1Char('/'));
        if (inside)
            continue;
        if (notAProfile(f)) {
            ++skipped;
            continue;
        }
        units << f.filePath();
    }
    units.sort();
    QStringList failures;
    QMap<QString, int> byFormat;
    for (const QString& unit : units) {
        const Reader* reader = registry.detect(unit);
        if (!reader) {
            failures << QStringLiteral("%1: no reader recognises it").arg(unit.mid(root.size() + 1));
            continue;
        }
        Progress progress;
        const auto result = reader->read(unit, ReadOptions {}, progress);
        if (!result) {
            failures << QStringLiteral("%1 (%2): %3").arg(unit.mid(root.size() + 1), reader->name(), result.error().toString());
            continue;
        }
        ++byFormat[reader->name()];
    }
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    QString summary;
    for (auto it = byFormat.cbegin(); it != byFormat.cend(); ++it)
        summary += QStringLiteral("%1: %2  ").arg(it.key()).arg(it.value());
    qInfo("%lld samples read (%s), %d non-profile files skipped", static_cast<long long>(units.size()), qPrintable(summary), skipped);
    QVERIFY(units.size() >= 58); // 58 profiles in the data folder today
}

QTEST_GUILESS_MAIN(TestAllSamples)
#include "tst_allsamples.moc"
