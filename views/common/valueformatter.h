// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QLocale>
#include <QString>

namespace parallax {

/// The locale every table, chart and summary prints numbers with: `locale` with digit grouping on
/// (1,234,567), and English (United States) in place of the C locale, which prints 1234567
/// without separators — nobody reads profiles that way.
QLocale groupingLocale(QLocale locale = QLocale());

/// The pprof value columns the statistics table and the call tree share, in their order.
enum class ValueColumn {
    Exclusive,
    Inclusive,
    ExclusivePercent,
    InclusivePercent,
    Calls,
    Subroutines,
    ExclusivePerCall,
    InclusivePerCall,
};
/// A value column's header: its name followed by `unit` (" (ms)") for the columns in the
/// metric's unit, "Excl %", "Calls" ... for the others.
QString valueColumnHeader(ValueColumn column, const QString& unit);

} // namespace parallax
