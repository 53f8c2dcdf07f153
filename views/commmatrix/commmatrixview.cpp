// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/commmatrix/commmatrixview.h"

#include "views/charts/chartexport.h"
#include "views/charts/colors.h"
#include "views/common/flowlayout.h"
#include "views/selectionstate.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QSaveFile>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

constexpr int LeftMargin = 56;
constexpr int TopMargin = 34;
constexpr int SumBar = 64; ///< the length of the longest row or column sum bar
constexpr int Gap = 6;
constexpr int LegendWidth = 130;
const QColor EmptyCell(0xf2, 0xf2, 0xf2);
const QColor SumColor(0x4a, 0x6f, 0xa5);

QString quantityTitle(CommQuantity q)
{
    switch (q) {
    case CommQuantity::Bytes:
        return QObject::tr("bytes");
    case CommQuantity::Messages:
        return QObject::tr("messages");
    case CommQuantity::MeanSize:
        return QObject::tr("mean size (bytes)");
    }
    return {};
}

/// Every `step`-th rank gets a label so that labels of `extent` pixels do not overlap.
std::size_t labelStep(std::size_t ranks, double pixelsPerRank, int extent)
{
    std::size_t step = 1;
    while (pixelsPerRank * static_cast<double>(step) < extent && step < ranks)
        step *= 2;
    return step;
}

} // namespace

// ---- CommMatrixPlot ----

