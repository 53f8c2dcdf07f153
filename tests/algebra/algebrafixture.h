// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The shared fixture of the algebra tests (tests/algebra/tst_algebra_*.cpp): cell accessors by
// thread key and event name, the literal trials of docs/SEMANTICS.md 4.7, a cell-wise comparison,
// and random consistent trials for the property tests.
#pragma once

#include "datasource/model/trial.h"

#include <QString>
#include <QTest>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace parallax::test {

using TrialP = std::shared_ptr<const Trial>;
inline constexpr double Inf = std::numeric_limits<double>::infinity();

/// a == b within a relative tolerance; NaNs equal each other, infinities only themselves.
bool near(double a, double b, double tol = 1e-9);

enum class Field { Excl, Incl, Calls, Subrs };

/// A cell value by thread key and event name; nullopt when absent.
std::optional<double> cell(
    const Trial& trial, const ThreadKey& key, const QString& event, Field field, const QString& metric = QString());

#define CHECK_CELL(trial, key, event, field, expected)                                                                 \
    do {                                                                                                               \
        const auto v_ = cell((trial), (key), QStringLiteral(event), (field));                                          \
        QVERIFY2(v_.has_value(), "absent cell: " event);                                                               \
        QVERIFY2(near(*v_, (expected)), qPrintable(QStringLiteral(event ": %1, expected %2").arg(*v_).arg(expected))); \
    } while (0)

/// A call tree per thread: "a => b" paths with their exclusive values. Inclusive is the subtree
/// sum, calls are 1 and subrs the number of children, so the trial is consistent.
using Tree = std::vector<std::pair<QString, double>>;

std::shared_ptr<Trial> treeTrial(const QString& name, const std::vector<std::pair<ThreadKey, Tree>>& threads,
    const QString& metric = QStringLiteral("time"), const QString& unit = QStringLiteral("sec"));

inline const ThreadKey R0 { 0, 0, 0 };
inline const ThreadKey R1 { 1, 0, 0 };

/// docs/SEMANTICS.md 4.7(a): trials A and B, ranks 0 and 1.
TrialP cubeA();
TrialP cubeB();
/// docs/SEMANTICS.md 4.7(d): trial C.
TrialP cubeC();

/// Sum of a value over all cells (all threads, all events) of one metric.
double total(const Trial& trial, Field field, const QString& metric = QString());

/// Cell-wise comparison by thread key, event name and metric name: y == sign * x, same cells.
bool sameCells(const Trial& x, const Trial& y, double sign, QString* why, double tol = 1e-9);

/// One thread of a real trial as a single-thread run keyed (0,0,0).
std::shared_ptr<Trial> threadAsRun(const Trial& in, std::size_t thread, const QString& name);

/// A random consistent trial: a call tree of `events` paths under "main", cells present with
/// probability `presence` (main always), values multiples of 1/4 (exact in diff and mean), user
/// events on some threads.
std::shared_ptr<Trial> randomTrial(std::uint64_t seed, const std::vector<ThreadKey>& threads, int events,
    const QStringList& metrics, double presence = 0.8, const QString& name = QString());

inline const std::vector<ThreadKey> FourThreads { { 0, 0, 0 }, { 0, 0, 1 }, { 1, 0, 0 }, { 1, 0, 1 } };

/// tau2/tau-profiles-callpath-cpi-4rank, read once.
TrialP cpi();

} // namespace parallax::test
