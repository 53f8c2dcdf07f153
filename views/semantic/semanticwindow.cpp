// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticwindow.h"

#include "algebra/enumnames.h"
#include "algebra/statistics.h"
#include "datasource/readers/readerregistry.h"
#include "views/charts/chartexport.h"
#include "views/common/columnfit.h"
#include "views/common/threadfinder.h"
#include "views/common/toolwindow.h"
#include "views/percentbardelegate.h"
#include "views/selectionstate.h"
#include "views/semantic/semanticbarchart.h"
#include "views/semantic/semanticcomparison.h"
#include "views/semantic/semanticformat.h"
#include "views/semantic/semanticinspector.h"
#include "views/semantic/semanticmatrixview.h"
#include "views/semantic/semanticprofilemodel.h"
#include "views/semantic/semanticruleeditor.h"
#include "views/viewsetup.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>

#ifdef PARALLAX_HAVE_SEMANTIC_BUILTINS
#include "algebra/semanticbuiltin.h"
#endif

#include <QComboBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLayout>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace parallax {

using namespace parallax::semantic;

namespace {
const QString openFileItem = QStringLiteral("open-file");

struct BuiltinEntry {
    QString name;
    QString title;
    QString description;
};

std::vector<BuiltinEntry> builtins()
{
    std::vector<BuiltinEntry> out;
#ifdef PARALLAX_HAVE_SEMANTIC_BUILTINS
    for (const BuiltinModel& m : builtinModels())
        out.push_back({ m.name, m.title, m.description });
#endif
    return out;
}
} // namespace

SemanticModelSource SemanticModelSource::fromArgument(const QString& argument)
{
    SemanticModelSource source;
    if (argument.startsWith(QLatin1String("builtin:"))) {
        source.kind = Kind::Builtin;
        source.name = argument.mid(8);
    } else if (!argument.isEmpty()) {
        source.kind = Kind::File;
        source.name = argument;
    }
    return source;
}

QString SemanticModelSource::displayName() const
{
    switch (kind) {
    case Kind::None:
        return QObject::tr("(no model)");
    case Kind::Builtin:
        return QStringLiteral("builtin:") + name;
    case Kind::File:
        return QFileInfo(name).fileName();
    case Kind::Given:
        return model && !model->name.isEmpty() ? model->name : QObject::tr("edited model");
    }
    return {};
}

SemanticWindow::SemanticWindow(std::shared_ptr<const Trial> trial, SelectionState* selection, QWidget* parent)
    : QMainWindow(parent)
    , m_trial(std::move(trial))
    , m_selection(selection)
{
    setWindowTitle(tr("Semantic View — %1").arg(m_trial ? m_trial->name() : QString()));
    buildUi();
    if (m_selection)
        connect(m_selection, &SelectionState::eventSelected, this, &SemanticWindow::onEventSelected);
    if (m_trial && m_trial->metricCount() > 0) {
        // Start on a time metric, as the other views do.
        for (std::size_t m = 0; m < m_trial->metricCount(); ++m)
            if (m_trial->metric(MetricId(m)).isTime()) {
                m_metric = MetricId(m);
                break;
            }
        if (m_selection && m_selection->trial() == m_trial && m_selection->metric().isValid())
            m_metric = m_selection->metric();
    }
    fillSelectors();
    resize(1300, 850);
}

SemanticWindow::~SemanticWindow() { m_job.cancelAndWait(); }

SemanticWindow* SemanticWindow::open(
    std::shared_ptr<const Trial> trial, SelectionState* selection, const SemanticModelSource& source, QWidget* parent)
{
    auto* window = new SemanticWindow(std::move(trial), selection, parent);
    SemanticModelSource s = source;
    if (s.kind == SemanticModelSource::Kind::None) {
        const auto list = builtins();
        if (!list.empty()) {
            s.kind = SemanticModelSource::Kind::Builtin;
            s.name = list.front().name;
        }
    }
    window->setModelSource(s);
    showToolWindow(window, parent);
    return window;
}

