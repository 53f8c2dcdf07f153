// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticprofile.h"
#include "views/common/job.h"
#include "views/semantic/semanticpreviewmodel.h"

#include <QWidget>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTimer;
class QTreeView;

namespace parallax {

class SemanticCodeEditor;
struct ViewSetup;

/// A new association for SemanticRuleEditor::insertAssociation() (the "Add association" form).
struct AssociationDraft {
    QString id; ///< empty: "rule-N", the first free one
    semantic::SelectorKind selector = semantic::SelectorKind::Regex;
    QString value;
    QStringList targets; ///< entity ids; one for DIRECT
    semantic::Policy policy = semantic::Policy::Direct;
    QString weightAttr; ///< WEIGHTED only
    int priority = 0;
    /// Declares the targets that the model does not declare yet ({"id", "kind": "entity"}).
    bool declareMissing = true;
};

/// The rule editor of the semantic views: edits a model file's JSON (line numbers; the error line
/// highlighted) and previews what the edited rules do to the open trial before anything changes.
/// On every edit (debounced) the text is parsed and the trial attributed in a QtConcurrent job;
/// the editor shows either the error with its line, or a table of entity values before (the model
/// in use) and after (the edited text) with the change, and the conservation check
/// Σ entities = Σ source events. Nothing is applied until Apply, which emits modelApplied();
/// Save… writes the JSON file. A small form inserts a new association (and declares its targets).
class SemanticRuleEditor : public QWidget {
    Q_OBJECT
public:
    explicit SemanticRuleEditor(QWidget* parent = nullptr);
    ~SemanticRuleEditor() override;

    /// The trial the preview attributes (the "open trial").
    void setTrial(TrialPtr trial);
    TrialPtr trial() const { return m_trial; }
    /// The model in use (the "before" of the preview). With resetText the editor shows its JSON.
    void setAppliedModel(const semantic::Model& model, bool resetText = true);
    const std::optional<semantic::Model>& appliedModel() const { return m_applied; }

    /// The editor's text (setText() previews at once, without the debounce).
    void setText(const QString& json);
    QString text() const;
    /// The file Save writes and errors name (empty: "model.json").
    void setFileName(const QString& fileName);
    const QString& fileName() const { return m_fileName; }

    /// The metric and scope of the preview values.
    bool setMetric(const QString& name);
    void setValueScope(SemanticPreviewModel::ValueScope scope);

    /// Whether a preview is pending (debounce) or being computed.
    bool isPreviewing() const;
    /// Runs a pending preview at once and blocks until it is shown (tests, rendering).
    void waitForPreview();
    /// The state of the last preview: ok (parsed and attributed), or the error and its 1-based
    /// line (0 when the error has no line).
    bool previewOk() const { return m_previewOk; }
    QString errorMessage() const { return m_errorMessage; }
    int errorLine() const { return m_errorLine; }
    /// The model parsed from the text by the last preview (empty when it had an error).
    const std::optional<semantic::Model>& editedModel() const { return m_edited; }
    /// The text of the conservation check under the table.
    QString conservationText() const;

    SemanticPreviewModel* previewTable() const { return m_preview; }
    SemanticCodeEditor* editor() const { return m_editor; }
    QTreeView* previewView() const;

    /// Whether Apply is possible: the last preview of the current text is ok.
    bool canApply() const;
    /// Makes the edited model the one in use and emits modelApplied(); false when it cannot.
    bool apply();
    /// Writes the text to a file; returns an empty string or the error.
    QString saveToFile(const QString& path);
    /// Asks for a file name (QFileDialog) and saves; false when cancelled or failed.
    bool saveInteractively();

    /// Inserts an association (and, if asked, entity declarations) into the text; returns an empty
    /// string or why it cannot (the text must be valid JSON).
    QString insertAssociation(const AssociationDraft& draft);

    /// Renders the widget (after the pending preview) to PNG, SVG or PDF at `size`; returns an
    /// empty string or the error (`--render semantic-rules`).
    QString render(const QString& fileName, const QSize& size = {});

Q_SIGNALS:
    /// Apply: the edited model is now the one in use.
    void modelApplied(const parallax::semantic::Model& model);
    /// A preview is shown: ok, or the text has an error (errorMessage(), errorLine()).
    void previewUpdated(bool ok);

private:
    struct Result {
        quint64 generation = 0;
        bool ok = false;
        QString error;
        int line = 0;
        std::optional<semantic::Model> model;
        semantic::ProfilePtr before;
        quint64 appliedVersion = 0; ///< of the applied model `before` belongs to
        QString beforeError;
        semantic::ProfilePtr after;
        std::shared_ptr<const PreviewData> data;
    };
    void buildForm(QWidget* form);
    void onTextChanged();
    void startPreview();
    void onFinished(const Result& result);
    void applyResult(const Result& result);
    void updateStatus();
    void updateButtons();
    void insertFromForm();

    SemanticCodeEditor* m_editor;
    SemanticPreviewModel* m_preview;
    std::unique_ptr<ViewSetup> m_setup;
    QTimer* m_debounce;
    Job<Result> m_job { this };

    TrialPtr m_trial;
    std::optional<semantic::Model> m_applied;
    semantic::ProfilePtr m_before; ///< the applied model's profile (made by the first preview)
    semantic::ProfilePtr m_after; ///< the edited model's profile shown
    quint64 m_appliedVersion = 0; ///< bumped when the applied model or the trial changes
    QString m_beforeError;
    std::optional<semantic::Model> m_edited;
    QString m_fileName;
    quint64 m_generation = 0; ///< of the text: bumped on every edit
    quint64 m_shownGeneration = 0; ///< of the preview shown
    bool m_rerun = false; ///< an edit arrived while a job ran
    bool m_previewOk = false;
    QString m_errorMessage;
    int m_errorLine = 0;

    QLabel* m_status;
    QLabel* m_conservation;
    QComboBox* m_metricBox;
    QComboBox* m_scopeBox;
    QPushButton* m_apply;
    QPushButton* m_save;
    QPushButton* m_revert;

    // The "Add association" form.
    QLineEdit* m_formId = nullptr;
    QComboBox* m_formSelector = nullptr;
    QLineEdit* m_formValue = nullptr;
    QLineEdit* m_formTargets = nullptr;
    QComboBox* m_formPolicy = nullptr;
    QLineEdit* m_formWeight = nullptr;
    QSpinBox* m_formPriority = nullptr;
    QCheckBox* m_formDeclare = nullptr;
    QLabel* m_formMessage = nullptr;
};

} // namespace parallax
