// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Monitoring a directory a running application writes (issue 19 §2, datasource/live/livedirectory.h).
// A writer process (a shell script) plays the application: it rewrites the TAU profile files of each
// dump (cumulative values, as TAU_PROFILE dumps do) at intervals, one file of each dump first half-
// written and completed a moment later; or it appends one fragment per snapshot to snapshot files.
// The monitor polls meanwhile. Every snapshot of the series it builds must be exactly one of the dumps
// the writer wrote (never a half-read file), each dump must be in it once and in order (nothing lost
// or counted twice), and the last one must equal the final files read directly.
//
// File by file (profile.N.C.T and snapshot.N.C.T directories): a poll parses only the files that
// changed, and the trial it joins from the kept reads equals a read of the whole directory, cell by
// cell and name by name, on the TAU samples copied in one file at a time.
#include "datasource/live/livedirectory.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/synth/synth.h"
#include "datasource/writers/tausnapshotwriter.h"
#include "datasource/writers/tauwriter.h"
#include "tests/common/testutil.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

constexpr int Dumps = 3;

/// The synthesized run as of snapshot k: the profile of each dump the application writes.
std::shared_ptr<Trial> asOf(const Trial& run, std::size_t k)
{
    TrialBuilder builder(run.name());
    builder.addDefinitionsOf(run);
    std::vector<IntervalRow> rows;
    std::vector<AtomicRow> atomics;
    for (std::size_t t = 0; t < run.threadCount(); ++t) {
        builder.addThread(run.threadKey(ThreadIndex(t)));
        rows.push_back(run.timeSeries(ThreadIndex(t))[k].row);
        atomics.push_back(run.timeSeries(ThreadIndex(t))[k].atomicRow);
    }
    builder.setIntervalRows(std::move(rows));
    builder.setAtomicRows(std::move(atomics));
    return builder.build();
}

/// The value of every cell of a row by event name: comparable across trials.
std::map<QString, double> cellsByName(const Trial& trial, const RowView& row)
{
    std::map<QString, double> cells;
    for (std::size_t i = 0; i < row.size(); ++i) {
        cells[trial.event(row.events[i]).name + QStringLiteral(" excl")] = row.exclusive(0, i);
        cells[trial.event(row.events[i]).name + QStringLiteral(" incl")] = row.inclusive(0, i);
        cells[trial.event(row.events[i]).name + QStringLiteral(" calls")] = row.calls[i];
    }
    return cells;
}

/// Equal vectors of numbers, NaN equal to NaN.
template <typename T> bool same(const std::vector<T>& a, const std::vector<T>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const T& x, const T& y) {
        if constexpr (std::is_floating_point_v<T>)
            return x == y || (std::isnan(x) && std::isnan(y));
        else
            return x == y;
    });
}

bool sameRows(const RowView& a, const RowView& b)
{
    const IntervalRow x = a.toRow();
    const IntervalRow y = b.toRow();
    return same(x.events, y.events) && same(x.calls, y.calls) && same(x.subrs, y.subrs) && same(x.excl, y.excl)
        && same(x.incl, y.incl);
}

bool sameAtomicRows(const AtomicRow& a, const AtomicRow& b)
{
    return same(a.events, b.events) && same(a.count, b.count) && same(a.max, b.max) && same(a.min, b.min)
        && same(a.mean, b.mean) && same(a.sumSquares, b.sumSquares);
}

/// A thread's metadata, trial-wide keys included: what it shows whichever keys are trial-wide.
std::map<QString, QString> metadataOf(const Trial& trial, ThreadIndex t)
{
    std::map<QString, QString> all;
    for (const MetadataEntry& e : trial.metadata())
        all[trial.strings().get(e.key)] = trial.strings().get(e.value);
    for (const MetadataEntry& e : trial.threadMetadata(t))
        all[trial.strings().get(e.key)] = trial.strings().get(e.value);
    return all;
}