void SemanticWindow::buildUi()
{
    QVBoxLayout* layout = addCentralLayout(this);
    QWidget* central = centralWidget();

    m_modelBox = new QComboBox(central);
    m_modelBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_modelBox->setToolTip(tr("The semantic model: a built-in one made for this trial, or a model file (JSON)"));
    m_metricBox = new QComboBox(central);
    m_scopeBox = new QComboBox(central);
    m_scopeBox->addItem(tr("Mean"), static_cast<int>(Scope::Kind::Mean));
    m_scopeBox->addItem(tr("Total"), static_cast<int>(Scope::Kind::Total));
    m_scopeBox->addItem(tr("One thread"), static_cast<int>(Scope::Kind::Thread));
    m_scopeBox->setToolTip(tr("Mean over all threads (absent = 0), the total over threads, or one thread"));
    // The thread of the one-thread scope: a "go to thread n,c,t" field with a completer (a trial may have
    // 16,384 threads), shown only on that scope.
    m_threadFinder = new ThreadFinder(central);
    m_threadFinder->setTrial(m_trial);
    m_threadLabel = new QLabel(tr("&Thread:"), central);
    m_threadLabel->setBuddy(m_threadFinder);
    m_unitBox = new QComboBox(central);
    for (TimeUnit unit : { TimeUnit::Microseconds, TimeUnit::Milliseconds, TimeUnit::Seconds }) {
        m_unitBox->addItem(unitLabel(Metric(QString(), QStringLiteral("us")), unit), static_cast<int>(unit));
        m_unitBox->setItemData(m_unitBox->count() - 1, timeUnitName(unit), Qt::ToolTipRole);
    }
    m_unitBox->setCurrentIndex(1);
    m_groupBox = new QComboBox(central);
    m_groupBox->setToolTip(tr("Show the entity tree, or group the entities by the value of one attribute (Σ own)"));

    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    auto add = [controls](const QString& label, QWidget* widget) { addLabelled(controls, label, widget); };
    add(tr("M&odel:"), m_modelBox);
    controls->addSpacing(6);
    add(tr("&Metric:"), m_metricBox);
    add(tr("&Over threads:"), m_scopeBox);
    controls->addWidget(m_threadLabel);
    controls->addWidget(m_threadFinder);
    add(tr("&Unit:"), m_unitBox);
    add(tr("&Group by:"), m_groupBox);
    controls->addStretch(1);
    m_status = new QLabel(central);
    m_status->setForegroundRole(QPalette::PlaceholderText);
    controls->addWidget(m_status);
    layout->addLayout(controls);

    // The message bar: errors (red) and warnings (yellow), closable.
    m_messageBar = new QFrame(central);
    m_messageBar->setFrameShape(QFrame::StyledPanel);
    m_messageBar->setAutoFillBackground(true);
    auto* messageLayout = new QHBoxLayout(m_messageBar);
    messageLayout->setContentsMargins(8, 4, 4, 4);
    m_message = new QLabel(m_messageBar);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton(m_messageBar);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Hide this message"));
    messageLayout->addWidget(m_message, 1);
    messageLayout->addWidget(close, 0, Qt::AlignTop);
    m_messageBar->hide();
    connect(close, &QToolButton::clicked, m_messageBar, &QWidget::hide);
    layout->addWidget(m_messageBar);

    // Profile: tree beside chart.
    m_model = new SemanticProfileModel(this);
    auto* treeView = new QTreeView;
    ViewSetupOptions options;
    options.placeholder = tr("Search entities…");
    options.countNoun = tr("top-level entity");
    options.countNounPlural = tr("top-level entities");
    options.sortColumn = SemanticProfileModel::Value;
    options.twoLineHeaders = true;
    m_tree = std::make_unique<ViewSetup>(setupTreeView(treeView, m_model, options));
    treeView->setItemDelegateForColumn(SemanticProfileModel::PercentTotal, new PercentBarDelegate(treeView));
    treeView->setItemDelegateForColumn(SemanticProfileModel::PercentParent, new PercentBarDelegate(treeView));
    treeView->setTextElideMode(Qt::ElideMiddle);
    // The numbers at their content width (resizeTreeColumns), the entity name takes the rest.
    treeView->header()->setStretchLastSection(false);
    fitNameColumn(treeView, SemanticProfileModel::Entity, 160);
    treeView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_chart = new SemanticBarChart(central);
    auto* splitter = new QSplitter(Qt::Horizontal, central);
    splitter->addWidget(m_tree->widget);
    splitter->addWidget(m_chart);
    // The table has ten columns, the chart scales to any width: the table gets the larger share.
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({ 860, 440 });

    m_matrix = new SemanticMatrixView(central);

    m_tabs = new QTabWidget(central);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(splitter, tr("Profile"));
    m_tabs->addTab(m_matrix, tr("Matrix"));
    // Inspector, Rules and Compare follow the applied model (profileChanged).
    auto* inspector = new SemanticInspector(central);
    m_inspector = inspector;
    m_tabs->addTab(inspector, tr("Inspector"));
    auto* rules = new SemanticRuleEditor(central);
    rules->setTrial(m_trial);
    m_tabs->addTab(rules, tr("Rules"));
    auto* comparePage = new QWidget(central);
    auto* compareLayout = new QVBoxLayout(comparePage);
    compareLayout->setContentsMargins(0, 0, 0, 0);
    auto* compareBar = new QHBoxLayout;
    auto* compareLabel = new QLabel(
        tr("Compare this trial (A) with another run (B), each attributed with its own weights."), comparePage);
    auto* compareOpen = new QPushButton(tr("Open B…"), comparePage);
    compareBar->addWidget(compareLabel, 1);
    compareBar->addWidget(compareOpen);
    compareLayout->addLayout(compareBar);
    auto* comparison = new SemanticComparison(comparePage);
    compareLayout->addWidget(comparison, 1);
    m_tabs->addTab(comparePage, tr("Compare"));
    m_comparison = comparison;
    // One scope for every tab: a change in the Inspector or Compare tab is the window's too.
    connect(inspector, &SemanticInspector::valueScopeChanged, this, [this](SemanticInspectorModel::ValueScope s) {
        setScope(s == SemanticInspectorModel::ValueScope::Total ? Scope::total() : Scope::mean());
    });
    connect(comparison, &SemanticComparison::scopeChanged, this, [this](Scope::Kind kind) {
        if (kind != Scope::Kind::Thread)
            setScope(Scope { kind, {} });
    });
    connect(this, &SemanticWindow::profileChanged, this, [this, rules](const semantic::ProfilePtr& profile) {
        if (!profile)
            return;
        if (m_inspector)
            m_inspector->setProfile(profile);
        rules->setAppliedModel(profile->model(), !m_rulesEdited);
        if (m_comparisonTrial && m_comparison)
            m_comparison->setInput(profile->model(), m_trial, m_comparisonTrial);
    });
    connect(rules, &SemanticRuleEditor::modelApplied, this, [this](const semantic::Model& model) {
        m_rulesEdited = true;
        setModel(model);
    });
    connect(compareOpen, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, tr("Open run B (a profile directory)"));
        if (path.isEmpty())
            return;
        m_readB.start(
            [path](const std::atomic_bool&) {
                Progress progress;
                return ReaderRegistry::instance().read(path, ReadOptions(), progress);
            },
            [this](const TrialResult& result) {
                if (!result) {
                    showComparisonError(result.error().toString());
                    return;
                }
                setComparisonTrial(result.value());
            });
    });
    layout->addWidget(m_tabs, 1);

    fillModelBox();

    connect(m_modelBox, &QComboBox::activated, this, [this](int index) {
        const QString data = m_modelBox->itemData(index).toString();
        if (data == openFileItem) {
            const QString path = QFileDialog::getOpenFileName(
                this, tr("Open a Semantic Model"), QString(), tr("Semantic models (*.json);;All files (*)"));
            if (!path.isEmpty())
                setModelFile(path);
            else
                fillModelBox();
            return;
        }
        setModelSource(SemanticModelSource::fromArgument(data));
    });
    connect(
        m_metricBox, &QComboBox::activated, this, [this] { setMetric(MetricId(m_metricBox->currentData().toUInt())); });
    auto applyScope = [this] {
        const auto kind = static_cast<Scope::Kind>(m_scopeBox->currentData().toInt());
        setScope(kind == Scope::Kind::Thread ? Scope::ofThread(m_thread) : Scope { kind, {} });
        if (kind == Scope::Kind::Thread)
            m_threadFinder->setFocus();
    };
    connect(m_scopeBox, &QComboBox::activated, this, applyScope);
    connect(m_threadFinder, &ThreadFinder::threadChosen, this, [this](ThreadIndex t) { setScope(Scope::ofThread(t)); });
    connect(m_unitBox, &QComboBox::activated, this,
        [this] { setTimeUnit(static_cast<TimeUnit>(m_unitBox->currentData().toInt())); });
    connect(
        m_groupBox, &QComboBox::activated, this, [this] { setGroupByAttribute(m_groupBox->currentData().toString()); });

    connect(m_tree->view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            if (m_syncing)
                return;
            const QModelIndex source = m_tree->proxy->mapToSource(current);
            const int entity = m_model->entityAt(source);
            if (entity >= 0)
                selectEntity(entity);
        });
    connect(m_chart, &SemanticBarChart::entityClicked, this, &SemanticWindow::selectEntity);
    connect(m_chart, &SemanticBarChart::eventClicked, this, [this](EventId e) {
        if (m_selection && m_selection->trial() == m_trial)
            m_selection->selectEvent(e);
    });
    connect(m_matrix, &SemanticMatrixView::entityClicked, this, &SemanticWindow::selectEntity);
    connect(m_matrix, &SemanticMatrixView::threadClicked, this, [this](ThreadIndex t) {
        m_matrix->highlightThread(t);
        if (m_selection && m_selection->trial() == m_trial)
            m_selection->selectThread(t);
    });
}

