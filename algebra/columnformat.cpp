// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/columnformat.h"

#include "algebra/units.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax {

namespace {

bool isWhole(double value)
{
    const double a = std::fabs(value);
    return std::fabs(value - std::round(value)) <= 1e-9 * std::max(1.0, a);
}

} // namespace

int plainColumnDecimals(const std::vector<double>& values)
{
    bool whole = true;
    bool fractionsLarge = true;
    double smallest = std::numeric_limits<double>::infinity();
    for (const double v : values) {
        if (!std::isfinite(v))
            continue;
        const double a = std::fabs(v);
        if (a >= 1e-9)
            smallest = std::min(smallest, a);
        if (!isWhole(v)) {
            whole = false;
            if (a < 1e6)
                fractionsLarge = false;
        }
    }
    if (whole || fractionsLarge)
        return 0;
    if (smallest < 0.01)
        return std::min(9, 2 - static_cast<int>(std::floor(std::log10(smallest))));
    return 2;
}

QString formatFixed(double value, int decimals, const QLocale& locale)
{
    if (!std::isfinite(value))
        return locale.toString(value);
    return withoutNegativeZero(locale.toString(value, 'f', std::max(0, decimals)));
}

} // namespace parallax
