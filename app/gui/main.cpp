// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/commandline.h"
#include "app/cli/dbcommand.h"
#include "app/gui/comparisonlauncher.h"
#include "app/gui/historylauncher.h"
#include "app/gui/launchsupport.h"
#include "app/gui/mainwindow.h"
#include "app/gui/semanticlauncher.h"
#include "app/gui/sourcesettings.h"
#include "app/gui/viewregistry.h"
#include "datasource/readers/textnumber.h"
#include "parallax_version.h"
#include "perfdb/databaselocation.h"
#include "views/comparison/scalingmodels.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QTemporaryDir>
#include <QTimer>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

namespace {

void printError(const QString& message) { std::fprintf(stderr, "parallax: %s\n", message.toLocal8Bit().constData()); }

/// The command line of `parallax`: the options, and the help text, which lists every --render
/// view from the view registry (app/gui/viewregistry.h).
struct CommandLine {
    QCommandLineParser parser;
    const QCommandLineOption helpOption { { QStringLiteral("h"), QStringLiteral("help") },
        QStringLiteral("Print this help (the options and the views of --render) and exit.") };
    const QCommandLineOption versionOption { { QStringLiteral("v"), QStringLiteral("version") },
        QStringLiteral("Print the version and exit.") };
    const QCommandLineOption formatOption { QStringLiteral("format"),
        QStringLiteral("Read PATH with the named reader instead of detecting it (e.g. tau)."), QStringLiteral("NAME") };
    const QCommandLineOption screenshotOption { QStringLiteral("screenshot"),
        QStringLiteral("After the trial is shown, save the main window to FILE (PNG) and quit."),
        QStringLiteral("FILE") };
    const QCommandLineOption quitOption { QStringLiteral("quit-after-load"),
        QStringLiteral("Quit as soon as the trial is shown (exit status 1 if loading failed).") };
    const QCommandLineOption tabOption { QStringLiteral("tab"),
        QStringLiteral("Start on the given view: %1.").arg(parallax::tabViewNames(true)), QStringLiteral("NAME") };
    const QCommandLineOption cubeOption { QStringLiteral("cube"),
        QStringLiteral(
            "Open PATH in the CUBE browser (metric, call path and location trees; the same as --tab cube).") };
    const QCommandLineOption monitorOption { QStringLiteral("monitor"),
        QStringLiteral("Follow PATH, a directory a running application writes (TAU profile dumps or snapshot files): "
                       "each complete update becomes a snapshot and the views follow.") };
    const QCommandLineOption noCacheOption { QStringLiteral("no-cache"),
        QStringLiteral("Parse profiles again instead of using the trial cache (as PARALLAX_NO_CACHE=1).") };
    const QCommandLineOption renderOption { QStringLiteral("render"),
        QStringLiteral("Render one view (listed below) to --out and quit, without a display server (offscreen)."),
        QStringLiteral("VIEW") };
    const QCommandLineOption outOption { QStringLiteral("out"),
        QStringLiteral("Image file for --render (PNG, SVG or PDF by suffix)."), QStringLiteral("FILE") };
    const QCommandLineOption sizeOption { QStringLiteral("size"),
        QStringLiteral("Window size for --render and --screenshot, WIDTHxHEIGHT (default 1400x900)."),
        QStringLiteral("WxH") };
    const QCommandLineOption dbOption { QStringLiteral("db"),
        QStringLiteral("Experiment database (SQLite file or postgresql:// URI) to open --id from; default: "
                       "$PARALLAX_DB, else the default SQLite database."),
        QStringLiteral("LOCATION") };
    const QCommandLineOption idOption { QStringLiteral("id"),
        QStringLiteral("Open the trial with this id from the database."), QStringLiteral("N") };
    const QCommandLineOption searchOption { QStringLiteral("search"),
        QStringLiteral("Filter the Databases dock as its search field does: key=value, view:NAME, name text (with "
                       "--history: the database trials of the history)."),
        QStringLiteral("TEXT") };
    // Comparison views (issue 5): "--compare A B" and "--scaling A B C ..." open their own window.
    const QCommandLineOption compareOption { QStringLiteral("compare"),
        QStringLiteral("Compare two trials: PATH A (the baseline) and PATH B (the candidate).") };
    const QCommandLineOption scalingOption { QStringLiteral("scaling"),
        QStringLiteral("Scaling study of two or more trials of the same code at different thread counts.") };
    // The performance history of many runs (issue 17): "--history --order-by KEY A B C ..." or the
    // database's trials of an application/experiment/metadata filter.
    const QCommandLineOption historyOption { QStringLiteral("history"),
        QStringLiteral("Performance history of runs (PATHs, or the database's --app/--exp/--where trials) ordered by "
                       "--order-by, with change points.") };
    const QCommandLineOption orderByOption { QStringLiteral("order-by"),
        QStringLiteral("With --history: the metadata key the runs are ordered by ('upload' or 'id' for database "
                       "trials)."),
        QStringLiteral("KEY") };
    const QCommandLineOption appOption { QStringLiteral("app"),
        QStringLiteral("With --history: the database's trials of this application."), QStringLiteral("A") };
    const QCommandLineOption expOption { QStringLiteral("exp"),
        QStringLiteral("With --history: ... and of this experiment."), QStringLiteral("E") };
    const QCommandLineOption whereOption { QStringLiteral("where"),
        QStringLiteral("With --history: the database's trials whose metadata KEY is VALUE (repeatable)."),
        QStringLiteral("KEY=VALUE") };
    // Growth at scale P in the main window (issue 17 §2): "--growth [--param KEY] [--target P] RUNS".
    const QCommandLineOption growthOption { QStringLiteral("growth"),
        QStringLiteral("Open two or more runs of a scaling study, fit every call path's model over --param and show "
                       "the largest run with each call path's growth at --target in the call tree, flame graph and "
                       "CUBE browser.") };
    const QCommandLineOption paramOption { QStringLiteral("param"),
        QStringLiteral("With --growth: the parameter, 'threads' or a numeric metadata key (default: the likeliest, "
                       "a process count such as mpi.world.size first)."),
        QStringLiteral("KEY") };
    const QCommandLineOption targetOption { QStringLiteral("target"),
        QStringLiteral("With --growth: the scale P the models predict (default 65536)."), QStringLiteral("P") };
    // Semantic views (docs/SEMANTICS.md 5): "--semantic MODEL|builtin:NAME PATH" opens their own window.
    const QCommandLineOption semanticOption { QStringLiteral("semantic"),
        QStringLiteral("Open the semantic views of PATH with a model (a JSON file or builtin:NAME)."),
        QStringLiteral("MODEL") };
    const QCommandLineOption semanticMetricOption { QStringLiteral("semantic-metric"),
        QStringLiteral("Metric of the semantic views (default: a time metric)."), QStringLiteral("NAME") };
    const QCommandLineOption semanticScopeOption { QStringLiteral("semantic-scope"),
        QStringLiteral("Threads of the semantic views: mean (default), total or N,C,T."), QStringLiteral("SCOPE") };
    // The source browser (issue 20 §1): "--render source --event NAME --source-root DIR PATH".
    const QCommandLineOption eventOption { QStringLiteral("event"),
        QStringLiteral("The event of a --render view that takes a NAME (instead of the first positional)."),
        QStringLiteral("NAME") };
    // The communication matrix (issue 20 §3): "--render commmatrix --quantity mean --context C PATH".
    const QCommandLineOption quantityOption { QStringLiteral("quantity"),
        QStringLiteral("What --render commmatrix shows: bytes (default), messages or mean."), QStringLiteral("Q") };
    const QCommandLineOption contextOption { QStringLiteral("context"),
        QStringLiteral("The call-path context of --render commmatrix (default all contexts)."), QStringLiteral("C") };
    const QCommandLineOption sourceRootOption { QStringLiteral("source-root"),
        QStringLiteral("A directory the source browser searches for source files (repeatable; this session)."),
        QStringLiteral("DIR") };