void SemanticWindow::fillModelBox()
{
    const QSignalBlocker block(m_modelBox);
    m_modelBox->clear();
    for (const BuiltinEntry& b : builtins()) {
        m_modelBox->addItem(b.title.isEmpty() ? b.name : b.title, QString(QStringLiteral("builtin:") + b.name));
        m_modelBox->setItemData(m_modelBox->count() - 1, b.description, Qt::ToolTipRole);
    }
    for (const QString& file : m_files) {
        m_modelBox->addItem(QFileInfo(file).fileName(), file);
        m_modelBox->setItemData(m_modelBox->count() - 1, file, Qt::ToolTipRole);
    }
    if (m_source.kind == SemanticModelSource::Kind::Given) {
        m_modelBox->addItem(m_source.displayName(), QStringLiteral("given"));
    }
    if (m_modelBox->count() > 0)
        m_modelBox->insertSeparator(m_modelBox->count());
    m_modelBox->addItem(tr("Open model file…"), openFileItem);
    QString current;
    switch (m_source.kind) {
    case SemanticModelSource::Kind::Builtin:
        current = QStringLiteral("builtin:") + m_source.name;
        break;
    case SemanticModelSource::Kind::File:
        current = m_source.name;
        break;
    case SemanticModelSource::Kind::Given:
        current = QStringLiteral("given");
        break;
    case SemanticModelSource::Kind::None:
        break;
    }
    const int i = m_modelBox->findData(current);
    m_modelBox->setCurrentIndex(i >= 0 ? i : m_modelBox->count() - 1);
}

