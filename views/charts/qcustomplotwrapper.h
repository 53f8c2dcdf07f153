// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// The one place Parallax includes QCustomPlot (docs/ARCHITECTURE.md, Views).
//
// qcustomplot.h uses `foreach` in two inline templates (QCustomPlot::plottableAt and itemAt).
// Our targets define QT_NO_FOREACH, so Qt defines neither Q_FOREACH nor `foreach`; a range-for
// stand-in is defined for the duration of the include only, so none of our code can use it.
#include <QtCore/qforeach.h>
#include <QtCore/qglobal.h>

#if defined(QT_NO_FOREACH) && !defined(foreach)
#define PARALLAX_QCP_FOREACH
#define foreach(variable, container) for (variable : container) // NOLINT(bugprone-macro-parentheses): a declaration
#endif

#include <qcustomplot.h>

#ifdef PARALLAX_QCP_FOREACH
#undef foreach
#undef PARALLAX_QCP_FOREACH
#endif
