// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// Checks on rendered images that the view tests share.

#include <QImage>
#include <QSet>

namespace parallax::test {

/// Distinct colours of an image, sampling every `step`-th pixel of every `step`-th row (a blank
/// or one-colour render has 1 or 2).
inline int colourCount(const QImage& image, int step = 2)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += step)
        for (int x = 0; x < image.width(); x += step)
            colours.insert(image.pixel(x, y));
    return static_cast<int>(colours.size());
}

} // namespace parallax::test
