// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// Runs the parallax-cli the build made (PARALLAX_CLI, set for every test by tests/CMakeLists.txt).

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace parallax::test {

/// What one run of parallax-cli gave: its exit code (-1 when it crashed or did not finish in time)
/// and everything it wrote.
struct CliRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// Runs `parallax-cli ARGS` to the end (at most two minutes) in the test's environment.
inline CliRun runCli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(PARALLAX_CLI), args);
    const bool finished = p.waitForFinished(120000);
    return { finished && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

} // namespace parallax::test
