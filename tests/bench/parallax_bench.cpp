// parallax-bench: measures wall time, CPU time and peak resident memory.
//   parallax-bench --load DIR                 load a trial in this process, print its figures
//   parallax-bench [--runs N] [--label L] -- COMMAND ARGS...
//                                            run a command N times (fresh process each time) and
//                                            print every run and the median, as JSON lines
#include "algebra/statistics.h"
#include "datasource/readers/readerregistry.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace parallax;

namespace {

double seconds(const timeval& tv)
{
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

int loadOnce(const char* dir)
{
    QElapsedTimer timer;
    timer.start();
    Progress progress;
    const auto result = ReaderRegistry::instance().read(QString::fromLocal8Bit(dir), ReadOptions {}, progress);
    const double loadWall = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    if (!result) {
        std::fprintf(stderr, "%s\n", qPrintable(result.error().toString()));
        return 2;
    }
    const Trial& trial = *result.value();
    timer.restart();
    const auto stats = TrialStatistics::of(trial);
    const double statsWall = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("{\"mode\":\"load\",\"threads\":%zu,\"events\":%zu,\"cells\":%zu,\"load_wall_s\":%.3f,"
                "\"stats_wall_s\":%.3f,\"cpu_s\":%.3f,\"peak_rss_mb\":%.1f}\n",
        trial.threadCount(), trial.eventCount(), trial.cellCount(), loadWall, statsWall,
        seconds(usage.ru_utime) + seconds(usage.ru_stime), static_cast<double>(usage.ru_maxrss) / 1024.0);
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

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    if (argc == 3 && std::strcmp(argv[1], "--load") == 0)
        return loadOnce(argv[2]);
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
            std::fprintf(stderr, "usage: parallax-bench --load DIR | [--runs N] [--label L] -- COMMAND ARGS...\n");
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
        std::printf("{\"label\":\"%s\",\"run\":%d,\"wall_s\":%.3f,\"cpu_s\":%.3f,\"peak_rss_mb\":%.1f}\n", label.c_str(), r + 1,
            f.wall, f.cpu, f.rssMb);
    }
    double load[3] = { 0, 0, 0 };
    if (FILE* f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
            load[0] = -1;
        std::fclose(f);
    }
    std::printf("{\"label\":\"%s\",\"runs\":%d,\"median_wall_s\":%.3f,\"median_cpu_s\":%.3f,\"median_peak_rss_mb\":%.1f,"
                "\"loadavg_1min\":%.2f}\n",
        label.c_str(), runs, median(wall), median(cpu), median(rss), load[0]);
    return 0;
}
