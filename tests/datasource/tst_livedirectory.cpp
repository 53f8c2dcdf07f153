// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Monitoring a directory a running application writes (issue 19 §2, datasource/live/livedirectory.h).
// A writer process (a shell script) plays the application: it rewrites the TAU profile files of each
// dump (cumulative values, as TAU_PROFILE dumps do) at intervals, one file of each dump first half-
// written and completed a moment later; or it appends one fragment per snapshot to snapshot files.
// The monitor polls meanwhile. Every snapshot of the series it builds must be exactly one of the dumps
// the writer wrote (never a half-read file), each dump must be in it once and in order (nothing lost
// or counted twice), and the last one must equal the final files read directly.
#include "datasource/live/livedirectory.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/synth/synth.h"
#include "datasource/writers/tausnapshotwriter.h"
#include "datasource/writers/tauwriter.h"
#include "tests/common/testutil.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

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
};

QTEST_GUILESS_MAIN(TestLiveDirectory)
#include "tst_livedirectory.moc"
