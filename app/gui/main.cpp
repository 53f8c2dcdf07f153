#include "app/gui/mainwindow.h"
#include "parallax_version.h"
#include "perfdb/databaselocation.h"
#include "views/comparison/comparisonlauncher.h"
#include "views/semantic/semanticlauncher.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QIcon>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>
#include <cstring>
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
    // --render works without a display server.
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--render") == 0 && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Parallax"));
    QApplication::setApplicationDisplayName(QStringLiteral("Parallax"));
    QApplication::setApplicationVersion(QStringLiteral(PARALLAX_VERSION));
    // Settings stay in ~/.config/Parallax/Parallax.conf (the organisation name); the desktop file
    // name ties the windows to the installed io.github.parallax.Parallax.desktop and its icon.
    QApplication::setOrganizationName(QStringLiteral("Parallax"));
    QApplication::setOrganizationDomain(QStringLiteral(PARALLAX_ORGANIZATION_DOMAIN));
    QGuiApplication::setDesktopFileName(QStringLiteral(PARALLAX_APP_ID));
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
        QStringLiteral("Start on the given view: overview (default), statistics, callgraph, userevents, summary, "
                       "event, thread, histogram or databases."),
        QStringLiteral("NAME"));
    const QCommandLineOption renderOption(QStringLiteral("render"),
        QStringLiteral("Render one view to --out and quit, without a display server (offscreen): overview, table, "
                       "tree, callgraph, userevents, summary, event NAME, thread N,C,T, histogram NAME, databases "
                       "(the Databases dock), metadata (the metadata editor of the --db/--id trial)."),
        QStringLiteral("VIEW"));
    const QCommandLineOption outOption(QStringLiteral("out"),
        QStringLiteral("Image file for --render (PNG, SVG or PDF by suffix)."), QStringLiteral("FILE"));
    const QCommandLineOption sizeOption(QStringLiteral("size"),
        QStringLiteral("Window size for --render and --screenshot, WIDTHxHEIGHT (default 1400x900)."),
        QStringLiteral("WxH"));
    const QCommandLineOption dbOption(QStringLiteral("db"),
        QStringLiteral("Experiment database (SQLite file or postgresql:// URI) to open --id from; default: the "
                       "default SQLite database."),
        QStringLiteral("LOCATION"));
    const QCommandLineOption idOption(
        QStringLiteral("id"), QStringLiteral("Open the trial with this id from the database."), QStringLiteral("N"));
    const QCommandLineOption searchOption(QStringLiteral("search"),
        QStringLiteral("Filter the Databases dock as its search field does: key=value, view:NAME, name text."),
        QStringLiteral("TEXT"));
    parser.addOption(searchOption);
    parser.addOption(dbOption);
    parser.addOption(idOption);
    parser.addOption(renderOption);
    parser.addOption(outOption);
    parser.addOption(sizeOption);
    parser.addOption(tabOption);
    parser.addOption(formatOption);
    parser.addOption(screenshotOption);
    parser.addOption(quitOption);
    // Comparison views (issue 5): "--compare A B" and "--scaling A B C ..." open their own window.
    const QCommandLineOption compareOption(QStringLiteral("compare"),
        QStringLiteral("Compare two trials: PATH A (the baseline) and PATH B (the candidate). With --render: ")
            + parallax::comparisonRenderTargets() + QLatin1Char('.'));
    const QCommandLineOption scalingOption(QStringLiteral("scaling"),
        QStringLiteral("Scaling study of two or more trials of the same code at different thread counts."));
    parser.addOption(compareOption);
    parser.addOption(scalingOption);
    // Semantic views (SEMANTICS.md 5): "--semantic MODEL|builtin:NAME PATH" opens their own window.
    const QCommandLineOption semanticOption(QStringLiteral("semantic"),
        QStringLiteral("Open the semantic views of PATH with a model (a JSON file or builtin:NAME). With --render: ")
            + parallax::semanticRenderTargets() + QLatin1Char('.'),
        QStringLiteral("MODEL"));
    const QCommandLineOption semanticMetricOption(QStringLiteral("semantic-metric"),
        QStringLiteral("Metric of the semantic views (default: a time metric)."), QStringLiteral("NAME"));
    const QCommandLineOption semanticScopeOption(QStringLiteral("semantic-scope"),
        QStringLiteral("Threads of the semantic views: mean (default), total or N,C,T."), QStringLiteral("SCOPE"));
    parser.addOption(semanticOption);
    parser.addOption(semanticMetricOption);
    parser.addOption(semanticScopeOption);
    parser.addPositionalArgument(QStringLiteral("PATH"), QStringLiteral("Profile directory or file to open."));
    parser.process(app);
    if (parser.isSet(compareOption) || parser.isSet(scalingOption)) {
        parallax::ComparisonLaunch launch;
        launch.mode = parser.isSet(compareOption) ? parallax::ComparisonLaunch::Mode::Compare
                                                  : parallax::ComparisonLaunch::Mode::Scaling;
        launch.paths = parser.positionalArguments();
        launch.format = parser.value(formatOption);
        launch.render = parser.value(renderOption);
        launch.out = parser.value(outOption);
        launch.size = parser.value(sizeOption);
        return parallax::runComparisonLaunch(launch);
    }

    if (parser.isSet(semanticOption)) {
        const QStringList paths = parser.positionalArguments();
        if (paths.size() != 1) {
            printError(QStringLiteral("--semantic needs exactly one PATH, got %1").arg(paths.size()));
            return 2;
        }
        parallax::SemanticLaunch launch;
        launch.model = parser.value(semanticOption);
        launch.path = paths.front();
        launch.format = parser.value(formatOption);
        launch.render = parser.value(renderOption);
        launch.out = parser.value(outOption);
        launch.size = parser.value(sizeOption);
        launch.metric = parser.value(semanticMetricOption);
        launch.scope = parser.value(semanticScopeOption);
        return parallax::runSemanticLaunch(launch);
    }

    QStringList positional = parser.positionalArguments();
    // "--render event NAME DIR": views that need an argument take the first positional.
    const QString render = parser.value(renderOption);
    QString renderArgument;
    const bool renderTakesArgument = render == QLatin1String("event") || render == QLatin1String("thread")
        || render == QLatin1String("histogram");
    if (renderTakesArgument) {
        if (positional.isEmpty()) {
            printError(QStringLiteral("--render %1 needs an argument (an event name or N,C,T)").arg(render));
            return 2;
        }
        renderArgument = positional.takeFirst();
    }
    if (positional.size() > 1) {
        printError(QStringLiteral("expected at most one PATH, got %1").arg(positional.size()));
        return 2;
    }
    if (!render.isEmpty() && !parser.isSet(outOption)) {
        printError(QStringLiteral("--render needs --out FILE"));
        return 2;
    }
    QSize windowSize(1400, 900);
    if (parser.isSet(sizeOption)) {
        const QStringList wh = parser.value(sizeOption).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2)
            windowSize = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || windowSize.width() < 200 || windowSize.height() < 150) {
            printError(QStringLiteral("--size expects WIDTHxHEIGHT, e.g. 1400x900"));
            return 2;
        }
    }
    const QString screenshot = parser.value(screenshotOption);
    const bool batch = !screenshot.isEmpty() || parser.isSet(quitOption) || !render.isEmpty();

    // Kept alive until exit: the sample trial lives in it.
    std::unique_ptr<QTemporaryDir> sampleDir;
    QString path = positional.value(0);
    qint64 dbId = -1;
    if (parser.isSet(idOption)) {
        bool ok = false;
        dbId = parser.value(idOption).toLongLong(&ok);
        if (!ok || dbId < 0 || !path.isEmpty()) {
            printError(QStringLiteral("--id needs a trial number, and no PATH"));
            return 2;
        }
    }
    if (path.isEmpty() && dbId < 0) {
        sampleDir = std::make_unique<QTemporaryDir>();
        path = extractSample(*sampleDir);
        if (path.isEmpty()) {
            printError(QStringLiteral("could not extract the bundled sample trial"));
            return 1;
        }
    }

    parallax::MainWindow window;
    window.setInteractive(!batch);
    if (!batch)
        window.restoreSettings();
    if (parser.isSet(tabOption) && !window.selectTab(parser.value(tabOption))) {
        printError(QStringLiteral("unknown view '%1' (expected overview, statistics, callgraph, userevents, summary, "
                                  "event, thread, histogram or databases)")
                       .arg(parser.value(tabOption)));
        return 2;
    }
    if (parser.isSet(searchOption))
        window.searchDatabases(parser.value(searchOption));
    window.resize(windowSize);
    window.show();

    if (batch) {
        QObject::connect(&window, &parallax::MainWindow::loadFailed, &app, [](const QString& message) {
            printError(message);
            QCoreApplication::exit(1);
        });
        const QString out = parser.value(outOption);
        const QSize renderSize = parser.isSet(sizeOption) ? windowSize : QSize();
        QObject::connect(&window, &parallax::MainWindow::trialShown, &app,
            [&window, screenshot, render, renderArgument, out, renderSize] {
            if (!render.isEmpty()) {
                window.renderView(render, renderArgument, out, renderSize, [](const QString& error) {
                    if (!error.isEmpty())
                        printError(error);
                    QCoreApplication::exit(error.isEmpty() ? 0 : 1);
                });
                return;
            }
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
    if (dbId >= 0) {
        QString location = parser.value(dbOption);
        if (location.isEmpty())
            location = qEnvironmentVariableIsSet("PARALLAX_DB") ? qEnvironmentVariable("PARALLAX_DB") : parallax::defaultDatabasePath();
        QTimer::singleShot(0, &window, [&window, location, dbId] { window.openFromDatabase(location, dbId); });
    } else {
        QTimer::singleShot(0, &window, [&window, path, format] { window.openPath(path, format); });
    }
    return app.exec();
}
