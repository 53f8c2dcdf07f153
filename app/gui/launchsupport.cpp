// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/launchsupport.h"

#include "app/gui/viewregistry.h"
#include "datasource/readers/readerregistry.h"

#include <QCoreApplication>
#include <QFile>
#include <QMessageBox>
#include <cstdio>
#include <ctime>
#include <unistd.h>

namespace parallax {

LoadedTrials readTrials(const QStringList& paths, const QString& format)
{
    LoadedTrials loaded;
    for (const QString& path : paths) {
        Progress progress;
        TrialResult result = ReaderRegistry::instance().read(path, ReadOptions(), progress, format);
        if (!result) {
            loaded.error = result.error().toString();
            return loaded;
        }
        loaded.trials.push_back(result.value());
    }
    return loaded;
}

bool quitOnLoadError(const LoadedTrials& loaded, bool interactive)
{
    if (loaded.error.isEmpty())
        return false;
    printLaunchError(loaded.error);
    if (interactive)
        QMessageBox::critical(nullptr, QObject::tr("Parallax"), loaded.error);
    QCoreApplication::exit(1);
    return true;
}

void printLaunchError(const QString& message)
{
    std::fprintf(stderr, "parallax: %s\n", message.toLocal8Bit().constData());
}

void reportTiming(const char* what)
{
    if (qEnvironmentVariableIsEmpty("PARALLAX_TIMINGS"))
        return;
    // Field 22 of /proc/self/stat: the start time in clock ticks after boot (CLOCK_BOOTTIME).
    QFile stat(QStringLiteral("/proc/self/stat"));
    if (!stat.open(QIODevice::ReadOnly))
        return;
    const QByteArray line = stat.readAll();
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 20)
        return;
    const double started = fields[19].toDouble() / static_cast<double>(sysconf(_SC_CLK_TCK));
    timespec now {};
    clock_gettime(CLOCK_BOOTTIME, &now);
    const double elapsed = static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9 - started;
    std::fprintf(stderr, "parallax: timing: %s after %.0f ms\n", what, elapsed * 1000.0);
}

bool parseLaunchSize(const QString& text, QSize* size)
{
    *size = QSize(1400, 900);
    if (text.isEmpty())
        return true;
    const QStringList wh = text.split(QLatin1Char('x'));
    bool okW = false;
    bool okH = false;
    if (wh.size() == 2)
        *size = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
    return okW && okH && size->width() >= 200 && size->height() >= 150;
}

int checkLaunchOptions(const QString& render, const QString& out, RenderWindow window, const QString& option,
    const QString& expected, const QString& sizeText, QSize* size)
{
    if (!render.isEmpty()) {
        const ViewInfo* view = findRenderView(render);
        if (!view || view->window != window) {
            printLaunchError(
                QStringLiteral("unknown view '%1' for --render with %2 (expected %3)").arg(render, option, expected));
            return 2;
        }
        if (out.isEmpty()) {
            printLaunchError(QStringLiteral("--render needs --out FILE"));
            return 2;
        }
    }
    if (!parseLaunchSize(sizeText, size)) {
        printLaunchError(QStringLiteral("--size expects WIDTHxHEIGHT, e.g. 1400x900"));
        return 2;
    }
    return 0;
}

void renderAndQuit(
    const QString& name, const RenderTarget& target, const QString& out, const QSize& size, const QString& argument)
{
    findRenderView(name)->render(target,
        { argument, out, size,
            [](const QString& error) {
                if (!error.isEmpty())
                    printLaunchError(error);
                QCoreApplication::exit(error.isEmpty() ? 0 : 1);
            },
            {}, {} });
}

} // namespace parallax
