// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// parallax-bench: measures wall time, CPU time and peak resident memory.
//   parallax-bench --load DIR                 load a trial in this process, print its figures
//   parallax-bench ppk PATH [--runs N] [--out FILE.ppk]
//                                            time the ppk reader (median of N, default 5): PATH is
//                                            a .ppk file, or any trial (e.g. a TAU directory) that is
//                                            first written as FILE.ppk (default /tmp/<name>.ppk)
//   parallax-bench snapshot [--runs N] [--threads T] [--events E] [--from TRIAL] [--sample FILE] [--out FILE]
//                                            time the snapshot / merged XML reader (median of N, default
//                                            5) on the merged sample, then on a T x E merged XML (default
//                                            16384 x 101, generated, or TRIAL written as merged XML) and
//                                            its gzip; prints MB/s and events x threads / s
//   parallax-bench cube [--runs N] [--synthetic LOCATIONSxCNODES] [FILE]
//                                            time the CUBE reader (median of N, default 5) on FILE
//                                            (default: the largest CUBE sample in the data folder), then
//                                            on a generated .cubex (default 1024x1000: 3 metrics, one
//                                            INCLUSIVE, one MINDOUBLE); prints MB/s and events x threads / s
//   parallax-bench read [--runs N] [--format NAME] PATH...
//                                            time whichever reader the registry picks (or NAME) on each
//                                            PATH (file or directory; median of N, default 5); prints
//                                            bytes (a directory's files summed), MB/s and events x threads / s
//   parallax-bench [--runs N] [--label L] -- COMMAND ARGS...
//                                            run a command N times (fresh process each time) and
//                                            print every run and the median, as JSON lines
#include "algebra/statistics.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/cubereader.h"
#include "datasource/readers/ppkreader.h"
#include "datasource/readers/readerregistry.h"
#include "datasource/readers/snapshotreader.h"
#include "datasource/writers/ppkwriter.h"
#include "tests/bench/benchutil.h"
#include "tests/common/minitar.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>
#include <zlib.h>

using namespace parallax;
using namespace parallax::bench;