/// The live trial is the whole directory's read: the same metrics, events and user events with the
/// same ids, threads, and every thread's cells, user event records, metadata and (when the read has
/// them) snapshots. Profile dumps add their own time series (one snapshot per update): its last
/// snapshot must be the profile.
void compareWithFullRead(const Trial& live, const Trial& full)
{
    QCOMPARE(live.name(), full.name());
    QCOMPARE(live.metricCount(), full.metricCount());
    for (std::size_t m = 0; m < full.metricCount(); ++m) {
        QCOMPARE(live.metrics()[m].name, full.metrics()[m].name);
        QCOMPARE(live.metrics()[m].unit, full.metrics()[m].unit);
    }
    QCOMPARE(live.eventCount(), full.eventCount());
    for (std::size_t e = 0; e < full.eventCount(); ++e) {
        const IntervalEvent& x = live.events()[e];
        const IntervalEvent& y = full.events()[e];
        QCOMPARE(x.name, y.name);
        QCOMPARE(x.rawName, y.rawName);
        QStringList gx = live.groupNames(x);
        QStringList gy = full.groupNames(y);
        gx.sort();
        gy.sort();
        QCOMPARE(gx, gy);
        QVERIFY(x.parent == y.parent && x.leaf == y.leaf);
    }
    QCOMPARE(live.atomicEventCount(), full.atomicEventCount());
    for (std::size_t u = 0; u < full.atomicEventCount(); ++u) {
        QCOMPARE(live.atomicEvents()[u].name, full.atomicEvents()[u].name);
        QCOMPARE(live.atomicEvents()[u].rawName, full.atomicEvents()[u].rawName);
    }
    QVERIFY(live.threads() == full.threads());
    for (std::size_t t = 0; t < full.threadCount(); ++t) {
        const ThreadIndex ti(t);
        QVERIFY2(sameRows(live.row(ti), full.row(ti)), qPrintable(full.threadKey(ti).toString()));
        QVERIFY(sameAtomicRows(live.atomicRow(ti), full.atomicRow(ti)));
        QCOMPARE(metadataOf(live, ti), metadataOf(full, ti));
        const auto& series = live.timeSeries(ti);
        if (full.hasTimeSeries()) {
            const auto& expected = full.timeSeries(ti);
            QCOMPARE(series.size(), expected.size());
            for (std::size_t k = 0; k < series.size(); ++k) {
                QCOMPARE(series[k].name, expected[k].name);
                QCOMPARE(series[k].timestamp, expected[k].timestamp);
                QVERIFY(sameRows(series[k].row, expected[k].row));
                QVERIFY(sameAtomicRows(series[k].atomicRow, expected[k].atomicRow));
            }
        } else if (!series.empty()) {
            QVERIFY(sameRows(series.back().row, full.row(ti)));
        }
    }
    QCOMPARE(live.providedStatistics().size(), full.providedStatistics().size());
    QCOMPARE(live.warnings(), full.warnings());
}

/// Copies `from` to `to` through a temporary name and a rename, as a writer that replaces a file at once.
bool copyFile(const QString& from, const QString& to)
{
    const QString temp
        = QFileInfo(to).dir().filePath(QStringLiteral(".") + QFileInfo(to).fileName() + QStringLiteral(".tmp"));
    QFile::remove(temp);
    if (!QFile::copy(from, temp))
        return false;
    QFile::remove(to);
    return QFile::rename(temp, to);
}

/// The files of `dir` named `prefix`N.C.T, sorted by name.
QStringList threadFiles(const QString& dir, const QString& prefix)
{
    QStringList files;
    for (const QString& name : QDir(dir).entryList({ prefix + QStringLiteral("*") }, QDir::Files, QDir::Name)) {
        ThreadKey key;
        if (parseThreadFileName(name, QLatin1StringView(prefix.toLatin1()), key))
            files << name;
    }
    return files;
}

/// Two polls: the first sees the files as they are, the second finds them settled and reads them.
LiveDirectory::Update settle(LiveDirectory& live)
{
    LiveDirectory::Update first = live.poll();
    if (first.trial)
        return first;
    return live.poll();
}

/// Runs the writer script and polls `dir` every 100 ms until the writer has ended and a poll found
/// nothing new. Returns the updates' trials; `sawWaiting` tells whether some poll waited on a file.
std::vector<std::shared_ptr<const Trial>> monitor(const QString& script, const QString& dir, bool* sawWaiting)
{
    LiveDirectory live(dir);
    QProcess writer;
    writer.start(QStringLiteral("/bin/sh"), { QStringLiteral("-c"), script });
    if (!writer.waitForStarted())
        return {};
    std::vector<std::shared_ptr<const Trial>> trials;
    QElapsedTimer clock;
    clock.start();
    int quietPolls = 0;
    while (clock.elapsed() < 60000) {
        const LiveDirectory::Update u = live.poll();
        if (!u.waitingOn.isEmpty())
            *sawWaiting = true;
        if (u.trial)
            trials.push_back(u.trial);
        const bool done = writer.state() == QProcess::NotRunning;
        quietPolls = done && !u.trial && u.waitingOn.isEmpty() ? quietPolls + 1 : 0;
        if (quietPolls >= 3)
            break;
        QThread::msleep(100);
        writer.waitForFinished(0);
    }
    writer.waitForFinished();
    return trials;
}

} // namespace

