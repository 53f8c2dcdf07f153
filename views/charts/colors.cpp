// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/charts/colors.h"

#include "algebra/statistics.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace parallax {

namespace {

QColor mix(const QColor& a, const QColor& b, double t)
{
    t = std::clamp(t, 0.0, 1.0);
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
        static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
        static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace

QColor eventColor(const QString& name)
{
    // Tableau 20-like palette: readable on light and dark backgrounds.
    static const QRgb palette[] = { 0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7,
        0x9c755f, 0xbab0ac, 0x1f77b4, 0xaec7e8, 0xff7f0e, 0xffbb78, 0x2ca02c, 0x98df8a, 0xd62728, 0xff9896, 0x9467bd,
        0xc5b0d5, 0x8c564b, 0xc49c94, 0xe377c2, 0x17becf };
    std::uint32_t h = 2166136261u; // FNV-1a over UTF-16 code units
    for (const QChar c : name) {
        h ^= c.unicode();
        h *= 16777619u;
    }
    // 24 base colours x 3 shades (as is, darker, lighter) = 72 well-separated colours, so that the
    // dozens of events in one stacked bar rarely share one.
    constexpr std::uint32_t base = sizeof palette / sizeof palette[0];
    const QColor colour(palette[h % base]);
    switch ((h / base) % 3) {
    case 1:
        return colour.darker(135);
    case 2:
        return colour.lighter(125);
    default:
        return colour;
    }
}

const std::vector<QRgb>& rankedPalette()
{
    // Tableau 10 and its light partners, ordered so that each colour differs from the one before in
    // hue by a wide step and alternates dark and light (RGB distance >= 99 between neighbours): blue,
    // orange, green, red, purple, ...
    static const std::vector<QRgb> palette { 0xff1f77b4, 0xffff7f0e, 0xff2ca02c, 0xffd62728, 0xff9467bd, 0xffffbb78,
        0xff17becf, 0xff8c564b, 0xffaec7e8, 0xffe377c2, 0xff98df8a, 0xff7f7f7f, 0xffff9896, 0xffbcbd22, 0xffc5b0d5,
        0xff393b79, 0xff9edae5, 0xffc49c94, 0xff637939, 0xfff7b6d2 };
    return palette;
}

namespace {

/// The ranked colours of one trial (cached on it).
struct TrialColors {
    std::vector<QRgb> byEvent; ///< 0 where the event keeps its name's colour
};

} // namespace

QColor eventColor(const Trial& trial, EventId event)
{
    const auto colors = trial.cached<TrialColors>([](const Trial& t) {
        auto c = std::make_shared<TrialColors>();
        c->byEvent.assign(t.eventCount(), 0u);
        if (t.metricCount() == 0)
            return std::shared_ptr<const TrialColors>(c);
        const auto stats = TrialStatistics::of(t);
        std::vector<std::pair<double, std::size_t>> ranked;
        for (std::size_t e = 0; e < t.eventCount(); ++e)
            if (!t.event(EventId(e)).isCallPath())
                ranked.emplace_back(stats->stat(EventId(e), MetricId(0u), ValueKind::Exclusive).meanAll, e);
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        const auto& palette = rankedPalette();
        for (std::size_t r = 0; r < ranked.size() && r < palette.size(); ++r)
            c->byEvent[ranked[r].second] = palette[r];
        return std::shared_ptr<const TrialColors>(c);
    });
    if (event.index() < colors->byEvent.size() && colors->byEvent[event.index()] != 0u)
        return QColor::fromRgb(colors->byEvent[event.index()]);
    return eventColor(trial.event(event).name);
}

QColor readableLinkColor(const QPalette& palette)
{
    const QColor link = palette.color(QPalette::Link);
    const QColor window = palette.color(QPalette::Window);
    if (std::abs(link.lightness() - window.lightness()) >= 100)
        return link;
    return window.lightness() < 128 ? QColor(0x8a, 0xb4, 0xf8) : QColor(0x1a, 0x4f, 0x9c);
}

QColor sequentialColor(double t) { return mix(QColor(0xfe, 0xe5, 0xd9), QColor(0xa5, 0x0f, 0x15), t); }

QColor divergingColor(double t)
{
    t = std::clamp(t, -1.0, 1.0);
    const QColor white(0xf7, 0xf7, 0xf7);
    return t < 0 ? mix(white, QColor(0x21, 0x66, 0xac), -t) : mix(white, QColor(0xb2, 0x18, 0x2b), t);
}

} // namespace parallax
