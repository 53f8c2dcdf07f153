// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/callgraph/dotrunner.h"

#include <QFileInfo>
#include <QStandardPaths>
#include <QTimer>

namespace parallax {

DotRunner::DotRunner(QObject* parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] {
        const int seconds = m_timeoutMs / 1000;
        cancel();
        Q_EMIT failed(tr("Graphviz dot did not finish within %1 s; the graph is too large to lay out.").arg(seconds));
    });
}

DotRunner::~DotRunner() { cancel(); }

void DotRunner::setExecutable(const QString& program) { m_program = program; }

QString DotRunner::executable() const
{
    if (m_program.contains(QLatin1Char('/'))) {
        const QFileInfo info(m_program);
        return info.isFile() && info.isExecutable() ? info.absoluteFilePath() : QString();
    }
    return QStandardPaths::findExecutable(m_program);
}

void DotRunner::release()
{
    m_timer->stop();
    QProcess* process = m_process;
    m_process = nullptr;
    if (!process)
        return;
    // A superseded run: nobody listens any more; kill it and let it clean up when it exits
    // (killing and deleting right away would wait for the process in the destructor).
    process->disconnect(this);
    if (process->state() != QProcess::NotRunning) {
        connect(process, &QProcess::finished, process, &QObject::deleteLater);
        process->kill();
    } else {
        process->deleteLater();
    }
}

void DotRunner::cancel() { release(); }

void DotRunner::start(const QByteArray& dotSource)
{
    release();
    const QString program = executable();
    if (program.isEmpty()) {
        // Reported from the event loop, like every other outcome.
        QTimer::singleShot(
            0, this, [this, name = m_program] { Q_EMIT failed(tr("Graphviz dot (%1) was not found.").arg(name)); });
        return;
    }
    auto* process = new QProcess(this);
    m_process = process;
    connect(process, &QProcess::finished, this, &DotRunner::onFinished);
    connect(process, &QProcess::errorOccurred, this, &DotRunner::onError);
    process->start(program, { QStringLiteral("-Tplain") });
    process->write(dotSource);
    process->closeWriteChannel();
    m_timer->start(m_timeoutMs);
}

void DotRunner::onFinished(int exitCode, QProcess::ExitStatus status)
{
    auto* process = qobject_cast<QProcess*>(sender());
    if (!process || process != m_process)
        return;
    const QByteArray out = process->readAllStandardOutput();
    const QString err = QString::fromLocal8Bit(process->readAllStandardError()).trimmed();
    release();
    if (status != QProcess::NormalExit || exitCode != 0) {
        QString message = status != QProcess::NormalExit ? tr("Graphviz dot crashed.")
                                                         : tr("Graphviz dot failed (exit code %1).").arg(exitCode);
        if (!err.isEmpty())
            message += QLatin1Char('\n') + err;
        Q_EMIT failed(message);
        return;
    }
    DotPlainLayout layout;
    QString error;
    if (!layout.parse(out, &error)) {
        Q_EMIT failed(tr("Cannot read the layout from Graphviz dot: %1").arg(error));
        return;
    }
    Q_EMIT finished(layout);
}

void DotRunner::onError(QProcess::ProcessError error)
{
    auto* process = qobject_cast<QProcess*>(sender());
    if (!process || process != m_process)
        return;
    // Crashes and non-zero exits arrive through finished(); only a failed start ends here.
    if (error != QProcess::FailedToStart)
        return;
    const QString message = tr("Cannot start Graphviz dot (%1): %2").arg(process->program(), process->errorString());
    release();
    Q_EMIT failed(message);
}

} // namespace parallax
