// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/operations.h"
#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <vector>

namespace parallax {

// Derived metrics (docs/SEMANTICS.md 3): an expression over a trial's metrics, evaluated per thread and
// event, separately on the exclusive and on the inclusive values, giving a new metric in a new
// trial (provenance operation "derive"). Calls and subrs are unchanged, absent cells stay absent,
// and statistics are recomputed from the per-thread derived values (never mean(A)/mean(B)).
//
// Grammar:
//   definition = [ name [ "[" unit "]" ] "=" ] expr    (the first "=" outside quotes splits)
//   expr       = term { ("+" | "-") term }             (left-associative)
//   term       = factor { ("*" | "/") factor }
//   factor     = [ "-" ] primary                       (unary minus: IEEE mode only)
//   primary    = number | metric | "(" expr ")"
//   metric     = '"' { any char except '"' } '"' | bare
//   bare       = (letter | "_") { letter | digit | "_" | "." | ":" }
//   number     = digits [ "." digits ] [ ("e"|"E") ["+"|"-"] digits ] | "." digits [ exponent ]
// A name with spaces, operators or other characters must be quoted, on either side of "=".
// Without "name =", the metric is named "(" + the expression without quotes and white space + ")".
// The optional "[unit]" after the name is a Parallax extension (SEMANTICS: "unit = "" unless the
// definition file gives a unit").

/// IEEE (default): plain IEEE arithmetic (negative, +-inf and NaN results are kept).
/// ParaProf: every subtraction yields a-b if a > b, else 0; a zero divisor yields 0 (0/0 too); any
/// other non-finite result of an operation becomes 0; unary minus is a parse error.
enum class DerivedMode { Ieee, ParaProf };

QString derivedModeName(DerivedMode mode); ///< "IEEE" or "PARAPROF"
std::optional<DerivedMode> derivedModeFromName(QStringView name);

/// A parse or definition error: where (0-based offset into the parsed text, and the 1-based line
/// of a definition file) and what was expected.
struct ExpressionError {
    qsizetype position = -1; ///< -1 when the error is not about one place
    int line = 0; ///< 0 when not parsing a file
    QString message;

    /// "line 3, column 12: expected ')' ..." (1-based; parts that are unknown are left out).
    QString toString() const;
};

/// A parsed expression, compiled to a small stack program.
class MetricExpression {
public:
    /// Parses `text`; returns nullopt and fills *error (if given) on failure.
    static std::optional<MetricExpression> parse(QStringView text, DerivedMode mode, ExpressionError* error = nullptr);

    const QString& text() const { return m_text; }
    DerivedMode mode() const { return m_mode; }
    /// The default name: "(" + text without quotes and white space + ")".
    QString autoName() const;
    /// The metric names referenced, each once, in order of first use.
    const QStringList& metrics() const { return m_metrics; }
    /// Offset in text() of the first use of metrics()[i].
    qsizetype metricPosition(std::size_t i) const { return m_metricPositions[i]; }

    /// The value for values[i] = the value of metrics()[i]. `stack` must hold stackSize() doubles
    /// (evaluate(values) allocates one).
    double evaluate(const double* values, double* stack) const;
    double evaluate(const std::vector<double>& values) const;
    std::size_t stackSize() const { return m_stackSize; }

private:
    friend class ExpressionParser;
    enum class Code : std::uint8_t { Metric, Constant, Add, Sub, Mul, Div, Neg };
    struct Instruction {
        Code code;
        std::uint32_t index; ///< Metric: index into metrics()
        double value; ///< Constant
    };
    QString m_text;
    DerivedMode m_mode = DerivedMode::Ieee;
    std::vector<Instruction> m_program;
    QStringList m_metrics;
    std::vector<qsizetype> m_metricPositions;
    std::size_t m_stackSize = 0;
};

/// One "name [unit] = expression" definition.
struct DerivedMetricDefinition {
    QString name; ///< empty: the expression's autoName()
    QString unit; ///< "" unless given
    QString expression; ///< the text after "=" (or the whole definition)
    qsizetype expressionOffset = 0; ///< where `expression` starts in the definition text
    int line = 0; ///< 1-based line in a definition file, 0 otherwise
};

/// Splits a definition at the first "=" outside quotes and checks the name; the expression itself
/// is parsed by deriveMetrics (or MetricExpression::parse).
std::optional<DerivedMetricDefinition> parseDefinition(QStringView text, ExpressionError* error = nullptr);
/// One definition per non-empty line; "#" outside quotes starts a comment. Errors carry the line.
std::optional<std::vector<DerivedMetricDefinition>> parseDefinitionFile(
    QStringView text, ExpressionError* error = nullptr);

/// Adds the defined metrics to a copy of `trial` (all existing metrics, events, threads, groups,
/// metadata and presence markers are kept). Definitions may reference existing metrics and each
/// other in any order. Errors (nothing is created): a parse error, an unknown metric, a name that
/// already exists or is defined twice, a reference cycle. In IEEE mode the count of non-finite
/// cells per new metric becomes a trial warning.
AlgebraResult deriveMetrics(
    const Trial& trial, const std::vector<DerivedMetricDefinition>& definitions, DerivedMode mode = DerivedMode::Ieee);
/// One definition, e.g. `FLOPS = "PAPI_FP_OPS" / "TIME"` or `PAPI_FP_INS / TIME`.
AlgebraResult deriveMetric(const Trial& trial, const QString& definition, DerivedMode mode = DerivedMode::Ieee);
/// The definitions of a text file (UTF-8), see parseDefinitionFile(); errors name the file and line.
AlgebraResult deriveMetricsFromFile(const Trial& trial, const QString& path, DerivedMode mode = DerivedMode::Ieee);

} // namespace parallax