void SemanticWindow::setModelSource(const SemanticModelSource& source)
{
    m_source = source;
    if (source.kind == SemanticModelSource::Kind::File && !m_files.contains(source.name))
        m_files << source.name;
    fillModelBox();
    start();
}

void SemanticWindow::setBuiltinModel(const QString& name)
{
    setModelSource(SemanticModelSource { SemanticModelSource::Kind::Builtin, name, std::nullopt });
}

void SemanticWindow::setModelFile(const QString& path)
{
    setModelSource(SemanticModelSource { SemanticModelSource::Kind::File, path, std::nullopt });
}

void SemanticWindow::setModel(const Model& model)
{
    setModelSource(SemanticModelSource { SemanticModelSource::Kind::Given, model.name, model });
}

void SemanticWindow::start()
{
    if (!m_trial)
        return;
    m_status->setText(tr("Attributing…"));
    m_job.start(
        [trial = m_trial, source = m_source](const std::atomic_bool&) {
            Result result;
            std::optional<Model> model;
            switch (source.kind) {
            case SemanticModelSource::Kind::None:
                result.error = tr("No semantic model chosen: pick a built-in model or \"Open model file…\" above.");
                return result;
            case SemanticModelSource::Kind::Builtin:
#ifdef PARALLAX_HAVE_SEMANTIC_BUILTINS
                model = makeBuiltinModel(source.name, *trial);
                if (!model) {
                    result.error = tr("There is no built-in semantic model '%1'.").arg(source.name);
                    return result;
                }
#else
                result.error = tr("Built-in semantic models are not available in this build; open a model file.");
                return result;
#endif
                break;
            case SemanticModelSource::Kind::File: {
                auto loaded = loadModelFile(source.name);
                if (auto* error = std::get_if<ModelError>(&loaded)) {
                    result.error = tr("The model file cannot be used: %1").arg(error->toString());
                    return result;
                }
                model = std::get<Model>(std::move(loaded));
                break;
            }
            case SemanticModelSource::Kind::Given:
                model = source.model;
                break;
            }
            auto attributed = attribute(*model, trial);
            if (auto* error = std::get_if<AttributionError>(&attributed)) {
                result.error = tr("The model \"%1\" cannot be applied to %2: %3")
                                   .arg(model->name, trial->name(), error->message);
                return result;
            }
            result.profile = std::get<ProfilePtr>(std::move(attributed));
            // The raw-event totals ("without mapping") read the trial's statistics: compute them here.
            TrialStatistics::of(*trial);
            return result;
        },
        [this](const Result& result) { onFinished(result); });
}

