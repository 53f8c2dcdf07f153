// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// bench_live: the live directory's update (issue 19 §2, target: an update of a 1,024-rank trial with
// 200 events visible < 1 s after its files are complete). A T-rank x E-event run (PDT-like, with
// TAU's metadata block) is written as profile.N.C.T files; then one rank's file, and then every
// file, is rewritten, and the poll that reads the change is timed (median of R):
//   - before: what a poll did before it read file by file: the whole directory read strictly
//     through the ReaderRegistry (no cache) and the dump appended as the next snapshot;
//   - after: LiveDirectory::poll(): one file changed, it parses that file and joins the kept reads
//     (the poll that saw the change, after a whole read, read the unchanged files on their own:
//     timed apart); every file changed, it reads the directory whole.
// Then snapshot.N.C.T files with S snapshots per thread grow by one snapshot in one file (the
// grown file is parsed again whole) and in every file.
// A change is read on the poll after the one that saw it (a file must keep its size and time for
// one poll): in the GUI, LiveMonitor::PollMs (250 ms) after the watcher's notice, so the update is
// visible PollMs + the poll's time after the files are complete.
// bench_live [--runs R] [--threads T] [--events E] [--snapshots S]
#include "datasource/live/livedirectory.h"
#include "datasource/live/snapshotappend.h"
#include "datasource/writers/tausnapshotwriter.h"
#include "datasource/writers/tauwriter.h"
#include "tests/bench/benchutil.h"

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>
#include <cstdio>

using namespace parallax;
using namespace parallax::bench;

namespace {

/// Polls until a poll returns a trial (the change seen, then read); the time of the reading poll, and
/// in `seenMs` the time of the polls before it (the one that saw the change reads the unchanged files
/// after a whole read).
double timedUpdate(LiveDirectory& live, int* parsed, double* seenMs = nullptr)
{
    if (seenMs)
        *seenMs = 0;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer timer;
        timer.start();
        const LiveDirectory::Update u = live.poll();
        const double t = ms(timer);
        if (u.trial) {
            *parsed = live.filesParsedLastPoll();
            return t;
        }
        if (seenMs)
            *seenMs += t;
        if (!u.error.isEmpty()) {
            std::fprintf(stderr, "poll error: %s\n", qPrintable(u.error));
            return -1;
        }
    }
    return -1;
}

/// The old poll: the whole directory read strictly, the dump appended as the next snapshot (the
/// append's share in `appendMs`).
double wholeRead(const QString& dir, const std::shared_ptr<const Trial>& previous, std::vector<double>* appendMs)
{
    QElapsedTimer timer;
    timer.start();
    ReadOptions options;
    options.strict = true;
    options.useCache = false;
    Progress progress;
    const TrialResult read = ReaderRegistry::instance().read(dir, options, progress);
    if (!read)
        return -1;
    if (previous->hasTimeSeries() && read.value()->hasTimeSeries())
        return ms(timer); // snapshot files: the read is the trial
    const double readMs = ms(timer);
    appendSnapshot(*previous, *read.value(), { QStringLiteral("update 1"), 0 }, {}, { QStringLiteral("live") });
    if (appendMs)
        appendMs->push_back(ms(timer) - readMs);
    return ms(timer);
}

bool copyOver(const QString& from, const QString& to)
{
    QFile::remove(to);
    return QFile::copy(from, to);
}

