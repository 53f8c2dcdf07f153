#include "app/gui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QIcon>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>
#include <memory>

namespace {

const auto sampleResource = QStringLiteral(":/sample/tau-cpi-4rank");

void printError(const QString& message) { std::fprintf(stderr, "parallax: %s\n", message.toLocal8Bit().constData()); }

/// Copies the bundled sample trial out of the resources, so that the ordinary readers (which
/// work on real files) load it. Returns the directory, or an empty string on failure.
QString extractSample(QTemporaryDir& tempDir)
{
    if (!tempDir.isValid())
        return {};
    // The directory name becomes the trial name.
    const QString target = QDir(tempDir.path()).filePath(QStringLiteral("tau-cpi-4rank"));
    if (!QDir().mkpath(target))
        return {};
    const QDir source(sampleResource);
    const QStringList files = source.entryList(QDir::Files);
    if (files.isEmpty())
        return {};
    for (const QString& name : files) {
        const QString destination = QDir(target).filePath(name);
        if (!QFile::copy(source.filePath(name), destination))
            return {};
        // Resource copies are read-only; the user may want to edit or delete them.
        QFile::setPermissions(destination, QFile::permissions(destination) | QFileDevice::WriteOwner);
    }
    return target;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Parallax"));
    QApplication::setApplicationDisplayName(QStringLiteral("Parallax"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QApplication::setOrganizationName(QStringLiteral("Parallax"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/parallax.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Viewer for parallel performance profiles. Without PATH, opens the bundled sample trial."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption formatOption(QStringLiteral("format"),
        QStringLiteral("Read PATH with the named reader instead of detecting it (e.g. tau)."), QStringLiteral("NAME"));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
        QStringLiteral("After the trial is shown, save the main window to FILE (PNG) and quit."),
        QStringLiteral("FILE"));
    const QCommandLineOption quitOption(QStringLiteral("quit-after-load"),
        QStringLiteral("Quit as soon as the trial is shown (exit code 1 if loading failed)."));
    const QCommandLineOption tabOption(QStringLiteral("tab"),
        QStringLiteral("Start on the given tab: statistics (default) or summary."), QStringLiteral("NAME"));
    parser.addOption(tabOption);
    parser.addOption(formatOption);
    parser.addOption(screenshotOption);
    parser.addOption(quitOption);
    parser.addPositionalArgument(QStringLiteral("PATH"), QStringLiteral("Profile directory or file to open."));
    parser.process(app);

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        printError(QStringLiteral("expected at most one PATH, got %1").arg(positional.size()));
        return 2;
    }
    const QString screenshot = parser.value(screenshotOption);
    const bool batch = !screenshot.isEmpty() || parser.isSet(quitOption);

    // Kept alive until exit: the sample trial lives in it.
    std::unique_ptr<QTemporaryDir> sampleDir;
    QString path = positional.value(0);
    if (path.isEmpty()) {
        sampleDir = std::make_unique<QTemporaryDir>();
        path = extractSample(*sampleDir);
        if (path.isEmpty()) {
            printError(QStringLiteral("could not extract the bundled sample trial"));
            return 1;
        }
    }

    parallax::MainWindow window;
    window.setInteractive(!batch);
    if (parser.isSet(tabOption) && !window.selectTab(parser.value(tabOption))) {
        printError(QStringLiteral("unknown tab '%1' (expected statistics or summary)").arg(parser.value(tabOption)));
        return 2;
    }
    window.resize(1280, 800);
    window.show();

    if (batch) {
        QObject::connect(&window, &parallax::MainWindow::loadFailed, &app, [](const QString& message) {
            printError(message);
            QCoreApplication::exit(1);
        });
        QObject::connect(&window, &parallax::MainWindow::trialShown, &app, [&window, screenshot] {
            if (screenshot.isEmpty()) {
                QCoreApplication::exit(0);
                return;
            }
            // One more turn of the event loop so that resized columns are painted.
            QTimer::singleShot(200, &window, [&window, screenshot] {
                if (!window.grab().save(screenshot, "PNG")) {
                    printError(QStringLiteral("could not write %1").arg(screenshot));
                    QCoreApplication::exit(1);
                    return;
                }
                QCoreApplication::exit(0);
            });
        });
    }

    const QString format = parser.value(formatOption);
    QTimer::singleShot(0, &window, [&window, path, format] { window.openPath(path, format); });
    return app.exec();
}