void SemanticWindow::onFinished(const Result& result)
{
    // A superseded run's result never arrives here (Job).
    m_status->clear();
    m_error = result.error;
    m_profile = result.profile;
    if (!m_error.isEmpty()) {
        showMessage(m_error, true);
    } else {
        QStringList warnings;
        for (const Warning& w : m_profile->warnings())
            if (!w.note) // notes (overlaps resolved by priority) are in the Inspector
                warnings << (w.association.isEmpty() ? w.message
                                                     : QStringLiteral("%1: %2").arg(w.association, w.message));
        if (!warnings.isEmpty())
            showMessage(warnings.join(QLatin1Char('\n')), false);
        else
            m_messageBar->hide();
    }
    applyProfile();
    Q_EMIT profileChanged(m_profile);
    Q_EMIT computed(m_error.isEmpty());
}

void SemanticWindow::showMessage(const QString& text, bool error)
{
    m_message->setText(text);
    QPalette pal = m_messageBar->palette();
    pal.setColor(QPalette::Window, error ? QColor(0xf8, 0xd7, 0xda) : QColor(0xff, 0xf3, 0xcd));
    pal.setColor(QPalette::WindowText, error ? QColor(0x72, 0x1c, 0x24) : QColor(0x66, 0x4d, 0x03));
    m_messageBar->setPalette(pal);
    m_message->setPalette(pal);
    m_messageBar->show();
}

void SemanticWindow::applyProfile()
{
    m_selectedEntity = -1;
    m_model->setProfile(m_profile);
    m_model->setMetric(m_metric);
    m_model->setScope(m_scope);
    m_chart->setProfile(m_profile);
    m_chart->setMetric(m_metric);
    m_chart->setScope(m_scope);
    m_matrix->setProfile(m_profile);
    m_matrix->setMetric(m_metric);
    fillSelectors();
    m_tree->view->expandToDepth(1);
    resizeTreeColumns();
    if (m_profile) {
        setWindowTitle(tr("Semantic View — %1 — %2")
                           .arg(m_trial->name(),
                               m_profile->model().name.isEmpty() ? m_source.displayName() : m_profile->model().name));
        m_status->setText(tr("%n entit(ies)", nullptr, static_cast<int>(m_profile->entities().size())));
    }
}

void SemanticWindow::fillSelectors()
{
    {
        const QSignalBlocker block(m_metricBox);
        m_metricBox->clear();
        if (m_trial)
            for (std::size_t m = 0; m < m_trial->metricCount(); ++m)
                m_metricBox->addItem(m_trial->metric(MetricId(m)).name, static_cast<uint>(m));
        m_metricBox->setCurrentIndex(m_metricBox->findData(static_cast<uint>(m_metric.index())));
    }
    const bool oneThread = m_scope.kind == Scope::Kind::Thread;
    if (oneThread)
        m_threadFinder->setText(m_trial->threadKey(m_scope.thread).toString());
    m_threadFinder->setVisible(oneThread);
    m_threadLabel->setVisible(oneThread);
    {
        const QSignalBlocker block(m_scopeBox);
        m_scopeBox->setCurrentIndex(m_scopeBox->findData(static_cast<int>(m_scope.kind)));
    }
    {
        const QSignalBlocker block(m_groupBox);
        const QString current = m_model->groupByAttribute();
        m_groupBox->clear();
        m_groupBox->addItem(tr("(entity tree)"), QString());
        for (const QString& key : m_model->attributeKeys())
            m_groupBox->addItem(key, key);
        m_groupBox->setCurrentIndex(std::max(0, m_groupBox->findData(current)));
    }
}

