// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/common/threadfinder.h"

#include <QCompleter>
#include <QRegularExpression>
#include <QStringListModel>

namespace parallax {

ThreadFinder::ThreadFinder(QWidget* parent)
    : QLineEdit(parent)
    , m_completer(new QCompleter(this))
    , m_model(new QStringListModel(this))
{
    setPlaceholderText(tr("Go to thread n,c,t…"));
    setToolTip(tr("Type a thread as node,context,thread (\"12075,0,0\", or \"12075\" for 12075,0,0) and press Enter; "
                  "the list completes what you type"));
    setClearButtonEnabled(true);
    setMinimumWidth(fontMetrics().horizontalAdvance(placeholderText()) + 40);
    m_completer->setModel(m_model);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setMaxVisibleItems(16);
    setCompleter(m_completer);
    connect(this, &QLineEdit::returnPressed, this, &ThreadFinder::choose);
    connect(m_completer, qOverload<const QString&>(&QCompleter::activated), this, [this](const QString& text) {
        setText(text);
        choose();
    });
}

ThreadFinder::~ThreadFinder() = default;

void ThreadFinder::setTrial(std::shared_ptr<const Trial> trial)
{
    m_trial = std::move(trial);
    m_labelsBuilt = false;
    m_model->setStringList({});
    clear();
    setEnabled(m_trial && m_trial->threadCount() > 0);
}

QCompleter* ThreadFinder::threadCompleter() const
{
    ensureLabels();
    return m_completer;
}

void ThreadFinder::focusInEvent(QFocusEvent* event)
{
    ensureLabels();
    QLineEdit::focusInEvent(event);
}

void ThreadFinder::ensureLabels() const
{
    if (m_labelsBuilt || !m_trial)
        return;
    QStringList labels;
    labels.reserve(static_cast<qsizetype>(m_trial->threadCount()));
    for (std::size_t t = 0; t < m_trial->threadCount(); ++t)
        labels << m_trial->threadKey(ThreadIndex(t)).toString();
    m_model->setStringList(labels);
    m_labelsBuilt = true;
}

std::optional<ThreadIndex> ThreadFinder::parse(const Trial& trial, const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?)?$"));
    const QRegularExpressionMatch m = pattern.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    ThreadKey key;
    key.node = m.captured(1).toInt();
    key.context = m.captured(2).isEmpty() ? 0 : m.captured(2).toInt();
    key.thread = m.captured(3).isEmpty() ? 0 : m.captured(3).toInt();
    const ThreadIndex t = trial.findThread(key);
    if (!t.isValid())
        return std::nullopt;
    return t;
}

void ThreadFinder::choose()
{
    if (!m_trial)
        return;
    const auto t = parse(*m_trial, text());
    if (!t) {
        setToolTip(tr("No thread \"%1\" in this trial (%2 threads)").arg(text()).arg(m_trial->threadCount()));
        return;
    }
    Q_EMIT threadChosen(*t);
}

} // namespace parallax
