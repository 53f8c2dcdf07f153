// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The GUI executable run as the docs and CI run it (tests/app/tst_render*.cpp): one `parallax`
// process (PARALLAX_GUI) with arguments, and the check that an image it rendered headless is a
// plausible picture.
#pragma once

#include "tests/common/imagecheck.h"

#include <QByteArray>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSize>
#include <QString>
#include <QStringList>

namespace parallax::test {

/// What one run of the GUI gave: the exit code (-1 when it crashed or ran over a minute), its
/// standard output and standard error.
struct GuiRun {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

/// Runs the GUI with the arguments and waits for it, up to a minute. Without `display`, with no
/// display at all (no QT_QPA_PLATFORM, DISPLAY or WAYLAND_DISPLAY).
inline GuiRun runGui(const QStringList& arguments, bool display = true)
{
    QProcess p;
    if (!display) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        p.setProcessEnvironment(env);
    }
    p.start(QStringLiteral(PARALLAX_GUI), arguments);
    const bool finished = p.waitForFinished(60000);
    return { finished && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

/// What is wrong with an image --render wrote: unreadable, another size, or fewer than
/// `minColours` distinct colours on every third pixel (blank); empty when nothing is.
inline QString renderedImageProblem(const QString& path, const QSize& size, int minColours)
{
    const QImage image(path);
    if (image.isNull())
        return QStringLiteral("%1 is not an image").arg(path);
    if (image.size() != size)
        return QStringLiteral("%1x%2, expected %3x%4")
            .arg(image.width())
            .arg(image.height())
            .arg(size.width())
            .arg(size.height());
    const int colours = colourCount(image, 3);
    if (colours < minColours)
        return QStringLiteral("only %1 colours").arg(colours);
    return {};
}

} // namespace parallax::test
