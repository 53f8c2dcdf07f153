// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QFormLayout;
class QLabel;
class QListWidget;
class QTreeWidget;
class QSpinBox;
class QStandardItemModel;
class QTreeView;

namespace parallax {

/// The facts of one trial: where it came from, its threads, metrics, events, groups, the reader's
/// warnings and the metadata (trial-wide, or the per-thread keys of one chosen thread).
class TrialSummaryWidget : public QWidget {
    Q_OBJECT
public:
    explicit TrialSummaryWidget(QWidget* parent = nullptr);

    void setTrial(std::shared_ptr<const Trial> trial);
    const std::shared_ptr<const Trial>& trial() const { return m_trial; }

    /// The metadata table (for CSV export and tests).
    QTreeView* metadataView() const { return m_metadataView; }

private:
    void showMetadata();
    void setRow(QLabel* label, const QString& text, const QString& toolTip = {});

    std::shared_ptr<const Trial> m_trial;
    QLabel* m_name = nullptr;
    QLabel* m_source = nullptr;
    QLabel* m_reader = nullptr;
    QLabel* m_threads = nullptr;
    QLabel* m_metrics = nullptr;
    QLabel* m_events = nullptr;
    QLabel* m_atomics = nullptr;
    QLabel* m_groups = nullptr;
    QTreeWidget* m_top = nullptr;
    QLabel* m_warningsTitle = nullptr;
    QListWidget* m_warnings = nullptr;
    QLabel* m_perThreadNote = nullptr;
    QComboBox* m_scope = nullptr;
    QSpinBox* m_thread = nullptr;
    QLabel* m_threadKey = nullptr;
    QStandardItemModel* m_metadata = nullptr;
    QTreeView* m_metadataView = nullptr;
};

} // namespace parallax