CommMatrixPlot::CommMatrixPlot(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QColor CommMatrixPlot::colorOf(double value, double lo, double hi, bool logScale)
{
    if (!(value > 0))
        return EmptyCell;
    double t = 1.0;
    if (logScale && lo > 0 && hi > lo)
        t = (std::log(value) - std::log(lo)) / (std::log(hi) - std::log(lo));
    else if (!logScale && hi > 0)
        t = value / hi;
    // The lightest colours stay visibly apart from an empty cell.
    return sequentialColor(0.12 + 0.88 * std::clamp(t, 0.0, 1.0));
}

QImage CommMatrixPlot::imageOf(const CommMatrix& matrix, CommQuantity quantity, bool logScale)
{
    const std::size_t n = matrix.size();
    if (n == 0)
        return {};
    const auto side = static_cast<int>(std::min<std::size_t>(n, MaxImageSide));
    const double hi = matrix.maxValue(quantity);
    const double lo = matrix.minPositiveValue(quantity);
    QImage image(side, side, QImage::Format_RGB32);
    image.fill(EmptyCell);
    // Ranks that share a pixel show their largest value: a lone busy pair stays visible.
    std::vector<float> pooled;
    if (std::size_t(side) < n)
        pooled.assign(std::size_t(side) * std::size_t(side), 0.0F);
    const auto pixel = [&](std::uint32_t rank) { return static_cast<int>(std::size_t(rank) * std::size_t(side) / n); };
    for (const CommCell& c : matrix.cells) {
        const double v = CommMatrix::value(c, quantity);
        if (pooled.empty()) {
            image.setPixelColor(static_cast<int>(c.receiver), static_cast<int>(c.sender), colorOf(v, lo, hi, logScale));
            continue;
        }
        float& p = pooled[std::size_t(pixel(c.sender)) * std::size_t(side) + std::size_t(pixel(c.receiver))];
        p = std::max(p, static_cast<float>(v));
    }
    for (std::size_t i = 0; i < pooled.size(); ++i)
        if (pooled[i] > 0)
            image.setPixelColor(static_cast<int>(i % std::size_t(side)), static_cast<int>(i / std::size_t(side)),
                colorOf(pooled[i], lo, hi, logScale));
    return image;
}

void CommMatrixPlot::setMatrix(
    std::shared_ptr<const CommMatrix> matrix, QImage image, CommQuantity quantity, bool logScale)
{
    m_matrix = std::move(matrix);
    m_image = std::move(image);
    m_quantity = quantity;
    m_log = logScale;
    m_hover.reset();
    update();
}

void CommMatrixPlot::setHighlightedNode(int node)
{
    m_highlightedNode = node;
    update();
}

QRect CommMatrixPlot::matrixRect() const
{
    const int w = width() - LeftMargin - Gap - SumBar - Gap - LegendWidth;
    const int h = height() - TopMargin - Gap - SumBar - 4;
    const int side = std::max(10, std::min(w, h));
    return { LeftMargin, TopMargin, side, side };
}

std::optional<std::pair<std::size_t, std::size_t>> CommMatrixPlot::cellAt(QPoint point) const
{
    if (!m_matrix || m_matrix->size() == 0)
        return std::nullopt;
    const QRect r = matrixRect();
    if (!r.contains(point))
        return std::nullopt;
    const std::size_t n = m_matrix->size();
    const auto at = [n](int offset, int extent) {
        return std::min(n - 1, static_cast<std::size_t>(static_cast<double>(offset) * static_cast<double>(n) / extent));
    };
    return std::pair { at(point.y() - r.top(), r.height()), at(point.x() - r.left(), r.width()) };
}

QPoint CommMatrixPlot::pointOf(std::size_t sender, std::size_t receiver) const
{
    const QRect r = matrixRect();
    const double n = m_matrix ? static_cast<double>(std::max<std::size_t>(1, m_matrix->size())) : 1.0;
    return { r.left() + static_cast<int>((static_cast<double>(receiver) + 0.5) * r.width() / n),
        r.top() + static_cast<int>((static_cast<double>(sender) + 0.5) * r.height() / n) };
}

QString CommMatrixPlot::toolTipAt(QPoint point) const
{
    const auto cell = cellAt(point);
    if (!cell)
        return {};
    const CommCell c = m_matrix->cell(cell->first, cell->second);
    return tr("sender rank %1 → receiver rank %2\nbytes: %3\nmessages: %4\nmean size: %5 bytes")
        .arg(m_matrix->ranks[cell->first])
        .arg(m_matrix->ranks[cell->second])
        .arg(formatCommValue(c.bytes, CommQuantity::Bytes), formatCommValue(c.messages, CommQuantity::Messages),
            formatCommValue(c.mean(), CommQuantity::MeanSize));
}

void CommMatrixPlot::paintLegend(QPainter& painter, const QRect& area) const
{
    const double hi = m_matrix->maxValue(m_quantity);
    const double lo = m_matrix->minPositiveValue(m_quantity);
    const QFontMetrics fm(font());
    const QRect bar(area.left(), area.top() + fm.height() + 4, 14, std::max(20, area.height() - 2 * fm.height() - 8));
    for (int y = 0; y < bar.height(); ++y) {
        const double t = 1.0 - static_cast<double>(y) / std::max(1, bar.height() - 1);
        const double v = m_log && lo > 0 && hi > lo ? std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo)))
                                                    : std::max(t * hi, hi * 1e-12);
        painter.setPen(colorOf(v, lo, hi, m_log));
        painter.drawLine(bar.left(), bar.top() + y, bar.right(), bar.top() + y);
    }
    painter.setPen(palette().text().color());
    painter.drawRect(bar.adjusted(0, 0, -1, -1));
    painter.drawText(QRect(area.left(), area.top(), area.width(), fm.height()), Qt::AlignLeft,
        m_log ? tr("log scale") : tr("linear"));
    const int x = bar.right() + 4;
    const int w = area.right() - x;
    painter.drawText(QRect(x, bar.top(), w, fm.height()), Qt::AlignLeft, formatCommValue(hi, m_quantity));
    painter.drawText(QRect(x, bar.bottom() - fm.height(), w, fm.height()), Qt::AlignLeft,
        m_log ? formatCommValue(lo, m_quantity) : QStringLiteral("0"));
    painter.drawText(QRect(area.left(), bar.bottom() + 4, area.width(), fm.height()), Qt::AlignLeft,
        fm.elidedText(quantityTitle(m_quantity), Qt::ElideRight, area.width()));
}

