#pragma once

// moc (Qt 6.4) cannot parse libstdc++'s <concepts>, which ids.h pulls in through <compare>;
// moc does not need the model's declarations, the compiler does.
#ifndef Q_MOC_RUN
#include "datasource/model/trial.h"
#endif

#include <QWidget>
#include <memory>

class QComboBox;
class QFormLayout;
class QLabel;
class QListWidget;
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
