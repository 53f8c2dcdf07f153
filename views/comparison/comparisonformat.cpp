// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/comparison/comparisonformat.h"

#include "views/charts/colors.h"
#include "views/common/valueformatter.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("Comparison", text); }

} // namespace

QString compareUnit(const Metric& metric, CompareValue value, TimeUnit unit)
{
    if (value == CompareValue::Calls)
        return {};
    if (metric.isTime() && unit == TimeUnit::HoursMinutesSeconds)
        return {};
    return unitLabel(metric, unit);
}

QString compareNumber(double value, const Metric& metric, CompareValue valueType, TimeUnit unit, const QLocale& locale,
    bool sign, int decimals)
{
    const QString text = formatValue(valueColumnOf(valueType), value, metric, unit, locale, false, decimals);
    // A sign on every nonzero Δ; none on one that rounds to zero ("0.000", never "-0.000").
    const bool shownZero
        = std::none_of(text.begin(), text.end(), [](QChar c) { return c.isDigit() && c != QLatin1Char('0'); });
    return sign && value > 0 && !shownZero ? QString(QLatin1Char('+') + text) : text;
}

QString compareText(
    double value, const Metric& metric, CompareValue valueType, TimeUnit unit, const QLocale& locale, bool sign)
{
    const QString number = compareNumber(value, metric, valueType, unit, locale, sign);
    const QString suffix = compareUnit(metric, valueType, unit);
    if (valueType == CompareValue::Calls)
        return tr("%1 calls").arg(number);
    return suffix.isEmpty() ? number : number + QLatin1Char(' ') + suffix;
}

double fromDisplayUnit(double amount, const Metric& metric, CompareValue value, TimeUnit unit)
{
    if (value == CompareValue::Calls || !metric.isTime())
        return amount;
    switch (unit) {
    case TimeUnit::Microseconds:
        return amount;
    case TimeUnit::Milliseconds:
        return amount * 1e3;
    case TimeUnit::Seconds:
    case TimeUnit::HoursMinutesSeconds:
        return amount * 1e6;
    }
    return amount;
}

QColor changeColor(double improvement)
{
    // divergingColor: negative = blue, positive = red.
    return divergingColor(-std::clamp(improvement, -1.0, 1.0));
}

QColor changeTint(double change)
{
    // 0.12 so that a tiny change still shows its direction; ±1 is the saturated hue (issue 14: a
    // −13,993 % regression must not be pale).
    return changeColor(std::copysign(0.12 + 0.88 * std::min(std::fabs(change), 1.0), change));
}

QString colourByKey(ColourBy by) { return by == ColourBy::Delta ? QStringLiteral("delta") : QStringLiteral("percent"); }

ColourBy colourByFromKey(const QString& key)
{
    return key == QLatin1String("delta") ? ColourBy::Delta : ColourBy::Percent;
}

double tintChange(const ComparisonEntry& entry, CompareValue value, double sign, ColourBy by, double maxDelta)
{
    if (by == ColourBy::Percent)
        return relativeChange(entry.relative(value), sign);
    return maxDelta > 0 ? std::clamp(sign * entry.delta(value) / maxDelta, -1.0, 1.0) : 0.0;
}

double relativeChange(const RelativeDifference& relative, double sign)
{
    switch (relative.kind) {
    case RelativeDifference::Value:
        return sign * std::clamp(relative.percent / 100.0, -1.0, 1.0);
    case RelativeDifference::New:
        return -sign;
    case RelativeDifference::Removed:
        return sign;
    case RelativeDifference::Blank:
        return 0;
    }
    return 0;
}

QColor tintedTextColor(const QColor& background)
{
    return qGray(background.rgb()) < 150 ? QColor(Qt::white) : QColor(0x20, 0x20, 0x20);
}

QColor improvementColor() { return QColor(0x21, 0x66, 0xac); }

QColor regressionColor() { return QColor(0xb2, 0x18, 0x2b); }

QColor baselineColor() { return QColor(0x8a, 0x96, 0xa3); }

QColor candidateColor() { return QColor(0xf2, 0x8e, 0x2b); }

QString comparedWord(const Metric& metric, bool positive)
{
    // Δ = A − B > 0 means B is smaller than A.
    if (metric.isTime())
        return positive ? tr("faster") : tr("slower");
    return positive ? tr("lower") : tr("higher");
}

QString deltaMeaning(const Metric& metric, bool positive)
{
    const bool improvement = positive != metric.higherIsBetter;
    return tr("B %1 than A (%2)")
        .arg(comparedWord(metric, positive), improvement ? tr("improvement") : tr("regression"));
}

QString comparePartHeader(ComparePart part, const QString& suffix)
{
    switch (part) {
    case ComparePart::A:
        return tr("A (baseline)") + suffix;
    case ComparePart::B:
        return tr("B (candidate)") + suffix;
    case ComparePart::Delta:
        return tr("Δ = A − B") + suffix;
    case ComparePart::DeltaPercent:
        return tr("Δ % of A");
    }
    return {};
}

QString comparePartText(const ComparisonEntry& entry, ComparePart part, const Metric& metric, CompareValue value,
    TimeUnit unit, const QLocale& locale, int decimals)
{
    switch (part) {
    case ComparePart::A:
        return entry.inA ? compareNumber(entry.valueA(value), metric, value, unit, locale, false, decimals)
                         : QStringLiteral("—");
    case ComparePart::B:
        return entry.inB ? compareNumber(entry.valueB(value), metric, value, unit, locale, false, decimals)
                         : QStringLiteral("—");
    case ComparePart::Delta:
        return compareNumber(entry.delta(value), metric, value, unit, locale, true, decimals);
    case ComparePart::DeltaPercent:
        return entry.relative(value).text(locale);
    }
    return {};
}

int comparePartDecimals(const std::vector<const ComparisonEntry*>& entries, ComparePart part, const Metric& metric,
    CompareValue value, TimeUnit unit)
{
    if (part == ComparePart::DeltaPercent)
        return -1;
    std::vector<double> values;
    values.reserve(entries.size());
    for (const ComparisonEntry* entry : entries) {
        if (part == ComparePart::A && entry->inA)
            values.push_back(entry->valueA(value));
        else if (part == ComparePart::B && entry->inB)
            values.push_back(entry->valueB(value));
        else if (part == ComparePart::Delta)
            values.push_back(entry->delta(value));
    }
    return valueColumnDecimals(valueColumnOf(value), values, metric, unit);
}

QString presenceText(bool inA, bool inB)
{
    if (inA && !inB)
        return tr("◀ only A");
    if (inB && !inA)
        return tr("▶ only B");
    return {};
}

} // namespace parallax
