// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/callgraph/dotplainlayout.h"

#include <QObject>
#include <QPointer>
#include <QProcess>

class QTimer;

namespace parallax {

/// Runs Graphviz `dot -Tplain` as a separate process, asynchronously: the GUI thread never waits
/// for it. Starting a new run kills the one in progress, whose result is then never reported.
class DotRunner : public QObject {
    Q_OBJECT
public:
    explicit DotRunner(QObject* parent = nullptr);
    ~DotRunner() override;

    /// The dot program: a path or a name looked up in PATH. Defaults to "dot".
    void setExecutable(const QString& program);
    /// The resolved program path; empty when it cannot be found.
    QString executable() const;
    /// A run taking longer is killed and reported as failed. Default 60 s.
    void setTimeout(int milliseconds) { m_timeoutMs = milliseconds; }

    /// Lays out a graph given in the DOT language. Emits finished() or failed() later.
    void start(const QByteArray& dotSource);
    /// Kills a run in progress without reporting it.
    void cancel();
    bool isRunning() const { return m_process != nullptr; }

Q_SIGNALS:
    void finished(const parallax::DotPlainLayout& layout);
    void failed(const QString& message);

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    void release();

    QString m_program = QStringLiteral("dot");
    QPointer<QProcess> m_process;
    QTimer* m_timer = nullptr;
    int m_timeoutMs = 60000;
};

} // namespace parallax
