// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The main window fits the screen (issue 14): at 1280x800, 1400x900 and 1920x1080, on every tab
// and dock, no combo box or button is narrower than its text needs or cut off by the window or a
// dock, and the statistics table shows all its columns without scrolling at 1400 pixels.
#include "app/gui/helpdialogs.h"
#include "app/gui/mainwindow.h"
#include "app/gui/startpage.h"
#include "tests/common/testutil.h"
#include "views/callgraph/callgraphwidget.h"
#include "views/cube/cubebrowser.h"
#include "views/overview/barlistwidget.h"
#include "views/overview/eventbarchart.h"
#include "views/statisticspanel.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <functional>

using namespace parallax;
using namespace parallax::test;

namespace {

/// True when an ancestor of `w` scrolls its contents (a cut-off there is a scroll position).
bool insideScrollArea(const QWidget* w)
{
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (qobject_cast<const QAbstractScrollArea*>(p))
            return true;
    return false;
}

/// Qt's own small buttons: the tab bar's scroll arrows, the docks' float and close buttons, the
/// tool bar's extension arrow. They have icons, not text.
bool isChrome(const QWidget* w)
{
    const QWidget* parent = w->parentWidget();
    return qobject_cast<const QTabBar*>(parent) || qobject_cast<const QDockWidget*>(parent)
        || (qobject_cast<const QToolBar*>(parent) && w->objectName() == QLatin1String("qt_toolbar_ext_button"))
        || QLatin1String(w->metaObject()->className()) == QLatin1String("QDockWidgetTitleButton");
}

/// What is wrong with the visible controls of `window`: each narrower than its size hint or
/// reaching past an ancestor's edge, named by its text.
QStringList truncatedControls(QWidget* window)
{
    QStringList problems;
    QList<QWidget*> controls;
    for (QComboBox* c : window->findChildren<QComboBox*>())
        controls << c;
    for (QAbstractButton* b : window->findChildren<QAbstractButton*>())
        controls << b;
    for (QWidget* w : controls) {
        // Not on screen at all: in a dock behind another dock's tab (Qt moves those away).
        if (!w->isVisible() || w->visibleRegion().isEmpty() || isChrome(w) || insideScrollArea(w))
            continue;
        QString name = QLatin1String(w->metaObject()->className());
        if (auto* b = qobject_cast<QAbstractButton*>(w))
            name += QStringLiteral(" '%1'").arg(b->text().isEmpty() ? b->toolTip().left(40) : b->text());
        if (auto* c = qobject_cast<QComboBox*>(w))
            name += QStringLiteral(" '%1'").arg(c->currentText());
        if (w->width() < w->sizeHint().width())
            problems << QStringLiteral("%1 is %2 px wide, its text needs %3")
                            .arg(name)
                            .arg(w->width())
                            .arg(w->sizeHint().width());
        for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
            const QRect inside = QRect(w->mapTo(p, QPoint(0, 0)), w->size());
            if (!p->rect().contains(inside)) {
                problems << QStringLiteral("%1 reaches past the edge of %2 (%3,%4 %5x%6 in %7x%8)")
                                .arg(name, QLatin1String(p->metaObject()->className()))
                                .arg(inside.x())
                                .arg(inside.y())
                                .arg(inside.width())
                                .arg(inside.height())
                                .arg(p->width())
                                .arg(p->height());
                break;
            }
            if (p == window)
                break;
        }
    }
    return problems;
}

/// The labels of `window` whose text does not fit: a one-line label narrower than its text, or a
/// word-wrapped one shorter than its text needs at its width.
QStringList truncatedLabels(QWidget* window)
{
    QStringList problems;
    for (QLabel* l : window->findChildren<QLabel*>()) {
        if (!l->isVisible() || l->text().isEmpty() || insideScrollArea(l))
            continue;
        const QString name = QStringLiteral("QLabel '%1'").arg(l->text().left(40));
        if (!l->wordWrap() && l->width() < l->sizeHint().width())
            problems << QStringLiteral("%1 is %2 px wide, its text needs %3")
                            .arg(name)
                            .arg(l->width())
                            .arg(l->sizeHint().width());
        if (l->wordWrap() && l->height() < l->heightForWidth(l->width()))
            problems << QStringLiteral("%1 is %2 px high, its text needs %3")
                            .arg(name)
                            .arg(l->height())
                            .arg(l->heightForWidth(l->width()));
    }
    return problems;
}

