// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The binary trial cache (issue 18 §3): round trips on real data, invalidation, damaged entries.
#include "datasource/cache/trialcache.h"
#include "tests/common/testutil.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <cstring>

using namespace parallax;
using parallax::test::dataPath;

namespace {

// Bit-equal values, NaN equal to NaN; for columns and calls/subrs views alike.
template <typename A, typename B> bool sameValues(const A& a, const B& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))))
            return false;
    return true;
}

void compareRows(const RowView& a, const RowView& b)
{
    QVERIFY(a.events == b.events);
    QVERIFY(sameValues(a.calls, b.calls));
    QVERIFY(sameValues(a.subrs, b.subrs));
    QVERIFY(sameValues(a.excl, b.excl));
    QVERIFY(sameValues(a.incl, b.incl));
    QVERIFY(sameValues(a.exclSqr, b.exclSqr));
}

void compareAtomicRows(const AtomicRow& a, const AtomicRow& b)
{
    QVERIFY(a.events == b.events);
    QVERIFY(sameValues(a.count, b.count));
    QVERIFY(sameValues(a.max, b.max));
    QVERIFY(sameValues(a.min, b.min));
    QVERIFY(sameValues(a.mean, b.mean));
    QVERIFY(sameValues(a.sumSquares, b.sumSquares));
    QVERIFY(sameValues(a.stdDev, b.stdDev));
}

/// Field by field: everything a reader sets.
void compareTrials(const Trial& a, const Trial& b, qsizetype extraWarnings = 0)
{
    QCOMPARE(a.name(), b.name());
    QCOMPARE(a.provenance().operation, b.provenance().operation);
    QCOMPARE(a.provenance().source, b.provenance().source);
    QCOMPARE(a.provenance().reader, b.provenance().reader);
    QCOMPARE(a.provenance().operands, b.provenance().operands);
    QCOMPARE(a.provenance().options, b.provenance().options);
    QCOMPARE(a.metricCount(), b.metricCount());
    for (std::size_t m = 0; m < a.metricCount(); ++m) {
        const Metric& x = a.metrics()[m];
        const Metric& y = b.metrics()[m];
        QCOMPARE(x.name, y.name);
        QCOMPARE(x.unit, y.unit);
        QCOMPARE(x.derived, y.derived);
        QCOMPARE(x.expression, y.expression);
        QCOMPARE(x.higherIsBetter, y.higherIsBetter);
    }
    QVERIFY(a.threads() == b.threads());
    QCOMPARE(a.eventCount(), b.eventCount());
    for (std::size_t e = 0; e < a.eventCount(); ++e) {
        const IntervalEvent& x = a.events()[e];
        const IntervalEvent& y = b.events()[e];
        QCOMPARE(x.name, y.name);
        QCOMPARE(x.rawName, y.rawName);
        QVERIFY(x.groups == y.groups);
        QCOMPARE(x.depth, y.depth);
        QVERIFY(x.parent == y.parent);
        QVERIFY(x.leaf == y.leaf);
        QVERIFY(b.findEvent(x.name) == EventId(e));
        const SourceLocation* la = a.recordedSourceLocation(EventId(e));
        const SourceLocation* lb = b.recordedSourceLocation(EventId(e));
        QCOMPARE(la != nullptr, lb != nullptr);
        if (la)
            QCOMPARE(*la, *lb);
    }
    QCOMPARE(a.hasRecordedSourceLocations(), b.hasRecordedSourceLocations());
    QCOMPARE(a.atomicEventCount(), b.atomicEventCount());
    for (std::size_t e = 0; e < a.atomicEventCount(); ++e) {
        const AtomicEvent& x = a.atomicEvents()[e];
        const AtomicEvent& y = b.atomicEvents()[e];
        QCOMPARE(x.name, y.name);
        QCOMPARE(x.rawName, y.rawName);
        QCOMPARE(x.baseName, y.baseName);
        QCOMPARE(x.context, y.context);
        QVERIFY(b.findAtomicEvent(x.name) == AtomicEventId(e));
    }
    for (std::size_t t = 0; t < a.threadCount(); ++t) {
        compareRows(a.row(ThreadIndex(t)), b.row(ThreadIndex(t)));
        compareAtomicRows(a.atomicRow(ThreadIndex(t)), b.atomicRow(ThreadIndex(t)));
        QCOMPARE(a.timeSeries(ThreadIndex(t)).size(), b.timeSeries(ThreadIndex(t)).size());
    }
    QCOMPARE(a.pooledAtomicCells().cells().size(), b.pooledAtomicCells().cells().size());
    QCOMPARE(a.groupCount(), b.groupCount());
    for (std::size_t g = 0; g < a.groupCount(); ++g)
        QCOMPARE(a.groupName(GroupId(g)), b.groupName(GroupId(g)));
    QCOMPARE(a.strings().size(), b.strings().size());
    for (std::size_t s = 0; s < a.strings().size(); ++s)
        QCOMPARE(a.strings().get(StringId(s)), b.strings().get(StringId(s)));
    QCOMPARE(a.metadata().size(), b.metadata().size());
    for (std::size_t i = 0; i < a.metadata().size(); ++i) {
        QVERIFY(a.metadata()[i].key == b.metadata()[i].key);
        QVERIFY(a.metadata()[i].value == b.metadata()[i].value);
    }
    for (std::size_t t = 0; t < a.threadCount(); ++t)
        QCOMPARE(a.threadMetadata(ThreadIndex(t)).size(), b.threadMetadata(ThreadIndex(t)).size());
    // b may carry warnings of its own open (a damaged cache entry discarded), after a's.
    QCOMPARE(a.warnings(), b.warnings().mid(0, b.warnings().size() - extraWarnings));
    QCOMPARE(a.providedStatistics().size(), b.providedStatistics().size());
    for (std::size_t i = 0; i < a.providedStatistics().size(); ++i) {
        QCOMPARE(a.providedStatistics()[i].name, b.providedStatistics()[i].name);
        QCOMPARE(a.providedStatistics()[i].derivedId, b.providedStatistics()[i].derivedId);
        compareRows(a.providedStatistics()[i].row, b.providedStatistics()[i].row);
        compareAtomicRows(a.providedStatistics()[i].atomicRow, b.providedStatistics()[i].atomicRow);
    }
}

