// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <algorithm>
#include <cmath>

namespace parallax::test {

/// Two fitted model coefficients agree (tst_perfmodel, tst_perfmodel_terms): 1e-6 relative, or, for a
/// coefficient that is rounding noise of an exact fit (the oracle's own is as noisy), 1e-9 of the model's
/// largest coefficient `scale`.
inline bool near(double a, double b, double scale = 0)
{
    return std::abs(a - b) <= 1e-6 * std::max(std::abs(a), std::abs(b)) || std::abs(a - b) <= 1e-9 * scale;
}

} // namespace parallax::test