    CommandLine()
    {
        parser.setApplicationDescription(
            QStringLiteral("Viewer for parallel performance profiles. Without PATH, shows the start page (open a "
                           "profile, a recent file, the database or the bundled sample); --render, --screenshot and "
                           "--quit-after-load then use the bundled sample trial."));
        parser.addOptions({ helpOption, versionOption, searchOption, dbOption, idOption, renderOption, outOption,
            sizeOption, tabOption, cubeOption, formatOption, screenshotOption, quitOption, compareOption, scalingOption,
            semanticOption, semanticMetricOption, semanticScopeOption, historyOption, orderByOption, appOption,
            expOption, whereOption, growthOption, paramOption, targetOption, noCacheOption, monitorOption, eventOption,
            quantityOption, contextOption, sourceRootOption });
        parser.addPositionalArgument(QStringLiteral("PATH"),
            QStringLiteral("Profile directory or file to open (two or more with --compare, --scaling and --growth)."));
    }

    QString helpText() const
    {
        // QCommandLineParser's text with our own usage lines (its own names the executable's path),
        // then the views of --render from their table, then the exit status.
        const QString text = parser.helpText();
        return QStringLiteral(
                   "Usage: parallax [options] [PATH]\n"
                   "       parallax --compare A B | --scaling A B C... | --semantic MODEL PATH [options]\n"
                   "       parallax --growth [--param KEY] [--target P] A B C... [options]\n"
                   "       parallax --monitor DIRECTORY [options]\n"
                   "       parallax --history --order-by KEY (A B C... | [--db LOC] --app A [--exp E] | --search TEXT) "
                   "[options]")
            + text.mid(text.indexOf(QLatin1Char('\n'))) + QLatin1Char('\n') + parallax::renderViewsHelp()
            + QLatin1Char('\n') + parallax::cli::exitStatusHelp();
    }

