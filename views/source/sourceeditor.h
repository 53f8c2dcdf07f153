// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/sourcecost.h"
#include "algebra/units.h"

#include <QPlainTextEdit>
#include <QTextDocument>
#include <memory>

namespace parallax {

class SourceHighlighter;

/// The source browser's read-only editor (issue 20 §1): the file's text, the selected event's lines
/// marked, and a gutter with the line numbers and, on each line where events begin, the exclusive
/// and inclusive value of the largest one (a heat colour: the value over the file's largest), "+N"
/// when more begin there. Clicking a cost selects its event (a menu when several begin on the line).
/// A paint only looks at the visible lines (and the costs by binary search); highlighting follows
/// the visible lines too.
class SourceEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit SourceEditor(QWidget* parent = nullptr);
    ~SourceEditor() override;

    /// The document of a text with its highlighter for `fileName`'s language, built on any thread
    /// (a worker: laying out 100,000 lines costs the GUI thread 0.4 s) and handed to `thread`.
    static std::shared_ptr<QTextDocument> buildDocument(
        const QString& text, const QString& fileName, const QFont& font, QThread* thread);
    /// Shows a document of buildDocument().
    void setSource(std::shared_ptr<QTextDocument> document);
    void clearSource();
    /// The costs shown in the gutter and how they are formatted.
    void setCosts(std::shared_ptr<const SourceFileCosts> costs, std::shared_ptr<const Trial> trial, TimeUnit unit);
    const SourceFileCosts* costs() const { return m_costs.get(); }
    /// Marks lines first..last (1-based; 0 clears) and scrolls the first into view.
    void markRegion(int first, int last);
    int markedFirst() const { return m_markFirst; }
    /// Formats the visible lines that are not formatted yet (not while the document is being
    /// edited: a paint or scroll only schedules it, scheduleHighlight()).
    void highlightVisible();
    const SourceHighlighter* highlighter() const { return m_highlighter; }

    /// The gutter's parts, for its paint and clicks.
    int gutterWidth() const;
    void paintGutter(QWidget* gutter, const QRect& rect);
    void gutterClicked(const QPoint& pos, const QPoint& globalPos);
    /// The gutter's text of a line ("" without events), for tests: "EXCL INCL" as shown.
    QString gutterText(int line) const;

Q_SIGNALS:
    /// A cost in the gutter was clicked: select this event.
    void eventClicked(parallax::EventId event);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateGutterWidth();
    void scheduleHighlight();
    void updateGutter(const QRect& rect, int dy);
    QString valueText(double v) const;
    int lineAt(int y) const;

    QWidget* m_gutter;
    std::unique_ptr<QTextDocument> m_empty;
    std::shared_ptr<QTextDocument> m_document;
    SourceHighlighter* m_highlighter = nullptr; ///< the document's child
    std::shared_ptr<const SourceFileCosts> m_costs;
    std::shared_ptr<const Trial> m_trial;
    Metric m_metric;
    TimeUnit m_unit = TimeUnit::Microseconds;
    int m_valueWidth = 0;
    int m_markFirst = 0;
    int m_markLast = 0;
    bool m_highlightQueued = false;
    bool m_highlighting = false;
};

} // namespace parallax
