// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/derivedmetric.h"
#include "datasource/model/trial.h"

#include <QDialog>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace parallax {

/// The derived-metric editor: a name, an expression over the trial's metrics built by typing or
/// with the metric and operator buttons, checked as it is typed (the parser's message and
/// column), ParaProf or IEEE arithmetic, or several definitions loaded from a file. The dialog
/// only collects definitions; the caller applies them off the GUI thread (deriveMetrics).
class DerivedMetricDialog : public QDialog {
    Q_OBJECT
public:
    explicit DerivedMetricDialog(std::shared_ptr<const Trial> trial, QWidget* parent = nullptr);

    /// What OK means: the typed definition, or every definition of the loaded file.
    std::vector<DerivedMetricDefinition> definitions() const { return m_definitions; }
    DerivedMode mode() const;

    /// For tests and scripts: fill the fields as a user would.
    void setDefinition(const QString& name, const QString& expression);
    /// Reads NAME = EXPR lines (# comments); false with the error shown when the file is bad.
    bool loadFile(const QString& path);
    /// The status line (an error with its column, or what the metric will be).
    QString status() const;
    /// True when OK would be accepted.
    bool isAcceptable() const;

private:
    void insert(const QString& text);
    void check();

    std::shared_ptr<const Trial> m_trial;
    QLineEdit* m_name = nullptr;
    QLineEdit* m_unit = nullptr;
    QLineEdit* m_expression = nullptr;
    QComboBox* m_mode = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_ok = nullptr;
    std::vector<DerivedMetricDefinition> m_definitions;
    QString m_file; ///< non-empty when the definitions come from a file
};

} // namespace parallax
