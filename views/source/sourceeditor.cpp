// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/source/sourceeditor.h"

#include "views/charts/colors.h"
#include "views/source/sourcehighlighter.h"

#include <QFontDatabase>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPlainTextDocumentLayout>
#include <QScrollBar>
#include <QTextBlock>

namespace parallax {

namespace {

constexpr int Pad = 6;

class Gutter : public QWidget {
public:
    explicit Gutter(SourceEditor* editor)
        : QWidget(editor)
        , m_editor(editor)
    {
        setCursor(Qt::PointingHandCursor);
    }
    QSize sizeHint() const override { return { m_editor->gutterWidth(), 0 }; }

protected:
    void paintEvent(QPaintEvent* event) override { m_editor->paintGutter(this, event->rect()); }
    void mousePressEvent(QMouseEvent* event) override
    {
        if (event->button() == Qt::LeftButton)
            m_editor->gutterClicked(event->pos(), event->globalPosition().toPoint());
    }

private:
    SourceEditor* m_editor;
};

} // namespace

SourceEditor::SourceEditor(QWidget* parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
    , m_empty(std::make_unique<QTextDocument>())
{
    m_empty->setDocumentLayout(new QPlainTextDocumentLayout(m_empty.get()));
    setDocument(m_empty.get());
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateGutterWidth(); });
    connect(this, &QPlainTextEdit::updateRequest, this, &SourceEditor::updateGutter);
    updateGutterWidth();
}

SourceEditor::~SourceEditor() { setDocument(nullptr); }

std::shared_ptr<QTextDocument> SourceEditor::buildDocument(
    const QString& text, const QString& fileName, const QFont& font, QThread* thread)
{
    const SourceLanguage language = sourceLanguageOf(fileName);
    std::shared_ptr<QTextDocument> document(new QTextDocument, [](QTextDocument* d) { d->deleteLater(); });
    document->setDocumentLayout(new QPlainTextDocumentLayout(document.get()));
    document->setDefaultFont(font);
    // The highlighter before the text: its pass over the blocks runs here, not on the GUI thread.
    new SourceHighlighter(document.get(), language, sourceLineStates(language, text));
    document->setPlainText(text);
    document->setModified(false);
    document->moveToThread(thread);
    return document;
}

void SourceEditor::setSource(std::shared_ptr<QTextDocument> document)
{
    m_markFirst = m_markLast = 0;
    setExtraSelections({});
    setDocument(document.get());
    m_document = std::move(document); // the old one is deleted later, on this thread
    m_highlighter = m_document->findChild<SourceHighlighter*>();
    scheduleHighlight();
}

void SourceEditor::clearSource()
{
    m_markFirst = m_markLast = 0;
    setExtraSelections({});
    m_highlighter = nullptr;
    m_empty->clear();
    setDocument(m_empty.get());
    m_document.reset();
}

void SourceEditor::setCosts(
    std::shared_ptr<const SourceFileCosts> costs, std::shared_ptr<const Trial> trial, TimeUnit unit)
{
    m_costs = std::move(costs);
    m_trial = std::move(trial);
    m_metric = m_costs && m_trial && m_costs->metric.isValid() ? m_trial->metric(m_costs->metric) : Metric();
    m_unit = unit;
    m_valueWidth = 0;
    if (m_costs) {
        const QFontMetrics fm(font());
        for (const SourceEventCost& c : m_costs->events)
            m_valueWidth = std::max({ m_valueWidth, fm.horizontalAdvance(valueText(c.exclusive)),
                fm.horizontalAdvance(valueText(c.inclusive) + QStringLiteral(" +99")) });
    }
    updateGutterWidth();
    m_gutter->update();
}

void SourceEditor::markRegion(int first, int last)
{
    m_markFirst = first;
    m_markLast = std::max(first, last);
    QList<QTextEdit::ExtraSelection> marks;
    if (first > 0 && first <= blockCount()) {
        QTextEdit::ExtraSelection mark;
        QColor c = palette().color(QPalette::Highlight);
        c.setAlpha(40);
        mark.format.setBackground(c);
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        QTextCursor cursor(document()->findBlockByNumber(first - 1));
        const QTextBlock end = document()->findBlockByNumber(std::min(m_markLast, blockCount()) - 1);
        cursor.setPosition(end.position() + std::max(0, end.length() - 1), QTextCursor::KeepAnchor);
        mark.cursor = cursor;
        marks << mark;
        // A selection's full width stops before its last line: that line gets its own mark.
        mark.cursor = QTextCursor(end);
        marks << mark;
        // The region's first line a few lines below the top (the scroll bar counts lines).
        setTextCursor(QTextCursor(document()->findBlockByNumber(first - 1)));
        verticalScrollBar()->setValue(std::max(0, first - 4));
    }
    setExtraSelections(marks);
    highlightVisible();
    m_gutter->update();
}