void SemanticWindow::resizeTreeColumns()
{
    QTreeView* view = m_tree->view;
    const QHeaderView* header = view->header();
    for (int column = SemanticProfileModel::Kind; column < SemanticProfileModel::ColumnCount; ++column)
        if (!header->isSectionHidden(column))
            fitColumnToContent(view, column);
}

void SemanticWindow::setMetric(MetricId metric)
{
    if (!m_trial || metric.index() >= m_trial->metricCount())
        return;
    m_metric = metric;
    m_model->setMetric(metric);
    m_chart->setMetric(metric);
    m_matrix->setMetric(metric);
    fillSelectors();
    resizeTreeColumns();
}

void SemanticWindow::setScope(const Scope& scope)
{
    m_scope = scope;
    if (m_scope.kind == Scope::Kind::Thread
        && (!m_trial || !m_scope.thread.isValid() || m_scope.thread.index() >= m_trial->threadCount()))
        m_scope = Scope::mean();
    if (m_scope.kind == Scope::Kind::Thread)
        m_thread = m_scope.thread;
    m_model->setScope(m_scope);
    m_chart->setScope(m_scope);
    if (m_scope.kind == Scope::Kind::Thread)
        m_matrix->highlightThread(m_scope.thread);
    // The Inspector sums over all threads (mean or total); the comparison takes every scope.
    if (m_inspector && m_scope.kind != Scope::Kind::Thread)
        m_inspector->setValueScope(m_scope.kind == Scope::Kind::Total ? SemanticInspectorModel::ValueScope::Total
                                                                      : SemanticInspectorModel::ValueScope::Mean);
    if (m_comparison && (m_comparison->scope() != m_scope.kind || m_scope.kind == Scope::Kind::Thread))
        m_comparison->setScope(
            m_scope.kind, m_scope.kind == Scope::Kind::Thread ? m_trial->threadKey(m_scope.thread) : ThreadKey());
    fillSelectors();
    resizeTreeColumns();
}

void SemanticWindow::setTimeUnit(TimeUnit unit)
{
    m_unit = unit;
    m_model->setTimeUnit(unit);
    m_chart->setTimeUnit(unit);
    m_matrix->setTimeUnit(unit);
    const QSignalBlocker block(m_unitBox);
    m_unitBox->setCurrentIndex(std::max(0, m_unitBox->findData(static_cast<int>(unit))));
    resizeTreeColumns();
}

void SemanticWindow::setGroupByAttribute(const QString& key)
{
    m_model->setGroupByAttribute(key);
    m_tree->view->expandToDepth(key.isEmpty() ? 1 : 0);
    fillSelectors();
    resizeTreeColumns();
}

void SemanticWindow::waitForResult()
{
    while (m_job.isRunning()) {
        // Deliver the result now, then what it posted.
        m_job.waitAndDeliver();
        QCoreApplication::processEvents();
    }
}

void SemanticWindow::setComparisonTrial(TrialPtr b)
{
    m_comparisonTrial = std::move(b);
    if (m_profile && m_comparisonTrial && m_comparison)
        m_comparison->setInput(m_profile->model(), m_trial, m_comparisonTrial);
}

void SemanticWindow::showComparisonError(const QString& message)
{
    QMessageBox::warning(this, tr("Semantic comparison"), message);
}

int SemanticWindow::addTab(QWidget* page, const QString& title) { return m_tabs->addTab(page, title); }

void SemanticWindow::setTabPage(Tab tab, QWidget* page)
{
    const int i = static_cast<int>(tab);
    const QString title = m_tabs->tabText(i);
    QWidget* old = m_tabs->widget(i);
    m_tabs->removeTab(i);
    m_tabs->insertTab(i, page, title);
    if (old)
        old->deleteLater();
}

QWidget* SemanticWindow::tabPage(Tab tab) const { return m_tabs->widget(static_cast<int>(tab)); }

