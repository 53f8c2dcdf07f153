// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QPlainTextEdit>

namespace parallax {

/// A plain-text editor for semantic model files: a line-number gutter, a fixed-width font, and one
/// error line that is highlighted (and its number marked) until cleared.
class SemanticCodeEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit SemanticCodeEditor(QWidget* parent = nullptr);

    /// Highlights a 1-based line (0 clears) with a tooltip for the gutter.
    void setErrorLine(int line, const QString& message = {});
    int errorLine() const { return m_errorLine; }
    /// Moves the cursor to the start of a 1-based line and scrolls it into view.
    void goToLine(int line);

    int gutterWidth() const;
    void paintGutter(QPaintEvent* event);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    void updateGutterWidth();
    void updateGutter(const QRect& rect, int dy);
    void updateSelections();

    QWidget* m_gutter;
    int m_errorLine = 0;
    QString m_errorMessage;
};

} // namespace parallax
