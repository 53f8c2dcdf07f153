// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QRgb>
#include <QString>
#include <Qt>
#include <cstdint>
#include <utility>
#include <vector>

namespace parallax {

/// One coloured piece of a bar, in bar-area coordinates: 0 is the left edge of the bar area, 1 the
/// right edge, so a BarListData can be drawn at any width without being recomputed.
struct BarSegment {
    static constexpr std::uint32_t NoKey = 0xffffffffu;
    float x0 = 0;
    float x1 = 0;
    /// What the segment stands for (an EventId index in Parallax's charts); its colour is colors[key].
    std::uint32_t key = NoKey;
};

enum class BarRowKind : std::uint8_t {
    Item, ///< a thread or an event
    Summary, ///< a statistic across threads (mean, std. dev., ...), drawn with a bold label
};

/// One row: a label on the left, its segments, and an optional text after the end of the bar.
struct BarRow {
    QString label;
    /// Drawn right of the bar's end (the value, "—" for an absent value); may be empty.
    QString text;
    std::uint32_t firstSegment = 0;
    std::uint32_t segmentCount = 0;
    /// The owner's id of the row (a ThreadIndex, EventId or Statistic value).
    std::uint32_t id = 0;
    /// Right end of the bar (largest x1, or the origin when the row has no segment).
    float end = 0;
    BarRowKind kind = BarRowKind::Item;
};

/// An immutable snapshot of what a BarListWidget shows. Built once per change of the data (off
/// the GUI thread for big trials) and shared; painting only reads it.
struct BarListData {
    std::vector<BarRow> rows;
    std::vector<BarSegment> segments;
    /// Colour of each segment key (indexed by key).
    std::vector<QRgb> colors;
    /// The first pinnedRows rows stay at the top while the others scroll (statistic rows).
    std::size_t pinnedRows = 0;
    /// Vertical guide lines (column boundaries of unstacked bars), in bar coordinates.
    std::vector<float> guides;
    /// Bar coordinate of the value 0; a baseline is drawn when it is not the left edge.
    float origin = 0;
    /// Height in pixels of the rows after the pinned ones; 0: a row of text. Rows lower than a line
    /// of text (the overview's thread density rows) get no text after their bar and a label only every
    /// few rows.
    int itemHeight = 0;
    /// Per row (empty: none): a whisker from first to second in bar coordinates drawn across the
    /// row, with a tick at its right end (a density row: the range of its threads' bar sums).
    std::vector<std::pair<float, float>> ranges;
    /// Alignment of the labels in their column (right for short ids, left for names).
    Qt::Alignment labelAlignment = Qt::AlignRight;

    QRgb color(std::uint32_t key) const { return key < colors.size() ? colors[key] : 0xff808080u; }
};

} // namespace parallax
