// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/sidebysideview.h"

#include "views/comparison/comparisonformat.h"
#include "views/comparison/comparisonmodel.h"
#include "views/comparison/sidebysidedelegate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace parallax {

namespace {

QString swatch(const QColor& colour)
{
    return QStringLiteral("<span style=\"color:%1; font-size:large\">■</span>").arg(colour.name());
}

/// The column each sort orders by (Magnitude: the Δ column by |Δ|); a header click on one of these
/// columns picks its sort.
struct SortColumn {
    SideBySideView::Sort sort;
    int column;
};
constexpr SortColumn sortColumns[] = {
    { SideBySideView::Sort::Delta, ComparisonModel::Delta },
    { SideBySideView::Sort::RelativeDelta, ComparisonModel::DeltaPercent },
    { SideBySideView::Sort::ValueA, ComparisonModel::ValueA },
    { SideBySideView::Sort::ValueB, ComparisonModel::ValueB },
    { SideBySideView::Sort::Name, ComparisonModel::Name },
};

} // namespace

SideBySideView::SideBySideView(QWidget* parent)
    : QWidget(parent)
    , m_model(new ComparisonModel(this))
    , m_legend(new QLabel(this))
    , m_sortBox(new QComboBox(this))
{
    auto* view = new QTreeView;
    ViewSetupOptions options;
    options.placeholder = tr("Search events…");
    options.countNoun = tr("event");
    options.countNounPlural = tr("events");
    m_setup = setupTreeView(view, m_model, options);
    view->setItemDelegateForColumn(ComparisonModel::Bars, new SideBySideBarDelegate(view));
    QHeaderView* header = view->header();
    header->setStretchLastSection(true);
    header->resizeSection(ComparisonModel::Name, 320);
    // Room for "◀ only A" and for seven-digit values with grouping and a sign ("-293,654.123").
    header->resizeSection(
        ComparisonModel::Marker, std::max(80, view->fontMetrics().horizontalAdvance(QStringLiteral("◀ only A")) + 16));
    const int valueWidth = std::max(120, view->fontMetrics().horizontalAdvance(QStringLiteral("-8,888,888.888")) + 16);
    for (int column : { ComparisonModel::ValueA, ComparisonModel::ValueB, ComparisonModel::Delta })
        header->resizeSection(column, valueWidth);
    header->resizeSection(ComparisonModel::DeltaPercent,
        std::max(100, view->fontMetrics().horizontalAdvance(QStringLiteral("-13,993.0 %")) + 16));

    m_sortBox->addItem(tr("Largest change |Δ|"), static_cast<int>(Sort::Magnitude));
    m_sortBox->addItem(tr("Δ = A − B"), static_cast<int>(Sort::Delta));
    m_sortBox->addItem(tr("Δ % (relative)"), static_cast<int>(Sort::RelativeDelta));
    m_sortBox->addItem(tr("A (baseline)"), static_cast<int>(Sort::ValueA));
    m_sortBox->addItem(tr("B (candidate)"), static_cast<int>(Sort::ValueB));
    m_sortBox->addItem(tr("Name"), static_cast<int>(Sort::Name));
    m_sortBox->setToolTip(tr("Order of the rows; clicking a column header sorts by that column"));
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_legend, 1);
    top->addWidget(new QLabel(tr("Sort:"), this));
    top->addWidget(m_sortBox);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_setup.widget, 1);

    connect(m_sortBox, &QComboBox::activated, this, [this] {
        const auto sort = static_cast<Sort>(m_sortBox->currentData().toInt());
        setSort(sort, sort == Sort::Name ? Qt::AscendingOrder : Qt::DescendingOrder);
    });
    connect(header, &QHeaderView::sortIndicatorChanged, this, [this](int column, Qt::SortOrder) {
        if (m_sorting)
            return;
        // A header click sorts by the signed values of that column.
        m_setup.proxy->setSortRole(SortRole);
        for (const SortColumn& s : sortColumns)
            if (s.column == column)
                m_sort = s.sort;
        syncSortBox();
    });
    connect(view, &QTreeView::activated, this, [this](const QModelIndex& index) {
        const QVariant event = index.data(ComparisonModel::EventRole);
        if (event.isValid())
            Q_EMIT eventActivated(event.toInt());
    });
    setRunNames(QString(), QString());
    setSort(Sort::Magnitude);
}

void SideBySideView::setSort(Sort sort, Qt::SortOrder order)
{
    m_sorting = true;
    m_sort = sort;
    int column = ComparisonModel::Delta;
    for (const SortColumn& s : sortColumns)
        if (s.sort == sort)
            column = s.column;
    const int role = sort == Sort::Magnitude ? ComparisonModel::MagnitudeRole : SortRole;
    m_setup.proxy->setSortRole(role);
    m_setup.view->sortByColumn(column, order);
    // sortByColumn() does nothing when the column and order are already the header's.
    m_setup.proxy->sort(column, order);
    // |Δ| has no column of its own: no header claims an order the rows do not have.
    m_setup.view->header()->setSortIndicatorShown(sort != Sort::Magnitude);
    m_sorting = false;
    syncSortBox();
}

void SideBySideView::syncSortBox()
{
    const QSignalBlocker block(m_sortBox);
    m_sortBox->setCurrentIndex(m_sortBox->findData(static_cast<int>(m_sort)));
}

std::vector<int> SideBySideView::shownEvents() const
{
    std::vector<int> events;
    const QSortFilterProxyModel* proxy = m_setup.proxy;
    for (int row = 0; row < proxy->rowCount(); ++row)
        events.push_back(proxy->index(row, 0).data(ComparisonModel::EventRole).toInt());
    return events;
}

void SideBySideView::setRunNames(const QString& a, const QString& b)
{
    m_runA = a;
    m_runB = b;
    // The intensity follows the window's "Colour by" choice.
    const QString intensity = m_model->colourBy() == ColourBy::Delta ? tr("|Δ| of the largest") : tr("Δ %");
    m_legend->setText(
        tr("%1 A (baseline): <b>%2</b> &nbsp;&nbsp; %3 B (candidate): <b>%4</b> &nbsp;&nbsp; "
           "<span style=\"color:gray\">Δ = A − B: positive = B cheaper; blue = improvement, red = "
           "regression, intensity = %5</span>")
            .arg(swatch(baselineColor()), a.toHtmlEscaped(), swatch(candidateColor()), b.toHtmlEscaped(), intensity));
}

void SideBySideView::updateLegend() { setRunNames(m_runA, m_runB); }

} // namespace parallax
