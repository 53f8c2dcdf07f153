// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "views/charts/qcustomplotwrapper.h"

#include <QStringList>

namespace parallax {

/// Category ticks for bar charts with one bar per thread at x = 0, 1, 2, ...: bar i is labelled
/// labels[i] ("n,c,t"). The tick step is a whole 1-2-5 number chosen so that at most tickCount()
/// labels are shown, which thins the labels out for many threads and brings them back on zoom.
class ThreadAxisTicker : public QCPAxisTicker {
public:
    ThreadAxisTicker();

    void setLabels(const QStringList& labels) { m_labels = labels; }
    const QStringList& labels() const { return m_labels; }

    /// The whole-number step for a visible range of `span` bars and at most `maxLabels` labels.
    static double stepFor(double span, int maxLabels);

protected:
    double getTickStep(const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;

private:
    QStringList m_labels;
};

} // namespace parallax
