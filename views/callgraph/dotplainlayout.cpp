// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/callgraph/dotplainlayout.h"

#include <QStringList>

namespace parallax {

namespace {

constexpr double pointsPerInch = 72.0;

bool toDouble(const QString& text, double& out)
{
    bool ok = false;
    out = text.toDouble(&ok);
    return ok;
}

} // namespace

QStringList DotPlainLayout::tokenize(const QString& line)
{
    QStringList tokens;
    qsizetype i = 0;
    const qsizetype n = line.size();
    while (i < n) {
        while (i < n && line[i].isSpace())
            ++i;
        if (i >= n)
            break;
        QString token;
        if (line[i] == QLatin1Char('"')) {
            ++i;
            while (i < n && line[i] != QLatin1Char('"')) {
                if (line[i] == QLatin1Char('\\') && i + 1 < n) {
                    const QChar next = line[i + 1];
                    if (next == QLatin1Char('"') || next == QLatin1Char('\\')) {
                        token += next;
                        i += 2;
                        continue;
                    }
                }
                token += line[i++];
            }
            ++i; // the closing quote
        } else {
            while (i < n && !line[i].isSpace())
                token += line[i++];
        }
        tokens.append(token);
    }
    return tokens;
}

QPointF DotPlainLayout::toScene(double x, double y) const
{
    // Plain output is in inches with the origin at the bottom left.
    return { x * m_scale * pointsPerInch, (m_size.height() / pointsPerInch - y * m_scale) * pointsPerInch };
}

bool DotPlainLayout::parse(const QByteArray& plain, QString* error)
{
    m_nodes.clear();
    m_edges.clear();
    m_size = {};
    m_scale = 1.0;
    auto fail = [error](int line, const QString& what) {
        if (error)
            *error = QStringLiteral("dot plain output, line %1: %2").arg(line).arg(what);
        return false;
    };
    // Long lines may be continued with a backslash before the newline.
    QString text = QString::fromUtf8(plain);
    text.replace(QLatin1String("\\\r\n"), QString());
    text.replace(QLatin1String("\\\n"), QString());
    const QStringList lines = text.split(QLatin1Char('\n'));
    bool sawGraph = false;
    bool sawStop = false;
    for (qsizetype lineIndex = 0; lineIndex < lines.size(); ++lineIndex) {
        const int lineNumber = static_cast<int>(lineIndex + 1);
        const QStringList f = tokenize(lines[lineIndex]);
        if (f.isEmpty())
            continue;
        const QString& kind = f[0];
        if (kind == QLatin1String("graph")) {
            double scale = 0;
            double w = 0;
            double h = 0;
            if (f.size() < 4 || !toDouble(f[1], scale) || !toDouble(f[2], w) || !toDouble(f[3], h))
                return fail(lineNumber, QStringLiteral("expected 'graph scale width height'"));
            m_scale = scale > 0 ? scale : 1.0;
            m_size = QSizeF(w * m_scale * pointsPerInch, h * m_scale * pointsPerInch);
            sawGraph = true;
        } else if (kind == QLatin1String("node")) {
            double x = 0;
            double y = 0;
            double w = 0;
            double h = 0;
            if (!sawGraph)
                return fail(lineNumber, QStringLiteral("node before the graph line"));
            if (f.size() < 6 || !toDouble(f[2], x) || !toDouble(f[3], y) || !toDouble(f[4], w) || !toDouble(f[5], h))
                return fail(lineNumber, QStringLiteral("expected 'node name x y width height ...'"));
            const QPointF centre = toScene(x, y);
            const double width = w * m_scale * pointsPerInch;
            const double height = h * m_scale * pointsPerInch;
            m_nodes.append({ f[1], QRectF(centre.x() - width / 2, centre.y() - height / 2, width, height) });
        } else if (kind == QLatin1String("edge")) {
            if (!sawGraph)
                return fail(lineNumber, QStringLiteral("edge before the graph line"));
            bool ok = false;
            const int count = f.size() > 3 ? f[3].toInt(&ok) : 0;
            if (!ok || count < 2 || f.size() < 4 + 2 * count)
                return fail(lineNumber, QStringLiteral("expected 'edge tail head n x1 y1 ... xn yn ...'"));
            Edge edge;
            edge.tail = f[1];
            edge.head = f[2];
            for (int k = 0; k < count; ++k) {
                double x = 0;
                double y = 0;
                if (!toDouble(f[4 + 2 * k], x) || !toDouble(f[5 + 2 * k], y))
                    return fail(lineNumber, QStringLiteral("bad edge point %1").arg(k + 1));
                edge.points.append(toScene(x, y));
            }
            // What follows the points is "[label xl yl] style color".
            const qsizetype rest = f.size() - (4 + 2 * count);
            if (rest >= 5) {
                double x = 0;
                double y = 0;
                const qsizetype at = 4 + 2 * count;
                if (!toDouble(f[at + 1], x) || !toDouble(f[at + 2], y))
                    return fail(lineNumber, QStringLiteral("bad edge label position"));
                edge.label = f[at];
                edge.labelPos = toScene(x, y);
            }
            m_edges.append(edge);
        } else if (kind == QLatin1String("stop")) {
            sawStop = true;
            break;
        } else {
            return fail(lineNumber, QStringLiteral("unknown statement '%1'").arg(kind));
        }
    }
    if (!sawGraph)
        return fail(1, QStringLiteral("no graph line"));
    if (!sawStop)
        return fail(static_cast<int>(lines.size()), QStringLiteral("output ends without 'stop'"));
    return true;
}

} // namespace parallax
