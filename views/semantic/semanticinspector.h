// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticprofile.h"
#include "views/common/job.h"
#include "views/semantic/semanticinspectormodel.h"

#include <QWidget>
#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QStackedWidget;
class QTreeView;

namespace parallax {

struct ViewSetup;

/// The mapping inspector (docs/SEMANTICS.md 5.2–5.3): what every association of a semantic model did on
/// one trial — selector, policy, priority, the events it won (expandable), its targets, the weights
/// w(e,r) per edge, the Table-2 classification(s), what it contributed (metric chooser; absolute and
/// % of the attributed total) — plus `(unmapped)` with its events, and the attribution warnings
/// (a selector that matched nothing, an event matched twice, amortisation where per-instance timers
/// exist) highlighted on the association they concern and listed in a banner.
///
/// Self-contained: give it a model and a trial (it attributes in a QtConcurrent job) or a profile
/// that is already attributed; put it in a tab with one line.
class SemanticInspector : public QWidget {
    Q_OBJECT
public:
    explicit SemanticInspector(QWidget* parent = nullptr);
    ~SemanticInspector() override;

    /// Attributes `trial` through `model` off the GUI thread and shows the result (a superseded
    /// job's result is dropped). An attribution error is shown instead of the tree.
    void setModel(const semantic::Model& model, const TrialPtr& trial);
    /// Shows a profile attributed elsewhere (the per-event sums are still made in a job).
    void setProfile(const semantic::ProfilePtr& profile);

    /// The metric of the value columns, by name; false when the trial has no such metric.
    bool setMetric(const QString& name);
    void setValueScope(SemanticInspectorModel::ValueScope scope);
    void setTimeUnit(TimeUnit unit);

    bool isComputing() const;
    /// Blocks until the running job has finished and its result is shown (tests, rendering).
    void waitForResult();
    /// The attribution error, or empty.
    QString errorMessage() const { return m_error; }
    /// The banner text listing the warnings ("" when there are none).
    QString warningText() const;
    /// Whether the profile has a warning that is not a note (the banner is yellow and starts with ⚠).
    bool hasProblems() const;

    SemanticInspectorModel* inspectorModel() const { return m_model; }
    QTreeView* treeView() const;
    /// Expands the association rows that carry warnings (and (unmapped) when it is small).
    void expandWarnings();

    /// Renders the widget to PNG, SVG or PDF (by suffix) at `size` (invalid: the current size) once
    /// the job has finished; returns an empty string or the error (`--render semantic-inspector`).
    QString render(const QString& fileName, const QSize& size = {});

Q_SIGNALS:
    /// A result is shown: ok, or the attribution failed (errorMessage()).
    void computed(bool ok);
    /// An event row was double-clicked.
    void eventActivated(parallax::EventId event);
    /// An association row was double-clicked (its id).
    void associationActivated(const QString& id);
    /// The user chose another value scope (total or mean over threads).
    void valueScopeChanged(parallax::SemanticInspectorModel::ValueScope scope);

private:
    struct Result {
        std::shared_ptr<const InspectorSnapshot> snapshot;
        QString error;
    };
    void start(std::function<Result()> job);
    void apply(const Result& result);
    void updateHeader();
    void fillMetrics();

    SemanticInspectorModel* m_model;
    std::unique_ptr<ViewSetup> m_setup;
    Job<Result> m_job { this };
    QString m_error;
    QString m_pendingMetric;

    QLabel* m_header;
    QLabel* m_banner;
    QComboBox* m_metricBox;
    QComboBox* m_scopeBox;
    QStackedWidget* m_stack;
    QLabel* m_message;
};

} // namespace parallax
