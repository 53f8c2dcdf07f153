#include "app/gui/mainwindow.h"

#include "app/gui/loadjob.h"
#include "datasource/readers/readerregistry.h"
#include "views/percentbardelegate.h"
#include "views/statisticsmodel.h"
#include "views/trialsummarywidget.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace parallax {

namespace {

    /// Up to this many threads the row-mode combo lists each thread; beyond it a spin box picks one.
    constexpr std::size_t maxThreadEntries = 64;
    constexpr int ModeRole = Qt::UserRole;
    constexpr int ThreadRole = Qt::UserRole + 1;

    QString plural(std::size_t n, const QString& one, const QString& many)
    {
        QLocale locale;
        if (locale.language() == QLocale::C)
            locale = QLocale(QLocale::English, QLocale::UnitedStates);
        locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
        return QStringLiteral("%1 %2").arg(locale.toString(static_cast<qulonglong>(n)), n == 1 ? one : many);
    }

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_job(new LoadJob(this))
{
    setWindowTitle(QStringLiteral("Parallax"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/parallax.svg")));
    setAcceptDrops(true);

    createCentralWidget();
    createActions();
    createToolBar();

    m_statusLabel = new QLabel(tr("No trial loaded — File › Open Directory… or drop a profile directory here"), this);
    statusBar()->addWidget(m_statusLabel, 1);
    m_warningsLabel = new QLabel(this);
    m_warningsLabel->setTextFormat(Qt::RichText);
    m_warningsLabel->setVisible(false);
    connect(m_warningsLabel, &QLabel::linkActivated, this, [this] { m_tabs->setCurrentWidget(m_summary); });
    statusBar()->addPermanentWidget(m_warningsLabel);

    connect(m_job, &LoadJob::started, this, &MainWindow::onStarted);
    connect(m_job, &LoadJob::progress, this, &MainWindow::onProgress);
    connect(m_job, &LoadJob::loaded, this, &MainWindow::onLoaded);
    connect(m_job, &LoadJob::failed, this, &MainWindow::onFailed);
    connect(m_job, &LoadJob::cancelled, this, &MainWindow::onCancelled);
}

MainWindow::~MainWindow() = default;

void MainWindow::createCentralWidget()
{
    m_model = new StatisticsModel(this);
    m_view = new QTreeView;
    ViewSetupOptions options;
    options.filterColumn = StatisticsModel::Name;
    options.placeholder = tr("Search events (Ctrl+F)…");
    options.sortColumn = StatisticsModel::Exclusive;
    options.sortOrder = Qt::DescendingOrder;
    m_setup = setupTreeView(m_view, m_model, options);
    // Call paths end in the interesting part; keep both ends visible.
    m_view->setTextElideMode(Qt::ElideMiddle);
    QHeaderView* header = m_view->header();
    // The name keeps a generous share of the width (long C++ and call-path names); the last
    // column (groups) takes what is left, and a horizontal scroll bar appears when needed.
    header->setStretchLastSection(true);
    header->setSectionResizeMode(StatisticsModel::Name, QHeaderView::Interactive);
    header->setMinimumSectionSize(40);
    auto* bars = new PercentBarDelegate(m_view);
    m_view->setItemDelegateForColumn(StatisticsModel::ExclusivePercent, bars);
    m_view->setItemDelegateForColumn(StatisticsModel::InclusivePercent, bars);

    auto* statistics = new QWidget;
    auto* layout = new QVBoxLayout(statistics);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_setup.widget);

    m_summary = new TrialSummaryWidget;
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(statistics, tr("&Statistics"));
    m_tabs->addTab(m_summary, tr("S&ummary"));
    setCentralWidget(m_tabs);
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_openDirectoryAction = file->addAction(
        style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open &Directory…"), this, &MainWindow::openDirectory);
    m_openDirectoryAction->setShortcut(QKeySequence::Open);
    m_openDirectoryAction->setToolTip(
        tr("Open a profile directory (TAU profile.N.C.T files or MULTI__ metric directories)"));
    m_openFileAction
        = file->addAction(style()->standardIcon(QStyle::SP_FileIcon), tr("Open &File…"), this, &MainWindow::openFile);
    m_openFileAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    file->addSeparator();
    m_exportCsvAction = file->addAction(tr("&Export Table as CSV…"), this, &MainWindow::exportCsv);
    m_exportCsvAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportCsvAction->setEnabled(false);
    m_screenshotAction = file->addAction(tr("Save &Screenshot…"), this, &MainWindow::saveScreenshot);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* find = edit->addAction(tr("&Find…"), this, [this] {
        m_tabs->setCurrentIndex(0);
        m_setup.search->setFocus(Qt::ShortcutFocusReason);
        m_setup.search->selectAll();
    });
    find->setShortcut(QKeySequence::Find);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* about = help->addAction(tr("&About Parallax"), this, &MainWindow::about);
    about->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createToolBar()
{
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_openDirectoryAction);
    bar->addSeparator();

    bar->addWidget(new QLabel(tr(" Metric: "), bar));
    m_metricCombo = new QComboBox(bar);
    m_metricCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_metricCombo->setMinimumContentsLength(8);
    m_metricCombo->setToolTip(tr("Metric shown in the table"));
    bar->addWidget(m_metricCombo);
    connect(m_metricCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index < 0 || !m_trial)
            return;
        m_model->setMetric(MetricId(static_cast<std::size_t>(index)));
        resizeColumns();
    });

    bar->addWidget(new QLabel(tr("  Show: "), bar));
    m_modeCombo = new QComboBox(bar);
    m_modeCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_modeCombo->setMaxVisibleItems(24);
    m_modeCombo->setToolTip(tr("A statistic across threads (SEMANTICS.md §2), or one thread's values"));
    bar->addWidget(m_modeCombo);
    connect(m_modeCombo, &QComboBox::currentIndexChanged, this, [this] { applyRowMode(); });

    m_threadSpin = new QSpinBox(bar);
    m_threadSpin->setToolTip(tr("Thread index (0-based, in n,c,t order)"));
    m_threadSpin->setKeyboardTracking(false);
    m_threadSpinAction = bar->addWidget(m_threadSpin);
    m_threadLabel = new QLabel(bar);
    m_threadLabelAction = bar->addWidget(m_threadLabel);
    m_threadSpinAction->setVisible(false);
    m_threadLabelAction->setVisible(false);
    connect(m_threadSpin, &QSpinBox::valueChanged, this, [this] { applyRowMode(); });

    bar->addSeparator();
    m_callPathsAction = bar->addAction(tr("Call Paths"));
    m_callPathsAction->setCheckable(true);
    m_callPathsAction->setChecked(true);
    m_callPathsAction->setToolTip(tr("Show call-path events (\"a => b\") besides flat events"));
    connect(m_callPathsAction, &QAction::toggled, this, [this](bool on) {
        m_model->setIncludeCallPaths(on);
        resizeColumns();
    });

    fillMetricCombo();
    fillRowModeCombo();
}

void MainWindow::openPath(const QString& path, const QString& format)
{
    m_format = format;
    m_lastDirectory = QFileInfo(path).absolutePath();
    m_job->start(path, format);
}

bool MainWindow::selectTab(const QString& name)
{
    if (name.compare(QLatin1String("statistics"), Qt::CaseInsensitive) == 0)
        m_tabs->setCurrentIndex(0);
    else if (name.compare(QLatin1String("summary"), Qt::CaseInsensitive) == 0)
        m_tabs->setCurrentWidget(m_summary);
    else
        return false;
    return true;
}

void MainWindow::onStarted(const QString& path)
{
    closeProgress();
    m_statusLabel->setText(tr("Loading %1…").arg(QDir::toNativeSeparators(path)));
    m_progress = new QProgressDialog(this);
    m_progress->setWindowTitle(tr("Loading"));
    m_progress->setLabelText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    m_progress->setRange(0, 0);
    // Small trials load faster than a dialog can flash; show it only for slow loads.
    m_progress->setMinimumDuration(500);
    m_progress->setAutoClose(false);
    m_progress->setAutoReset(false);
    m_progress->setWindowModality(Qt::WindowModal);
    connect(m_progress, &QProgressDialog::canceled, m_job, &LoadJob::cancel);
    m_progress->setValue(0);
}

void MainWindow::onProgress(const QString& stage, qint64 done, qint64 total)
{
    const QString text = total > 0 ? tr("%1: %2 of %3").arg(stage).arg(done).arg(total) : stage;
    m_statusLabel->setText(text + QStringLiteral("…"));
    if (!m_progress)
        return;
    m_progress->setLabelText(text);
    // QProgressDialog takes ints; scale large totals down.
    const qint64 scale = total > 1000000 ? total / 1000000 + 1 : 1;
    m_progress->setRange(0, total > 0 ? static_cast<int>(total / scale) : 0);
    m_progress->setValue(total > 0 ? static_cast<int>(done / scale) : 0);
}

void MainWindow::closeProgress()
{
    if (m_progress) {
        m_progress->reset();
        m_progress->hide();
        m_progress->deleteLater();
        m_progress = nullptr;
    }
}

void MainWindow::onLoaded(std::shared_ptr<const Trial> trial, const QString& path, qint64 elapsedMs)
{
    Q_UNUSED(path);
    closeProgress();
    m_trial = std::move(trial);
    setWindowTitle(QStringLiteral("Parallax — %1").arg(m_trial->name()));

    {
        const QSignalBlocker metricBlocker(m_metricCombo);
        const QSignalBlocker modeBlocker(m_modeCombo);
        const QSignalBlocker spinBlocker(m_threadSpin);
        fillMetricCombo();
        fillRowModeCombo();
    }
    m_threadSpinAction->setVisible(false);
    m_threadLabelAction->setVisible(false);
    m_model->setRowMode(RowMode::MeanAll);
    m_model->setTrial(m_trial, MetricId(0u));
    updateThreadLabel();
    m_summary->setTrial(m_trial);
    m_exportCsvAction->setEnabled(true);
    resizeColumns();

    m_statusLabel->setText(tr("%1, %2, %3 — loaded in %4 ms")
                               .arg(plural(m_trial->threadCount(), tr("thread"), tr("threads")),
                                   plural(m_trial->eventCount(), tr("event"), tr("events")),
                                   plural(m_trial->metricCount(), tr("metric"), tr("metrics")))
                               .arg(elapsedMs));
    const auto warnings = static_cast<std::size_t>(m_trial->warnings().size());
    m_warningsLabel->setVisible(warnings > 0);
    if (warnings > 0)
        m_warningsLabel->setText(
            QStringLiteral("<a href=\"#warnings\">⚠ %1</a>").arg(plural(warnings, tr("warning"), tr("warnings"))));

    // Let the views lay out before anyone grabs the window.
    QTimer::singleShot(0, this, &MainWindow::trialShown);
}

void MainWindow::onFailed(const QString& message, const QString& path)
{
    closeProgress();
    m_statusLabel->setText(tr("Could not load %1").arg(QDir::toNativeSeparators(path)));
    Q_EMIT loadFailed(message);
    if (m_interactive)
        QMessageBox::critical(this, tr("Could not load the profile"), message);
}

void MainWindow::onCancelled(const QString& path)
{
    closeProgress();
    m_statusLabel->setText(tr("Loading %1 cancelled").arg(QDir::toNativeSeparators(path)));
}

void MainWindow::fillMetricCombo()
{
    m_metricCombo->clear();
    if (!m_trial) {
        m_metricCombo->setEnabled(false);
        return;
    }
    for (std::size_t m = 0; m < m_trial->metricCount(); ++m) {
        const Metric& metric = m_trial->metric(MetricId(m));
        m_metricCombo->addItem(metric.name);
        m_metricCombo->setItemData(static_cast<int>(m),
            metric.isTime() ? tr("%1 (time, µs in the data, shown in ms)").arg(metric.name)
                            : tr("%1 (%2)").arg(metric.name, metric.unit.isEmpty() ? tr("unit unknown") : metric.unit),
            Qt::ToolTipRole);
    }
    m_metricCombo->setEnabled(m_trial->metricCount() > 1);
}

void MainWindow::fillRowModeCombo()
{
    m_modeCombo->clear();
    const RowMode modes[] = { RowMode::MeanAll, RowMode::MeanPresent, RowMode::Total, RowMode::Min, RowMode::Max,
        RowMode::StdDevAll, RowMode::StdDevPresent };
    for (RowMode mode : modes) {
        m_modeCombo->addItem(StatisticsModel::rowModeName(mode));
        const int i = m_modeCombo->count() - 1;
        m_modeCombo->setItemData(i, static_cast<int>(mode), ModeRole);
        m_modeCombo->setItemData(i, -1, ThreadRole);
    }
    m_modeCombo->setItemData(
        0, tr("Mean over all threads; a thread where the event did not run counts as 0"), Qt::ToolTipRole);
    m_modeCombo->setItemData(1, tr("Mean over the threads where the event ran"), Qt::ToolTipRole);
    const std::size_t threads = m_trial ? m_trial->threadCount() : 0;
    m_threadSpin->setRange(0, threads > 0 ? static_cast<int>(threads) - 1 : 0);
    m_threadSpin->setValue(0);
    if (threads == 0) {
        m_modeCombo->setEnabled(m_trial != nullptr);
        return;
    }
    m_modeCombo->setEnabled(true);
    m_modeCombo->insertSeparator(m_modeCombo->count());
    if (threads <= maxThreadEntries) {
        for (std::size_t t = 0; t < threads; ++t) {
            m_modeCombo->addItem(tr("Thread %1").arg(m_trial->threadKey(ThreadIndex(t)).toString()));
            const int i = m_modeCombo->count() - 1;
            m_modeCombo->setItemData(i, static_cast<int>(RowMode::Thread), ModeRole);
            m_modeCombo->setItemData(i, static_cast<int>(t), ThreadRole);
        }
    } else {
        // Thousands of threads do not belong in a menu: one entry, and a spin box picks the thread.
        m_modeCombo->addItem(tr("Thread… (%1 threads)").arg(threads));
        const int i = m_modeCombo->count() - 1;
        m_modeCombo->setItemData(i, static_cast<int>(RowMode::Thread), ModeRole);
        m_modeCombo->setItemData(i, -1, ThreadRole);
    }
    m_modeCombo->setCurrentIndex(0);
}

void MainWindow::applyRowMode()
{
    const int index = m_modeCombo->currentIndex();
    if (index < 0 || !m_trial)
        return;
    const auto mode = static_cast<RowMode>(m_modeCombo->itemData(index, ModeRole).toInt());
    int thread = m_modeCombo->itemData(index, ThreadRole).toInt();
    const bool useSpin = mode == RowMode::Thread && thread < 0;
    m_threadSpinAction->setVisible(useSpin);
    m_threadLabelAction->setVisible(useSpin);
    if (useSpin)
        thread = m_threadSpin->value();
    m_model->setRowMode(mode, mode == RowMode::Thread ? ThreadIndex(static_cast<std::size_t>(thread)) : ThreadIndex());
    updateThreadLabel();
    resizeColumns();
}

void MainWindow::updateThreadLabel()
{
    if (!m_trial || m_trial->threadCount() == 0) {
        m_threadLabel->clear();
        return;
    }
    const ThreadIndex t(static_cast<std::size_t>(m_threadSpin->value()));
    m_threadLabel->setText(tr(" n,c,t %1 ").arg(m_trial->threadKey(t).toString()));
}

void MainWindow::resizeColumns()
{
    // Numbers get exactly their width; the name about 40 % of the view (more if it needs less
    // than that, it gets only what it needs).
    for (int column = StatisticsModel::Exclusive; column < StatisticsModel::ColumnCount; ++column) {
        if (!m_view->header()->isSectionHidden(column))
            m_view->resizeColumnToContents(column);
    }
    m_view->setColumnWidth(StatisticsModel::Groups, std::min(m_view->columnWidth(StatisticsModel::Groups), 220));
    m_view->resizeColumnToContents(StatisticsModel::Name);
    const int share = std::max(320, m_view->viewport()->width() * 2 / 5);
    m_view->setColumnWidth(StatisticsModel::Name, std::min(m_view->columnWidth(StatisticsModel::Name), share));
}

void MainWindow::openDirectory()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Profile Directory"), m_lastDirectory);
    if (!dir.isEmpty())
        openPath(dir);
}