void CommMatrixPlot::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    if (!m_matrix || m_image.isNull())
        return;
    const QRect r = matrixRect();
    const std::size_t n = m_matrix->size();
    const double perRank = static_cast<double>(r.width()) / static_cast<double>(n);
    painter.drawImage(r, m_image); // one pixel per cell (or per block of ranks), scaled to blocks
    painter.setPen(palette().mid().color());
    painter.drawRect(r.adjusted(-1, -1, 0, 0));

    // Rank labels: senders on the left, receivers on top.
    const QFontMetrics fm(font());
    painter.setPen(palette().text().color());
    const std::size_t stepY = labelStep(n, perRank, fm.height());
    const std::size_t stepX = labelStep(n, perRank, fm.horizontalAdvance(QString::number(m_matrix->ranks.back())) + 6);
    for (std::size_t s = 0; s < n; s += stepY) {
        const int y = pointOf(s, 0).y();
        painter.drawText(QRect(0, y - fm.height() / 2, LeftMargin - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
            QString::number(m_matrix->ranks[s]));
    }
    for (std::size_t c = 0; c < n; c += stepX) {
        const int x = pointOf(0, c).x();
        painter.drawText(QRect(x - 30, TopMargin - fm.height() - 2, 60, fm.height()), Qt::AlignHCenter,
            QString::number(m_matrix->ranks[c]));
    }
    painter.drawText(QRect(0, 0, LeftMargin + r.width(), fm.height()), Qt::AlignHCenter, tr("receiver rank →"));
    painter.save();
    painter.translate(QPoint(fm.height() / 2 + 2, r.center().y()));
    painter.rotate(-90);
    painter.drawText(
        QRect(-r.height() / 2, -fm.height() / 2, r.height(), fm.height()), Qt::AlignCenter, tr("← sender rank"));
    painter.restore();

    // Row sums (right) and column sums (below) as bars of the same quantity.
    double rowMax = 0;
    double columnMax = 0;
    for (std::size_t i = 0; i < n; ++i) {
        rowMax = std::max(rowMax, m_matrix->rowSum(i, m_quantity));
        columnMax = std::max(columnMax, m_matrix->columnSum(i, m_quantity));
    }
    const int barX = r.right() + Gap;
    const int barY = r.bottom() + Gap;
    for (std::size_t i = 0; i < n; ++i) {
        const int from = r.top() + static_cast<int>(std::floor(static_cast<double>(i) * perRank));
        const int to = r.top() + static_cast<int>(std::floor(static_cast<double>(i + 1) * perRank));
        const int thickness = std::max(1, to - from - (perRank >= 4 ? 1 : 0));
        if (rowMax > 0)
            painter.fillRect(barX, from,
                std::max(1, static_cast<int>(SumBar * m_matrix->rowSum(i, m_quantity) / rowMax)), thickness, SumColor);
        const int left = r.left() + (from - r.top());
        if (columnMax > 0)
            painter.fillRect(left, barY, thickness,
                std::max(1, static_cast<int>(SumBar * m_matrix->columnSum(i, m_quantity) / columnMax)), SumColor);
    }
    painter.setPen(palette().text().color());
    painter.drawText(QRect(barX, r.top() - fm.height() - 2, SumBar + Gap, fm.height()), Qt::AlignLeft, tr("row sum"));
    painter.drawText(
        QRect(0, barY, LeftMargin - 6, 2 * fm.height()), Qt::AlignRight | Qt::TextWordWrap, tr("column sum"));

    // The selected thread's row, and the hovered cell's row and column.
    if (const int row = m_matrix->indexOf(m_highlightedNode); row >= 0 && m_highlightedNode >= 0) {
        const int y0 = pointOf(std::size_t(row), 0).y();
        const int h = std::max(2, static_cast<int>(perRank));
        painter.setPen(QPen(QColor(30, 100, 220), 2));
        painter.drawRect(QRect(r.left() - 1, y0 - h / 2, r.width() + 1, h));
    }
    if (m_hover) {
        const QPoint p = pointOf(m_hover->first, m_hover->second);
        const int half = std::max(2, static_cast<int>(perRank / 2));
        painter.setPen(QPen(palette().text().color(), 1));
        painter.drawRect(QRect(p.x() - half, p.y() - half, 2 * half, 2 * half));
    }
    paintLegend(painter, QRect(barX + SumBar + Gap, r.top(), LegendWidth, r.height()));
}

void CommMatrixPlot::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint p = event->position().toPoint();
    const auto cell = cellAt(p);
    if (cell != m_hover) {
        m_hover = cell;
        update();
    }
    if (cell)
        QToolTip::showText(event->globalPosition().toPoint(), toolTipAt(p), this);
    else
        QToolTip::hideText();
}

void CommMatrixPlot::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (const auto cell = cellAt(event->position().toPoint()))
        Q_EMIT cellClicked(cell->first, cell->second);
}

void CommMatrixPlot::leaveEvent(QEvent*)
{
    if (m_hover) {
        m_hover.reset();
        update();
    }
}

// ---- CommMatrixView ----

