// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "views/common/valueformatter.h"

#include <QCoreApplication>

namespace parallax {

QLocale groupingLocale(QLocale locale)
{
    if (locale.language() == QLocale::C)
        locale = QLocale(QLocale::English, QLocale::UnitedStates);
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

QString valueColumnHeader(ValueColumn column, const QString& unit)
{
    const auto tr = [](const char* text) { return QCoreApplication::translate("ValueColumns", text); };
    switch (column) {
    case ValueColumn::Exclusive:
        return tr("Exclusive") + unit;
    case ValueColumn::Inclusive:
        return tr("Inclusive") + unit;
    case ValueColumn::ExclusivePercent:
        return tr("Excl %");
    case ValueColumn::InclusivePercent:
        return tr("Incl %");
    case ValueColumn::Calls:
        return tr("Calls");
    case ValueColumn::Subroutines:
        return tr("Subrs");
    case ValueColumn::ExclusivePerCall:
        return tr("Excl/call") + unit;
    case ValueColumn::InclusivePerCall:
        return tr("Incl/call") + unit;
    }
    return {};
}

} // namespace parallax