void SemanticWindow::setCurrentTab(Tab tab) { m_tabs->setCurrentIndex(static_cast<int>(tab)); }

QTreeView* SemanticWindow::treeView() const { return m_tree->view; }

SemanticInspector* SemanticWindow::inspector() const { return m_inspector; }

SemanticComparison* SemanticWindow::comparison() const { return m_comparison; }

void SemanticWindow::selectEntity(int entity)
{
    if (!m_profile || entity < 0 || static_cast<std::size_t>(entity) >= m_profile->entities().size())
        return;
    m_selectedEntity = entity;
    m_chart->highlightEntity(entity);
    // The tree follows (without re-entering this function).
    const QModelIndex source = m_model->indexOfEntity(entity);
    if (source.isValid()) {
        m_syncing = true;
        const QModelIndex index = m_tree->proxy->mapFromSource(source);
        m_tree->view->scrollTo(index);
        m_tree->view->setCurrentIndex(index);
        m_syncing = false;
    }
    if (m_selection && m_selection->trial() == m_trial) {
        const EventId event = semanticview::dominantEvent(*m_profile, entity, m_metric);
        if (event.isValid() && event != m_selection->event()) {
            m_syncing = true;
            m_selection->selectEvent(event);
            m_syncing = false;
        }
    }
    Q_EMIT entitySelected(entity);
}

void SemanticWindow::onEventSelected(EventId event)
{
    if (m_syncing || !m_profile || !event.isValid() || !m_selection || m_selection->trial() != m_trial)
        return;
    // The entity that receives the largest share of the event.
    int best = -1;
    double weight = -1;
    for (int edge : m_profile->edgesOf(event)) {
        const Edge& e = m_profile->edges()[static_cast<std::size_t>(edge)];
        if (e.weight > weight) {
            weight = e.weight;
            best = e.entity;
        }
    }
    if (best < 0)
        return;
    m_syncing = true;
    m_selectedEntity = best;
    m_chart->highlightEntity(best);
    const QModelIndex source = m_model->indexOfEntity(best);
    if (source.isValid()) {
        const QModelIndex index = m_tree->proxy->mapFromSource(source);
        m_tree->view->scrollTo(index);
        m_tree->view->setCurrentIndex(index);
    }
    m_syncing = false;
    Q_EMIT entitySelected(best);
}

std::optional<SemanticWindow::View> SemanticWindow::viewFromName(const QString& name)
{
    // The names are those of --render semantic-NAME (app/gui/viewregistry.h).
    static constexpr auto names = std::to_array<EnumName<View>>({ { View::Bars, "bars" }, { View::Tree, "tree" },
        { View::Matrix, "matrix" }, { View::Inspector, "inspector" }, { View::Rules, "rules" } });
    return enumFromName(names, name, Qt::CaseInsensitive);
}

void SemanticWindow::renderView(
    View view, const QString& fileName, const QSize& size, const std::function<void(const QString&)>& done)
{
    waitForResult();
    if (!m_error.isEmpty()) {
        done(m_error);
        return;
    }
    if (size.isValid())
        resize(size);
    if (view == View::Inspector || view == View::Rules) {
        // The tab's own widget renders itself once its job is done.
        setCurrentTab(view == View::Inspector ? Tab::Inspector : Tab::Rules);
        QWidget* page = tabPage(view == View::Inspector ? Tab::Inspector : Tab::Rules);
        QString error;
        if (auto* inspector = qobject_cast<SemanticInspector*>(page))
            error = inspector->render(fileName, size);
        else if (auto* rules = qobject_cast<SemanticRuleEditor*>(page))
            error = rules->render(fileName, size);
        else
            error = tr("this window has no %1 view").arg(view == View::Inspector ? tr("inspector") : tr("rules"));
        done(error);
        return;
    }
    setCurrentTab(view == View::Matrix ? Tab::Matrix : Tab::Profile);
    if (view == View::Tree)
        m_tree->view->expandAll();
    // Let the layout settle (column widths, the matrix's width) before grabbing.
    renderWhenSettled(
        this, size, 150,
        [this, view, fileName, size] {
            if (view != View::Bars)
                return exportWidget(this, fileName);
            const QSize s = size.isValid() ? size : QSize(1200, 800);
            return m_chart->exportImage(fileName, s.width(), s.height());
        },
        done);
}

} // namespace parallax
