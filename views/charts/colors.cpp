// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/charts/colors.h"

#include <algorithm>
#include <cstdint>

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

QColor sequentialColor(double t) { return mix(QColor(0xfe, 0xe5, 0xd9), QColor(0xa5, 0x0f, 0x15), t); }

QColor divergingColor(double t)
{
    t = std::clamp(t, -1.0, 1.0);
    const QColor white(0xf7, 0xf7, 0xf7);
    return t < 0 ? mix(white, QColor(0x21, 0x66, 0xac), -t) : mix(white, QColor(0xb2, 0x18, 0x2b), t);
}

} // namespace parallax