    /// After parsing: --help or --version printed (exit status 0), or nothing to answer.
    std::optional<int> answerHelpOrVersion() const
    {
        if (parser.isSet(helpOption)) {
            std::fputs(helpText().toLocal8Bit().constData(), stdout);
            return parallax::cli::ExitSuccess;
        }
        if (parser.isSet(versionOption)) {
            std::printf("parallax %s\n", PARALLAX_VERSION);
            return parallax::cli::ExitSuccess;
        }
        return std::nullopt;
    }
};

int usageError(const QString& message)
{
    printError(message + QStringLiteral("\nTry 'parallax --help' for more information."));
    return parallax::cli::ExitUsage;
}

/// `parallax --help` and `--version` work without a display: answered before QApplication exists
/// when the line parses without Qt's own options.
std::optional<int> answerBeforeApplication(int argc, char** argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    CommandLine cl;
    if (!cl.parser.parse(arguments))
        return std::nullopt;
    return cl.answerHelpOrVersion();
}

} // namespace

int main(int argc, char** argv)
{
    if (const auto code = answerBeforeApplication(argc, argv))
        return *code;
    // A write past a file size limit fails (EFBIG) and is reported, rather than killing (SIGXFSZ).
    std::signal(SIGXFSZ, SIG_IGN);
    // --render works without a display server.
    for (int i = 1; i < argc; ++i)
        if ((std::strcmp(argv[i], "--render") == 0 || std::strncmp(argv[i], "--render=", 9) == 0)
            && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Parallax"));
    QApplication::setApplicationVersion(QStringLiteral(PARALLAX_VERSION));
    // Settings stay in ~/.config/Parallax/Parallax.conf (the organisation name); the desktop file
    // name ties the windows to the installed io.github.parallax.Parallax.desktop and its icon.
    QApplication::setOrganizationName(QStringLiteral("Parallax"));
    QApplication::setOrganizationDomain(QStringLiteral(PARALLAX_ORGANIZATION_DOMAIN));
    QGuiApplication::setDesktopFileName(QStringLiteral(PARALLAX_APP_ID));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/parallax.svg")));

    // Qt's own options (-platform, -style...) are gone from arguments() now.
    CommandLine cl;
    const bool parsed = cl.parser.parse(QCoreApplication::arguments());
    if (const auto code = cl.answerHelpOrVersion())
        return *code;
    if (!parsed)
        return usageError(cl.parser.errorText());
    QCommandLineParser& parser = cl.parser;
    const CommandLine& o = cl;
    // Every read (load jobs, --render, --compare...) goes through ReaderRegistry::read, which honours it.
    if (parser.isSet(o.noCacheOption))
        qputenv("PARALLAX_NO_CACHE", "1");
    // --render VIEW: a view of the registry (app/gui/viewregistry.h), of the window the line opens.
    const QString render = parser.value(o.renderOption);
    const parallax::RenderViewInfo* renderInfo = nullptr;
    if (parser.isSet(o.renderOption)) {
        using parallax::RenderWindow;
        const RenderWindow window = parser.isSet(o.compareOption) ? RenderWindow::Compare
            : parser.isSet(o.scalingOption)                       ? RenderWindow::Scaling
            : parser.isSet(o.semanticOption)                      ? RenderWindow::Semantic
            : parser.isSet(o.historyOption)                       ? RenderWindow::History
                                                                  : RenderWindow::Main;
        renderInfo = parallax::findRenderView(render);
        if (!renderInfo)
            return usageError(
                QStringLiteral("unknown view '%1' for --render (with %2: %3)")
                    .arg(render, parallax::renderWindowLaunch(window), parallax::renderViewNames(window)));
        if (renderInfo->window != window)
            return usageError(QStringLiteral("--render %1 is a view of %2, not of %3")
                                  .arg(render, parallax::renderWindowLaunch(renderInfo->window),
                                      parallax::renderWindowLaunch(window)));
    }
    if (parser.isSet(o.compareOption) || parser.isSet(o.scalingOption)) {
        parallax::ComparisonLaunch launch;
        launch.mode = parser.isSet(o.compareOption) ? parallax::ComparisonLaunch::Mode::Compare
                                                    : parallax::ComparisonLaunch::Mode::Scaling;
        launch.paths = parser.positionalArguments();
        // "--compare --render compare-sandwich NAME A B": the view's argument comes first.
        if (renderInfo && *renderInfo->argument) {
            if (launch.paths.isEmpty())
                return usageError(QStringLiteral("--render %1 needs its argument: %1 %2")
                                      .arg(QLatin1String(renderInfo->name), QLatin1String(renderInfo->argument)));
            launch.argument = launch.paths.takeFirst();
        }
        launch.format = parser.value(o.formatOption);
        launch.render = parser.value(o.renderOption);
        launch.out = parser.value(o.outOption);
        launch.size = parser.value(o.sizeOption);
        return parallax::runComparisonLaunch(launch);
    }

    if (parser.isSet(o.historyOption)) {
        parallax::HistoryLaunch launch;
        launch.orderBy = parser.value(o.orderByOption);
        launch.paths = parser.positionalArguments();
        launch.format = parser.value(o.formatOption);
        launch.application = parser.value(o.appOption);
        launch.experiment = parser.value(o.expOption);
        for (const QString& pair : parser.values(o.whereOption)) {
            const qsizetype eq = pair.indexOf(QLatin1Char('='));
            if (eq <= 0)
                return usageError(QStringLiteral("--where: '%1' is not KEY=VALUE").arg(pair));
            launch.where.emplace_back(pair.left(eq), pair.mid(eq + 1));
        }
        launch.search = parser.value(o.searchOption);
        launch.database = parallax::databaseLocation(parser.value(o.dbOption));
        launch.render = parser.value(o.renderOption);
        launch.out = parser.value(o.outOption);
        launch.size = parser.value(o.sizeOption);
        return parallax::runHistoryLaunch(launch);
    }

    if (parser.isSet(o.semanticOption)) {
        const QStringList paths = parser.positionalArguments();
        if (paths.size() != 1)
            return usageError(QStringLiteral("--semantic needs exactly one PATH, got %1").arg(paths.size()));
        parallax::SemanticLaunch launch;
        launch.model = parser.value(o.semanticOption);
        launch.path = paths.front();
        launch.format = parser.value(o.formatOption);
        launch.render = parser.value(o.renderOption);
        launch.out = parser.value(o.outOption);
        launch.size = parser.value(o.sizeOption);
        launch.metric = parser.value(o.semanticMetricOption);
        launch.scope = parser.value(o.semanticScopeOption);
        return parallax::runSemanticLaunch(launch);
    }

    for (const auto* option : { &o.quantityOption, &o.contextOption })
        if (parser.isSet(*option) && !(renderInfo && qstrcmp(renderInfo->name, "commmatrix") == 0))
            return usageError(QStringLiteral("--%1 applies to --render commmatrix").arg(option->names().constFirst()));
    const bool growth = parser.isSet(o.growthOption);
    for (const auto* option : { &o.paramOption, &o.targetOption })
        if (!growth && parser.isSet(*option))
            return usageError(QStringLiteral("--%1 applies to --growth").arg(option->names().constFirst()));
    parallax::ScalingModelRequest growthRequest;
    growthRequest.parameter = parser.value(o.paramOption); // empty: the likeliest
    if (parser.isSet(o.targetOption)) {
        const auto target = parallax::textnumber::parseDoubleInRange(parser.value(o.targetOption).toStdString());
        if (!target || !std::isfinite(*target) || *target <= 0)
            return usageError(
                QStringLiteral("--target takes a positive number, not '%1'").arg(parser.value(o.targetOption)));
        growthRequest.target = *target;
    }

    QStringList positional = parser.positionalArguments();
    // "--render event NAME DIR": views that need an argument take the first positional.
    QString renderArgument;
    parallax::addSessionSourceRoots(parser.values(o.sourceRootOption));
    if (renderInfo && *renderInfo->argument && parser.isSet(o.eventOption)) {
        renderArgument = parser.value(o.eventOption);
    } else if (renderInfo && *renderInfo->argument) {
        // "[BASELINE]": an optional argument, given when two positionals are.
        const bool optional = renderInfo->argument[0] == '[';
        if (positional.isEmpty() && !optional)
            return usageError(QStringLiteral("--render %1 needs its argument: %1 %2")
                                  .arg(QLatin1String(renderInfo->name), QLatin1String(renderInfo->argument)));
        if (!optional || positional.size() >= 2)
            renderArgument = positional.takeFirst();
    }
    if (growth && positional.size() < 2)
        return usageError(QStringLiteral("--growth needs two or more runs, got %1").arg(positional.size()));
    if (!growth && positional.size() > 1)
        return usageError(QStringLiteral("expected at most one PATH, got %1").arg(positional.size()));
    if (growth && parser.isSet(o.idOption))
        return usageError(QStringLiteral("give --id N or --growth with runs, not both"));
    if (renderInfo && !parser.isSet(o.outOption))
        return usageError(QStringLiteral("--render needs --out FILE"));
    QSize windowSize(1400, 900);
    if (parser.isSet(o.sizeOption)) {
        const QStringList wh = parser.value(o.sizeOption).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2)
            windowSize = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || windowSize.width() < 200 || windowSize.height() < 150)
            return usageError(QStringLiteral("--size: '%1' is not WIDTHxHEIGHT (at least 200x150, e.g. 1400x900)")
                                  .arg(parser.value(o.sizeOption)));
    }
    const QString screenshot = parser.value(o.screenshotOption);
    const bool batch = !screenshot.isEmpty() || parser.isSet(o.quitOption) || renderInfo;

    QString path = positional.value(0);
    qint64 dbId = -1;
    if (parser.isSet(o.idOption)) {
        bool ok = false;
        dbId = parser.value(o.idOption).toLongLong(&ok);
        if (!ok || dbId < 0)
            return usageError(QStringLiteral("--id: '%1' is not a trial number (a whole number from 0)")
                                  .arg(parser.value(o.idOption)));
        if (!path.isEmpty())
            return usageError(QStringLiteral("give --id N or a PATH, not both"));
    }

    parallax::MainWindow window;
    window.setInteractive(!batch);
    if (!batch)
        window.restoreSettings();
    if (parser.isSet(o.cubeOption) && parser.isSet(o.tabOption))
        return usageError(QStringLiteral("give --cube or --tab, not both"));
    if (parser.isSet(o.cubeOption))
        window.selectTab(QStringLiteral("cube"));
    if (parser.isSet(o.tabOption) && !window.selectTab(parser.value(o.tabOption)))
        return usageError(QStringLiteral("--tab: unknown view '%1' (expected %2)")
                              .arg(parser.value(o.tabOption), parallax::tabViewNames()));
    if (parser.isSet(o.searchOption))
        window.searchDatabases(parser.value(o.searchOption));
    window.resize(windowSize);
    window.show();

    if (batch) {
        QObject::connect(&window, &parallax::MainWindow::loadFailed, &app, [](const QString& message) {
            printError(message);
            QCoreApplication::exit(1);
        });
        const QString out = parser.value(o.outOption);
        const QSize renderSize = parser.isSet(o.sizeOption) ? windowSize : QSize();
        const QString quantity = parser.value(o.quantityOption);
        const QString context = parser.value(o.contextOption);
        QObject::connect(&window, &parallax::MainWindow::trialShown, &app,
            [&window, screenshot, renderInfo, renderArgument, out, renderSize, quantity, context] {
                if (renderInfo) {
                    window.renderView(*renderInfo,
                        { renderArgument, out, renderSize,
                            [](const QString& error) {
                                parallax::reportTiming("view rendered");
                                if (!error.isEmpty())
                                    printError(error);
                                QCoreApplication::exit(error.isEmpty() ? 0 : 1);
                            },
                            quantity, context });
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

    const QString format = parser.value(o.formatOption);
    if (dbId >= 0) {
        QString location = parser.value(o.dbOption);
        if (location.isEmpty())
            location = qEnvironmentVariableIsSet("PARALLAX_DB") ? qEnvironmentVariable("PARALLAX_DB")
                                                                : parallax::defaultDatabasePath();
        QTimer::singleShot(0, &window, [&window, location, dbId] { window.openFromDatabase(location, dbId); });
    } else if (growth) {
        QTimer::singleShot(0, &window,
            [&window, positional, format, growthRequest] { window.openGrowth(positional, format, growthRequest); });
    } else if (parser.isSet(o.monitorOption)) {
        if (path.isEmpty() || !QFileInfo(path).isDir())
            return usageError(QStringLiteral("--monitor needs the DIRECTORY to follow"));
        QTimer::singleShot(0, &window, [&window, path, format] { window.monitorDirectory(path, format); });
    } else if (!path.isEmpty()) {
        QTimer::singleShot(0, &window, [&window, path, format] { window.openPath(path, format); });
    } else if (batch) {
        // Rendering needs a trial: the bundled sample. Interactively the start page offers it.
        QTimer::singleShot(0, &window, [&window] { window.openSample(); });
    }
    return app.exec();
}