/// The first `count` snapshots of a snapshot file's bytes.
QByteArray firstSnapshots(const QByteArray& all, int count)
{
    qsizetype end = 0;
    for (int k = 0; k < count; ++k)
        end = all.indexOf("</profile_xml>\n", end) + 15;
    return all.left(end);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int runs = 5;
    int threads = 1024;
    int events = 200;
    int snapshots = 4;
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--runs"))
            runs = args[++i].toInt();
        else if (args[i] == QLatin1String("--threads"))
            threads = args[++i].toInt();
        else if (args[i] == QLatin1String("--events"))
            events = args[++i].toInt();
        else if (args[i] == QLatin1String("--snapshots"))
            snapshots = args[++i].toInt();
    }
    std::printf("bench_live: %d ranks x %d events, median of %d, load %.2f\n", threads, events, runs, loadAverage());

    SynthOptions o;
    o.threads = threads;
    o.events = events;
    o.realistic = true;
    QTemporaryDir stage;
    for (std::uint64_t seed : { 1, 2 }) {
        o.seed = seed;
        const QString error = TauWriter::write(*synthesizeTrial(o), stage.filePath(QString::number(seed)));
        if (!error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
    }
    const QDir dumpA(stage.filePath(QStringLiteral("1")));
    const QDir dumpB(stage.filePath(QStringLiteral("2")));
    const QStringList files = dumpA.entryList({ QStringLiteral("profile.*") }, QDir::Files, QDir::Name);
    std::printf("profile files: %lld, %.1f MB\n", static_cast<long long>(files.size()),
        static_cast<double>(inputBytes(dumpA.path())) / 1e6);

    QTemporaryDir dir;
    for (const QString& f : files)
        copyOver(dumpA.filePath(f), dir.filePath(f));
    LiveDirectory live(dir.path());
    int parsed = 0;
    const double first = timedUpdate(live, &parsed);
    std::printf("first read (all new: the directory read whole, %d files): %.1f ms\n", parsed, first);
    const double idle = timeMedian(runs, [&] { live.poll(); });
    std::printf("a poll that finds nothing changed (the directory listed): %.1f ms\n", idle);

    // One rank's file, then every file, changes; each run flips between the two dumps.
    std::vector<double> oneBefore, oneAfter, allBefore, allAfter, append;
    int oneParsed = 0;
    int allParsed = 0;
    std::vector<double> catchUp;
    for (int r = 0; r < runs; ++r) {
        const QDir& next = r % 2 == 0 ? dumpB : dumpA;
        copyOver(next.filePath(files[files.size() / 2]), dir.filePath(files[files.size() / 2]));
        oneBefore.push_back(wholeRead(dir.path(), live.trial(), &append));
        double seen = 0;
        oneAfter.push_back(timedUpdate(live, &oneParsed, &seen));
        catchUp.push_back(seen);
        for (const QString& f : files)
            copyOver(next.filePath(f), dir.filePath(f));
        allBefore.push_back(wholeRead(dir.path(), live.trial(), &append));
        allAfter.push_back(timedUpdate(live, &allParsed));
    }
    std::printf("profile files, one file changed:  before (whole read) %8.1f ms   after (%4d file parsed) %8.1f ms\n",
        median(oneBefore), oneParsed, median(oneAfter));
    std::printf("  the poll that saw it, after a whole read (the %lld unchanged files read on their own): %.1f ms\n",
        static_cast<long long>(files.size() - 1), median(catchUp));
    std::printf("profile files, all files changed: before (whole read) %8.1f ms   after (%4d files parsed) %8.1f ms\n",
        median(allBefore), allParsed, median(allAfter));
    std::printf("  of which appending the dump to the time series (%zu to %zu updates, in both): %.1f ms\n",
        live.trial()->timeSeries(ThreadIndex(std::size_t { 0 })).size() - 2 * static_cast<std::size_t>(runs),
        live.trial()->timeSeries(ThreadIndex(std::size_t { 0 })).size(), median(append));

    // Snapshot files growing by one snapshot.
    o.seed = 1;
    o.snapshots = snapshots;
    QTemporaryDir snapStage;
    const QString error = TauSnapshotWriter::write(*synthesizeTrial(o), snapStage.path());
    if (!error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    const QDir snapDir(snapStage.path());
    const QStringList snapFiles = snapDir.entryList({ QStringLiteral("snapshot.*") }, QDir::Files, QDir::Name);
    std::vector<QByteArray> contents;
    for (const QString& f : snapFiles) {
        QFile in(snapDir.filePath(f));
        if (!in.open(QIODevice::ReadOnly))
            return 1;
        contents.push_back(in.readAll());
    }
    auto writeFirst = [&](const QString& target, std::size_t i, int count) {
        QFile out(QDir(target).filePath(snapFiles[static_cast<qsizetype>(i)]));
        if (out.open(QIODevice::WriteOnly))
            out.write(firstSnapshots(contents[i], count));
    };
    std::printf("snapshot files: %lld, %d snapshots each, %.1f MB\n", static_cast<long long>(snapFiles.size()),
        snapshots, static_cast<double>(inputBytes(snapStage.path())) / 1e6);
    std::vector<double> growOneBefore, growOne, growAll;
    for (int r = 0; r < runs; ++r) {
        QTemporaryDir grow;
        for (std::size_t i = 0; i < contents.size(); ++i)
            writeFirst(grow.path(), i, snapshots - 1);
        LiveDirectory snapLive(grow.path());
        timedUpdate(snapLive, &parsed);
        writeFirst(grow.path(), contents.size() / 2, snapshots);
        growOneBefore.push_back(wholeRead(grow.path(), snapLive.trial(), nullptr));
        growOne.push_back(timedUpdate(snapLive, &oneParsed));
        for (std::size_t i = 0; i < contents.size(); ++i)
            writeFirst(grow.path(), i, snapshots);
        growAll.push_back(timedUpdate(snapLive, &allParsed));
    }
    std::printf("snapshot files, one file grew (parsed again whole): before (whole read) %8.1f ms   after (%4d file "
                "parsed) %8.1f ms\n",
        median(growOneBefore), oneParsed, median(growOne));
    std::printf("snapshot files, all files grew: after (%4d files parsed) %8.1f ms\n", allParsed, median(growAll));
    std::printf("peak resident memory: %.0f MB\n", peakRssMb());
    return 0;
}
