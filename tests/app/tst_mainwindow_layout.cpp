// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The main window fits the screen (issue 14): at 1280x800, 1400x900 and 1920x1080, on every tab
// and dock, no combo box or button is narrower than its text needs or cut off by the window or a
// dock, and the statistics table shows all its columns without scrolling at 1400 pixels.
#include "app/gui/helpdialogs.h"
#include "app/gui/mainwindow.h"
#include "app/gui/startpage.h"
#include "tests/common/testutil.h"
#include "views/statisticspanel.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QTreeView>

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

    void controlsFit_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1400x900") << QSize(1400, 900);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void controlsFit()
    {
        QFETCH(QSize, size);
        MainWindow window;
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy shown(&window, &MainWindow::trialShown);
        window.openPath(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);

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
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy shown(&window, &MainWindow::trialShown);
        window.openPath(dataPath(QStringLiteral("tau2/tau-profiles-workflow-xmain-8rank")));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 20000);
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