class TestLiveDirectory : public QObject {
    Q_OBJECT
    QTemporaryDir m_stage;
    std::shared_ptr<const Trial> m_run;

private Q_SLOTS:
    void initTestCase()
    {
        SynthOptions o;
        o.threads = 8;
        o.events = 25;
        o.callpathDepth = 2;
        o.userEvents = 2;
        o.snapshots = Dumps;
        m_run = synthesizeTrial(o);
        for (int k = 0; k < Dumps; ++k)
            QCOMPARE(TauWriter::write(*asOf(*m_run, std::size_t(k)), m_stage.filePath(QString::number(k))), QString());
        QCOMPARE(TauSnapshotWriter::write(*m_run, m_stage.filePath(QStringLiteral("snapshots"))), QString());
    }

    void profileDumps()
    {
        // Each dump rewrites every profile.N.C.T; profile.3.0.0 is first written half, then whole.
        // The whole files replace the old ones in one `mv` (renames a few microseconds apart, as an
        // application writing its dump at once): a file-by-file copy could, on a loaded machine,
        // leave a poll's worth of time between two ranks' files, a state the monitor may read.
        QTemporaryDir dir;
        QTemporaryDir staging;
        QString script = QStringLiteral("set -e\n");
        for (int k = 0; k < Dumps; ++k) {
            const QString from = m_stage.filePath(QString::number(k));
            script
                += QStringLiteral("head -c $(( $(wc -c < %1/profile.3.0.0) / 2 )) %1/profile.3.0.0 > %2/profile.3.0.0\n"
                                  "cp %1/profile.* %3/\n"
                                  "sleep 0.5\n"
                                  "mv %3/profile.* %2/\n"
                                  "sleep 1.5\n")
                       .arg(from, dir.path(), staging.path());
        }
        bool waited = false;
        const auto trials = monitor(script, dir.path(), &waited);
        QVERIFY(waited);
        QVERIFY(!trials.empty());
        const auto& last = trials.back();
        QVERIFY(last->hasTimeSeries());
        for (std::size_t t = 0; t < m_run->threadCount(); ++t) {
            const ThreadIndex mine = last->findThread(m_run->threadKey(ThreadIndex(t)));
            QVERIFY(mine.isValid());
            const auto& series = last->timeSeries(mine);
            // Every dump once, in order: snapshot k is dump k, cell for cell.
            QCOMPARE(series.size(), std::size_t(Dumps));
            for (std::size_t k = 0; k < series.size(); ++k) {
                const auto expected = cellsByName(*m_run, m_run->timeSeries(ThreadIndex(t))[k].row);
                QCOMPARE(cellsByName(*last, series[k].row), expected);
                QCOMPARE(series[k].name, QStringLiteral("update %1").arg(k + 1));
            }
            QCOMPARE(cellsByName(*last, last->row(mine)), cellsByName(*m_run, m_run->row(ThreadIndex(t))));
        }
        // The final trial equals the final files read directly.
        const auto direct = mustLoad(dir.path());
        QVERIFY(direct);
        for (std::size_t t = 0; t < direct->threadCount(); ++t)
            QCOMPARE(cellsByName(*last, last->row(last->findThread(direct->threadKey(ThreadIndex(t))))),
                cellsByName(*direct, direct->row(ThreadIndex(t))));
        QCOMPARE(trials.size(), std::size_t(Dumps));
    }

