// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QLineEdit>
#include <memory>
#include <optional>

class QCompleter;
class QStringListModel;

namespace parallax {

/// "Go to thread n,c,t": a line edit with a searchable completer over the trial's thread labels, for
/// trials with thousands of threads (a combo box of 16,384 items is no selector). Typing "12075,0,0"
/// (or "12075" for 12075,0,0, or a prefix and choosing a completion) and Enter emits threadChosen.
/// The completer's list is built once per trial, when the field is first used (focus or
/// threadCompleter()), so loading a trial costs no pass over its threads on the GUI thread per
/// finder; no widget per thread is made.
class ThreadFinder : public QLineEdit {
    Q_OBJECT
public:
    explicit ThreadFinder(QWidget* parent = nullptr);
    ~ThreadFinder() override;

    void setTrial(std::shared_ptr<const Trial> trial);
    /// The thread a text names ("n,c,t", or "n" for n,0,0, spaces allowed), nullopt if none.
    static std::optional<ThreadIndex> parse(const Trial& trial, const QString& text);
    /// The completer, its list of thread labels built if it was not yet.
    QCompleter* threadCompleter() const;
    /// Takes the text as typed so far (what Enter does).
    void choose();

Q_SIGNALS:
    void threadChosen(parallax::ThreadIndex thread);

protected:
    void focusInEvent(QFocusEvent* event) override;

private:
    void ensureLabels() const;

    std::shared_ptr<const Trial> m_trial;
    mutable bool m_labelsBuilt = false;
    QCompleter* m_completer;
    QStringListModel* m_model;
};

} // namespace parallax