namespace {

int loadOnce(const char* dir)
{
    QElapsedTimer timer;
    timer.start();
    StageClock clock; // the reader's stages on stderr, to see where the time goes
    Progress progress(clock.callback());
    ReadOptions options;
    options.useCache = false; // the parse path; the trial cache is timed by run_benchmarks.sh
    const auto result = ReaderRegistry::instance().read(QString::fromLocal8Bit(dir), options, progress);
    clock.stop();
    const double loadWall = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    if (!result) {
        std::fprintf(stderr, "%s\n", qPrintable(result.error().toString()));
        return 2;
    }
    const Trial& trial = *result.value();
    timer.restart();
    const auto stats = TrialStatistics::of(trial);
    const double statsWall = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    // Bytes a present cell takes in the trial's row store (issue 18 §2), slots included.
    const double bytesPerCell
        = trial.cellCount() > 0 ? static_cast<double>(trial.cellBytes()) / static_cast<double>(trial.cellCount()) : 0.0;
    std::printf("{\"mode\":\"load\",\"threads\":%zu,\"events\":%zu,\"cells\":%zu,\"bytes_per_cell\":%.2f,"
                "\"load_wall_s\":%.3f,\"stats_wall_s\":%.3f,\"cpu_s\":%.3f,\"peak_rss_mb\":%.1f}\n",
        trial.threadCount(), trial.eventCount(), trial.cellCount(), bytesPerCell, loadWall, statsWall, cpuSeconds(),
        peakRssMb());
    return 0;
}

struct Figures {
    double wall = 0;
    double cpu = 0;
    double rssMb = 0;
};

bool runChild(char** argv, Figures& f)
{
    QElapsedTimer timer;
    timer.start();
    const pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        // Keep the child's output out of the figures.
        if (FILE* null = std::freopen("/dev/null", "w", stdout); !null)
            _exit(126);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    rusage usage {};
    if (wait4(pid, &status, 0, &usage) < 0)
        return false;
    f.wall = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    f.cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    f.rssMb = static_cast<double>(usage.ru_maxrss) / 1024.0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/// `runs` timed reads of one input: the wall and CPU seconds of each, and the shape of the trial.
struct TimedReads {
    std::vector<double> wall;
    std::vector<double> cpu;
    std::size_t threads = 0, events = 0, cells = 0;
    double minWall() const { return *std::min_element(wall.begin(), wall.end()); }
};

/// Reads `path` `runs` times, each trial freed outside the timed region; nullopt (and the error
/// printed) when a read fails.
std::optional<TimedReads> timeReads(const Reader& reader, const QString& path, const ReadOptions& options, int runs)
{
    TimedReads out;
    for (int r = 0; r < runs; ++r) {
        Progress progress;
        const double cpuBefore = cpuSeconds();
        QElapsedTimer timer;
        timer.start();
        auto result = reader.read(path, options, progress);
        out.wall.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e9);
        out.cpu.push_back(cpuSeconds() - cpuBefore);
        if (!result) {
            std::fprintf(stderr, "%s\n", qPrintable(result.error().toString()));
            return std::nullopt;
        }
        out.threads = result.value()->threadCount();
        out.events = result.value()->eventCount();
        out.cells = result.value()->cellCount();
        result = ReadError {}; // free the trial outside the timed region
    }
    return out;
}

/// Inflates the whole file once, to know the uncompressed size and how fast zlib alone goes.
bool inflateOnly(const QString& path, qint64& bytes, double& seconds)
{
    QElapsedTimer timer;
    timer.start();
    gzFile f = gzopen(QFile::encodeName(path).constData(), "rb");
    if (!f)
        return false;
    gzbuffer(f, 256 * 1024);
    std::vector<char> buf(std::size_t { 256 } * 1024);
    bytes = 0;
    int n;
    while ((n = gzread(f, buf.data(), static_cast<unsigned>(buf.size()))) > 0)
        bytes += n;
    gzclose(f);
    seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    return n == 0;
}

int benchPpk(int argc, char* argv[])
{
    int runs = 5;
    QString input;
    QString out;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = QString::fromLocal8Bit(argv[++i]);
        else
            input = QString::fromLocal8Bit(argv[i]);
    }
    if (input.isEmpty()) {
        std::fprintf(stderr, "usage: parallax-bench ppk PATH [--runs N] [--out FILE.ppk]\n");
        return 1;
    }
    const PpkReader reader;
    QString ppk = input;
    if (reader.sniff(input) == 0) {
        // Not a ppk yet: read it with whatever reader fits, write it as ppk, time the writer once.
        Progress progress;
        QElapsedTimer timer;
        timer.start();
        const auto source = ReaderRegistry::instance().read(input, ReadOptions {}, progress);
        if (!source) {
            std::fprintf(stderr, "%s\n", qPrintable(source.error().toString()));
            return 2;
        }
        const double readWall = static_cast<double>(timer.nsecsElapsed()) / 1e9;
        ppk = out.isEmpty() ? QDir::temp().filePath(QFileInfo(input).fileName() + QStringLiteral(".ppk")) : out;
        timer.restart();
        const QString error = PpkWriter::write(*source.value(), ppk);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 2;
        }
        std::printf("{\"mode\":\"ppk-write\",\"source\":\"%s\",\"source_read_wall_s\":%.3f,\"write_wall_s\":%.3f,"
                    "\"ppk\":\"%s\",\"ppk_bytes\":%lld}\n",
            qPrintable(input), readWall, static_cast<double>(timer.nsecsElapsed()) / 1e9, qPrintable(ppk),
            static_cast<long long>(QFileInfo(ppk).size()));
    }
    qint64 raw = 0;
    double inflateWall = 0;
    if (!inflateOnly(ppk, raw, inflateWall)) {
        std::fprintf(stderr, "parallax-bench: cannot inflate %s\n", qPrintable(ppk));
        return 2;
    }
    std::printf("{\"mode\":\"ppk-inflate-only\",\"uncompressed_bytes\":%lld,\"wall_s\":%.3f,\"mb_per_s\":%.1f}\n",
        static_cast<long long>(raw), inflateWall, static_cast<double>(raw) / 1e6 / inflateWall);
    for (const int threads : { 0, 1, 2 }) {
        ReadOptions options;
        options.threads = threads;
        const auto reads = timeReads(reader, ppk, options, runs);
        if (!reads)
            return 2;
        const std::vector<double>& wall = reads->wall;
        const std::size_t threadCount = reads->threads, events = reads->events, cells = reads->cells;
        const double med = median(wall);
        std::printf(
            "{\"mode\":\"ppk-read\",\"reader_threads\":\"%s\",\"runs\":%d,\"threads\":%zu,\"events\":%zu,"
            "\"cells\":%zu,\"median_wall_s\":%.3f,\"min_wall_s\":%.3f,\"median_cpu_s\":%.3f,"
            "\"uncompressed_mb_per_s\":%.1f,"
            "\"events_x_threads_per_s\":%.3g,\"cells_per_s\":%.3g,\"peak_rss_mb\":%.1f,\"loadavg_1min\":%.2f}\n",
            threads == 1       ? "1 (inflate and decode on one thread)"
                : threads == 2 ? "2 (inflate on a second thread)"
                               : "default (inflate on a second thread for files of 1 MiB or more)",
            runs, threadCount, events, cells, med, reads->minWall(), median(reads->cpu),
            static_cast<double>(raw) / 1e6 / med, static_cast<double>(events * threadCount) / med,
            static_cast<double>(cells) / med, peakRssMb(), loadAverage());
    }
    return 0;
}

// ---- snapshot: the TAU snapshot / merged XML reader -------------------------------------------