    void growingSnapshotFiles()
    {
        // Snapshot files grow by one fragment per snapshot; a fragment may arrive in two writes.
        const QString source = m_stage.filePath(QStringLiteral("snapshots"));
        QDir sourceDir(source);
        const QStringList files = sourceDir.entryList({ QStringLiteral("snapshot.*") }, QDir::Files);
        QCOMPARE(files.size(), 8);
        QTemporaryDir dir;
        // Split each file at its fragments: fragment k of every file is appended at step k.
        QString script = QStringLiteral("set -e\n");
        for (int k = 0; k < Dumps; ++k) {
            for (const QString& f : files) {
                QFile in(sourceDir.filePath(f));
                QVERIFY(in.open(QIODevice::ReadOnly));
                const QList<QByteArray> parts = in.readAll().split('\0');
                QCOMPARE(parts.size(), 1);
                const QByteArray& all = parts.front();
                // Fragment boundaries: after each "</profile_xml>\n".
                std::vector<qsizetype> ends;
                for (qsizetype at = all.indexOf("</profile_xml>\n"); at >= 0;
                     at = all.indexOf("</profile_xml>\n", at + 1))
                    ends.push_back(at + 15);
                QCOMPARE(ends.size(), std::size_t(Dumps));
                const qsizetype begin = k == 0 ? 0 : ends[std::size_t(k - 1)];
                const QString piece = dir.filePath(QStringLiteral(".piece-%1-%2").arg(k).arg(f));
                QFile out(piece);
                QVERIFY(out.open(QIODevice::WriteOnly));
                out.write(all.mid(begin, ends[std::size_t(k)] - begin));
                out.close();
                if (f == files.front())
                    script += QStringLiteral("head -c 200 %1 >> %2/%3\nsleep 0.5\ntail -c +201 %1 >> %2/%3\n")
                                  .arg(piece, dir.path(), f);
                else
                    script += QStringLiteral("cat %1 >> %2/%3\n").arg(piece, dir.path(), f);
            }
            script += QStringLiteral("sleep 1.5\n");
        }
        bool waited = false;
        const auto trials = monitor(script, dir.path(), &waited);
        QVERIFY(waited);
        QVERIFY(!trials.empty());
        const auto& last = trials.back();
        for (std::size_t t = 0; t < m_run->threadCount(); ++t) {
            const auto& series = last->timeSeries(last->findThread(m_run->threadKey(ThreadIndex(t))));
            QCOMPARE(series.size(), std::size_t(Dumps));
            for (std::size_t k = 0; k < series.size(); ++k)
                QCOMPARE(
                    cellsByName(*last, series[k].row), cellsByName(*m_run, m_run->timeSeries(ThreadIndex(t))[k].row));
        }
        // Each update held whole snapshots only: every thread's series is a prefix of what was
        // written, never shorter than in the update before (a trial with one snapshot per thread has
        // no series: its profile is that snapshot). Threads may differ in length within an update:
        // each thread's file grows on its own, and a poll may fall between two appends; a poll may
        // even come before a thread's file exists (the writer creates them one after another), but
        // a thread once there stays.
        QVERIFY(trials.size() >= std::size_t(Dumps));
        std::vector<std::size_t> before(m_run->threadCount(), 0);
        for (const auto& trial : trials)
            for (std::size_t t = 0; t < m_run->threadCount(); ++t) {
                const ThreadIndex mine = trial->findThread(m_run->threadKey(ThreadIndex(t)));
                if (!mine.isValid()) {
                    QCOMPARE(before[t], std::size_t(0));
                    continue;
                }
                const auto& series = trial->timeSeries(mine);
                const std::size_t n = std::max<std::size_t>(1, series.size());
                QVERIFY(n >= before[t] && n <= std::size_t(Dumps));
                before[t] = n;
                for (std::size_t k = 0; k < series.size(); ++k)
                    QCOMPARE(cellsByName(*trial, series[k].row),
                        cellsByName(*m_run, m_run->timeSeries(ThreadIndex(t))[k].row));
            }
    }