/// The buttons and combo boxes of a dialog whose own text does not fit them (icon-only buttons,
/// e.g. the file dialog's, have no text to cut; a short button kept narrower than the style's
/// 80 px default, such as "+", is fine while its text fits), or that reach past the dialog.
QStringList truncatedDialogControls(QWidget* dialog)
{
    QStringList problems;
    auto check = [&](QWidget* w, const QString& text, int extra) {
        if (!w->isVisible() || text.isEmpty() || insideScrollArea(w))
            return;
        const int need = w->fontMetrics().horizontalAdvance(QString(text).remove(QLatin1Char('&'))) + extra;
        const QString name = QStringLiteral("%1 '%2'").arg(QLatin1String(w->metaObject()->className()), text.left(60));
        if (w->width() < need)
            problems << QStringLiteral("%1 is %2 px wide, its text needs %3").arg(name).arg(w->width()).arg(need);
        if (!dialog->rect().contains(QRect(w->mapTo(dialog, QPoint(0, 0)), w->size())))
            problems << QStringLiteral("%1 reaches past the edge of the dialog").arg(name);
    };
    for (QAbstractButton* b : dialog->findChildren<QAbstractButton*>())
        check(b, b->text(), 8 + (b->icon().isNull() ? 0 : b->iconSize().width() + 4));
    for (QComboBox* c : dialog->findChildren<QComboBox*>())
        check(c, c->currentText(), 24);
    return problems;
}