/// A deterministic trial of `threads` x `events` interval events (one metric, TIME) and 5 user
/// events, built in memory: the shape `parallax-cli synth` writes, without call paths.
std::shared_ptr<Trial> syntheticTrial(int threadCount, int eventCount)
{
    TrialBuilder b(QStringLiteral("synthetic"));
    b.addMetric(Metric(QStringLiteral("TIME"), QStringLiteral("us")));
    std::vector<EventId> events;
    events.push_back(b.addEvent(QStringLiteral(".TAU application"), { QStringLiteral("TAU_DEFAULT") }));
    for (int e = 1; e < eventCount; ++e)
        events.push_back(b.addEvent(QStringLiteral("void routine_%1(int, double *) C [{app.c} {%2,1}-{%3,1}]")
                                        .arg(e)
                                        .arg(10 * e)
                                        .arg(10 * e + 8),
            { e % 4 ? QStringLiteral("TAU_USER") : QStringLiteral("MPI") }));
    std::vector<AtomicEventId> users;
    users.reserve(5);
    for (int u = 0; u < 5; ++u)
        users.push_back(b.addAtomicEvent(
            QStringLiteral("Message size for op %1 : .TAU application => routine_%2()").arg(u).arg(u + 1)));
    std::uint64_t state = 1;
    auto uniform = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / 9007199254740992.0;
    };
    std::vector<IntervalRow> rows(static_cast<std::size_t>(threadCount));
    std::vector<AtomicRow> atomicRows(static_cast<std::size_t>(threadCount));
    for (int t = 0; t < threadCount; ++t) {
        const ThreadIndex ti = b.addThread({ t, 0, 0 });
        b.addThreadMetadata(ti, QStringLiteral("pid"), QString::number(20000 + t));
        b.addThreadMetadata(ti, QStringLiteral("Hostname"), QStringLiteral("node%1.example.org").arg(t / 32));
        b.addThreadMetadata(ti, QStringLiteral("OS Name"), QStringLiteral("Linux"));
        IntervalRow& row = rows[static_cast<std::size_t>(t)];
        double children = 0;
        for (int e = 1; e < eventCount; ++e) {
            if (uniform() < 0.02)
                continue; // some events did not run on some threads
            const double calls = std::floor(1 + uniform() * 1000);
            const double excl = std::floor(uniform() * 2e6);
            row.events.push_back(events[static_cast<std::size_t>(e)]);
            row.calls.push_back(calls);
            row.subrs.push_back(0);
            row.excl.push_back(excl);
            row.incl.push_back(excl);
            children += excl;
        }
        row.events.push_back(events[0]);
        row.calls.push_back(1);
        row.subrs.push_back(static_cast<double>(row.events.size() - 1));
        row.excl.push_back(std::floor(uniform() * 1e5));
        row.incl.push_back(row.excl.back() + children);
        AtomicRow& user = atomicRows[static_cast<std::size_t>(t)];
        for (const AtomicEventId u : users) {
            const double n = std::floor(1 + uniform() * 500);
            const double lo = std::floor(1 + uniform() * 64);
            const double hi = lo + std::floor(uniform() * 1e5);
            const double mean = (lo + hi) / 2;
            user.events.push_back(u);
            user.count.push_back(n);
            user.max.push_back(hi);
            user.min.push_back(lo);
            user.mean.push_back(mean);
            user.sumSquares.push_back(n * mean * mean * 1.25);
        }
    }
    b.setIntervalRows(std::move(rows));
    b.setAtomicRows(std::move(atomicRows));
    return b.build();
}

/// Writes a trial as TAU merged XML (docs/FORMATS.md 4): one definitions fragment (thread "*"), one
/// fragment per thread with rank 0 last and a NUL byte in front (as TAU's merged writer leaves),
/// then the seven derived fragments, computed here.
class MergedXmlWriter {
public:
    bool write(const Trial& trial, const QString& path, bool gzip)
    {
        m_gzip = gzip;
        if (gzip) {
            m_gz = gzopen(QFile::encodeName(path).constData(), "wb1");
            if (!m_gz)
                return false;
        } else {
            m_file.setFileName(path);
            if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate))
                return false;
        }
        const std::size_t metrics = trial.metricCount();
        QByteArray metricDefs;
        QByteArray metricList;
        for (std::size_t m = 0; m < metrics; ++m) {
            metricDefs += "<metric id=\"" + QByteArray::number(static_cast<qulonglong>(m)) + "\"><name>"
                + escaped(trial.metrics()[m].name) + "</name>\n<units>unknown</units>\n</metric>\n";
            metricList += QByteArray::number(static_cast<qulonglong>(m)) + ' ';
        }
        put("<profile_xml>\n\n<definitions thread=\"*\">\n");
        put(metricDefs);
        for (std::size_t e = 0; e < trial.eventCount(); ++e) {
            const IntervalEvent& ev = trial.events()[e];
            QStringList groups;
            for (const GroupId g : ev.groups)
                groups << trial.groupName(g);
            put("<event id=\"" + QByteArray::number(static_cast<qulonglong>(e)) + "\"><name>" + escaped(ev.rawName)
                + "</name><group>" + escaped(groups.join(QLatin1Char('|'))) + "</group></event>\n");
        }
        for (std::size_t u = 0; u < trial.atomicEventCount(); ++u)
            put("<userevent id=\"" + QByteArray::number(static_cast<qulonglong>(u)) + "\"><name>"
                + escaped(trial.atomicEvents()[u].rawName) + "</name></userevent>\n");
        put("\n</definitions>\n</profile_xml>\n");
        const std::size_t n = trial.threadCount();
        for (std::size_t k = 1; k <= n; ++k) {
            const ThreadIndex t(k % n); // rank 0 last
            const ThreadKey& key = trial.threadKey(t);
            const QByteArray id = QByteArray::number(key.node) + '.' + QByteArray::number(key.context) + '.'
                + QByteArray::number(key.thread) + '.' + QByteArray::number(qulonglong { 10000 } + t.index());
            put(QByteArray(1, '\0') + "<profile_xml>\n\n<thread id=\"" + id + "\" node=\""
                + QByteArray::number(key.node) + "\" context=\"" + QByteArray::number(key.context) + "\" thread=\""
                + QByteArray::number(key.thread) + "\">\n<metadata>\n");
            if (t.index() == 0)
                for (const auto& entry : trial.metadata())
                    attribute(trial.strings().get(entry.key), trial.strings().get(entry.value));
            for (const auto& entry : trial.threadMetadata(t))
                attribute(trial.strings().get(entry.key), trial.strings().get(entry.value));
            put("</metadata>\n</thread>\n\n<definitions thread=\"" + id + "\">\n" + metricDefs
                + "</definitions>\n\n<profile thread=\"" + id
                + "\">\n<timestamp>1386218888893418</timestamp>\n<interval_data metrics=\"" + metricList + "\">\n");
            const RowView row = trial.row(t);
            for (std::size_t i = 0; i < row.size(); ++i) {
                number(row.events[i].index());
                number(row.calls[i]);
                number(row.subrs[i]);
                for (std::size_t m = 0; m < metrics; ++m) {
                    number(row.exclusive(m, i));
                    number(row.inclusive(m, i));
                }
                m_buf += '\n';
            }
            put("</interval_data>\n<atomic_data>\n");
            const AtomicRow& user = trial.atomicRow(t);
            for (std::size_t i = 0; i < user.size(); ++i) {
                number(user.events[i].index());
                number(user.count[i]);
                number(user.max[i]);
                number(user.min[i]);
                number(user.mean[i]);
                number(user.sumSquares[i]);
                m_buf += '\n';
            }
            put("</atomic_data>\n</profile>\n\n</profile_xml>\n");
        }
        writeDerived(trial);
        flush();
        if (m_gzip)
            return gzclose(m_gz) == Z_OK;
        m_file.close();
        return m_file.error() == QFileDevice::NoError;
    }

