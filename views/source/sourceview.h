// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/sourcecost.h"
#include "views/common/job.h"
#include "views/common/selectionview.h"

#include <QWidget>
#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QTextDocument;

namespace parallax {

class SourceEditor;

/// A source file read on a worker, with the costs of its events (SourceView's job result).
struct SourceLoad {
    QString recorded; ///< the recorded file name
    SourceFileLookup lookup; ///< where it was found (path empty: not found)
    bool reused = false; ///< the text shown already is this file's: only the costs are new
    std::shared_ptr<QTextDocument> document; ///< built on the worker (SourceEditor::buildDocument)
    QString error; ///< the file exists but cannot be read
    std::shared_ptr<const SourceFileCosts> costs;
};

/// The source browser (issue 20 §1, docs/SEMANTICS.md §12): the file of the selected event (or of
/// a "Show Source" request) in a read-only editor with its lines marked and a gutter of per-line
/// costs of the selection's metric and the chosen statistic. The file is read and the costs are
/// computed on a worker. When the file is not found it says where it looked and offers "Locate…":
/// the directory chosen becomes a path remapping (or a search root for a relative name), which
/// the SearchStore keeps per trial (the application keeps them in its settings, not the views).
class SourceView : public QWidget, public SelectionView {
    Q_OBJECT
public:
    explicit SourceView(SelectionState* state, QWidget* parent = nullptr);
    ~SourceView() override;

    /// Where a trial's search roots and remappings come from and go to.
    struct SearchStore {
        std::function<SourceSearch(const Trial&)> load;
        std::function<void(const Trial&, const SourceSearch&)> save;
    };
    void setSearchStore(SearchStore store);
    /// The search used for the current trial (its own directory first, then the store's).
    const SourceSearch& search() const { return m_search; }

    void setStatistic(Statistic statistic);
    Statistic statistic() const { return m_statistic; }

    /// Uses `directory` for the file not found: a remapping of the recorded directory to it (a
    /// search root when the recorded name is relative), saved through the store; loads again.
    void locate(const QString& directory);

    SourceEditor* editor() const { return m_editor; }
    /// The local path shown; empty when none.
    const QString& path() const { return m_path; }
    /// The recorded file name of the selection; empty when none.
    const QString& recordedFile() const { return m_recorded; }
    /// The line above the editor (what is shown, or why nothing is).
    QString message() const;
    QPushButton* locateButton() const { return m_locate; }
    /// Waits for the file and costs (headless rendering and tests).
    void finishLoading() { m_job.waitAndDeliver(); }

protected:
    void doUpdate(SelectionChanges changes) override;
    void finishUpdate() override { finishLoading(); }

private:
    void load();
    void apply(const std::shared_ptr<const SourceLoad>& result);
    void reveal();
    void askLocate();

    QLabel* m_title;
    QLabel* m_message;
    QComboBox* m_statisticBox;
    QPushButton* m_locate;
    SourceEditor* m_editor;
    SearchStore m_store;
    SourceSearch m_search;
    const Trial* m_searchTrial = nullptr;
    Statistic m_statistic = Statistic::MeanAll;
    QString m_recorded;
    QString m_path;
    QStringList m_tried;
    int m_regionFirst = 0;
    int m_regionLast = 0;
    Job<std::shared_ptr<const SourceLoad>> m_job { this };
};

} // namespace parallax
