// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QByteArray>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QVector>

namespace parallax {

/// A graph layout read from Graphviz's plain output (`dot -Tplain`), converted to scene
/// coordinates: points (1/72 inch), y growing downwards, origin at the top left of the graph.
class DotPlainLayout {
public:
    struct Node {
        QString name;
        QRectF rect;
    };
    struct Edge {
        QString tail;
        QString head;
        /// B-spline control points: p0, then three per cubic segment.
        QVector<QPointF> points;
        QString label;
        QPointF labelPos; ///< only when the label is not empty
    };

    /// Parses plain output; returns false and sets an error (with the line number) on malformed
    /// input.
    bool parse(const QByteArray& plain, QString* error = nullptr);

    QSizeF size() const { return m_size; }
    const QVector<Node>& nodes() const { return m_nodes; }
    const QVector<Edge>& edges() const { return m_edges; }

    /// Splits one line into fields; double-quoted fields are unquoted (with \" and \\ escapes).
    static QStringList tokenize(const QString& line);

private:
    QPointF toScene(double x, double y) const;

    double m_scale = 1.0;
    QSizeF m_size;
    QVector<Node> m_nodes;
    QVector<Edge> m_edges;
};

} // namespace parallax