private:
    /// Per id: the statistics of one field over the threads where the id is present.
    struct Acc {
        double sum = 0, sumSq = 0, min = 0, max = 0;
        std::size_t present = 0;
        void add(double v)
        {
            min = present ? std::min(min, v) : v;
            max = present ? std::max(max, v) : v;
            sum += v;
            sumSq += v * v;
            ++present;
        }
        double value(int which, double n) const
        {
            const double k = static_cast<double>(present);
            const double meanPresent = present ? sum / k : 0;
            const double meanAll = sum / n;
            switch (which) {
            case 0:
                return sum; // total
            case 1:
                return meanAll; // mean_all
            case 2:
                return meanPresent; // mean_no_null
            case 3:
                return n > 1 ? std::sqrt(std::abs(sumSq / n - meanAll * meanAll)) : 0; // stddev_all
            case 4:
                return present > 1 ? std::sqrt(std::abs(sumSq / k - meanPresent * meanPresent)) : 0; // stddev_no_null
            case 5:
                return min; // min_no_null
            default:
                return max; // max_no_null
            }
        }
    };

    void writeDerived(const Trial& trial)
    {
        const std::size_t metrics = trial.metricCount();
        const std::size_t fields = 2 + 2 * metrics;
        std::vector<Acc> interval(trial.eventCount() * fields);
        std::vector<Acc> user(trial.atomicEventCount() * 5);
        for (std::size_t t = 0; t < trial.threadCount(); ++t) {
            const RowView row = trial.row(ThreadIndex(t));
            for (std::size_t i = 0; i < row.size(); ++i) {
                Acc* a = &interval[row.events[i].index() * fields];
                a[0].add(row.calls[i]);
                a[1].add(row.subrs[i]);
                for (std::size_t m = 0; m < metrics; ++m) {
                    a[2 + 2 * m].add(row.exclusive(m, i));
                    a[3 + 2 * m].add(row.inclusive(m, i));
                }
            }
            const AtomicRow& u = trial.atomicRow(ThreadIndex(t));
            for (std::size_t i = 0; i < u.size(); ++i) {
                Acc* a = &user[std::size_t { u.events[i].index() } * 5];
                a[0].add(u.count[i]);
                a[1].add(u.max[i]);
                a[2].add(u.min[i]);
                a[3].add(u.mean[i]);
                a[4].add(u.sumSquares[i]);
            }
        }
        const double n = static_cast<double>(trial.threadCount());
        QByteArray metricList;
        for (std::size_t m = 0; m < metrics; ++m)
            metricList += QByteArray::number(static_cast<qulonglong>(m)) + ' ';
        const char* const entities[]
            = { "total", "mean_all", "mean_no_null", "stddev_all", "stddev_no_null", "min_no_null", "max_no_null" };
        for (int d = 0; d < 7; ++d) {
            const QByteArray entity(entities[d]);
            const QByteArray element = d >= 5 ? entity + "_derivedprofile" : QByteArray("derivedprofile");
            put(QByteArray(d == 0 ? 1 : 0, '\0') + "<profile_xml>\n<derivedentity id=\"" + entity
                + "\">\n</derivedentity>\n<" + element + " derivedentity=\"" + entity
                + "\">\n<derivedinterval_data metrics=\"" + metricList + "\">\n");
            for (std::size_t e = 0; e < trial.eventCount(); ++e) {
                const Acc* a = &interval[e * fields];
                if (a[0].present == 0)
                    continue;
                number(static_cast<double>(e));
                for (std::size_t f = 0; f < fields; ++f)
                    number(a[f].value(d, n));
                m_buf += '\n';
            }
            put("</derivedinterval_data>\n<derivedatomic_data>\n");
            for (std::size_t u = 0; u < trial.atomicEventCount(); ++u) {
                const Acc* a = &user[u * 5];
                if (a[0].present == 0)
                    continue;
                number(static_cast<double>(u));
                for (int f = 0; f < 5; ++f)
                    number(a[f].value(d, n));
                m_buf += '\n';
            }
            put("</derivedatomic_data>\n</" + element + ">\n\n</profile_xml>\n");
        }
    }

    static QByteArray escaped(const QString& text)
    {
        QByteArray out = text.toUtf8();
        out.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        return out;
    }

    void attribute(const QString& key, const QString& value)
    {
        put("<attribute>\n<name>" + escaped(key) + "</name>\n<value>" + escaped(value) + "</value>\n</attribute>\n");
    }

    void number(double v)
    {
        char text[32];
        const auto [end, ec] = std::to_chars(text, text + sizeof text, v);
        m_buf.append(text, static_cast<std::size_t>(ec == std::errc() ? end - text : 0));
        m_buf += ' ';
    }
    void number(std::uint32_t v) { number(static_cast<double>(v)); }

    void put(const QByteArray& text)
    {
        m_buf.append(text.constData(), static_cast<std::size_t>(text.size()));
        if (m_buf.size() > (1u << 20))
            flush();
    }
    void flush()
    {
        if (m_gzip)
            gzwrite(m_gz, m_buf.data(), static_cast<unsigned>(m_buf.size()));
        else
            m_file.write(m_buf.data(), static_cast<qint64>(m_buf.size()));
        m_buf.clear();
    }

    bool m_gzip = false;
    gzFile m_gz = nullptr;
    QFile m_file;
    std::string m_buf;
};

