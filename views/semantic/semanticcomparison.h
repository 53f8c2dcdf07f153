// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticprofile.h"
#include "views/common/job.h"
#include "views/semantic/semanticcomparisonmodel.h"

#include <QWidget>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QStackedWidget;

namespace parallax {

struct ViewSetup;

/// A semantic comparison of two trials through one model (docs/SEMANTICS.md 5.5, example F): each trial
/// is attributed with its OWN weights first, then the entities are compared (semanticDifference):
/// per entity A, B, Δ = A − B, Δ%, presence (only in A / only in B) and the estimate badge, sorted
/// by |Δ|, with a signed horizontal bar chart (QCustomPlot; blue = improvement, red = regression,
/// docs/SEMANTICS.md 4.6: A = baseline, B = candidate) and the totals. Metric and scope (one thread,
/// mean or total over threads) are chosen above.
///
/// A linear model (Model::isLinear()) may also "attribute the diff trial": diff(A, B) is built by
/// the algebra, attributed through the model, and S(A − B) is shown next to Δ with the largest
/// disagreement (0 up to rounding). A model that takes WEIGHTED weights from trial metadata is not
/// linear: the widget says why only per-trial attribution is used and never maps the diff trial.
///
/// All attribution runs in QtConcurrent jobs; a superseded job's result is dropped.
class SemanticComparison : public QWidget {
    Q_OBJECT
public:
    explicit SemanticComparison(QWidget* parent = nullptr);
    ~SemanticComparison() override;

    /// The model and the two trials (A = baseline, B = candidate); starts computing.
    void setInput(const semantic::Model& model, TrialPtr a, TrialPtr b);
    void setModel(const semantic::Model& model);
    void setTrials(TrialPtr a, TrialPtr b);
    TrialPtr trialA() const { return m_a; }
    TrialPtr trialB() const { return m_b; }

    /// The metric by name (false when A has none such).
    bool setMetric(const QString& name);
    /// Mean (over all threads, the default), total, or one thread chosen by its key (it must
    /// exist in both trials).
    void setScope(semantic::Scope::Kind kind, const ThreadKey& thread = {});
    semantic::Scope::Kind scope() const { return m_scope; }
    /// Also attribute the difference trial (linear models only; ignored otherwise).
    void setCheckDiffTrial(bool check);
    bool checksDiffTrial() const;
    bool isLinear() const { return m_model && m_model->isLinear(); }

    bool isComputing() const { return m_job.isRunning(); }
    /// Blocks until the running job has finished and its result is shown.
    void waitForResult();
    /// Why the comparison could not be made (an operand cannot be attributed, a thread is
    /// missing), else empty.
    QString errorMessage() const { return m_error; }
    /// Why the diff trial could not be attributed (linear check only), else empty.
    QString diffTrialError() const { return m_diffError; }
    /// The largest |S(A − B) − (S(A) − S(B))| over the entities, NaN when not checked.
    double diffTrialDisagreement() const { return m_disagreement; }
    /// The text explaining linearity (shown above the table).
    QString linearityText() const;
    /// Σ over the roots (= Σ own over all entities) in A, in B, and their difference.
    double totalA() const { return m_totalA; }
    double totalB() const { return m_totalB; }

    SemanticComparisonModel* comparisonModel() const { return m_table; }
    QCustomPlot* chart() const { return m_plot; }
    /// The entity ids of the bars, top to bottom.
    const QStringList& barEntities() const { return m_barIds; }

    /// Renders the widget to PNG, SVG or PDF at `size` once computed; returns an empty string or
    /// the error (`--render semantic-compare`).
    QString render(const QString& fileName, const QSize& size = {});

Q_SIGNALS:
    void computed(bool ok);
    /// A row or a bar was activated (the entity id).
    void entityActivated(const QString& id);
    /// The user chose another scope (mean, total or one thread) in the scope box.
    void scopeChanged(parallax::semantic::Scope::Kind kind);

private:
    struct Input {
        std::optional<semantic::Model> model;
        TrialPtr a, b;
        QString metric;
        semantic::Scope::Kind scope = semantic::Scope::Kind::Mean;
        ThreadKey thread;
        bool checkDiff = false;
        semantic::ProfilePtr pa, pb, pd; ///< cached profiles (null: attribute)
        QString diffError; ///< cached: the diff trial cannot be made or attributed
    };
    struct Result {
        QString error;
        semantic::ProfilePtr pa, pb, pd;
        QString diffError;
        bool diffTried = false;
        std::vector<SemanticComparisonRow> rows;
        Metric metric;
        double totalA = 0, totalB = 0;
        double disagreement = 0;
        bool haveMapped = false;
    };
    static Result compute(const Input& input);
    void restart(bool keepProfiles, bool keepDiff);
    void apply(const Result& result);
    void rebuildChart();
    void updateHeader();
    void fillControls();
    /// Drops what was computed from the previous model or trials and starts again.
    void inputChanged();

    std::optional<semantic::Model> m_model;
    TrialPtr m_a, m_b;
    semantic::ProfilePtr m_pa, m_pb, m_pd;
    QString m_cachedDiffError;
    bool m_diffTried = false;
    QString m_metric;
    semantic::Scope::Kind m_scope = semantic::Scope::Kind::Mean;
    ThreadKey m_thread;
    QString m_error;
    QString m_diffError;
    double m_disagreement;
    double m_totalA = 0, m_totalB = 0;
    QStringList m_barIds;

    SemanticComparisonModel* m_table;
    std::unique_ptr<ViewSetup> m_setup;
    Job<Result> m_job { this };

    QLabel* m_header;
    QLabel* m_linearity;
    QComboBox* m_metricBox;
    QComboBox* m_scopeBox;
    QComboBox* m_threadBox;
    QCheckBox* m_checkDiff;
    QStackedWidget* m_stack;
    QLabel* m_message;
    QCustomPlot* m_plot;
    QCPTextElement* m_title;
    QLabel* m_totals;
};

} // namespace parallax