/// Runs `trigger`, which opens a modal dialog (QDialog::exec, a static QFileDialog/QInputDialog
/// function…), and meanwhile waits for the dialog, lets `inspect` look at it, checks its buttons and
/// labels, saves it as `name` under $PARALLAX_TEST_SCREENSHOTS and closes it. Returns the problems.
QStringList checkModalDialog(
    const QString& name, const std::function<void()>& trigger, const std::function<void(QDialog*)>& inspect = {})
{
    QStringList problems;
    bool seen = false;
    int tries = 0;
    std::function<void()> poll = [&] {
        auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        if (!dialog) {
            if (++tries < 200)
                QTimer::singleShot(50, poll);
            return;
        }
        seen = true;
        QTest::qWait(200); // the dialog's layout settles
        if (inspect)
            inspect(dialog);
        QTest::qWait(100);
        for (const QString& p : truncatedDialogControls(dialog) + truncatedLabels(dialog))
            problems << name + QStringLiteral(": ") + p;
        const QString dir = qEnvironmentVariable("PARALLAX_TEST_SCREENSHOTS");
        if (!dir.isEmpty() && !dialog->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png")))
            problems << name + QStringLiteral(": could not save the screenshot");
        dialog->reject();
    };
    QTimer::singleShot(50, poll);
    trigger();
    if (!seen)
        problems << name + QStringLiteral(": no modal dialog opened");
    return problems;
}

QAction* findAction(QWidget* window, const QString& text)
{
    for (QAction* a : window->findChildren<QAction*>())
        if (a->text() == text)
            return a;
    return nullptr;
}

/// Shows `window` at `size` with the 8-rank workflow run loaded; false when it did not load.
bool showWorkflow(MainWindow& window, const QSize& size)
{
    window.resize(size);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    QSignalSpy shown(&window, &MainWindow::trialShown);
    window.openPath(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
    return QTest::qWaitFor([&] { return shown.count() == 1; }, 20000);
}

/// The window sizes of a data-driven test, as rows named "WxH".
void addSizes(std::initializer_list<QSize> sizes)
{
    QTest::addColumn<QSize>("size");
    for (const QSize& size : sizes)
        QTest::newRow(qPrintable(QStringLiteral("%1x%2").arg(size.width()).arg(size.height()))) << size;
}

} // namespace

class TestMainWindowLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // No saved window state from a user's settings.
        QVERIFY(m_config.isValid());
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8());
    }

    void controlsFit_data() { addSizes({ QSize(1280, 800), QSize(1400, 900), QSize(1920, 1080) }); }

    void controlsFit()
    {
        QFETCH(QSize, size);
        MainWindow window;
        QVERIFY(showWorkflow(window, size));

        const QStringList views
            = { QStringLiteral("overview"), QStringLiteral("statistics"), QStringLiteral("callgraph"),
                  QStringLiteral("userevents"), QStringLiteral("summary"), QStringLiteral("event"),
                  QStringLiteral("thread"), QStringLiteral("histogram"), QStringLiteral("databases") };
        QStringList problems;
        for (const QString& view : views) {
            QVERIFY2(window.selectTab(view), qPrintable(view));
            QTest::qWait(50); // the layouts settle through the event loop
            for (const QString& p : truncatedControls(&window))
                problems << view + QStringLiteral(": ") + p;
        }
        problems.removeDuplicates();
        for (const QString& p : std::as_const(problems))
            qWarning("%s", qPrintable(p));
        QVERIFY2(problems.isEmpty(), "controls are truncated (listed above)");
    }

    /// The default layout leaves the table its columns: at 1400x900 every column of the
    /// statistics table is on screen without a horizontal scroll bar, and no name is cut to less
    /// than its leaf.
    void statisticsTableShowsAllColumns()
    {
        MainWindow window;
        QVERIFY(showWorkflow(window, QSize(1400, 900)));
        QVERIFY(window.selectTab(QStringLiteral("statistics")));
        QTest::qWait(50);
        auto* panel = window.findChild<StatisticsPanel*>();
        QVERIFY(panel);
        QTreeView* table = panel->currentView();
        QVERIFY(table->isVisible());
        QVERIFY2(!table->horizontalScrollBar()->isVisible(), "the statistics table scrolls sideways at 1400x900");
        const QHeaderView* header = table->header();
        int shownColumns = 0;
        for (int c = 0; c < header->count(); ++c)
            if (!header->isSectionHidden(c)) {
                ++shownColumns;
                QVERIFY2(header->sectionViewportPosition(c) + header->sectionSize(c) <= table->viewport()->width(),
                    qPrintable(QStringLiteral("column %1 ends off screen").arg(c)));
            }
        // Groups and Subrs are hidden by default (the header menu shows them).
        QCOMPARE(shownColumns, header->count() - 2);
        QVERIFY(header->isSectionHidden(StatisticsModel::Groups));
        QVERIFY(header->isSectionHidden(StatisticsModel::Subroutines));
        // The Name column is wide enough for the longest flat name of this trial.
        QVERIFY(header->sectionSize(StatisticsModel::Name)
            >= table->fontMetrics().horizontalAdvance(QStringLiteral("ADIOS flatpath copy buffer")));
    }

    /// The Event dock's imbalance line (max/mean, (max − mean)/max, CV, the thread of the max) is
    /// read whole: at 1280x800 it wraps at its " · " separators instead of ending in "…".
    void eventDockImbalanceLineFits_data() { addSizes({ QSize(1280, 800), QSize(1400, 900) }); }

    void eventDockImbalanceLineFits()
    {
        QFETCH(QSize, size);
        MainWindow window;
        QVERIFY(showWorkflow(window, size));
        const Trial& trial = *window.trial();
        const EventId barrier = trial.findEvent(QStringLiteral("MPI_Barrier()"));
        window.selection()->selectEvent(barrier.isValid() ? barrier : EventId(0u));
        QVERIFY(window.selectTab(QStringLiteral("event")));
        auto* chart = window.findChild<EventBarChart*>();
        QVERIFY(chart);
        QTRY_VERIFY_WITH_TIMEOUT(!chart->imbalanceText().isEmpty(), 10000);
        auto* bars = chart->findChild<BarListWidget*>();
        QVERIFY(bars);
        QTRY_VERIFY(bars->isVisible());
        QTest::qWait(100);
        const QStringList lines = bars->titleLines();
        QVERIFY2(lines.size() >= 2, qPrintable(lines.join(u'|')));
        // Every figure is there, in order, none elided; each line fits the dock's width.
        QCOMPARE(lines.mid(1).join(QLatin1Char(' ')), chart->imbalanceText());
        const QFontMetrics metrics(bars->font());
        for (const QString& line : lines.mid(1)) {
            QVERIFY2(metrics.horizontalAdvance(line) <= bars->titleWidth(),
                qPrintable(QStringLiteral("'%1' is %2 px in %3")
                               .arg(line)
                               .arg(metrics.horizontalAdvance(line))
                               .arg(bars->titleWidth())));
            QVERIFY2(!line.contains(QChar(0x2026)), qPrintable(line));
        }
        if (size == QSize(1280, 800)) {
            // The figures need more than the dock's width at this size: the line is wrapped.
            QVERIFY(metrics.horizontalAdvance(chart->imbalanceText()) > bars->titleWidth());
            QVERIFY(lines.size() >= 3);
        }
        if (auto* dock = qobject_cast<QDockWidget*>(chart->parentWidget() ? chart->parentWidget() : nullptr))
            saveScreenshot(*dock, QStringLiteral("event-dock-%1x%2.png").arg(size.width()).arg(size.height()));
        else
            saveScreenshot(window, QStringLiteral("event-dock-%1x%2.png").arg(size.width()).arg(size.height()));
    }

    /// Every modal dialog the user meets fits its text (buttons, combos, labels) at its default
    /// size; the screenshots are to look at.
    void dialogsFit()
    {
        MainWindow window;
        QVERIFY(showWorkflow(window, QSize(1280, 800)));
        QSignalSpy shown(&window, &MainWindow::trialShown);
        window.openPath(dataPath(QStringLiteral("tau2/ppk/gromacs-like-loadimbalance-8rank.ppk")));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
        QStringList problems;
        auto trigger = [&](const QString& text) {
            QAction* action = findAction(&window, text);
            QVERIFY2(action, qPrintable(text));
            action->trigger();
        };
        // File ▸ Open File…: the widget-based file dialog with its format ("Files of type") combo.
        bool formats = false;
        problems << checkModalDialog(
            QStringLiteral("dialog-open-file"), [&] { trigger(QStringLiteral("Open &File…")); },
            [&](QDialog* d) {
                for (QComboBox* c : d->findChildren<QComboBox*>())
                    for (int i = 0; i < c->count(); ++i)
                        formats = formats || c->itemText(i).startsWith(QLatin1String("ParaProf packed profile"));
            });
        QVERIFY2(formats, "the Open dialog offers the formats");
        // A file no reader recognises: the short message, then its Details.
        window.setInteractive(true);
        const QString readme = QStringLiteral(PARALLAX_SOURCE_DIR "/README.md");
        problems << checkModalDialog(QStringLiteral("dialog-not-a-profile"), [&] {
            QSignalSpy failed(&window, &MainWindow::loadFailed);
            window.openPath(readme);
            QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
        });
        problems << checkModalDialog(
            QStringLiteral("dialog-not-a-profile-details"),
            [&] {
                QSignalSpy failed(&window, &MainWindow::loadFailed);
                window.openPath(readme);
                QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
            },
            [](QDialog* d) {
                for (QAbstractButton* b : d->findChildren<QAbstractButton*>())
                    if (b->text().startsWith(QLatin1String("Show Details")))
                        b->click();
            });
        window.setInteractive(false);
        problems << checkModalDialog(
            QStringLiteral("dialog-compare-trials"), [&] { trigger(QStringLiteral("Compare &Trials…")); });
        problems << checkModalDialog(
            QStringLiteral("dialog-derive-metric"), [&] { trigger(QStringLiteral("&Derive a Metric…")); });
        QVERIFY(window.selectTab(QStringLiteral("statistics")));
        problems << checkModalDialog(
            QStringLiteral("dialog-export-table"), [&] { trigger(QStringLiteral("&Export Table as CSV…")); });
        // Databases dock ▸ "+": Connect to a Database.
        QVERIFY(window.selectTab(QStringLiteral("databases")));
        QAbstractButton* connectButton = nullptr;
        for (QAbstractButton* b : window.findChildren<QAbstractButton*>())
            if (b->text() == QLatin1String("+") && b->toolTip().startsWith(QLatin1String("Connect to a database")))
                connectButton = b;
        QVERIFY(connectButton);
        problems << checkModalDialog(QStringLiteral("dialog-connect-database"), [&] { connectButton->click(); });
        // Help ▸ Keyboard Shortcuts and Help ▸ User Guide (windows of their own).
        for (const auto& [text, name] :
            { std::pair { QStringLiteral("&Keyboard Shortcuts"), QStringLiteral("dialog-keyboard-shortcuts") },
                std::pair { QStringLiteral("&User Guide"), QStringLiteral("dialog-user-guide") } }) {
            const auto before = window.findChildren<QDialog*>();
            trigger(text);
            QDialog* help = nullptr;
            QTRY_VERIFY([&] {
                for (QDialog* d : window.findChildren<QDialog*>())
                    if (d->isVisible() && !before.contains(d))
                        help = d;
                return help != nullptr;
            }());
            QVERIFY(QTest::qWaitForWindowExposed(help));
            QTest::qWait(200);
            for (const QString& p : truncatedDialogControls(help) + truncatedLabels(help))
                problems << name + QStringLiteral(": ") + p;
            saveScreenshot(*help, name + QStringLiteral(".png"));
            help->close();
        }
        for (const QString& p : std::as_const(problems))
            qWarning("%s", qPrintable(p));
        QVERIFY2(problems.isEmpty(), "dialogs with truncated text (listed above)");
    }

    /// Before any trial the window shows the start page, not empty tabs; its sample button opens
    /// the bundled trial and the tabs replace the page.
    void startPageComesFirst()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* start = window.findChild<StartPage*>();
        QVERIFY(start);
        QVERIFY(start->isVisible());
        QCOMPARE(truncatedControls(&window), QStringList());
        saveScreenshot(window, QStringLiteral("start-page.png"));
        QPushButton* sample = nullptr;
        for (QPushButton* b : start->findChildren<QPushButton*>())
            if (b->text().contains(QLatin1String("Sample")))
                sample = b;
        QVERIFY(sample);
        QSignalSpy shown(&window, &MainWindow::trialShown);
        sample->click();
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
        QVERIFY(!start->isVisible());
        QCOMPARE(window.trial()->threadCount(), std::size_t(4));
        QCOMPARE(window.windowTitle(), QStringLiteral("Parallax — tau-cpi-4rank"));
    }

    /// The views of hidden tabs and docks compute when they are shown, not when a trial opens (issue
    /// 18 §4): the call graph starts no Graphviz process and the CUBE browser builds no trees
    /// until their tab is chosen.
    void hiddenViewsComputeWhenShown()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy shown(&window, &MainWindow::trialShown);
        window.openPath(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank")));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
        QTest::qWait(300); // what was queued at the open has run
        auto* graph = window.findChild<CallGraphWidget*>();
        auto* cube = window.findChild<CubeBrowser*>();
        QVERIFY(graph && cube);
        QVERIFY(!graph->isVisible() && !cube->isVisible());
        QVERIFY(graph->isUpdatePending());
        QVERIFY(cube->isUpdatePending());
        QCOMPARE(graph->nodeCount(), 0);
        QVERIFY(window.findChildren<QProcess*>().isEmpty());
        QVERIFY(window.selectTab(QStringLiteral("callgraph")));
        QTRY_VERIFY_WITH_TIMEOUT(graph->nodeCount() > 0, 20000);
        QVERIFY(!graph->isUpdatePending());
        QVERIFY(cube->isUpdatePending());
        QVERIFY(window.selectTab(QStringLiteral("cube")));
        QTRY_VERIFY_WITH_TIMEOUT(!cube->isUpdatePending(), 20000);
    }

    /// A file no reader recognises: a one-line message naming it, the formats on request.
    void unrecognisedFileIsNamedBriefly()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QSignalSpy failed(&window, &MainWindow::loadFailed);
        const QString readme = QStringLiteral(PARALLAX_SOURCE_DIR "/README.md");
        window.openPath(readme);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
        bool said = false;
        for (QLabel* label : window.statusBar()->findChildren<QLabel*>())
            said = said || label->text() == QStringLiteral("README.md is not a profile Parallax can read");
        QVERIFY(said);
        const QString formats = MainWindow::supportedFormatsText();
        QVERIFY(formats.contains(QStringLiteral("\nppk: ParaProf packed profile (*.ppk)")));
        QVERIFY(formats.contains(QStringLiteral("\ntau: ")));
    }

    /// Help ▸ User Guide shows the README's GUI sections (text, no screenshots); Help ▸ Keyboard
    /// Shortcuts lists the menus' keys.
    void helpMenu()
    {
        QFile file(QStringLiteral(":/guide/README.md"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString guide = userGuideMarkdown(QString::fromUtf8(file.readAll()));
        QVERIFY(guide.contains(QStringLiteral("\n## The GUI")));
        QVERIFY(guide.contains(QStringLiteral("Mean (present)")));
        QVERIFY(!guide.contains(QStringLiteral("## The command line")));
        QVERIFY(!guide.contains(QStringLiteral("![")));
        MainWindow window;
        const QStringList keys = keyboardShortcuts(window.menuBar());
        const QString open = QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText);
        QVERIFY2(keys.contains(QStringLiteral("File ▸ Open Directory…\t") + open), qPrintable(keys.join(u'\n')));
        QVERIFY(keys.contains(QStringLiteral("Help ▸ User Guide\t")
            + QKeySequence(QKeySequence::HelpContents).toString(QKeySequence::NativeText)));
    }

private:
    /// Saves a grab of `window` to $PARALLAX_TEST_SCREENSHOTS/name when that is set (to look at).
    static void saveScreenshot(QWidget& window, const QString& name)
    {
        const QString dir = qEnvironmentVariable("PARALLAX_TEST_SCREENSHOTS");
        if (!dir.isEmpty())
            QVERIFY(window.grab().save(dir + QLatin1Char('/') + name));
    }

    QTemporaryDir m_config;
};

QTEST_MAIN(TestMainWindowLayout)
#include "tst_mainwindow_layout.moc"
