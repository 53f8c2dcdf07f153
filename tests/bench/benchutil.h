// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// What every benchmark in tests/bench measures and reads the same way: the median of runs, the
// machine's load, CPU time and memory of this process, input sizes, and the big synthesized trials
// (generated once with `parallax-cli synth`, docs/HACKING.md). Benchmarks print figures; they are
// not tests.
#pragma once

#include "datasource/readers/readerregistry.h"
#include "datasource/synth/synth.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStringList>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace parallax::bench {

/// The median of the values (the mean of the middle two for an even count); -1 for none.
inline double median(std::vector<double> values)
{
    if (values.empty())
        return -1;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// The wall times of `runs` calls of f, in milliseconds, in call order.
inline std::vector<double> timeRuns(int runs, const std::function<void()>& f)
{
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
        QElapsedTimer timer;
        timer.start();
        f();
        t.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    return t;
}

/// The median wall time of `runs` calls of f, in milliseconds.
inline double timeMedian(int runs, const std::function<void()>& f) { return median(timeRuns(runs, f)); }

/// The 1-minute load average of the machine; -1 when /proc/loadavg cannot be read.
inline double loadAverage()
{
    double load = -1;
    if (FILE* f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &load) != 1)
            load = -1;
        std::fclose(f);
    }
    return load;
}

inline double seconds(const timeval& tv)
{
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

/// The time on a running timer, in milliseconds.
inline double ms(const QElapsedTimer& timer) { return static_cast<double>(timer.nsecsElapsed()) / 1e6; }

/// User plus system CPU time of this process so far, in seconds.
inline double cpuSeconds()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// The peak resident memory of this process, in MB.
inline double peakRssMb()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

/// The resident memory of this process now, in MB; -1 when /proc/self/statm cannot be read.
inline double residentMb()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    if (fields.size() < 2)
        return -1;
    return fields[1].toDouble() * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

/// The size of a file, or of all files below a directory.
inline qint64 inputBytes(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isDir())
        return info.size();
    qint64 total = 0;
    QDirIterator it(path, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

/// A progress that prints how long each stage took (stderr), to see where the time goes.
class StageClock {
public:
    StageClock() { m_timer.start(); }
    ~StageClock() { stop(); }
    /// Prints the running stage.
    void stop()
    {
        if (!m_stage.isEmpty())
            std::fprintf(stderr, "  %-40s %8.3f s  %7.0f MB resident\n", qPrintable(m_stage),
                static_cast<double>(m_timer.nsecsElapsed() - m_start) / 1e9, residentMb());
        m_stage.clear();
    }
    Progress::Callback callback()
    {
        return [this](const QString& stage, qint64, qint64) {
            if (stage == m_stage)
                return;
            stop();
            m_stage = stage;
            m_start = m_timer.nsecsElapsed();
        };
    }

private:
    QElapsedTimer m_timer;
    QString m_stage;
    qint64 m_start = 0;
};

/// Reads a trial with whichever reader the registry picks; prints the error and returns null on failure.
inline std::shared_ptr<const Trial> readTrial(const QString& path)
{
    Progress progress;
    auto result = ReaderRegistry::instance().read(path, ReadOptions {}, progress);
    if (!result.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(result.error().toString()));
        return nullptr;
    }
    return result.value();
}

/// Makes `dir` with `cli synth <synthArguments> dir` unless it exists; false (and a message) when
/// the generator fails.
inline bool synthesizeUnlessPresent(const QString& cli, const QString& dir, const QStringList& synthArguments)
{
    if (QFileInfo::exists(dir))
        return true;
    std::fprintf(stderr, "generating %s\n", qPrintable(dir));
    const int rc
        = QProcess::execute(cli, QStringList { QStringLiteral("synth") } + synthArguments + QStringList { dir });
    if (rc != 0)
        std::fprintf(stderr, "parallax-cli synth failed (%d)\n", rc);
    return rc == 0;
}

/// The arguments of the 16,384-thread x 101-event trial with call paths and user events that the
/// overview and database benchmarks share (/tmp/parallax-bench-16384x101).
inline QStringList overviewTrialArguments()
{
    return { QStringLiteral("--threads"), QStringLiteral("16384"), QStringLiteral("--events"), QStringLiteral("101"),
        QStringLiteral("--callpath-depth"), QStringLiteral("2"), QStringLiteral("--user-events"), QStringLiteral("5"),
        QStringLiteral("--seed"), QStringLiteral("1") };
}

/// The command line of the benchmarks on big synthesized trials (bench_algebra, bench_semantic):
/// --runs N, --threads T, --events E, --workers W, the benchmark's own options, and directories to
/// read instead of synthesizing.
struct SynthBenchOptions {
    int runs = 5;
    int threads = 16384;
    int events = 201;
    int workers = 0;
    std::vector<const char*> directories;
};

/// Parses argv into `o`. `own(name, value)` takes the benchmark's own options (`value()` consumes
/// the next argument) and returns false for a name it does not know; then `usage` is printed and
/// false returned.
template <typename Own>
bool parseSynthBenchOptions(int argc, char** argv, SynthBenchOptions& o, const char* usage, Own&& own)
{
    for (int i = 1; i < argc; ++i) {
        auto value = [&]() { return i + 1 < argc ? argv[++i] : ""; };
        const char* name = argv[i];
        if (std::strcmp(name, "--runs") == 0)
            o.runs = std::max(1, std::atoi(value()));
        else if (std::strcmp(name, "--threads") == 0)
            o.threads = std::max(1, std::atoi(value()));
        else if (std::strcmp(name, "--events") == 0)
            o.events = std::max(1, std::atoi(value()));
        else if (std::strcmp(name, "--workers") == 0)
            o.workers = std::max(0, std::atoi(value()));
        else if (name[0] != '-')
            o.directories.push_back(name);
        else if (!own(name, value)) {
            std::fprintf(stderr, "usage: %s\n", usage);
            return false;
        }
    }
    return true;
}

/// The trial of a benchmark: read from `dir`, or (no `dir`) synthesized like `parallax-cli synth
/// --threads T --events E --seed S`; null when reading failed.
inline std::shared_ptr<const Trial> synthBenchTrial(const char* dir, const SynthBenchOptions& o, std::uint64_t seed)
{
    if (dir)
        return readTrial(QString::fromLocal8Bit(dir));
    SynthOptions synth;
    synth.threads = o.threads;
    synth.events = o.events;
    synth.seed = seed;
    return synthesizeTrial(synth);
}

} // namespace parallax::bench
