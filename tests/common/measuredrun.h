// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// Runs the parallax-cli the build made (PARALLAX_CLI) as a child process and measures it: its peak
// resident memory (ru_maxrss, from wait4) and its wall time. The timeout only catches a hang; tests
// assert memory bounds, never times (docs/HACKING.md §2, fault tests).
//
// The peak is an upper bound: Linux counts the pages a child shares with its parent when it forks
// (and keeps that high-water mark across exec), so ru_maxrss is at least the test process's own
// resident memory at the fork, which MeasuredRun::parentRssMb gives beside it.

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QStringList>
#include <QTemporaryDir>
#include <QThread>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace parallax::test {

/// What one measured run of parallax-cli gave.
struct MeasuredRun {
    int exitCode = -1; ///< -1 when a signal (`signal`) or the timeout ended it
    int signal = 0;
    bool timedOut = false;
    QByteArray out;
    QByteArray err;
    double peakRssMb = 0; ///< max(the child's own peak, parentRssMb)
    double parentRssMb = 0; ///< this process's resident memory when it forked the child
    double seconds = 0;
};

/// The resident memory of this process in MB (/proc/self/statm), 0 when unknown.
inline double residentMb()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields[1].toDouble() * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0)
                             : 0;
}

struct RunLimits {
    int timeoutSeconds = 60;
    /// RLIMIT_FSIZE of the child in bytes (0: unchanged); SIGXFSZ has its default action there, so
    /// the program itself must ignore it to see EFBIG instead of being killed.
    qint64 fileSizeLimit = 0;
};

/// Runs `parallax-cli ARGS` to its end (or kills it after the timeout).
inline MeasuredRun runCliMeasured(const QStringList& args, const RunLimits& limits = {})
{
    MeasuredRun run;
    QTemporaryDir dir;
    const QByteArray outPath = QFile::encodeName(dir.filePath(QStringLiteral("out")));
    const QByteArray errPath = QFile::encodeName(dir.filePath(QStringLiteral("err")));
    // Everything the child needs is made before fork(): after it, only async-signal-safe calls.
    std::vector<QByteArray> words { QByteArray(PARALLAX_CLI) };
    for (const QString& arg : args)
        words.push_back(QFile::encodeName(arg));
    std::vector<char*> argv;
    for (QByteArray& word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    const int outFd = ::open(outPath.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    const int errFd = ::open(errPath.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    rlimit fileSize {};
    getrlimit(RLIMIT_FSIZE, &fileSize);
    if (limits.fileSizeLimit > 0)
        fileSize.rlim_cur = static_cast<rlim_t>(limits.fileSizeLimit);
    run.parentRssMb = residentMb();
    QElapsedTimer timer;
    timer.start();
    const pid_t pid = outFd >= 0 && errFd >= 0 ? fork() : -1;
    if (pid == 0) {
        if (dup2(outFd, 1) < 0 || dup2(errFd, 2) < 0)
            _exit(126);
        if (limits.fileSizeLimit > 0) {
            signal(SIGXFSZ, SIG_DFL);
            setrlimit(RLIMIT_FSIZE, &fileSize);
        }
        execv(argv[0], argv.data());
        _exit(127);
    }
    if (outFd >= 0)
        ::close(outFd);
    if (errFd >= 0)
        ::close(errFd);
    if (pid < 0) {
        run.err = "cannot start parallax-cli";
        return run;
    }
    int status = 0;
    rusage usage {};
    for (;;) {
        const pid_t done = wait4(pid, &status, WNOHANG, &usage);
        if (done == pid || (done < 0 && errno != EINTR))
            break;
        if (timer.elapsed() > qint64 { limits.timeoutSeconds } * 1000) {
            kill(pid, SIGKILL);
            while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) { }
            run.timedOut = true;
            break;
        }
        QThread::msleep(5);
    }
    run.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    run.peakRssMb = static_cast<double>(usage.ru_maxrss) / 1024.0; // kilobytes on Linux
    if (WIFEXITED(status) && !run.timedOut)
        run.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        run.signal = WTERMSIG(status);
    QFile out(QFile::decodeName(outPath));
    if (out.open(QIODevice::ReadOnly))
        run.out = out.readAll();
    QFile err(QFile::decodeName(errPath));
    if (err.open(QIODevice::ReadOnly))
        run.err = err.readAll();
    return run;
}

} // namespace parallax::test