/// Median of `runs` reads of one file with the snapshot reader, as one JSON line. CPU time is
/// given beside wall time: on a loaded machine it is the steadier figure.
bool timeSnapshotRead(const QString& path, const char* label, int runs)
{
    const auto reads = timeReads(SnapshotReader(), path, ReadOptions {}, runs);
    if (!reads)
        return false;
    const std::vector<double>& wall = reads->wall;
    const std::size_t threads = reads->threads, events = reads->events, cells = reads->cells;
    qint64 bytes = QFileInfo(path).size();
    double inflateWall = 0;
    if (path.endsWith(QLatin1String(".gz")) && !inflateOnly(path, bytes, inflateWall))
        return false;
    const double med = median(wall);
    const double medCpu = median(reads->cpu);
    const double mb = static_cast<double>(bytes) / 1e6;
    std::printf("{\"mode\":\"snapshot-read\",\"input\":\"%s\",\"file\":\"%s\",\"file_bytes\":%lld,"
                "\"xml_bytes\":%lld,\"runs\":%d,\"threads\":%zu,\"events\":%zu,\"cells\":%zu,"
                "\"median_wall_s\":%.3f,\"min_wall_s\":%.3f,\"median_cpu_s\":%.3f,\"xml_mb_per_s\":%.1f,"
                "\"xml_mb_per_cpu_s\":%.1f,\"events_x_threads_per_s\":%.3g,\"cells_per_s\":%.3g,"
                "\"peak_rss_mb\":%.1f,\"loadavg_1min\":%.2f}\n",
        label, qPrintable(path), static_cast<long long>(QFileInfo(path).size()), static_cast<long long>(bytes), runs,
        threads, events, cells, med, reads->minWall(), medCpu, mb / med, mb / medCpu,
        static_cast<double>(events * threads) / med, static_cast<double>(cells) / med, peakRssMb(), loadAverage());
    std::fflush(stdout);
    return true;
}

int benchSnapshot(int argc, char* argv[])
{
    int runs = 5;
    int threadCount = 16384;
    int eventCount = 101;
    QString from;
    QString sample = QStringLiteral(PARALLAX_DATA_DIR "/tau2/tauprofile-xml-merged/tauprofile.xml");
    QString out = QDir::temp().filePath(QStringLiteral("parallax-bench-merged-%1x%2.xml"));
    for (int i = 2; i < argc; ++i) {
        const auto value = [&] { return i + 1 < argc ? QString::fromLocal8Bit(argv[++i]) : QString(); };
        if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::max(1, value().toInt());
        else if (std::strcmp(argv[i], "--threads") == 0)
            threadCount = std::max(1, value().toInt());
        else if (std::strcmp(argv[i], "--events") == 0)
            eventCount = std::max(1, value().toInt());
        else if (std::strcmp(argv[i], "--from") == 0)
            from = value();
        else if (std::strcmp(argv[i], "--sample") == 0)
            sample = value();
        else if (std::strcmp(argv[i], "--out") == 0)
            out = value();
        else {
            std::fprintf(stderr,
                "usage: parallax-bench snapshot [--runs N] [--threads T] [--events E] [--from TRIAL] [--sample FILE] "
                "[--out FILE.xml]\n");
            return 1;
        }
    }
    if (!timeSnapshotRead(sample, "merged sample", runs))
        return 2;
    // The big input: a trial read from --from (e.g. `parallax-cli synth` output), or generated.
    QElapsedTimer timer;
    timer.start();
    std::shared_ptr<const Trial> trial;
    if (!from.isEmpty()) {
        Progress progress;
        auto source = ReaderRegistry::instance().read(from, ReadOptions {}, progress);
        if (!source) {
            std::fprintf(stderr, "%s\n", qPrintable(source.error().toString()));
            return 2;
        }
        trial = source.value();
    } else {
        trial = syntheticTrial(threadCount, eventCount);
    }
    out = out.arg(trial->threadCount()).arg(trial->eventCount());
    if (!MergedXmlWriter().write(*trial, out, false)
        || !MergedXmlWriter().write(*trial, out + QStringLiteral(".gz"), true)) {
        std::fprintf(stderr, "parallax-bench: cannot write %s\n", qPrintable(out));
        return 2;
    }
    std::printf("{\"mode\":\"snapshot-generate\",\"source\":\"%s\",\"threads\":%zu,\"events\":%zu,"
                "\"xml\":\"%s\",\"xml_bytes\":%lld,\"gz_bytes\":%lld,\"wall_s\":%.3f}\n",
        from.isEmpty() ? "generated" : qPrintable(from), trial->threadCount(), trial->eventCount(), qPrintable(out),
        static_cast<long long>(QFileInfo(out).size()),
        static_cast<long long>(QFileInfo(out + QStringLiteral(".gz")).size()),
        static_cast<double>(timer.nsecsElapsed()) / 1e9);
    trial.reset();
    if (!timeSnapshotRead(out, "generated merged XML", runs)
        || !timeSnapshotRead(out + QStringLiteral(".gz"), "generated merged XML, gzip", runs))
        return 2;
    return 0;
}