    void samplesFileByFile_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<bool>("snapshots");
        const QDir tau(dataPath(QStringLiteral("tau2")));
        const QStringList samples = tau.entryList({ QStringLiteral("tau-profiles-*") }, QDir::Dirs, QDir::Name);
        QVERIFY(samples.size() >= 4);
        for (const QString& sample : samples) {
            QTest::addRow("%s profiles", qPrintable(sample)) << tau.filePath(sample) << false;
            QTest::addRow("%s snapshots", qPrintable(sample)) << tau.filePath(sample) << true;
        }
    }

    void samplesFileByFile()
    {
        // A sample's files arrive one at a time, the highest rank first (so threads arrive out of the
        // readers' order); after each, the poll that reads it parses that file only and the trial
        // is the full read's.
        QFETCH(QString, sample);
        QFETCH(bool, snapshots);
        QTemporaryDir stage;
        QString from = sample;
        if (snapshots) {
            // The sample as TAU's snapshot files (one snapshot per thread).
            QCOMPARE(TauSnapshotWriter::write(*mustLoad(sample), stage.path()), QString());
            from = stage.path();
        }
        const QString prefix = snapshots ? QStringLiteral("snapshot.") : QStringLiteral("profile.");
        QStringList files = threadFiles(from, prefix);
        QVERIFY(files.size() >= 2);
        std::reverse(files.begin(), files.end());
        QTemporaryDir dir;
        LiveDirectory live(dir.path());
        for (const QString& file : files) {
            QVERIFY(copyFile(QDir(from).filePath(file), dir.filePath(file)));
            const LiveDirectory::Update update = settle(live);
            QVERIFY2(update.trial, qPrintable(update.error));
            QCOMPARE(live.filesParsedLastPoll(), 1);
            const TrialResult full = load(dir.path(), true);
            QVERIFY2(full.ok(), qPrintable(full.ok() ? QString() : full.error().toString()));
            compareWithFullRead(*update.trial, *full.value());
            if (QTest::currentTestFailed())
                return;
        }
        // Each file once, and the first twice: alone it was the whole directory, read whole; the
        // poll that saw the second file read it on its own.
        QCOMPARE(live.filesParsed(), qint64(files.size()) + 1);
        // Nothing changed: nothing parsed, no update.
        QVERIFY(!live.poll().trial);
        QCOMPARE(live.filesParsedLastPoll(), 0);
    }

    void oneOf64FilesChanges()
    {
        SynthOptions o;
        o.threads = 64;
        o.events = 30;
        o.callpathDepth = 2;
        o.userEvents = 3;
        o.snapshots = 2;
        const std::shared_ptr<const Trial> run = synthesizeTrial(o);
        QTemporaryDir stage;
        for (int k = 0; k < 2; ++k)
            QCOMPARE(TauWriter::write(*asOf(*run, std::size_t(k)), stage.filePath(QString::number(k))), QString());
        const QDir dump0(stage.filePath(QStringLiteral("0")));
        const QDir dump1(stage.filePath(QStringLiteral("1")));
        const QStringList files = threadFiles(dump0.path(), QStringLiteral("profile."));
        QCOMPARE(files.size(), 64);
        QTemporaryDir dir;
        for (const QString& f : files)
            QVERIFY(copyFile(dump0.filePath(f), dir.filePath(f)));
        LiveDirectory live(dir.path());
        LiveDirectory::Update update = settle(live);
        QVERIFY(update.trial);
        QCOMPARE(live.filesParsedLastPoll(), 64); // all new: read whole
        QCOMPARE(update.trial->threadCount(), std::size_t(64));

        auto readWhole = [&] {
            const TrialResult full = load(dir.path(), true);
            return full.ok() ? full.value() : nullptr;
        };
        // One rank dumps again: the poll that sees it reads the 63 others on their own (once, after
        // the whole read), the next one the changed file only.
        const QString& changed = files[17];
        QVERIFY(copyFile(dump1.filePath(changed), dir.filePath(changed)));
        update = live.poll();
        QVERIFY(!update.trial);
        QCOMPARE(update.waitingOn, QStringList { changed });
        QCOMPARE(live.filesParsedLastPoll(), 63);
        update = live.poll();
        QVERIFY(update.trial);
        QCOMPARE(live.filesParsedLastPoll(), 1);
        QCOMPARE(update.trial->threadCount(), std::size_t(64));
        compareWithFullRead(*update.trial, *readWhole());
        for (std::size_t t = 0; t < 64; ++t) {
            const ThreadIndex mine = update.trial->findThread(run->threadKey(ThreadIndex(t)));
            const auto& series = update.trial->timeSeries(mine);
            QCOMPARE(series.size(), std::size_t(2)); // the first read, then this update: each once
            const bool isChanged = QStringLiteral("profile.%1.%2.%3")
                                       .arg(run->threadKey(ThreadIndex(t)).node)
                                       .arg(run->threadKey(ThreadIndex(t)).context)
                                       .arg(run->threadKey(ThreadIndex(t)).thread)
                == changed;
            QCOMPARE(cellsByName(*update.trial, series[1].row),
                cellsByName(*run, run->timeSeries(ThreadIndex(t))[isChanged ? 1 : 0].row));
        }

        // A half-written file: parsed once, not used, not parsed again while it stays so.
        const QString& half = files[40];
        QFile whole(dump1.filePath(half));
        QVERIFY(whole.open(QIODevice::ReadOnly));
        const QByteArray bytes = whole.readAll();
        writeText(dir.filePath(half), bytes.left(bytes.size() / 2));
        update = settle(live);
        QVERIFY(!update.trial);
        QCOMPARE(live.filesParsedLastPoll(), 1);
        QVERIFY(update.waitingOn.contains(half));
        QVERIFY(!update.error.isEmpty());
        update = live.poll();
        QVERIFY(!update.trial);
        QCOMPARE(live.filesParsedLastPoll(), 0);
        QVERIFY(update.waitingOn.contains(half));
        const std::shared_ptr<const Trial> before = live.trial();
        QVERIFY(copyFile(dump1.filePath(half), dir.filePath(half)));
        update = settle(live);
        QVERIFY(update.trial);
        QVERIFY(update.trial != before);
        QCOMPARE(live.filesParsedLastPoll(), 1);
        compareWithFullRead(*update.trial, *readWhole());

        // A removed file: its thread leaves the trial, nothing is parsed.
        QVERIFY(QFile::remove(dir.filePath(files[5])));
        update = live.poll();
        QVERIFY(update.trial);
        QCOMPARE(live.filesParsedLastPoll(), 0);
        QCOMPARE(update.trial->threadCount(), std::size_t(63));
        compareWithFullRead(*update.trial, *readWhole());
        // Other files in the directory are not looked at.
        writeText(dir.filePath(QStringLiteral("notes.txt")), "not a profile\n");
        QVERIFY(!settle(live).trial);
        QCOMPARE(live.filesParsedLastPoll(), 0);
    }

    void snapshotFileGrows()
    {
        // Snapshot files: the first snapshot of each thread, then one file grows by a snapshot; only
        // that file is parsed (again whole), and the trial, now with a time series, is the full read's.
        const QDir source(m_stage.filePath(QStringLiteral("snapshots")));
        const QStringList files = threadFiles(source.path(), QStringLiteral("snapshot."));
        QCOMPARE(files.size(), 8);
        QTemporaryDir dir;
        auto fragments = [&](const QString& f, int upTo) {
            QFile in(source.filePath(f));
            if (!in.open(QIODevice::ReadOnly))
                return QByteArray();
            const QByteArray all = in.readAll();
            qsizetype end = 0;
            for (int k = 0; k < upTo; ++k)
                end = all.indexOf("</profile_xml>\n", end) + 15;
            return all.left(end);
        };
        for (const QString& f : files)
            writeText(dir.filePath(f), fragments(f, 1));
        LiveDirectory live(dir.path());
        LiveDirectory::Update update = settle(live);
        QVERIFY(update.trial);
        QCOMPARE(live.filesParsedLastPoll(), 8); // read whole
        QVERIFY(!update.trial->hasTimeSeries());
        compareWithFullRead(*update.trial, *mustLoad(dir.path()));
        writeText(dir.filePath(files[3]), fragments(files[3], 2));
        update = settle(live);
        QVERIFY(update.trial);
        QCOMPARE(live.filesParsedLastPoll(), 1);
        QVERIFY(update.trial->hasTimeSeries());
        compareWithFullRead(*update.trial, *mustLoad(dir.path()));
        // A second file grows: one file parsed.
        writeText(dir.filePath(files[6]), fragments(files[6], 3));
        update = settle(live);
        QVERIFY(update.trial);
        QCOMPARE(live.filesParsedLastPoll(), 1);
        compareWithFullRead(*update.trial, *mustLoad(dir.path()));
        // Every file grows: read whole (as many reads of one file would be slower), the same trial.
        for (const QString& f : files)
            writeText(dir.filePath(f), fragments(f, 3));
        update = settle(live);
        QVERIFY(update.trial);
        QCOMPARE(live.filesParsedLastPoll(), 8);
        compareWithFullRead(*update.trial, *mustLoad(dir.path()));
    }
};

QTEST_GUILESS_MAIN(TestLiveDirectory)
#include "tst_livedirectory.moc"