CommMatrixView::CommMatrixView(SelectionState* state, QWidget* parent)
    : QWidget(parent)
    , SelectionView(this, state, SelectionChange::Trial | SelectionChange::Thread)
{
    auto* layout = new QVBoxLayout(this);
    auto* bar = new FlowLayout;
    m_quantity = new QComboBox;
    m_quantity->addItem(tr("Bytes"), static_cast<int>(CommQuantity::Bytes));
    m_quantity->addItem(tr("Messages"), static_cast<int>(CommQuantity::Messages));
    m_quantity->addItem(tr("Mean size"), static_cast<int>(CommQuantity::MeanSize));
    m_quantity->setToolTip(tr("What a cell shows: bytes sent, messages sent, or bytes per message"));
    m_context = new QComboBox;
    m_context->addItem(tr("All contexts"), QString());
    m_context->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_context->setToolTip(tr("Only the messages sent under one call path (the text after ' : ' of TAU's context "
                             "events)"));
    m_side = new QComboBox;
    m_side->addItem(tr("As sent"), static_cast<int>(CommSide::Sent));
    m_side->addItem(tr("As received"), static_cast<int>(CommSide::Received));
    m_side->setToolTip(tr("The senders' records, or the receivers' ('Message size received from node K') as a "
                          "cross-check; both laid out sender × receiver"));
    m_log = new QCheckBox(tr("Log scale"));
    m_log->setToolTip(tr("Colour by the logarithm of the value: small pairs next to large ones stay visible"));
    bar->addWidget(new QLabel(tr("Show:")));
    bar->addWidget(m_quantity);
    bar->addWidget(new QLabel(tr("Context:")));
    bar->addWidget(m_context);
    bar->addWidget(m_side);
    bar->addWidget(m_log);
    bar->addWidget(newExportButton(this, tr("Save the matrix as PNG, SVG or PDF"),
        [this] { exportWidgetInteractively(this, this, QStringLiteral("commmatrix.png")); }));
    auto* csv = newExportButton(
        this, tr("Save the matrix, its row and column sums as CSV"), [this] { exportCsvInteractively(); });
    csv->setText(tr("Export CSV…"));
    bar->addWidget(csv);
    layout->addLayout(bar);
    m_plot = new CommMatrixPlot;
    layout->addWidget(m_plot, 1);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    const auto restart = [this] {
        m_stale = true;
        scheduleUpdate(SelectionChange::View);
    };
    connect(m_quantity, &QComboBox::currentIndexChanged, this, restart);
    connect(m_context, &QComboBox::currentIndexChanged, this, restart);
    connect(m_side, &QComboBox::currentIndexChanged, this, restart);
    connect(m_log, &QCheckBox::toggled, this, restart);
    connect(m_plot, &CommMatrixPlot::cellClicked, this, &CommMatrixView::selectCell);
    if (state->trial())
        scheduleUpdate(SelectionChange::Trial);
}

CommMatrixView::~CommMatrixView() { m_job.cancelAndWait(); }

CommQuantity CommMatrixView::quantity() const { return static_cast<CommQuantity>(m_quantity->currentData().toInt()); }

QString CommMatrixView::context() const { return m_context->currentData().toString(); }

CommSide CommMatrixView::side() const { return static_cast<CommSide>(m_side->currentData().toInt()); }

bool CommMatrixView::logScale() const { return m_log->isChecked(); }

void CommMatrixView::setQuantity(CommQuantity quantity)
{
    m_quantity->setCurrentIndex(m_quantity->findData(static_cast<int>(quantity)));
}

bool CommMatrixView::setContext(const QString& context)
{
    updateNow(); // the contexts come with the first computation
    const int i = m_context->findData(context);
    if (i < 0)
        return false;
    m_context->setCurrentIndex(i);
    return true;
}

void CommMatrixView::setSide(CommSide side) { m_side->setCurrentIndex(m_side->findData(static_cast<int>(side))); }

void CommMatrixView::setLogScale(bool on) { m_log->setChecked(on); }

QString CommMatrixView::message() const { return m_status->text(); }

void CommMatrixView::doUpdate(SelectionChanges changes)
{
    if (changes & SelectionChange::Trial) {
        m_job.cancel();
        releaseInBackground(std::exchange(m_matrix, nullptr));
        m_plot->setMatrix(nullptr, {}, quantity(), logScale());
        {
            const QSignalBlocker block(m_context);
            m_context->clear();
            m_context->addItem(tr("All contexts"), QString());
        }
        m_contexts.clear();
        m_stale = selection()->trial() != nullptr;
        if (!m_stale)
            m_status->setText(tr("No trial."));
    }
    if (changes & SelectionChange::Thread) {
        const ThreadIndex t = selection()->thread();
        const TrialPtr& trial = selection()->trial();
        m_plot->setHighlightedNode(trial && t.isValid() ? trial->threadKey(t).node : -1);
    }
    if (!m_stale || (!isVisible() && !isUpdatingNow()))
        return;
    start();
}

void CommMatrixView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        scheduleUpdate(SelectionChange::View);
}

void CommMatrixView::finishUpdate() { m_job.waitAndDeliver(); }