// ---- cube: the CUBE reader ---------------------------------------------------------------------

/// The largest .cubex / .cube / .cube.gz under the data folder.
QString largestCubeSample()
{
    QString best;
    qint64 bestSize = -1;
    QDirIterator it(QStringLiteral(PARALLAX_DATA_DIR), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString name = it.fileName().toLower();
        if (!name.endsWith(QLatin1String(".cubex")) && !name.endsWith(QLatin1String(".cube"))
            && !name.endsWith(QLatin1String(".cube.gz")))
            continue;
        if (it.fileInfo().size() > bestSize) {
            best = path;
            bestSize = it.fileInfo().size();
        }
    }
    return best;
}

/// A Score-P-like .cubex: a balanced call tree of `cnodes` cnodes (fan-out 8) on `locations`
/// locations (ranks of 4 threads), metrics visits (EXCLUSIVE UINT64, SPARSE index), time (INCLUSIVE
/// DOUBLE, DENSE) and min_time (EXCLUSIVE MINDOUBLE, SPARSE). anchor.xml is last, as Score-P writes it.
bool writeSyntheticCubex(const QString& path, int locations, int cnodes)
{
    std::vector<int> parent(static_cast<std::size_t>(cnodes), -1);
    std::vector<std::vector<int>> children(static_cast<std::size_t>(cnodes));
    for (int c = 1; c < cnodes; ++c) {
        parent[static_cast<std::size_t>(c)] = (c - 1) / 8;
        children[static_cast<std::size_t>((c - 1) / 8)].push_back(c);
    }
    // Pre-order (exclusive rows) and sibling blocks (inclusive rows), docs/FORMATS.md 5.3.
    std::vector<int> pre, wide { 0 };
    std::vector<int> stack { 0 };
    while (!stack.empty()) {
        const int c = stack.back();
        stack.pop_back();
        pre.push_back(c);
        const auto& kids = children[static_cast<std::size_t>(c)];
        for (auto k = kids.rbegin(); k != kids.rend(); ++k)
            stack.push_back(*k);
    }
    std::vector<std::pair<int, std::size_t>> walk { { 0, 0 } };
    for (int k : children[0])
        wide.push_back(k);
    while (!walk.empty()) {
        auto& [c, next] = walk.back();
        const auto& kids = children[static_cast<std::size_t>(c)];
        if (next >= kids.size()) {
            walk.pop_back();
            continue;
        }
        const int k = kids[next++];
        for (int g : children[static_cast<std::size_t>(k)])
            wide.push_back(g);
        walk.emplace_back(k, 0);
    }
    QByteArray anchor = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cube version=\"4.4\">\n"
                        "<attr key=\"Creator\" value=\"parallax-bench\"/>\n<metrics>\n"
                        "<metric id=\"0\" type=\"EXCLUSIVE\"><disp_name>Visits</disp_name><uniq_name>visits</uniq_name>"
                        "<dtype>UINT64</dtype><uom>occ</uom></metric>\n"
                        "<metric id=\"1\" type=\"INCLUSIVE\"><disp_name>Time</disp_name><uniq_name>time</uniq_name>"
                        "<dtype>DOUBLE</dtype><uom>sec</uom></metric>\n"
                        "<metric id=\"2\" type=\"EXCLUSIVE\"><disp_name>Minimum Inclusive Time</disp_name>"
                        "<uniq_name>min_time</uniq_name><dtype>MINDOUBLE</dtype><uom>sec</uom></metric>\n"
                        "</metrics>\n<program>\n";
    for (int c = 0; c < cnodes; ++c)
        anchor += "<region id=\"" + QByteArray::number(c) + "\" mod=\"app.c\" begin=\"" + QByteArray::number(10 * c)
            + "\" end=\"" + QByteArray::number(10 * c + 9) + "\"><name>routine_" + QByteArray::number(c)
            + "</name><paradigm>user</paradigm></region>\n";
    // Nested cnodes in pre-order.
    std::vector<int> open;
    for (int c : pre) {
        while (!open.empty() && open.back() != parent[static_cast<std::size_t>(c)]) {
            anchor += "</cnode>\n";
            open.pop_back();
        }
        anchor += "<cnode id=\"" + QByteArray::number(c) + "\" calleeId=\"" + QByteArray::number(c) + "\">\n";
        open.push_back(c);
    }
    for (std::size_t i = 0; i < open.size(); ++i)
        anchor += "</cnode>\n";
    anchor += "</program>\n<system>\n<systemtreenode Id=\"0\"><name>machine</name><class>machine</class>\n";
    for (int l = 0; l < locations; ++l) {
        if (l % 4 == 0)
            anchor += "<locationgroup Id=\"" + QByteArray::number(l / 4) + "\"><name>MPI Rank "
                + QByteArray::number(l / 4) + "</name><rank>" + QByteArray::number(l / 4)
                + "</rank><type>process</type>\n";
        anchor += "<location Id=\"" + QByteArray::number(l) + "\"><name>thread</name><rank>" + QByteArray::number(l % 4)
            + "</rank><type>thread</type></location>\n";
        if (l % 4 == 3 || l + 1 == locations)
            anchor += "</locationgroup>\n";
    }
    anchor += "</systemtreenode>\n</system>\n</cube>\n";

    const auto nC = static_cast<std::size_t>(cnodes);
    const auto nL = static_cast<std::size_t>(locations);
    std::uint64_t state = 7;
    auto uniform = [&state] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / 9007199254740992.0;
    };
    std::vector<double> own(nC * nL), inclusive(nC * nL);
    std::vector<std::uint64_t> visits(nC * nL);
    for (std::size_t i = 0; i < nC * nL; ++i) {
        own[i] = uniform() * 1e-3;
        visits[i] = 1 + static_cast<std::uint64_t>(uniform() * 1000);
    }
    inclusive = own;
    for (std::size_t c = nC; c-- > 1;)
        for (std::size_t l = 0; l < nL; ++l)
            inclusive[static_cast<std::size_t>(parent[c]) * nL + l] += inclusive[c * nL + l];
    auto sparseIndex = [&] {
        QByteArray index("CUBEX.INDEX\x01\x00\x00\x00\x00\x00\x01", 18);
        const auto n = static_cast<std::uint32_t>(nC);
        index.append(reinterpret_cast<const char*>(&n), 4);
        for (std::uint32_t r = 0; r < n; ++r)
            index.append(reinterpret_cast<const char*>(&r), 4);
        return index;
    };
    auto rows = [&](const std::vector<int>& order, const auto& values) {
        QByteArray data("CUBEX.DATA");
        data.reserve(10 + static_cast<qsizetype>(nC) * static_cast<qsizetype>(nL) * 8);
        for (int c : order)
            data.append(reinterpret_cast<const char*>(values.data() + static_cast<std::size_t>(c) * nL),
                static_cast<qsizetype>(nL) * 8);
        return data;
    };
    const QByteArray tar = test::makeTar({ { QStringLiteral("0.data"), rows(pre, visits) },
        { QStringLiteral("0.index"), sparseIndex() }, { QStringLiteral("1.data"), rows(wide, inclusive) },
        { QStringLiteral("1.index"), QByteArray("CUBEX.INDEX\x01\x00\x00\x00\x00\x00\x03", 18) },
        { QStringLiteral("2.data"), rows(pre, own) }, { QStringLiteral("2.index"), sparseIndex() },
        { QStringLiteral("anchor.xml"), anchor } });
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(tar) == tar.size();
}