QStringList cacheEntries(const QString& dir)
{
    return QDir(dir).entryList({ QStringLiteral("*.pxc") }, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot);
}

} // namespace

class TestTrialCache : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_cache;

    TrialResult readOnce(const QString& path, bool useCache = true)
    {
        ReadOptions options;
        options.useCache = useCache;
        Progress progress;
        return ReaderRegistry::instance().read(path, options, progress);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        qputenv("PARALLAX_CACHE_DIR", m_cache.path().toUtf8());
        qputenv("PARALLAX_CACHE_MIN_BYTES", "0");
        qunsetenv("PARALLAX_NO_CACHE");
    }
    void init() { QDir(m_cache.path()).removeRecursively(); }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("path");
        for (const char* p : { "tau2/tau-profiles-callpath-cpi-4rank", "tau2/tau-profiles-workflow-xmain-8rank",
                 "tau2/tau-profiles-openmp-2thread", "tau2/tau-profiles-wrap-params",
                 "tau2/tauprofile-xml-merged/tauprofile.xml", "tau2/ppk/ring-2rank.ppk",
                 "extrap/cubeset/multi_parameter/mm.x25y25z25.r1/profile.cubex",
                 "cube/pycubexr/time.p4.n2000.x1.r0/profile.cubex",
                 "hatchet/caliper-cpi-json/cpi-callpath-profile.json" })
            QTest::newRow(p) << dataPath(QString::fromLatin1(p));
    }
    void roundTrip()
    {
        QFETCH(QString, path);
        const auto parsed = readOnce(path, false);
        QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error().toString()));
        QVERIFY(cacheEntries(m_cache.path()).isEmpty()); // useCache=false writes nothing
        const auto first = readOnce(path);
        QVERIFY(first);
        QCOMPARE(cacheEntries(m_cache.path()).size(), 1);
        // The second read comes from the cache: prove it by checking the entry is what was loaded.
        const QByteArray key
            = TrialCache::sourceKey(path, parsed.value()->provenance().reader, QStringLiteral("strict=0;"));
        QVERIFY(QFile::exists(TrialCache::entryPath(key)));
        const auto cached = TrialCache::load(key);
        QVERIFY(cached);
        compareTrials(*parsed.value(), *cached);
        const auto second = readOnce(path);
        QVERIFY(second);
        compareTrials(*parsed.value(), *second.value());
        QVERIFY(!parsed.value()->fromCache());
        QVERIFY(!first.value()->fromCache());
        QVERIFY(second.value()->fromCache());
    }

    // The source locations readers record apart from names (CUBE regions, Caliper sourceloc) come
    // back from the cache (compareTrials compares them; here they must exist at all).
    void recordedSourceLocations_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("scorep") << dataPath(QStringLiteral("cube/pycubexr/time.p4.n2000.x1.r0/profile.cubex"));
        QTest::newRow("caliper") << dataPath(QStringLiteral("hatchet/caliper-cpi-json/cpi-callpath-profile.json"));
    }
    void recordedSourceLocations()
    {
        QFETCH(QString, path);
        const auto parsed = readOnce(path, false);
        QVERIFY(parsed);
        QVERIFY(parsed.value()->hasRecordedSourceLocations());
        QVERIFY(readOnce(path));
        const auto second = readOnce(path);
        QVERIFY(second);
        QVERIFY(second.value()->fromCache());
        std::size_t located = 0;
        for (std::size_t e = 0; e < second.value()->eventCount(); ++e) {
            const auto location = sourceLocationOf(*second.value(), EventId(e));
            QCOMPARE(location, sourceLocationOf(*parsed.value(), EventId(e)));
            located += location ? 1 : 0;
        }
        QVERIFY(located > 0);
    }

    void storedInBackground()
    {
        // The GUI's way: read() returns before the entry is written; waiting makes it complete.
        const QString path = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        ReadOptions options;
        options.storeInBackground = true;
        Progress progress;
        const auto first = ReaderRegistry::instance().read(path, options, progress);
        QVERIFY(first);
        QVERIFY(!first.value()->fromCache());
        TrialCache::waitForPendingStores();
        QCOMPARE(cacheEntries(m_cache.path()).size(), 1);
        const QByteArray key
            = TrialCache::sourceKey(path, first.value()->provenance().reader, QStringLiteral("strict=0;"));
        const auto cached = TrialCache::load(key);
        QVERIFY(cached);
        compareTrials(*first.value(), *cached);
        // Several at once, the same entry: each writes it atomically, the last one wins whole.
        for (int i = 0; i < 3; ++i)
            TrialCache::storeInBackground(first.value(), key);
        TrialCache::waitForPendingStores();
        QCOMPARE(cacheEntries(m_cache.path()).size(), 1);
        const auto again = readOnce(path);
        QVERIFY(again);
        QVERIFY(again.value()->fromCache());
        compareTrials(*first.value(), *again.value());
    }
    void mergedXmlKeepsProvidedStatistics()
    {
        const QString path = dataPath(QStringLiteral("tau2/tauprofile-xml-merged/tauprofile.xml"));
        QVERIFY(readOnce(path));
        const auto second = readOnce(path);
        QVERIFY(second);
        QVERIFY(!second.value()->providedStatistics().empty());
    }

    void invalidatedWhenASourceChanges()
    {
        QTemporaryDir copy;
        const QString src = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        for (const QString& f : QDir(src).entryList(QDir::Files))
            QVERIFY(QFile::copy(src + QLatin1Char('/') + f, copy.filePath(f)));
        const auto before = readOnce(copy.path());
        QVERIFY(before);
        const QStringList entries = cacheEntries(m_cache.path());
        QCOMPARE(entries.size(), 1);
        // Same size, new mtime: a new key.
        QFile f(copy.filePath(QStringLiteral("profile.0.0.0")));
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(-3600), QFileDevice::FileModificationTime));
        f.close();
        QVERIFY(readOnce(copy.path()));
        QCOMPARE(cacheEntries(m_cache.path()).size(), 2);
        // Removing a thread's file: the trial read is the new one, not the cached one.
        QVERIFY(QFile::remove(copy.filePath(QStringLiteral("profile.3.0.0"))));
        const auto after = readOnce(copy.path());
        QVERIFY(after);
        QCOMPARE(after.value()->threadCount() + 1, before.value()->threadCount());
    }

    void damagedEntriesAreDiscarded_data()
    {
        QTest::addColumn<QString>("damage");
        for (const char* d : { "flip", "truncate", "version", "empty", "directory", "magic" })
            QTest::newRow(d) << QString::fromLatin1(d);
    }
    void damagedEntriesAreDiscarded()
    {
        QFETCH(QString, damage);
        const QString path = dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank"));
        const auto parsed = readOnce(path, false);
        QVERIFY(parsed);
        QVERIFY(readOnce(path));
        const QStringList entries = cacheEntries(m_cache.path());
        QCOMPARE(entries.size(), 1);
        const QString entry = m_cache.filePath(entries.first());
        QFile f(entry);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        QVERIFY(bytes.size() > 64);
        if (damage == QLatin1String("flip"))
            bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x5a);
        else if (damage == QLatin1String("truncate"))
            bytes.truncate(bytes.size() * 2 / 3);
        else if (damage == QLatin1String("version"))
            bytes[8] = static_cast<char>(bytes[8] + 1);
        else if (damage == QLatin1String("empty"))
            bytes.clear();
        else if (damage == QLatin1String("magic"))
            bytes[0] = 'X';
        QVERIFY(QFile::remove(entry));
        if (damage == QLatin1String("directory")) {
            QVERIFY(QDir().mkpath(entry));
        } else {
            QVERIFY(f.open(QIODevice::WriteOnly));
            QCOMPARE(f.write(bytes), bytes.size());
            f.close();
        }
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("discarding the trial cache entry")));
        const auto again = readOnce(path);
        QVERIFY(again);
        QVERIFY(!again.value()->fromCache());
        compareTrials(*parsed.value(), *again.value(), 1);
        // The open that discarded the entry says so among the trial's warnings (the GUI's status bar
        // shows them), and the warning is not written into the new entry.
        QVERIFY(again.value()->warnings().constLast().contains(QStringLiteral("damaged trial cache entry")));
        const auto third = readOnce(path);
        QVERIFY(third);
        QVERIFY(third.value()->fromCache());
        compareTrials(*parsed.value(), *third.value());
        // Rewritten: a valid entry is back.
        QVERIFY(QFileInfo(entry).isFile());
        QString error;
        QFile rewritten(entry);
        QVERIFY(rewritten.open(QIODevice::ReadOnly));
        const QByteArray key
            = TrialCache::sourceKey(path, parsed.value()->provenance().reader, QStringLiteral("strict=0;"));
        QVERIFY(TrialCache::deserialize(rewritten.readAll(), key, &error));
    }

    // Format 2 keeps the row store's own layout and reads the rows in place in the mapped entry:
    // every row's representation (float counts, sparse inclusive column, shared event list) comes
    // back as it was, value for value, and the rows outlive the entry's file.
    void rowsReadInPlaceKeepTheirLayout()
    {
        const QString path = dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank"));
        // The trial written is the one to compare with: which rows share a list depends on how the
        // reader's workers split the files, which may differ from one parse to the next.
        const auto parsed = readOnce(path);
        QVERIFY(parsed);
        QVERIFY(!parsed.value()->fromCache());
        const QStringList entries = cacheEntries(m_cache.path());
        QCOMPARE(entries.size(), 1);
        const QByteArray key
            = TrialCache::sourceKey(path, parsed.value()->provenance().reader, QStringLiteral("strict=0;"));
        const auto cached = TrialCache::load(key);
        QVERIFY(cached);
        // The rows live in the mapping, not in the file: removing it changes nothing for them.
        QVERIFY(QFile::remove(m_cache.filePath(entries.first())));
        const Trial& a = *parsed.value();
        const Trial& b = *cached;
        QCOMPARE(b.threadCount(), a.threadCount());
        std::size_t floatRows = 0;
        std::size_t sparseRows = 0;
        std::size_t sharedLists = 0;
        for (std::size_t t = 0; t < a.threadCount(); ++t) {
            const RowView ra = a.row(ThreadIndex(t));
            const RowView rb = b.row(ThreadIndex(t));
            compareRows(ra, rb);
            QCOMPARE(rb.calls.isFloat(), ra.calls.isFloat());
            QCOMPARE(rb.incl.denseData() == nullptr, ra.incl.denseData() == nullptr);
            floatRows += ra.calls.isFloat() ? 1 : 0;
            sparseRows += !ra.incl.empty() && ra.incl.denseData() == nullptr ? 1 : 0;
            // A row shares its event list with the same earlier rows in both trials.
            for (std::size_t u = 0; u < t && !ra.events.empty(); ++u) {
                const bool shared = ra.events.data() == a.row(ThreadIndex(u)).events.data();
                QCOMPARE(rb.events.data() == b.row(ThreadIndex(u)).events.data(), shared);
                sharedLists += shared ? 1 : 0;
            }
            // Columns read in place keep the alignment the row store needs.
            QCOMPARE(reinterpret_cast<std::uintptr_t>(rb.excl.data()) % 8, std::uintptr_t { 0 });
        }
        // The data exercises all three forms, so the comparisons above cover them.
        QVERIFY(floatRows > 0);
        QVERIFY(sparseRows > 0);
        QVERIFY(sharedLists > 0);
        QCOMPARE(b.cellCount(), a.cellCount());
    }

    // A byte flipped in the chunk region (which starts at the first 64 KiB boundary of the file): the
    // checksum refuses it; with the checksum made to match, the decoder's checks still refuse it.
    void flippedRegionByteIsRefused()
    {
        const QString path = dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank"));
        const auto parsed = readOnce(path, false);
        QVERIFY(parsed);
        const QByteArray key
            = TrialCache::sourceKey(path, parsed.value()->provenance().reader, QStringLiteral("strict=0;"));
        const QByteArray good = TrialCache::serialize(*parsed.value(), key);
        QString error;
        QVERIFY(TrialCache::deserialize(good, key, &error));
        constexpr qsizetype RegionStart = 65536;
        QVERIFY(good.size() > RegionStart + 8);
        QByteArray bad = good;
        // The first event list's first id, high byte of its low half: far beyond the trial's events.
        bad[RegionStart + 1] = static_cast<char>(bad[RegionStart + 1] ^ 0x5a);
        QVERIFY(!TrialCache::deserialize(bad, key, &error));
        QCOMPARE(error, QStringLiteral("checksum mismatch"));
        const quint64 sum = TrialCache::checksum(bad.constData() + 32, bad.size() - 32);
        std::memcpy(bad.data() + 24, &sum, 8);
        error.clear();
        QVERIFY(!TrialCache::deserialize(bad, key, &error));
        QCOMPARE(error, QStringLiteral("id out of range"));
    }

    // The key lists every file below a directory, sorted, with its size: hidden files and
    // subdirectories included, a link to a file as its target, a link to a directory not followed.
    void keyListsEveryFileBelowADirectory()
    {
        QTemporaryDir dir;
        auto write = [&](const QString& rel, qsizetype bytes) {
            QFile f(dir.filePath(rel));
            QVERIFY(f.open(QIODevice::WriteOnly));
            QCOMPARE(f.write(QByteArray(bytes, 'x')), bytes);
        };
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("sub/deeper")));
        write(QStringLiteral("b"), 3);
        write(QStringLiteral(".hidden"), 5);
        write(QStringLiteral("sub/deeper/c"), 7);
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("b")), dir.filePath(QStringLiteral("link"))));
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("sub")), dir.filePath(QStringLiteral("subdirlink"))));
        qint64 total = 0;
        const QByteArray key = TrialCache::sourceKey(dir.path(), QStringLiteral("tau"), QString(), &total);
        QCOMPARE(total, qint64 { 3 + 5 + 7 + 3 });
        QStringList files;
        for (const QByteArray& line : key.split('\n'))
            if (line.contains('\t'))
                files << QString::fromUtf8(line.left(line.indexOf('\t'))) + QLatin1Char(':')
                        + QString::fromUtf8(line.split('\t').at(1));
        QCOMPARE(files,
            QStringList({ QStringLiteral(".hidden:5"), QStringLiteral("b:3"), QStringLiteral("link:3"),
                QStringLiteral("sub/deeper/c:7") }));
    }

    void noCacheEnvironmentWritesNothing()
    {
        qputenv("PARALLAX_NO_CACHE", "1");
        const auto trial = readOnce(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        qunsetenv("PARALLAX_NO_CACHE");
        QVERIFY(trial);
        QVERIFY(cacheEntries(m_cache.path()).isEmpty());
    }

    void smallSourcesAreNotCached()
    {
        qputenv("PARALLAX_CACHE_MIN_BYTES", "1000000000");
        QVERIFY(readOnce(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"))));
        qputenv("PARALLAX_CACHE_MIN_BYTES", "0");
        QVERIFY(cacheEntries(m_cache.path()).isEmpty());
    }

    void evictsOverTheSizeLimit()
    {
        qputenv("PARALLAX_CACHE_MAX_BYTES", "1");
        QVERIFY(readOnce(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"))));
        qunsetenv("PARALLAX_CACHE_MAX_BYTES");
        QVERIFY(cacheEntries(m_cache.path()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTrialCache)
#include "tst_trialcache.moc"
