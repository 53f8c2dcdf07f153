// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/advisor.h"
#include "views/common/job.h"
#include "views/common/selectionview.h"

#include <QWidget>
#include <memory>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QStandardItemModel;
class QTreeView;

namespace parallax {

/// The Advisor tab (issue 20 §2, docs/SEMANTICS.md 7): the routines to leave uninstrumented with
/// why each is listed (lightweight, throttled, the user's choice, the OpenUH score), a preview of what
/// each rule removes (routines, visits, trace bytes, time saved), the trace-size estimate before and
/// after the filter, TAU's throttle settings and warnings, and with a baseline run the overhead as
/// "full vs selective" pairs per region. The thresholds are settings; "Add selected routine" puts the
/// event selected in any view on the list; two buttons write the TAU selective-instrumentation file
/// (optionally merged into an existing one) and the Score-P filter. The advice (and loading the
/// baseline) runs in a background job.
class AdvisorView : public QWidget, public SelectionView {
    Q_OBJECT
public:
    explicit AdvisorView(SelectionState* state, QWidget* parent = nullptr);
    ~AdvisorView() override;

    /// What one run produced.
    struct Output {
        std::shared_ptr<const Advice> advice;
        std::shared_ptr<const Trial> baseline; ///< loaded for this run (kept for the next)
        QString error;
    };

    /// The rule's thresholds (as the spin boxes and the check box set them).
    void setRule(const LightweightRule& rule);
    LightweightRule rule() const;
    /// A baseline run (any readable profile path; empty: none), loaded in the job.
    void setBaselinePath(const QString& path);
    QString baselinePath() const { return m_baselinePath; }
    /// Adds a flat event name to the user's list (the same as "Add selected routine").
    void addUserRoutine(const QString& name);
    QStringList userRoutines() const { return m_user; }

    /// The advice shown (null before the first run).
    const std::shared_ptr<const Advice>& advice() const { return m_advice; }
    bool isComputing() const { return m_job.isRunning(); }
    QTreeView* suggestionsView() const { return m_suggestionsView; }
    QTreeView* overheadView() const { return m_overheadView; }
    QLabel* statusLabel() const { return m_status; }

    /// Writes the files of the advice shown (SEMANTICS 7.4); an empty string or the error.
    QString writeTauSelect(const QString& path, bool merge) const;
    QString writeScorepFilter(const QString& path) const;

    /// Brings the view up to date (waiting for the job) and writes it to PNG, SVG or PDF.
    QString exportImage(const QString& fileName);

Q_SIGNALS:
    /// A new advice is shown.
    void adviceShown();

protected:
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override;
    void selectionChanged(SelectionChanges changes) override;
    void showEvent(QShowEvent* event) override;

private:
    void start();
    void present(const Output& output);
    void fillSuggestions();
    void fillPreview();
    void fillOverhead();
    void invalidate();
    void chooseBaseline();
    void saveTau();
    void saveScorep();

    std::shared_ptr<const Advice> m_advice;
    std::shared_ptr<const Trial> m_baseline;
    QString m_baselinePath;
    QString m_loadedBaselinePath;
    QStringList m_user;
    bool m_stale = true;
    Job<Output> m_job { this };

    QDoubleSpinBox* m_minCalls = nullptr;
    QDoubleSpinBox* m_maxPerCall = nullptr;
    QCheckBox* m_presentOnly = nullptr;
    QPushButton* m_addSelected = nullptr;
    QPushButton* m_clearUser = nullptr;
    QPushButton* m_baselineButton = nullptr;
    QPushButton* m_writeTau = nullptr;
    QCheckBox* m_mergeTau = nullptr;
    QPushButton* m_writeScorep = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_summary = nullptr;
    QStandardItemModel* m_suggestions = nullptr;
    QTreeView* m_suggestionsView = nullptr;
    QStandardItemModel* m_preview = nullptr;
    QTreeView* m_previewView = nullptr;
    QStandardItemModel* m_overhead = nullptr;
    QTreeView* m_overheadView = nullptr;
    QLabel* m_overheadTitle = nullptr;
};

} // namespace parallax
