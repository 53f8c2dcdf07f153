// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticprofile.h"
#include "algebra/units.h"
#include "views/viewsetup.h"

#include <QAbstractTableModel>
#include <QLocale>
#include <memory>
#include <vector>

namespace parallax {

/// One entity of a rule-editor preview: its roll-up under the applied model ("before") and under
/// the edited model ("after"), per metric, summed over the threads.
struct PreviewRow {
    QString id;
    QString name;
    QString kind;
    int depth = 0; ///< in the tree of the model that has it (after, else before)
    bool inBefore = false;
    bool inAfter = false;
    bool estimate = false; ///< an AMORTIZE or WEIGHTED share in either model ("≈")
    bool aggregated = false; ///< a member of an aggregate in the edited model: no number of its own
    std::vector<double> before; ///< [metric] Σ over threads of roll; 0 when absent
    std::vector<double> after;
};

/// The numbers of a preview, made in a job from the two semantic profiles of one trial.
struct PreviewData {
    std::vector<PreviewRow> rows; ///< the edited model's entities in tree order, then the ones it drops
    std::vector<Metric> metrics;
    std::size_t threads = 0;
    std::vector<double> sourceTotal; ///< [metric] Σ over threads and source events of excl
    std::vector<double> beforeAttributed; ///< [metric] Σ over threads and entities of own (applied model)
    std::vector<double> afterAttributed; ///< the same for the edited model
    bool haveBefore = false;

    /// `before` may be null (no applied model, or it cannot be applied to the trial).
    static std::shared_ptr<const PreviewData> make(
        const semantic::SemanticProfile* before, const semantic::SemanticProfile& after);
};

/// The preview table of the rule editor: entity, kind, value before (the applied model), value
/// after (the edited text), change = after − before and change %. DisplayRole is text, SortRole the
/// raw number, ToolTipRole explains the row; changed rows are bold.
class SemanticPreviewModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Entity, Kind, Before, After, Change, ChangePercent, ColumnCount };
    enum class ValueScope { Total, Mean };

    explicit SemanticPreviewModel(QObject* parent = nullptr);

    void setPreview(std::shared_ptr<const PreviewData> data);
    const std::shared_ptr<const PreviewData>& preview() const { return m_data; }
    void setMetric(int metric);
    int metric() const { return m_metric; }
    void setValueScope(ValueScope scope);
    ValueScope valueScope() const { return m_scope; }
    void setTimeUnit(TimeUnit unit);
    TimeUnit timeUnit() const { return m_unit; }

    /// The row of an entity id (-1 when absent); values in the metric's unit for the current scope.
    int findRow(const QString& id) const;
    double beforeValue(int row) const;
    double afterValue(int row) const;
    /// Scoped Σ: source events, and Σ own under each model (conservation: after = source).
    double sourceTotal() const;
    double attributedBefore() const;
    double attributedAfter() const;
    /// A value formatted in the current unit ("12.500 ms").
    QString formatted(double value) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    double scoped(double total) const;
    double metricValue(const std::vector<double>& values) const;
    void refresh();

    std::shared_ptr<const PreviewData> m_data;
    int m_metric = 0;
    ValueScope m_scope = ValueScope::Total;
    TimeUnit m_unit = TimeUnit::Milliseconds;
    QLocale m_locale;
};

} // namespace parallax