void MainWindow::openFile()
{
    QStringList filters;
    for (const Reader* reader : ReaderRegistry::instance().readers())
        filters.append(
            QStringLiteral("%1 (%2)").arg(reader->description(), reader->filePatterns().join(QLatin1Char(' '))));
    filters.append(tr("All files (*)"));
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Open Profile File"), m_lastDirectory, filters.join(QLatin1String(";;")));
    if (!file.isEmpty())
        openPath(file);
}

void MainWindow::exportCsv()
{
    if (!m_trial)
        return;
    const QString metric = m_trial->metric(m_model->metric()).name;
    QString mode = StatisticsModel::rowModeName(m_model->rowMode());
    if (m_model->rowMode() == RowMode::Thread)
        mode += QLatin1Char('-') + m_trial->threadKey(m_model->thread()).toString();
    QString name = QStringLiteral("%1-%2-%3.csv").arg(m_trial->name(), metric, mode);
    name.replace(QLatin1Char(' '), QLatin1Char('_'));
    name.remove(QLatin1Char('('));
    name.remove(QLatin1Char(')'));
    name.replace(QLatin1Char(','), QLatin1Char('.'));
    ViewSetup::exportCsvInteractively(m_view, this, QDir(m_lastDirectory).filePath(name));
}

void MainWindow::saveScreenshot()
{
    QString file = QFileDialog::getSaveFileName(this, tr("Save Screenshot"),
        QDir(m_lastDirectory).filePath(QStringLiteral("parallax.png")), tr("PNG images (*.png)"));
    if (file.isEmpty())
        return;
    if (QFileInfo(file).suffix().isEmpty())
        file += QLatin1String(".png");
    if (!grab().save(file, "PNG"))
        QMessageBox::warning(this, tr("Save Screenshot"), tr("Could not write %1").arg(QDir::toNativeSeparators(file)));
}

void MainWindow::about()
{
    QStringList formats;
    for (const Reader* reader : ReaderRegistry::instance().readers())
        formats.append(reader->description());
    QMessageBox::about(this, tr("About Parallax"),
        tr("<h3>Parallax %1</h3>"
           "<p>A viewer for parallel performance profiles: statistics across threads, "
           "per-thread values, and every number able to explain itself (hover it).</p>"
           "<p>Formats: %2</p>"
           "<p>Licensed under the GNU General Public License, version 3 or later.<br>"
           "Built with Qt %3.</p>")
            .arg(QApplication::applicationVersion(), formats.join(QLatin1String(", ")).toHtmlEscaped(),
                QString::fromLatin1(qVersion())));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile()) {
        openPath(urls.first().toLocalFile());
        event->acceptProposedAction();
    }
}

} // namespace parallax
