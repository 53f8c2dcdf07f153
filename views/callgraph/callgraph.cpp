// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/callgraph/callgraph.h"

#include <QRegularExpression>

namespace parallax {

namespace {

const QLatin1String separator(" => ");

} // namespace

CallGraph::CallGraph(const Trial& trial, const std::function<bool(EventId)>& visible)
{
    QHash<QString, bool> shown;
    auto isShown = [&](const QString& name) {
        if (!visible)
            return true;
        const auto it = shown.constFind(name);
        if (it != shown.cend())
            return it.value();
        const EventId flat = trial.findEvent(name);
        const bool on = !flat.isValid() || visible(flat);
        shown.insert(name, on);
        return on;
    };
    auto nodeFor = [&](const QString& name) {
        const auto it = m_byName.constFind(name);
        if (it != m_byName.cend())
            return it.value();
        const int id = static_cast<int>(m_nodes.size());
        m_nodes.push_back({ name, trial.findEvent(name) });
        m_byName.insert(name, id);
        return id;
    };
    QHash<QPair<int, int>, int> edgeIndex;
    for (std::size_t i = 0; i < trial.eventCount(); ++i) {
        const EventId e(i);
        const IntervalEvent& event = trial.event(e);
        if (!event.isCallPath())
            continue;
        m_hasCallPaths = true;
        const QStringList parts = event.name.split(separator);
        int previous = -1;
        for (qsizetype k = 0; k < parts.size(); ++k) {
            if (!isShown(parts[k])) {
                previous = -1;
                continue;
            }
            const int node = nodeFor(parts[k]);
            if (previous >= 0) {
                const QPair<int, int> key(previous, node);
                auto it = edgeIndex.find(key);
                if (it == edgeIndex.end()) {
                    it = edgeIndex.insert(key, static_cast<int>(m_edges.size()));
                    m_edges.push_back({ previous, node, {} });
                }
                if (k == parts.size() - 1)
                    m_edges[static_cast<std::size_t>(it.value())].paths.push_back(e);
            }
            previous = node;
        }
    }
}

int CallGraph::nodeOfEvent(const Trial& trial, EventId event) const
{
    if (!event.isValid() || event.index() >= trial.eventCount())
        return -1;
    const QString& name = trial.event(event).name;
    const qsizetype sep = name.lastIndexOf(separator);
    return nodeOf(sep < 0 ? name : name.mid(sep + separator.size()));
}

QString CallGraph::shortName(const QString& name, int maxLength)
{
    static const QRegularExpression location(QStringLiteral("\\s*\\[\\{[^\\]]*\\]"));
    static const QRegularExpression parameters(QStringLiteral("\\s*\\[\\s*<[^\\]]*\\]"));
    QString text = name;
    text.remove(location);
    text.remove(parameters);
    text = text.simplified();
    if (text.isEmpty())
        text = name.simplified();
    // "int ns::foo(int, double) C" -> "ns::foo": drop the return type, the arguments and the
    // language tag. Names starting with '.' or '[' (".TAU application", "[SAMPLE] ...") are kept.
    const qsizetype paren = text.indexOf(QLatin1Char('('));
    if (paren > 0 && !text.startsWith(QLatin1Char('.')) && !text.startsWith(QLatin1Char('['))) {
        int depth = 0;
        qsizetype begin = 0;
        for (qsizetype i = paren - 1; i >= 0; --i) {
            const QChar c = text[i];
            if (c == QLatin1Char('>'))
                ++depth;
            else if (c == QLatin1Char('<'))
                --depth;
            else if (c == QLatin1Char(' ') && depth <= 0 && i < paren - 1) {
                begin = i + 1;
                break;
            }
        }
        const QString routine = text.mid(begin, paren - begin).trimmed();
        if (!routine.isEmpty())
            text = routine;
    }
    // The end of a qualified name says most ("...::update"), so long names lose their start.
    if (text.size() > maxLength && maxLength > 1)
        text = QChar(0x2026) + text.right(maxLength - 1);
    return text;
}

} // namespace parallax
