// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// bench_history: `parallax-cli history --db` over many trials (issue 17 §4: 200 trials of 1,024
// threads in the SQLite database < 2 s), as JSON lines.
//   bench_history [--trials N] [--threads T] [--events E] [--runs R] [--load-runs L] [--keep FILE]
// Makes N synthesized trials (`parallax-cli synth --threads T --events E`, one trial per seed 1...N is
// not a history: every seed names its events differently, so all have seed 1's events and each gets
// its values scaled by a night factor) and uploads them into a temporary SQLite database (timed once,
// not part of the figure). Then the median of R runs of the history of the top 10 events (default
// statistic, mean exclusive) through the stored derived rows, and of L runs through loading every
// trial (--load-trials), the whole parallax-cli process each; both outputs must be identical.
#include "datasource/model/trialbuilder.h"
#include "perfdb/database.h"
#include "tests/bench/benchutil.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <cstdio>
#include <cstring>

using namespace parallax;
using namespace parallax::bench;

namespace {

struct CliResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

CliResult runCli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(PARALLAX_CLI), args);
    p.waitForFinished(-1);
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

/// `trial` with every interval value multiplied by `factor` and the metadata Night = night.
std::shared_ptr<Trial> night(const Trial& trial, double factor, int night)
{
    TrialBuilder b(QStringLiteral("night %1").arg(night));
    for (std::size_t m = 0; m < trial.metricCount(); ++m)
        b.addMetric(trial.metric(MetricId(m)));
    for (std::size_t e = 0; e < trial.eventCount(); ++e) {
        b.addEvent(trial.event(EventId(e)).name, trial.groupNames(trial.event(EventId(e))));
    }
    const std::size_t metrics = trial.metricCount();
    std::vector<double> excl(metrics);
    std::vector<double> incl(metrics);
    for (std::size_t t = 0; t < trial.threadCount(); ++t) {
        const ThreadIndex thread = b.addThread(trial.threadKey(ThreadIndex(t)));
        const RowView row = trial.row(ThreadIndex(t));
        for (std::size_t i = 0; i < row.size(); ++i) {
            for (std::size_t m = 0; m < metrics; ++m) {
                excl[m] = row.exclusive(m, i) * factor;
                incl[m] = row.inclusive(m, i) * factor;
            }
            b.addInterval(thread, row.events[i], row.calls[i], row.subrs[i], excl, incl);
        }
    }
    b.addMetadata(QStringLiteral("Night"), QString::number(night));
    return b.build();
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const char* usage
        = "bench_history [--trials N] [--threads T] [--events E] [--runs R] [--load-runs L] [--keep FILE]";
    int trials = 200;
    int loadRuns = 5;
    QString keep;
    SynthBenchOptions o;
    o.threads = 1024;
    o.events = 50;
    if (!parseSynthBenchOptions(argc, argv, o, usage, [&](const char* name, const auto& value) {
            if (std::strcmp(name, "--keep") == 0)
                keep = QString::fromLocal8Bit(value());
            else if (std::strcmp(name, "--trials") == 0)
                trials = std::max(1, std::atoi(value()));
            else if (std::strcmp(name, "--load-runs") == 0)
                loadRuns = std::max(1, std::atoi(value()));
            else
                return false;
            return true;
        }))
        return 1;
    if (!o.directories.empty()) {
        std::fprintf(stderr, "usage: %s\n", usage);
        return 1;
    }
    const int runs = o.runs;
    SynthOptions so;
    so.threads = o.threads;
    so.events = o.events;
    so.userEvents = 0;
    QTemporaryDir dir;
    const QString db = keep.isEmpty() ? dir.filePath(QStringLiteral("history.sqlite")) : keep;
    QFile::remove(db);
    const std::shared_ptr<const Trial> base = synthesizeTrial(so);
    {
        auto opened = perfdb::Database::open(db);
        if (!opened) {
            std::fprintf(stderr, "%s\n", qPrintable(opened.error().toString()));
            return 1;
        }
        double synthMs = 0;
        double uploadMs = 0;
        for (int n = 1; n <= trials; ++n) {
            QElapsedTimer timer;
            timer.start();
            // 1 % wobble from night to night, 8 % slower from night 2N/3 on.
            const double factor = (1.0 + 0.01 * ((n * 37) % 7 - 3) / 3.0) * (n >= 2 * trials / 3 ? 1.08 : 1.0);
            const auto t = night(*base, factor, n);
            synthMs += ms(timer);
            timer.restart();
            perfdb::UploadOptions uo;
            uo.application = QStringLiteral("bench");
            uo.experiment = QStringLiteral("nightly");
            Progress progress;
            const auto id = opened.value()->uploadTrial(*t, uo, progress);
            if (!id) {
                std::fprintf(stderr, "%s\n", qPrintable(id.error().toString()));
                return 1;
            }
            uploadMs += ms(timer);
        }
        std::printf("{\"bench\":\"history\",\"case\":\"upload\",\"trials\":%d,\"threads\":%d,\"events\":%d,"
                    "\"make_ms\":%.0f,\"upload_ms\":%.0f,\"db_mb\":%.1f,\"load\":%.2f}\n",
            trials, so.threads, so.events, synthMs, uploadMs, static_cast<double>(QFileInfo(db).size()) / 1048576.0,
            loadAverage());
        std::fflush(stdout);
    }
    const QStringList args { QStringLiteral("history"), QStringLiteral("--db"), db, QStringLiteral("--app"),
        QStringLiteral("bench"), QStringLiteral("--order-by"), QStringLiteral("Night"), QStringLiteral("--json") };
    QByteArray summaryOut;
    QByteArray loadOut;
    bool failed = false;
    auto time = [&](const char* what, int n, const QStringList& a, QByteArray& out) {
        const std::vector<double> t = timeRuns(n, [&] {
            const CliResult r = runCli(a);
            if (r.exitCode != 0) {
                std::fprintf(stderr, "%s: exit %d: %s\n", what, r.exitCode, r.err.constData());
                failed = true;
            }
            out = r.out;
        });
        std::printf("{\"bench\":\"history\",\"case\":\"%s\",\"trials\":%d,\"threads\":%d,\"runs\":%d,"
                    "\"median_ms\":%.0f,\"min_ms\":%.0f,\"max_ms\":%.0f,\"load\":%.2f}\n",
            what, trials, so.threads, n, median(t), *std::min_element(t.begin(), t.end()),
            *std::max_element(t.begin(), t.end()), loadAverage());
        std::fflush(stdout);
    };
    time("stored derived rows", runs, args, summaryOut);
    time("load every trial", loadRuns, args + QStringList { QStringLiteral("--load-trials") }, loadOut);
    const bool identical = !summaryOut.isEmpty() && summaryOut == loadOut;
    std::printf(
        "{\"bench\":\"history\",\"case\":\"identical output\",\"identical\":%s}\n", identical ? "true" : "false");
    return failed || !identical ? 1 : 0;
}
