// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/semantic/semanticcodeeditor.h"

#include "views/viewsetup.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>
#include <algorithm>

namespace parallax {

namespace {

/// The gutter forwards its painting to the editor, which knows the block geometry.
class Gutter : public QWidget {
public:
    explicit Gutter(SemanticCodeEditor* editor)
        : QWidget(editor)
        , m_editor(editor)
    {
    }
    QSize sizeHint() const override { return QSize(m_editor->gutterWidth(), 0); }

protected:
    void paintEvent(QPaintEvent* event) override { m_editor->paintGutter(event); }

private:
    SemanticCodeEditor* m_editor;
};

QColor errorLineColor() { return QColor(0xff, 0xd6, 0xd6); }
QColor errorMarkColor() { return QColor(0xc0, 0x10, 0x10); }

} // namespace

SemanticCodeEditor::SemanticCodeEditor(QWidget* parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 4);
    connect(this, &QPlainTextEdit::blockCountChanged, this, &SemanticCodeEditor::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &SemanticCodeEditor::updateGutter);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &SemanticCodeEditor::updateSelections);
    updateGutterWidth();
}

int SemanticCodeEditor::gutterWidth() const
{
    int digits = 1;
    for (int max = std::max(1, blockCount()); max >= 10; max /= 10)
        ++digits;
    return 10 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(digits, 3);
}

void SemanticCodeEditor::updateGutterWidth() { setViewportMargins(gutterWidth(), 0, 0, 0); }

void SemanticCodeEditor::updateGutter(const QRect& rect, int dy)
{
    if (dy)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    if (rect.contains(viewport()->rect()))
        updateGutterWidth();
}

void SemanticCodeEditor::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect r = contentsRect();
    m_gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
}

bool SemanticCodeEditor::event(QEvent* event)
{
    // The error message as a tooltip over the gutter.
    if (event->type() == QEvent::ToolTip && m_errorLine > 0) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (help->pos().x() < gutterWidth()) {
            const QTextBlock block = document()->findBlockByNumber(m_errorLine - 1);
            const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
            if (help->pos().y() >= r.top() && help->pos().y() <= r.bottom()) {
                QToolTip::showText(help->globalPos(), m_errorMessage, this);
                return true;
            }
        }
    }
    return QPlainTextEdit::event(event);
}

void SemanticCodeEditor::paintGutter(QPaintEvent* event)
{
    QPainter painter(m_gutter);
    const QPalette pal = palette();
    painter.fillRect(event->rect(), pal.color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int number = block.blockNumber();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    const int width = m_gutter->width() - 5;
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            const bool error = number + 1 == m_errorLine;
            if (error) {
                painter.fillRect(QRect(0, top, m_gutter->width(), bottom - top), errorMarkColor());
                painter.setPen(Qt::white);
                painter.setFont(boldFont(font()));
            } else {
                painter.setPen(pal.color(QPalette::PlaceholderText));
                painter.setFont(font());
            }
            painter.drawText(0, top, width, fontMetrics().height(), Qt::AlignRight, QString::number(number + 1));
        }
        block = block.next();
        top = bottom;
        bottom = top + qRound(blockBoundingRect(block).height());
        ++number;
    }
}

void SemanticCodeEditor::setErrorLine(int line, const QString& message)
{
    m_errorLine = line > 0 && line <= blockCount() ? line : (line > 0 ? blockCount() : 0);
    m_errorMessage = message;
    updateSelections();
    m_gutter->update();
}

void SemanticCodeEditor::goToLine(int line)
{
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid())
        return;
    QTextCursor cursor(block);
    setTextCursor(cursor);
    centerCursor();
}

void SemanticCodeEditor::updateSelections()
{
    QList<QTextEdit::ExtraSelection> selections;
    if (!isReadOnly()) {
        QTextEdit::ExtraSelection current;
        QColor c = palette().color(QPalette::Highlight);
        c.setAlpha(28);
        current.format.setBackground(c);
        current.format.setProperty(QTextFormat::FullWidthSelection, true);
        current.cursor = textCursor();
        current.cursor.clearSelection();
        selections << current;
    }
    if (m_errorLine > 0) {
        const QTextBlock block = document()->findBlockByNumber(m_errorLine - 1);
        if (block.isValid()) {
            QTextEdit::ExtraSelection error;
            error.format.setBackground(errorLineColor());
            error.format.setProperty(QTextFormat::FullWidthSelection, true);
            error.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            error.format.setUnderlineColor(errorMarkColor());
            error.cursor = QTextCursor(block);
            selections << error;
        }
    }
    setExtraSelections(selections);
}

} // namespace parallax