void CommMatrixView::start()
{
    m_stale = false;
    const TrialPtr trial = selection()->trial();
    if (!trial)
        return;
    const CommQuantity q = quantity();
    const QString ctx = context();
    const CommSide s = side();
    const bool log = logScale();
    // The matrix is kept when only the quantity or the scale changed: only the picture is made again.
    std::shared_ptr<const CommMatrix> previous
        = m_matrix && m_matrix->context == ctx && m_matrix->side == s ? m_matrix : nullptr;
    const bool needContexts = m_contexts.isEmpty();
    m_status->setText(tr("Computing the communication matrix…"));
    m_job.start(
        [trial, q, ctx, s, log, previous, needContexts](const std::atomic_bool& cancel) {
            Computed out;
            out.hasEvents = hasCommEvents(*trial);
            if (!out.hasEvents)
                return out;
            if (needContexts)
                out.contexts = commContexts(*trial);
            out.matrix = previous ? previous : std::make_shared<const CommMatrix>(commMatrix(*trial, ctx, s, &cancel));
            if (!cancel)
                out.image = CommMatrixPlot::imageOf(*out.matrix, q, log);
            return out;
        },
        [this](Computed computed) { present(std::move(computed)); });
}

void CommMatrixView::present(Computed computed)
{
    m_hasEvents = computed.hasEvents;
    if (!computed.contexts.isEmpty() && m_contexts.isEmpty()) {
        m_contexts = computed.contexts;
        const QSignalBlocker block(m_context);
        for (const QString& c : std::as_const(m_contexts))
            m_context->addItem(c, c);
    }
    if (computed.matrix != m_matrix)
        releaseInBackground(std::exchange(m_matrix, computed.matrix));
    m_plot->setMatrix(m_matrix, std::move(computed.image), quantity(), logScale());
    if (!m_hasEvents) {
        m_status->setText(tr("This trial has no point-to-point message events ('Message size sent to node K'): TAU "
                             "records them with TAU_COMM_MATRIX=1; OTF2 traces hold them as MPI send and receive "
                             "events."));
        return;
    }
    const CommMatrix& m = *m_matrix;
    double bytes = 0;
    double messages = 0;
    for (std::size_t i = 0; i < m.size(); ++i) {
        bytes += m.rowBytes[i];
        messages += m.rowMessages[i];
    }
    QString text
        = tr("%1 ranks, %2 sender–receiver pairs, %3 bytes in %4 messages (%5). Row = sender, column = "
             "receiver; hover a cell for its numbers, click it to select the sender's thread.")
              .arg(m.size())
              .arg(m.cells.size())
              .arg(formatCommValue(bytes, CommQuantity::Bytes), formatCommValue(messages, CommQuantity::Messages),
                  m.side == CommSide::Sent ? tr("as sent") : tr("as received"));
    if (m.empty())
        text = m.side == CommSide::Received ? tr("This trial records no received messages; choose 'As sent'.")
                                            : tr("No messages in this context.");
    if (m.pairsFromContexts > 0)
        text += tr(" %1 (thread, peer) pairs had only context events: their contexts' sum stands in.")
                    .arg(m.pairsFromContexts);
    if (m.size() > std::size_t(CommMatrixPlot::MaxImageSide))
        text += tr(" %1 ranks share a pixel (the largest value shows).")
                    .arg((m.size() + CommMatrixPlot::MaxImageSide - 1) / CommMatrixPlot::MaxImageSide);
    m_status->setText(text);
}

void CommMatrixView::selectCell(std::size_t sender, std::size_t receiver)
{
    if (!m_matrix)
        return;
    const ThreadIndex from = m_matrix->rankThreads[sender];
    const ThreadIndex to = m_matrix->rankThreads[receiver];
    std::vector<ThreadIndex> pair;
    for (const ThreadIndex t : { from, to })
        if (t.isValid())
            pair.push_back(t);
    selection()->selectThreads(std::move(pair));
    if (from.isValid())
        selection()->selectThread(from);
}

QString CommMatrixView::exportCsv(const QString& fileName) const
{
    if (!m_matrix || m_matrix->empty())
        return tr("no communication matrix to export");
    QSaveFile f(fileName);
    if (!f.open(QIODevice::WriteOnly) || f.write(commMatrixCsv(*m_matrix, quantity()).toUtf8()) < 0 || !f.commit())
        return tr("cannot write %1: %2").arg(fileName, f.errorString());
    return {};
}

void CommMatrixView::exportCsvInteractively()
{
    const QString fileName = QFileDialog::getSaveFileName(this, tr("Export CSV"),
        QStringLiteral("commmatrix-%1.csv").arg(commQuantityName(quantity())), tr("CSV files (*.csv);;All files (*)"));
    if (fileName.isEmpty())
        return;
    if (const QString error = exportCsv(fileName); !error.isEmpty())
        QMessageBox::warning(this, tr("Export CSV"), error);
}

} // namespace parallax