bool timeCubeRead(const QString& path, const char* what, int runs, int readerThreads)
{
    const qint64 bytes = QFileInfo(path).size();
    ReadOptions options;
    options.threads = readerThreads;
    const auto reads = timeReads(CubeReader(), path, options, runs);
    if (!reads)
        return false;
    const std::vector<double>& wall = reads->wall;
    const std::size_t threads = reads->threads, events = reads->events, cells = reads->cells;
    const double med = median(wall);
    std::printf("{\"mode\":\"cube-read\",\"input\":\"%s\",\"file\":\"%s\",\"bytes\":%lld,\"reader_threads\":%d,"
                "\"runs\":%d,\"threads\":%zu,\"events\":%zu,\"cells\":%zu,\"median_wall_s\":%.4f,"
                "\"min_wall_s\":%.4f,\"mb_per_s\":%.1f,\"events_x_threads_per_s\":%.3g,\"cells_per_s\":%.3g,"
                "\"peak_rss_mb\":%.1f,\"loadavg_1min\":%.2f}\n",
        what, qPrintable(path), static_cast<long long>(bytes), readerThreads, runs, threads, events, cells, med,
        reads->minWall(), static_cast<double>(bytes) / 1e6 / med, static_cast<double>(events * threads) / med,
        static_cast<double>(cells) / med, peakRssMb(), loadAverage());
    std::fflush(stdout);
    return true;
}

