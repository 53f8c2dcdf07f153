// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/viewsetup.h"

#include <QAbstractTableModel>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFont>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

namespace parallax {

namespace {

/// The sort/filter proxy of every table; with `twoLines`, long header texts break onto a second
/// line before their unit or after their first word.
class HeaderProxy : public QSortFilterProxyModel {
public:
    HeaderProxy(QObject* parent, bool twoLines)
        : QSortFilterProxyModel(parent)
        , m_twoLines(twoLines)
    {
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        QVariant value = QSortFilterProxyModel::headerData(section, orientation, role);
        if (!m_twoLines || role != Qt::DisplayRole || orientation != Qt::Horizontal)
            return value;
        QString text = value.toString();
        if (text.contains(QLatin1Char('\n')) || text.size() <= 8)
            return value;
        const qsizetype unit = text.lastIndexOf(QStringLiteral(" ("));
        const qsizetype space = text.indexOf(QLatin1Char(' '));
        if (unit > 0)
            text[unit] = QLatin1Char('\n');
        else if (space > 0)
            text[space] = QLatin1Char('\n');
        return text;
    }

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override
    {
        const QVariant a = left.data(sortRole());
        const QVariant b = right.data(sortRole());
        if (a.userType() == QMetaType::Double && b.userType() == QMetaType::Double && a.toDouble() == b.toDouble()) {
            const QVariant ta = left.data(TieBreakRole);
            const QVariant tb = right.data(TieBreakRole);
            if (ta.isValid() && tb.isValid() && ta.toDouble() != tb.toDouble())
                return ta.toDouble() < tb.toDouble();
        }
        return QSortFilterProxyModel::lessThan(left, right);
    }

private:
    bool m_twoLines;
};

/// The visible columns of a view, in visual (header) order.
QList<int> visibleColumns(const QTreeView* view)
{
    QList<int> columns;
    const QHeaderView* header = view->header();
    const QAbstractItemModel* model = view->model();
    if (!model)
        return columns;
    const int count = model->columnCount();
    for (int visual = 0; visual < count; ++visual) {
        const int logical = header->logicalIndex(visual);
        if (logical >= 0 && !header->isSectionHidden(logical))
            columns.append(logical);
    }
    return columns;
}

/// Row numbers from the root down to the index: sorts selected indexes in view order.
QList<int> rowPath(QModelIndex index)
{
    QList<int> path;
    while (index.isValid()) {
        path.prepend(index.row());
        index = index.parent();
    }
    return path;
}

QString cellText(const QAbstractItemModel* model, const QModelIndex& index)
{
    QString text = model->data(index, Qt::DisplayRole).toString();
    // One cell must stay one cell in TSV.
    text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    text.replace(QLatin1Char('\r'), QLatin1Char(' '));
    return text;
}

QString headerText(const QAbstractItemModel* model, int column)
{
    QString text = model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}

QString csvField(const QString& text)
{
    const bool quote = text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"'))
        || text.contains(QLatin1Char('\n')) || text.contains(QLatin1Char('\r'))
        || (!text.isEmpty() && (text.front().isSpace() || text.back().isSpace()));
    if (!quote)
        return text;
    QString escaped = text;
    escaped.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

void appendCsvRows(const QAbstractItemModel* model, const QModelIndex& parent, const QList<int>& columns, QString& out)
{
    const int rows = model->rowCount(parent);
    for (int row = 0; row < rows; ++row) {
        QStringList fields;
        fields.reserve(columns.size());
        for (int column : columns)
            fields.append(csvField(model->data(model->index(row, column, parent), Qt::DisplayRole).toString()));
        out += fields.join(QLatin1Char(',')) + QLatin1String("\r\n");
        const QModelIndex child = model->index(row, 0, parent);
        if (model->hasChildren(child))
            appendCsvRows(model, child, columns, out);
    }
}

/// Ctrl+C on the view copies the selected rows rather than the current cell only.
class CopyFilter : public QObject {
public:
    explicit CopyFilter(QTreeView* view)
        : QObject(view)
        , m_view(view)
    {
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == m_view && (event->type() == QEvent::KeyPress || event->type() == QEvent::ShortcutOverride)) {
            auto* key = static_cast<QKeyEvent*>(event);
            if (key->matches(QKeySequence::Copy)) {
                if (event->type() == QEvent::KeyPress)
                    QApplication::clipboard()->setText(ViewSetup::selectionAsText(m_view));
                event->accept();
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QTreeView* m_view;
};

void showHeaderMenu(QTreeView* view, const QPoint& pos)
{
    QHeaderView* header = view->header();
    QAbstractItemModel* model = view->model();
    if (!model)
        return;
    QMenu menu(view);
    const int count = model->columnCount();
    int shown = 0;
    for (int column = 0; column < count; ++column)
        shown += header->isSectionHidden(column) ? 0 : 1;
    for (int visual = 0; visual < count; ++visual) {
        const int column = header->logicalIndex(visual);
        QAction* action = menu.addAction(headerText(model, column));
        action->setCheckable(true);
        action->setChecked(!header->isSectionHidden(column));
        // The last visible column cannot be hidden: a view without columns has no header to undo it.
        action->setEnabled(header->isSectionHidden(column) || shown > 1);
        QObject::connect(action, &QAction::toggled, view, [view, column](bool on) {
            view->header()->setSectionHidden(column, !on);
            if (on)
                view->resizeColumnToContents(column);
        });
    }
    menu.addSeparator();
    menu.addAction(QObject::tr("Show All Columns"), view, [view, count] {
        for (int column = 0; column < count; ++column)
            view->header()->setSectionHidden(column, false);
    });
    menu.addAction(QObject::tr("Resize Columns to Contents"), view, [view, count] {
        for (int column = 0; column < count; ++column)
            view->resizeColumnToContents(column);
    });
    menu.exec(header->viewport()->mapToGlobal(pos));
}

/// The extension of a view's context menu (extendViewMenu), a child of the view.
class MenuExtension : public QObject {
public:
    MenuExtension(QTreeView* view, std::function<void(QMenu*, const QModelIndex&)> extend)
        : QObject(view)
        , m_extend(std::move(extend))
    {
        setObjectName(name());
    }
    /// Found by name: without Q_OBJECT, findChild<MenuExtension*> would match any child.
    static QString name() { return QStringLiteral("parallax-menu-extension"); }
    static MenuExtension* of(const QTreeView* view)
    {
        return dynamic_cast<MenuExtension*>(view->findChild<QObject*>(name(), Qt::FindDirectChildrenOnly));
    }
    void apply(QTreeView* view, QMenu* menu, const QPoint& pos) const
    {
        QModelIndex index = view->indexAt(pos);
        if (const auto* proxy = qobject_cast<const QSortFilterProxyModel*>(view->model()))
            index = proxy->mapToSource(index);
        const int before = static_cast<int>(menu->actions().size());
        m_extend(menu, index);
        if (menu->actions().size() > before)
            menu->addSeparator();
    }

private:
    std::function<void(QMenu*, const QModelIndex&)> m_extend;
};

void showViewMenu(QTreeView* view, const QPoint& pos)
{
    QMenu menu(view);
    if (const auto* extension = MenuExtension::of(view))
        extension->apply(view, &menu, pos);
    QAction* copy = menu.addAction(
        QObject::tr("&Copy"), view, [view] { QApplication::clipboard()->setText(ViewSetup::selectionAsText(view)); });
    copy->setShortcut(QKeySequence::Copy);
    copy->setEnabled(view->selectionModel() && view->selectionModel()->hasSelection());
    QAction* copyHeader = menu.addAction(QObject::tr("Copy with &Header"), view,
        [view] { QApplication::clipboard()->setText(ViewSetup::selectionAsText(view, true)); });
    copyHeader->setEnabled(copy->isEnabled());
    QAction* selectAll = menu.addAction(QObject::tr("Select &All"), view, [view] { view->selectAll(); });
    selectAll->setShortcut(QKeySequence::SelectAll);
    menu.addSeparator();
    menu.addAction(
        QObject::tr("Export CSV…"), view, [view] { ViewSetup::exportCsvInteractively(view, view->window()); });
    menu.exec(view->viewport()->mapToGlobal(pos));
}

} // namespace

QString ViewSetup::selectionAsText(const QTreeView* view, bool withHeader)
{
    const QAbstractItemModel* model = view->model();
    if (!model)
        return {};
    const QList<int> columns = visibleColumns(view);
    QStringList lines;
    if (withHeader) {
        QStringList titles;
        for (int column : columns)
            titles.append(headerText(model, column));
        lines.append(titles.join(QLatin1Char('\t')));
    }
    QModelIndexList rows = view->selectionModel() ? view->selectionModel()->selectedRows() : QModelIndexList();
    std::sort(
        rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return rowPath(a) < rowPath(b); });
    for (const QModelIndex& row : std::as_const(rows)) {
        QStringList cells;
        for (int column : columns)
            cells.append(cellText(model, row.siblingAtColumn(column)));
        lines.append(cells.join(QLatin1Char('\t')));
    }
    if (lines.isEmpty())
        return {};
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

bool ViewSetup::writeCsv(const QTreeView* view, QIODevice* device, QString* error)
{
    const QAbstractItemModel* model = view->model();
    if (!model) {
        if (error)
            *error = QObject::tr("The view has no model.");
        return false;
    }
    const QList<int> columns = visibleColumns(view);
    QStringList titles;
    for (int column : columns)
        titles.append(csvField(headerText(model, column)));
    QString out = titles.join(QLatin1Char(',')) + QLatin1String("\r\n");
    appendCsvRows(model, QModelIndex(), columns, out);
    const QByteArray bytes = out.toUtf8();
    if (device->write(bytes) != bytes.size()) {
        if (error)
            *error = device->errorString();
        return false;
    }
    return true;
}

bool ViewSetup::writeCsv(const QTreeView* view, const QString& fileName, QString* error)
{
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(fileName, file.errorString());
        return false;
    }
    if (!writeCsv(view, &file, error))
        return false;
    if (!file.commit()) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(fileName, file.errorString());
        return false;
    }
    return true;
}

bool ViewSetup::exportCsvInteractively(const QTreeView* view, QWidget* parent, const QString& suggestedName)
{
    QString fileName = QFileDialog::getSaveFileName(parent, QObject::tr("Export CSV"),
        suggestedName.isEmpty() ? QStringLiteral("table.csv") : suggestedName,
        QObject::tr("CSV files (*.csv);;All files (*)"));
    if (fileName.isEmpty())
        return false;
    if (QFileInfo(fileName).suffix().isEmpty())
        fileName += QLatin1String(".csv");
    QString error;
    if (!writeCsv(view, fileName, &error)) {
        QMessageBox::warning(parent, QObject::tr("Export CSV"), error);
        return false;
    }
    return true;
}

void extendViewMenu(QTreeView* view, std::function<void(QMenu* menu, const QModelIndex& sourceIndex)> extend)
{
    delete MenuExtension::of(view);
    new MenuExtension(view, std::move(extend));
}

ViewSetup setupTreeView(QTreeView* view, QAbstractItemModel* source, const ViewSetupOptions& options)
{
    ViewSetup setup;
    setup.view = view;

    auto* proxy = new HeaderProxy(view, options.twoLineHeaders);
    proxy->setSourceModel(source);
    proxy->setSortRole(SortRole);
    proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterKeyColumn(options.filterColumn);
    proxy->setRecursiveFilteringEnabled(true);
    proxy->setDynamicSortFilter(true);
    setup.proxy = proxy;

    view->setModel(proxy);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAllColumnsShowFocus(true);
    if (qobject_cast<QAbstractTableModel*>(source) || qobject_cast<QAbstractListModel*>(source))
        view->setRootIsDecorated(false);
    view->setSortingEnabled(true);
    if (options.sortColumn >= 0)
        view->sortByColumn(options.sortColumn, options.sortOrder);

    QHeaderView* header = view->header();
    header->setSectionsMovable(true);
    header->setSortIndicatorShown(true);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(header, &QHeaderView::customContextMenuRequested, view,
        [view](const QPoint& pos) { showHeaderMenu(view, pos); });
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(
        view, &QWidget::customContextMenuRequested, view, [view](const QPoint& pos) { showViewMenu(view, pos); });
    view->installEventFilter(new CopyFilter(view));

    auto* widget = new QWidget;
    auto* layout = new QVBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    auto* search = new QLineEdit(widget);
    search->setClearButtonEnabled(true);
    search->setPlaceholderText(options.placeholder.isEmpty() ? QObject::tr("Search names…") : options.placeholder);
    auto* regex = new QCheckBox(QObject::tr("Regex"), widget);
    regex->setToolTip(QObject::tr("Interpret the search text as a regular expression (case-insensitive)"));
    auto* count = new QLabel(widget);
    count->setForegroundRole(QPalette::PlaceholderText);
    bar->addWidget(search, 1);
    bar->addWidget(regex);
    bar->addWidget(count);
    layout->addLayout(bar);
    layout->addWidget(view, 1);
    setup.widget = widget;
    setup.search = search;
    setup.regex = regex;

    const QString normalToolTip = QObject::tr("Filter rows by name; children of matching tree rows stay visible");
    search->setToolTip(normalToolTip);
    auto apply = [proxy, search, regex, normalToolTip] {
        const QString text = search->text();
        if (regex->isChecked()) {
            const QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
            if (!re.isValid()) {
                // Keep the last good filter and say what is wrong instead of showing nothing.
                search->setStyleSheet(QStringLiteral("QLineEdit { background: #ffe0e0; }"));
                search->setToolTip(QObject::tr("Invalid regular expression: %1 (at offset %2)")
                                       .arg(re.errorString())
                                       .arg(re.patternErrorOffset()));
                return;
            }
            proxy->setFilterRegularExpression(re);
        } else {
            proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
            proxy->setFilterFixedString(text);
        }
        search->setStyleSheet(QString());
        search->setToolTip(normalToolTip);
    };
    auto* debounce = new QTimer(widget);
    debounce->setSingleShot(true);
    debounce->setInterval(250);
    QObject::connect(debounce, &QTimer::timeout, widget, apply);
    QObject::connect(search, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    QObject::connect(search, &QLineEdit::returnPressed, widget, [debounce, apply] {
        debounce->stop();
        apply();
    });
    QObject::connect(regex, &QCheckBox::toggled, widget, [debounce, apply] {
        debounce->stop();
        apply();
    });

    auto updateCount = [proxy, count, one = options.countNoun, many = options.countNounPlural] {
        const QAbstractItemModel* src = proxy->sourceModel();
        const int shown = proxy->rowCount();
        const int all = src ? src->rowCount() : 0;
        const QLocale locale;
        const QString& noun = all == 1 ? one : many;
        if (shown == all)
            count->setText(QStringLiteral("%1 %2").arg(locale.toString(all), noun));
        else
            count->setText(QObject::tr("%1 of %2 %3").arg(locale.toString(shown), locale.toString(all), noun));
    };
    QObject::connect(proxy, &QAbstractItemModel::rowsInserted, count, updateCount);
    QObject::connect(proxy, &QAbstractItemModel::rowsRemoved, count, updateCount);
    QObject::connect(proxy, &QAbstractItemModel::modelReset, count, updateCount);
    QObject::connect(proxy, &QAbstractItemModel::layoutChanged, count, updateCount);
    updateCount();
    return setup;
}

namespace {

/// Keeps a name column at the spare width of its view (fitNameColumn).
class NameColumnFitter : public QObject {
public:
    NameColumnFitter(QTreeView* view, int column, int minWidth)
        : QObject(view)
        , m_view(view)
        , m_column(column)
        , m_minWidth(minWidth)
    {
        view->viewport()->installEventFilter(this);
        view->header()->setSectionResizeMode(column, QHeaderView::Interactive);
        connect(view->header(), &QHeaderView::sectionResized, this, [this](int logical, int, int) {
            if (logical != m_column)
                fit();
        });
        connect(view->header(), &QHeaderView::sectionCountChanged, this, [this] { fit(); });
        fit();
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Resize)
            fit();
        return QObject::eventFilter(watched, event);
    }

private:
    void fit()
    {
        const QHeaderView* header = m_view->header();
        int others = 0;
        for (int c = 0; c < header->count(); ++c)
            if (c != m_column && !header->isSectionHidden(c))
                others += header->sectionSize(c);
        // The floor: the longest name when that is narrower than minWidth.
        const int floor
            = std::min(m_minWidth, static_cast<const QAbstractItemView*>(m_view)->sizeHintForColumn(m_column) + 8);
        const int width = std::max(floor, m_view->viewport()->width() - others);
        if (header->sectionSize(m_column) != width)
            m_view->setColumnWidth(m_column, width);
    }

    QTreeView* m_view;
    int m_column;
    int m_minWidth;
};

} // namespace

void fitNameColumn(QTreeView* view, int column, int minWidth) { new NameColumnFitter(view, column, minWidth); }

void emitCellsChanged(QAbstractItemModel* model, bool header)
{
    const int rows = model->rowCount();
    const int columns = model->columnCount();
    if (rows > 0)
        Q_EMIT model->dataChanged(model->index(0, 0), model->index(rows - 1, columns - 1));
    if (header)
        Q_EMIT model->headerDataChanged(Qt::Horizontal, 0, columns - 1);
}

QFont boldFont(QFont font)
{
    font.setBold(true);
    return font;
}

QFont boldFont() { return boldFont(QFont()); }

} // namespace parallax