void SourceEditor::highlightVisible()
{
    if (!m_highlighter || m_highlighting)
        return;
    m_highlighting = true;
    const QTextBlock first = firstVisibleBlock();
    const int lineHeight = std::max(1, fontMetrics().lineSpacing());
    m_highlighter->ensureHighlighted(first.blockNumber(), first.blockNumber() + viewport()->height() / lineHeight + 1);
    m_highlighting = false;
}

void SourceEditor::scheduleHighlight()
{
    if (std::exchange(m_highlightQueued, true))
        return;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_highlightQueued = false;
            highlightVisible();
        },
        Qt::QueuedConnection);
}

QString SourceEditor::valueText(double v) const { return formatMetricValue(v, m_metric, m_unit); }

int SourceEditor::gutterWidth() const
{
    const int digits = static_cast<int>(QString::number(std::max(1, blockCount())).size());
    const int lineWidth = fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
    return Pad + lineWidth + (m_valueWidth > 0 ? 2 * (m_valueWidth + 2 * Pad) : 0) + Pad;
}

void SourceEditor::updateGutterWidth() { setViewportMargins(gutterWidth(), 0, 0, 0); }

void SourceEditor::updateGutter(const QRect& rect, int dy)
{
    if (dy != 0)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    scheduleHighlight();
}

void SourceEditor::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
    scheduleHighlight();
}

QString SourceEditor::gutterText(int line) const
{
    if (!m_costs)
        return {};
    const auto at = m_costs->eventsAtLine(line);
    if (at.empty())
        return {};
    const SourceEventCost& c = m_costs->events[at.front()];
    QString text = valueText(c.exclusive) + QLatin1Char(' ') + valueText(c.inclusive);
    if (at.size() > 1)
        text += QStringLiteral(" +%1").arg(at.size() - 1);
    return text;
}

void SourceEditor::paintGutter(QWidget* gutter, const QRect& rect)
{
    QPainter p(gutter);
    const QPalette pal = palette();
    p.fillRect(rect, pal.color(QPalette::AlternateBase));
    const int digits = static_cast<int>(QString::number(std::max(1, blockCount())).size());
    const int lineWidth = fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
    const int exclX = Pad + lineWidth + Pad;
    const int inclX = exclX + m_valueWidth + 2 * Pad;
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int height = fontMetrics().height();
    p.setFont(font());
    while (block.isValid() && top <= rect.bottom()) {
        const int bottom = top + qRound(blockBoundingRect(block).height());
        const int line = block.blockNumber() + 1;
        if (block.isVisible() && bottom >= rect.top()) {
            const bool marked = line >= m_markFirst && line <= m_markLast && m_markFirst > 0;
            p.setPen(pal.color(marked ? QPalette::Text : QPalette::PlaceholderText));
            p.drawText(Pad, top, lineWidth, height, Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
            if (m_costs) {
                const auto at = m_costs->eventsAtLine(line);
                if (!at.empty()) {
                    const SourceEventCost& c = m_costs->events[at.front()];
                    auto cell = [&](int x, double value, double max, const QString& suffix) {
                        const double t = max > 0 ? std::clamp(value / max, 0.0, 1.0) : 0.0;
                        const QColor fill = sequentialColor(t);
                        const QRect r(x - Pad / 2, top, m_valueWidth + Pad, height);
                        p.fillRect(r, fill);
                        p.setPen(fill.lightness() < 128 ? Qt::white : Qt::black);
                        p.drawText(r.adjusted(Pad / 2, 0, -Pad / 2, 0), Qt::AlignRight | Qt::AlignVCenter,
                            valueText(value) + suffix);
                    };
                    cell(exclX, c.exclusive, m_costs->maxExclusive, QString());
                    cell(inclX, c.inclusive, m_costs->maxInclusive,
                        at.size() > 1 ? QStringLiteral(" +%1").arg(at.size() - 1) : QString());
                }
            }
        }
        block = block.next();
        top = bottom;
    }
}

int SourceEditor::lineAt(int y) const
{
    const QTextCursor cursor = cursorForPosition(QPoint(0, y));
    return cursor.block().blockNumber() + 1;
}

void SourceEditor::gutterClicked(const QPoint& pos, const QPoint& globalPos)
{
    if (!m_costs)
        return;
    const auto at = m_costs->eventsAtLine(lineAt(pos.y()));
    if (at.empty())
        return;
    if (at.size() == 1) {
        Q_EMIT eventClicked(m_costs->events[at.front()].event);
        return;
    }
    QMenu menu(this);
    for (std::size_t i : at) {
        const SourceEventCost& c = m_costs->events[i];
        const QString name = m_trial ? m_trial->event(c.event).name : QString::number(c.event.index());
        menu.addAction(QStringLiteral("%1  (%2 / %3)").arg(name, valueText(c.exclusive), valueText(c.inclusive)), this,
            [this, e = c.event] { Q_EMIT eventClicked(e); });
    }
    menu.exec(globalPos);
}

} // namespace parallax