int benchCube(int argc, char* argv[])
{
    int runs = 5;
    int locations = 1024;
    int cnodes = 1000;
    QString file;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (std::strcmp(argv[i], "--synthetic") == 0 && i + 1 < argc) {
            const QStringList dims = QString::fromLocal8Bit(argv[++i]).split(QLatin1Char('x'));
            locations = dims.value(0).toInt();
            cnodes = dims.value(1).toInt();
        } else if (argv[i][0] != '-') {
            file = QString::fromLocal8Bit(argv[i]);
        } else {
            std::fprintf(stderr, "usage: parallax-bench cube [--runs N] [--synthetic LOCATIONSxCNODES] [FILE]\n");
            return 1;
        }
    }
    if (file.isEmpty())
        file = largestCubeSample();
    if (file.isEmpty()) {
        std::fprintf(stderr, "parallax-bench: no CUBE sample under %s\n", PARALLAX_DATA_DIR);
        return 2;
    }
    if (!timeCubeRead(file, "sample", runs, 0))
        return 2;
    if (locations <= 0 || cnodes <= 0)
        return 0;
    const QString synthetic
        = QDir::temp().filePath(QStringLiteral("parallax-bench-cube-%1x%2.cubex").arg(locations).arg(cnodes));
    QElapsedTimer timer;
    timer.start();
    if (!writeSyntheticCubex(synthetic, locations, cnodes)) {
        std::fprintf(stderr, "parallax-bench: cannot write %s\n", qPrintable(synthetic));
        return 2;
    }
    std::printf("{\"mode\":\"cube-generate\",\"file\":\"%s\",\"locations\":%d,\"cnodes\":%d,\"bytes\":%lld,"
                "\"wall_s\":%.3f}\n",
        qPrintable(synthetic), locations, cnodes, static_cast<long long>(QFileInfo(synthetic).size()),
        static_cast<double>(timer.nsecsElapsed()) / 1e9);
    for (const int readerThreads : { 0, 1 })
        if (!timeCubeRead(synthetic, "synthetic", runs, readerThreads))
            return 2;
    return 0;
}

// ---- read: any reader through the registry ------------------------------------------------------

int benchRead(int argc, char* argv[])
{
    int runs = 5;
    QString format;
    QStringList paths;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else if (std::strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
            format = QString::fromLocal8Bit(argv[++i]);
        } else if (argv[i][0] != '-') {
            paths << QString::fromLocal8Bit(argv[i]);
        } else {
            std::fprintf(stderr, "usage: parallax-bench read [--runs N] [--format NAME] PATH...\n");
            return 1;
        }
    }
    if (paths.isEmpty()) {
        std::fprintf(stderr, "usage: parallax-bench read [--runs N] [--format NAME] PATH...\n");
        return 1;
    }
    const ReaderRegistry& registry = ReaderRegistry::instance();
    for (const QString& path : paths) {
        const Reader* reader = format.isEmpty() ? registry.detect(path) : registry.find(format);
        if (!reader) {
            std::fprintf(stderr, "parallax-bench: no reader for %s\n", qPrintable(path));
            return 2;
        }
        const qint64 bytes = inputBytes(path);
        const auto reads = timeReads(*reader, path, ReadOptions {}, runs);
        if (!reads)
            return 2;
        const std::vector<double>& wall = reads->wall;
        const std::size_t threads = reads->threads, events = reads->events, cells = reads->cells;
        const double med = median(wall);
        std::printf("{\"mode\":\"read\",\"format\":\"%s\",\"input\":\"%s\",\"bytes\":%lld,\"runs\":%d,"
                    "\"threads\":%zu,\"events\":%zu,\"cells\":%zu,\"median_wall_s\":%.4f,\"min_wall_s\":%.4f,"
                    "\"mb_per_s\":%.1f,\"events_x_threads_per_s\":%.3g,\"peak_rss_mb\":%.1f,\"loadavg_1min\":%.2f}\n",
            qPrintable(reader->name()), qPrintable(path), static_cast<long long>(bytes), runs, threads, events, cells,
            med, reads->minWall(), static_cast<double>(bytes) / 1e6 / med, static_cast<double>(events * threads) / med,
            peakRssMb(), loadAverage());
        std::fflush(stdout);
    }
    return 0;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    if (argc == 3 && std::strcmp(argv[1], "--load") == 0)
        return loadOnce(argv[2]);
    if (argc >= 3 && std::strcmp(argv[1], "ppk") == 0)
        return benchPpk(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "snapshot") == 0)
        return benchSnapshot(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "cube") == 0)
        return benchCube(argc, argv);
    if (argc >= 2 && std::strcmp(argv[1], "read") == 0)
        return benchRead(argc, argv);
    int runs = 5;
    std::string label = "command";
    int i = 1;
    for (; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--label") == 0 && i + 1 < argc)
            label = argv[++i];
        else if (std::strcmp(argv[i], "--") == 0) {
            ++i;
            break;
        } else {
            std::fprintf(stderr,
                "usage: parallax-bench --load DIR | ppk PATH [--runs N] [--out FILE.ppk] | [--runs N] [--label L] -- "
                "COMMAND ARGS...\n");
            return 1;
        }
    }
    if (i >= argc) {
        std::fprintf(stderr, "parallax-bench: no command given\n");
        return 1;
    }
    std::vector<double> wall, cpu, rss;
    for (int r = 0; r < runs; ++r) {
        Figures f;
        if (!runChild(argv + i, f)) {
            std::fprintf(stderr, "parallax-bench: %s failed\n", argv[i]);
            return 2;
        }
        wall.push_back(f.wall);
        cpu.push_back(f.cpu);
        rss.push_back(f.rssMb);
        std::printf("{\"label\":\"%s\",\"run\":%d,\"wall_s\":%.3f,\"cpu_s\":%.3f,\"peak_rss_mb\":%.1f}\n",
            label.c_str(), r + 1, f.wall, f.cpu, f.rssMb);
    }
    std::printf(
        "{\"label\":\"%s\",\"runs\":%d,\"median_wall_s\":%.3f,\"median_cpu_s\":%.3f,\"median_peak_rss_mb\":%.1f,"
        "\"loadavg_1min\":%.2f}\n",
        label.c_str(), runs, median(wall), median(cpu), median(rss), loadAverage());
    return 0;
}
