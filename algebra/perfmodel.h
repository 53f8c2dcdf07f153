// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QString>
#include <vector>

namespace parallax {

/// One measurement point of a scaling series: the parameter value p (process count, problem size...)
/// and the value measured there, once per repetition (docs/SEMANTICS.md §10.1).
struct ModelPoint {
    double p = 0;
    std::vector<double> values;
};

/// Which value of a point's repetitions the model fits (Extra-P's use_measure).
enum class ModelMeasure { Mean, Median };

/// The value a model fits at a point: the mean (or median) of its repetitions; NaN when it has none.
double measureOf(const ModelPoint& point, ModelMeasure measure);

/// One term of the performance model normal form: coefficient · p^(num/den) · log2(p)^(logExponent/logDenominator).
/// Both exponents are fractions in lowest terms; the log exponent is a whole number (logDenominator 1) for
/// the Basic modeler and may be a fraction such as 1/2 for the Refining one (docs/SEMANTICS.md §10.7).
struct ModelTerm {
    int numerator = 0;
    int denominator = 1;
    int logExponent = 0; ///< numerator of the log exponent
    double coefficient = 0;
    int logDenominator = 1; ///< after the coefficient, so that {num, den, log, coefficient} still initializes

    double polyExponent() const { return static_cast<double>(numerator) / static_cast<double>(denominator); }
    double logExponentValue() const { return static_cast<double>(logExponent) / static_cast<double>(logDenominator); }
    /// The term's value at p with coefficient 1, evaluated as Extra-P does (p^i first, then · log2(p)^j).
    double basis(double p) const;
};

/// A fitted model f(p) = constant + Σ terms (Extra-P's default modeler keeps at most one term, two with
/// ModelOptions::maxTerms = 2).
struct PerformanceModel {
    double constant = 0;
    std::vector<ModelTerm> terms;
    /// Residual sum of squares and SMAPE (%) of the leave-one-out cross-validation for a model with a
    /// term, of the fit itself for a constant model; adjusted R² (1 for a constant model, as Extra-P).
    double rss = 0;
    double smape = 0;
    double adjustedR2 = 1;
    /// The number of points the model was fitted to, and whether there were fewer than Extra-P's
    /// minimum of 5 (the model is still fitted, as Extra-P does, with a warning).
    int points = 0;
    bool fewPoints = false;
    /// Two terms were asked for (ModelOptions::maxTerms) but there are fewer than 4 points, which a
    /// two-term leave-one-out fit needs: only the one-term hypotheses were searched.
    bool fewPointsForTerms = false;
    /// False when no point was given (nothing fitted).
    bool valid = false;

    bool isConstant() const { return terms.empty(); }
    double evaluate(double p) const;
    /// Extra-P's text of the function, e.g. "1.5 + 0.5 * p^(1)" or "3.0 + 0.5 * p^(1) * log2(p)^(1)":
    /// coefficients as Python's repr of a float, exponents as fractions (docs/SEMANTICS.md §10.2);
    /// with `significantDigits` > 0 the coefficients rounded to that many digits (for display).
    QString formula(const QString& parameter = QStringLiteral("p"), int significantDigits = 0) const;
    /// The growth term alone in big-O style, e.g. "p^(1) * log2(p)^(1)", or "1" for a constant model.
    QString complexity(const QString& parameter = QStringLiteral("p")) const;
};

/// Which of Extra-P's single-parameter modelers chooses the model.
enum class ModelerKind {
    Basic, ///< extrap/modelers/single_parameter/basic.py, Extra-P's default: 42 building blocks
    Refining, ///< extrap/modelers/single_parameter/refining.py: exponents refined by mediants
};

struct ModelOptions {
    ModelerKind modeler = ModelerKind::Basic;
    ModelMeasure measure = ModelMeasure::Mean;
    /// Compare hypotheses by RSS instead of SMAPE (Extra-P's compare_with_RSS; Refining modeler only).
    bool compareWithRss = false;
    bool crossValidation = true; ///< leave-one-out (Extra-P's default); false: costs of the fit itself
    bool allowLog = true; ///< log2 terms (dropped anyway when some p < 1, as Extra-P does)
    /// Terms besides c0 (Basic modeler only; the Refining one keeps one): 1 as Extra-P 4, or 2, which also
    /// searches c0 + c1·t1 + c2·t2 over every pair of distinct building blocks (docs/SEMANTICS.md §10.8).
    int maxTerms = 1;
};

/// Fits Extra-P's default single-parameter model (the "Basic" modeler, Extra-P's single-parameter
/// Default): the constant model, then each of the 42 default building blocks c0 + c1·p^i·log2(p)^j
/// by least squares (Eigen's SVD, as numpy.linalg.lstsq), scored by leave-one-out SMAPE, a term
/// rejected when its coefficient is 0 or it contributes less than 0.05 % at every point; the lowest
/// SMAPE wins over the constant model's (docs/SEMANTICS.md §10.3).
/// With options.modeler Refining, Extra-P's RefiningModeler instead (docs/SEMANTICS.md §10.7): the best term
/// of each slice of exponents (polynomial exponents 0..5 with log exponent 0, 1 or 2, and log exponents 0..2
/// alone), then up to 10 rounds narrowing each slice's exponents to mediants of neighbouring fractions.
/// With options.maxTerms 2 (Basic), the 861 pairs of building blocks too (docs/SEMANTICS.md §10.8): a pair
/// replaces the one-term model when its SMAPE is lower, both its terms contribute and its adjusted R² is
/// not lower; it needs 4 points (fewer: one term, fewPointsForTerms set).
PerformanceModel fitPerformanceModel(const std::vector<ModelPoint>& points, const ModelOptions& options = {});

/// fitPerformanceModel for many series (one per call path), on the worker threads of parallelFor
/// (`workers` as there: 0 for one per core, 1 for the calling thread only).
std::vector<PerformanceModel> fitPerformanceModels(
    const std::vector<std::vector<ModelPoint>>& series, const ModelOptions& options = {}, int workers = 0);

/// The 42 building blocks of Extra-P's default modeler in its order, as (numerator, denominator,
/// log exponent); with allowLog false the 19 polynomial ones.
std::vector<ModelTerm> defaultBuildingBlocks(bool allowLog);

/// Python's repr() of a double (shortest round-trip digits; "3.0", "1e-06", "0.0004973684210367062").
QString pythonFloatRepr(double value);

} // namespace parallax
