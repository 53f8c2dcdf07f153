// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/perfmodel.h"

#include "algebra/parallelfor.h"

#include <Eigen/Dense>
#include <QStringList>
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>

namespace parallax {

namespace {

/// Extra-P's constants (extrap/modelers/single_parameter/abstract_base.py): the threshold below which
/// a leave-one-out fit's constant coefficient is set to 0, relative to the smallest value, and the
/// minimum contribution of a term.
constexpr double kCleanConstantEpsilon = 0.0005;
constexpr double kMinimumTermContribution = 0.0005;
/// RefiningModeler's threshold (extrap/modelers/single_parameter/refining.py): a term must lower the
/// constant model's SMAPE by this factor.
constexpr double kNonconstancyThreshold = 1.3;

struct Series {
    std::vector<double> p;
    std::vector<double> y;
    /// The smallest y of the points other than k, for each k (the leave-one-out fits' clean-up).
    std::vector<double> minimumWithout;
};

/// Least squares of y ≈ a·c over the rows not equal to `skip` (a's first column is the constant 1), by SVD
/// with numpy.linalg.lstsq's default cut-off (singular values below machine epsilon · max(rows, columns)
/// of the largest count as 0), so that a rank-deficient system gets the same minimum-norm solution.
/// `columns` are the terms' basis values at the points; c gets c0 and one coefficient per column.
template <std::size_t K>
void leastSquares(const std::array<const double*, K>& columns, const std::vector<double>& y, std::size_t skip,
    std::array<double, K + 1>& c)
{
    const std::size_t n = y.size();
    const Eigen::Index rows = static_cast<Eigen::Index>(n - (skip < n ? 1 : 0));
    // Dynamic columns: JacobiSVD computes thin U and V only for those (Eigen asserts it).
    Eigen::MatrixXd a(rows, static_cast<Eigen::Index>(K + 1));
    Eigen::VectorXd b(rows);
    Eigen::Index r = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (i == skip)
            continue;
        a(r, 0) = 1;
        for (std::size_t j = 0; j < K; ++j)
            a(r, static_cast<Eigen::Index>(j + 1)) = columns[j][i];
        b(r) = y[i];
        ++r;
    }
    // A NaN or infinite entry (p^(1/4) of a negative p, an overflowing p^3) has no least-squares answer:
    // NaN coefficients, so the hypothesis' costs are not finite and it is rejected (§10.3 step 3). Eigen
    // 3.4's JacobiSVD must not see it: with a NaN its rank() reads past its singular values.
    if (!a.allFinite() || !b.allFinite()) {
        c.fill(std::numeric_limits<double>::quiet_NaN());
        return;
    }
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(a, Eigen::ComputeThinU | Eigen::ComputeThinV);
    svd.setThreshold(std::numeric_limits<double>::epsilon()
        * static_cast<double>(std::max<Eigen::Index>(rows, static_cast<Eigen::Index>(K + 1))));
    const Eigen::VectorXd solution = svd.solve(b);
    for (std::size_t j = 0; j <= K; ++j)
        c[j] = solution(static_cast<Eigen::Index>(j));
}

/// Extra-P's ConstantHypothesis.compute_cost: RSS and SMAPE of the mean over all points.
void constantCosts(const Series& s, double c, double& rss, double& smape)
{
    rss = 0;
    double sm = 0;
    for (double actual : s.y) {
        const double d = c - actual;
        rss += d * d;
        const double abssum = std::abs(actual) + std::abs(c);
        if (abssum != 0)
            sm += std::abs(d) / abssum * 2;
    }
    smape = sm / static_cast<double>(s.y.size()) * 100;
}

/// A fitted hypothesis: c0, the terms' coefficients (c2 only with two terms) and its costs.
struct Candidate {
    double c0 = 0;
    double c1 = 0;
    double c2 = 0;
    double rss = 0;
    double smape = 0;
};

/// The costs of a hypothesis c0 + Σ c_j·columns[j], as find_best_hypothesis evaluates it: `solve(skip, c)`
/// fits c on the points other than `skip` (all of them for skip = n).
template <std::size_t K, typename Solve>
Candidate costOf(const Series& s, const std::array<const double*, K>& columns, bool crossValidation, Solve&& solve)
{
    Candidate h;
    const std::size_t n = s.y.size();
    std::array<double, K + 1> c {};
    auto predict = [&](std::size_t i) {
        double v = c[0];
        for (std::size_t j = 0; j < K; ++j)
            v += c[j + 1] * columns[j][i];
        return v;
    };
    auto keep = [&] {
        h.c0 = c[0];
        h.c1 = c[1];
        if constexpr (K > 1)
            h.c2 = c[2];
    };
    if (crossValidation) {
        for (std::size_t k = 0; k < n; ++k) {
            solve(k, c);
            // clean_constant_coefficient on the training points
            const double minimum = s.minimumWithout[k];
            if (minimum == 0 ? std::abs(c[0] - minimum) < kCleanConstantEpsilon
                             : std::abs(c[0] / minimum) < kCleanConstantEpsilon)
                c[0] = 0;
            // compute_cost_leave_one_out
            const double predicted = predict(k);
            const double actual = s.y[k];
            const double d = predicted - actual;
            h.rss += d * d;
            const double abssum = std::abs(actual) + std::abs(predicted);
            if (abssum != 0)
                h.smape += (std::abs(d) / abssum * 2) / static_cast<double>(n) * 100;
        }
        solve(n, c);
        keep();
        return h;
    }
    solve(n, c);
    double minimum = std::numeric_limits<double>::infinity();
    for (double v : s.y)
        minimum = std::min(minimum, v);
    if (minimum == 0 ? std::abs(c[0] - minimum) < 1e-3 : std::abs(c[0] / minimum) < 1e-3)
        c[0] = 0;
    keep();
    double sm = 0;
    std::size_t counted = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double predicted = predict(i);
        const double d = predicted - s.y[i];
        h.rss += d * d;
        const double abssum = std::abs(s.y[i]) + std::abs(predicted);
        if (abssum != 0) {
            sm += std::abs(d) / abssum * 2;
            ++counted;
        }
    }
    // numpy.mean over the points with a non-zero sum (compute_cost)
    h.smape = counted ? sm / static_cast<double>(counted) * 100 : std::numeric_limits<double>::quiet_NaN();
    return h;
}

/// One hypothesis c0 + c1·basis(p), as find_best_hypothesis evaluates it.
Candidate evaluateHypothesis(const Series& s, const std::vector<double>& x, bool crossValidation)
{
    const std::array<const double*, 1> columns { x.data() };
    return costOf<1>(s, columns, crossValidation,
        [&](std::size_t skip, std::array<double, 2>& c) { leastSquares<1>(columns, s.y, skip, c); });
}

/// calc_term_contribution: max over the points of |c1·basis(p) / y|; NaN (0/0) propagates as numpy's
/// max does, and NaN is never below the threshold.
double termContribution(const Series& s, const std::vector<double>& x, double c1)
{
    double maximum = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double c = std::abs(c1 * x[i] / s.y[i]);
        if (std::isnan(c))
            return c;
        maximum = std::max(maximum, c);
    }
    return maximum;
}

/// The least squares of the two-term hypotheses (docs/SEMANTICS.md §10.8), fast: one Householder QR of the
/// n × 3 system per hypothesis, the leave-one-out fits that fit downdated by one row,
/// c₋ₖ = c − R⁻¹·R⁻ᵀ·aₖ · eₖ / (1 − hₖ) with the leverage hₖ = ‖R⁻ᵀ·aₖ‖² and the residual eₖ. That is the
/// unique solution numpy's SVD finds when every leave-one-out system has full rank far above numpy's cut-off:
/// with κ = ‖R‖_F·‖R⁻¹‖_F (at least σmax/σmin) and g = 1 − max hₖ (removing row k shrinks σmin by at most
/// √(1 − hₖ)), when g > 10³·ε·κ (g is computed to about ε·κ) and κ/√g < 10¹⁰. Otherwise
/// every fit is the SVD of leastSquares, as for one term.
class PairSolver {
public:
    explicit PairSolver(const Series& s)
        : m_s(s)
        , m_n(static_cast<Eigen::Index>(s.y.size()))
        , m_a(m_n, 3)
        , m_y(m_n)
        , m_qr(m_n, 3)
        , m_delta(3, m_n)
    {
        for (Eigen::Index i = 0; i < m_n; ++i) {
            m_a(i, 0) = 1;
            m_y(i) = s.y[static_cast<std::size_t>(i)];
        }
    }

    Candidate evaluate(const std::vector<double>& xa, const std::vector<double>& xb, bool crossValidation)
    {
        const std::array<const double*, 2> columns { xa.data(), xb.data() };
        if (!prepare(xa, xb))
            return costOf<2>(m_s, columns, crossValidation,
                [&](std::size_t skip, std::array<double, 3>& c) { leastSquares<2>(columns, m_s.y, skip, c); });
        return costOf<2>(m_s, columns, crossValidation, [&](std::size_t skip, std::array<double, 3>& c) {
            const auto k = static_cast<Eigen::Index>(skip);
            for (Eigen::Index j = 0; j < 3; ++j)
                c[static_cast<std::size_t>(j)] = m_beta(j) - (k < m_n ? m_delta(j, k) : 0.0);
        });
    }

private:
    /// The QR fit and the downdates; false when the fast path may differ from numpy's SVD.
    bool prepare(const std::vector<double>& xa, const std::vector<double>& xb)
    {
        for (Eigen::Index i = 0; i < m_n; ++i) {
            m_a(i, 1) = xa[static_cast<std::size_t>(i)];
            m_a(i, 2) = xb[static_cast<std::size_t>(i)];
        }
        if (!m_a.allFinite())
            return false;
        m_qr.compute(m_a);
        const Eigen::Matrix3d r = m_qr.matrixQR().topRows<3>().triangularView<Eigen::Upper>();
        if (!(std::abs(r(0, 0)) > 0 && std::abs(r(1, 1)) > 0 && std::abs(r(2, 2)) > 0))
            return false;
        Eigen::Matrix3d inverse = Eigen::Matrix3d::Identity();
        r.triangularView<Eigen::Upper>().solveInPlace(inverse);
        // ‖R‖_F·‖R⁻¹‖_F bounds σmax/σmin from above (by at most 3 times it)
        const double condition = r.norm() * inverse.norm();
        m_beta = m_qr.solve(m_y);
        double maxLeverage = 0;
        for (Eigen::Index k = 0; k < m_n; ++k) {
            const Eigen::Vector3d z = inverse.transpose() * m_a.row(k).transpose();
            const double h = z.squaredNorm();
            maxLeverage = std::max(maxLeverage, h);
            const double e = m_y(k) - m_a.row(k).dot(m_beta);
            m_delta.col(k) = inverse * z * (e / (1.0 - h));
        }
        // 1 − h is known to about ε·κ: it must stand far above that, and the leave-one-out systems' condition
        // (at most κ/√(1 − h)) must stay below 10¹⁰.
        const double margin = 1.0 - maxLeverage;
        return margin > 1e3 * std::numeric_limits<double>::epsilon() * condition
            && std::sqrt(margin) / condition > 1e-10 && m_beta.allFinite() && m_delta.allFinite();
    }

    const Series& m_s;
    Eigen::Index m_n;
    Eigen::Matrix<double, Eigen::Dynamic, 3> m_a;
    Eigen::VectorXd m_y;
    Eigen::HouseholderQR<Eigen::Matrix<double, Eigen::Dynamic, 3>> m_qr;
    Eigen::Vector3d m_beta;
    Eigen::Matrix<double, 3, Eigen::Dynamic> m_delta;
};

/// A term that must contribute: a non-zero coefficient and at least 0.05 % of the value at some point.
bool contributes(const Series& s, const std::vector<double>& x, double coefficient)
{
    return coefficient != 0 && !(termContribution(s, x, coefficient) < kMinimumTermContribution);
}

/// The two-term search (docs/SEMANTICS.md §10.8, Extra-P 3's SingleParameterSimpleFunctionModeler with two
/// terms): every pair of distinct building blocks in Extra-P's order, the later block's term first; the
/// lowest leave-one-out SMAPE below the one-term model's (or the constant's) wins, unless its adjusted R²
/// (n − 3 degrees of freedom) is below the one-term model's.
void searchTwoTerms(const Series& s, const std::vector<ModelTerm>& blocks, const ModelOptions& options,
    double constantRss, PerformanceModel& model)
{
    const std::size_t n = s.y.size();
    std::vector<std::vector<double>> basis(blocks.size(), std::vector<double>(n));
    for (std::size_t b = 0; b < blocks.size(); ++b)
        for (std::size_t i = 0; i < n; ++i)
            basis[b][i] = blocks[b].basis(s.p[i]);
    PairSolver solver(s);
    double bestSmape = model.smape;
    std::size_t first = 0, second = 0;
    Candidate best;
    bool found = false;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        for (std::size_t a = b + 1; a < blocks.size(); ++a) {
            const Candidate h = solver.evaluate(basis[a], basis[b], options.crossValidation);
            if (std::isnan(h.rss) || std::isinf(h.rss) || !(h.smape < bestSmape))
                continue;
            if (!contributes(s, basis[a], h.c1) || !contributes(s, basis[b], h.c2))
                continue;
            bestSmape = h.smape;
            first = a;
            second = b;
            best = h;
            found = true;
        }
    }
    if (!found)
        return;
    const double dn = static_cast<double>(n);
    const double adjustedR2 = 1.0 - best.rss / constantRss * (dn - 1.0) / (dn - 3.0);
    // Extra-P 3 compares with the adjusted R² of the one-term model, 0 for the constant model (R² = 0).
    if (adjustedR2 < (model.isConstant() ? 0.0 : model.adjustedR2))
        return;
    ModelTerm t1 = blocks[first];
    t1.coefficient = best.c1;
    ModelTerm t2 = blocks[second];
    t2.coefficient = best.c2;
    model.constant = best.c0;
    model.terms = { t1, t2 };
    model.rss = best.rss;
    model.smape = best.smape;
    model.adjustedR2 = adjustedR2;
}

void appendPythonExponent(QString& out, int exponent)
{
    out += QLatin1Char('e');
    out += exponent < 0 ? QLatin1Char('-') : QLatin1Char('+');
    const int e = std::abs(exponent);
    if (e < 10)
        out += QLatin1Char('0');
    out += QString::number(e);
}

QString fractionText(int numerator, int denominator)
{
    if (denominator == 1)
        return QString::number(numerator);
    return QStringLiteral("%1/%2").arg(numerator).arg(denominator);
}

/// A non-negative exponent as a fraction in lowest terms (Extra-P's Fraction, a Python fractions.Fraction).
struct Fraction {
    long long num = 0;
    long long den = 1;

    Fraction() = default;
    Fraction(long long n, long long d = 1)
        : num(n)
        , den(d)
    {
        const long long g = std::gcd(num, den);
        if (g > 1) {
            num /= g;
            den /= g;
        }
    }
    double value() const { return static_cast<double>(num) / static_cast<double>(den); }
    bool isZero() const { return num == 0; }
    bool operator==(const Fraction& o) const { return num == o.num && den == o.den; }
    /// Fraction.compute_mediant: (a + c) / (b + d), reduced.
    Fraction mediant(const Fraction& o) const { return Fraction(num + o.num, den + o.den); }
};

/// RefiningModeler's SearchState: the exponents left of, at and right of the current best one.
struct SearchState {
    Fraction left, center, right;
};

/// A slice of the search space: several polynomial exponents with one log exponent (a "beta" slice), or
/// the polynomial exponent 0 with several log exponents (the "alpha" slice).
struct Partition {
    std::vector<Fraction> poly;
    std::vector<Fraction> log;
    bool variesPoly() const { return poly.size() > 1; }
};

/// SingleParameterRefiningHypothesis: c0 + c1·p^poly·log2(p)^log with its costs and its index in the
/// partition it came from; `found` false stands for Extra-P's MAX_HYPOTHESIS (nothing acceptable).
struct RefiningHypothesis {
    bool found = false;
    Fraction poly, log;
    int partitionIndex = 0;
    Candidate fit;
};

class RefiningModeler {
public:
    RefiningModeler(const Series& s, const ModelOptions& options)
        : m_s(s)
        , m_options(options)
    {
    }

    /// find_best_hypothesis over the hypotheses of a partition (_build_hypotheses_generator with
    /// ignore_constant), starting from MAX_HYPOTHESIS: the first valid hypothesis is taken as it is,
    /// a later one only when its term contributes enough and its SMAPE (or RSS) is lower.
    RefiningHypothesis findBest(const Partition& partition) const
    {
        RefiningHypothesis best;
        const std::size_t count = partition.variesPoly() ? partition.poly.size() : partition.log.size();
        std::vector<double> x(m_s.p.size());
        for (std::size_t i = 0; i < count; ++i) {
            const Fraction poly = partition.variesPoly() ? partition.poly[i] : partition.poly[0];
            const Fraction log = partition.variesPoly() ? partition.log[0] : partition.log[i];
            if (poly.isZero() && log.isZero())
                continue;
            // CompoundTerm.create(p, l).evaluate: p^p first, then · log2(p)^l
            for (std::size_t k = 0; k < x.size(); ++k) {
                double v = 1;
                if (!poly.isZero())
                    v *= std::pow(m_s.p[k], poly.value());
                if (!log.isZero())
                    v *= std::pow(std::log2(m_s.p[k]), log.value());
                x[k] = v;
            }
            const Candidate h = evaluateHypothesis(m_s, x, m_options.crossValidation);
            if (std::isnan(h.rss) || std::isinf(h.rss))
                continue; // is_valid
            if (best.found) {
                if (h.c1 == 0 || termContribution(m_s, x, h.c1) < kMinimumTermContribution)
                    continue;
                if (!(m_options.compareWithRss ? h.rss < best.fit.rss : h.smape < best.fit.smape))
                    continue;
            }
            best.found = true;
            best.poly = poly;
            best.log = log;
            best.partitionIndex = static_cast<int>(i);
            best.fit = h;
        }
        return best;
    }

    double key(const RefiningHypothesis& h) const
    {
        if (!h.found)
            return std::numeric_limits<double>::infinity();
        return m_options.compareWithRss ? h.fit.rss : h.fit.smape;
    }
    static double smapeOf(const RefiningHypothesis& h)
    {
        return h.found ? h.fit.smape : std::numeric_limits<double>::infinity();
    }

    /// Python's min(list, key=selector): the first element with the smallest key (a NaN key is never
    /// smaller, and a NaN first element stays).
    const RefiningHypothesis& minimum(const std::vector<RefiningHypothesis>& list) const
    {
        std::size_t best = 0;
        for (std::size_t i = 1; i < list.size(); ++i)
            if (key(list[i]) < key(list[best]))
                best = i;
        return list[best];
    }

    /// RefiningModeler.create_model after the constant model: nothing found (Extra-P raises then) is
    /// returned as found == false.
    RefiningHypothesis run(bool allowLog) const
    {
        // the exponents: polynomial 0..5, logarithmic 0..2 (0 only without log terms)
        std::vector<Fraction> polyExpos, logExpos;
        for (int i = 0; i <= 5; ++i)
            polyExpos.emplace_back(i);
        for (int i = 0; i <= (allowLog ? 2 : 0); ++i)
            logExpos.emplace_back(i);
        std::vector<Partition> slices;
        slices.reserve(logExpos.size() + 1);
        for (const Fraction& l : logExpos)
            slices.push_back(Partition { polyExpos, { l } });
        if (allowLog)
            slices.push_back(Partition { { Fraction(0) }, logExpos });

        // the coarse hypotheses
        std::vector<RefiningHypothesis> hypotheses;
        for (const Partition& slice : slices) {
            hypotheses.push_back(findBest(slice));
            if (!hypotheses.back().found)
                return {};
        }

        // _determine_initial_state
        std::vector<SearchState> states;
        for (std::size_t s = 0; s < slices.size(); ++s) {
            const int i = hypotheses[s].partitionIndex;
            const std::vector<Fraction>& e = slices[s].variesPoly() ? slices[s].poly : slices[s].log;
            const int last = static_cast<int>(e.size()) - 1;
            Fraction l = e[static_cast<std::size_t>(std::max(i - 1, 0))];
            const Fraction c = e[static_cast<std::size_t>(i)];
            Fraction r = e[static_cast<std::size_t>(i + 1 <= last ? i + 1 : last)];
            if (l == r)
                r = Fraction(r.num + r.den, r.den); // prevent an empty search space
            states.push_back(SearchState { l, c, r });
        }

        // iterative_refinement
        std::vector<RefiningHypothesis> best = hypotheses;
        std::vector<RefiningHypothesis> step = hypotheses;
        std::vector<RefiningHypothesis> previous = hypotheses;
        double acceptance = kAcceptanceThreshold;
        for (int round = 0; round < 10; ++round) {
            for (std::size_t s = 0; s < slices.size(); ++s) {
                const SearchState old = states[s];
                SearchState state { old.left.mediant(old.center), old.center, old.center.mediant(old.right) };
                Partition partition;
                if (slices[s].variesPoly())
                    partition = Partition { { state.left, state.center, state.right }, slices[s].log };
                else
                    partition = Partition { slices[s].poly, { state.left, state.center, state.right } };
                step[s] = findBest(partition);
                if (!step[s].found)
                    return {};
                // clip the search space
                if (step[s].partitionIndex < 1)
                    state = SearchState { old.left, state.left, state.center };
                else if (step[s].partitionIndex > 1)
                    state = SearchState { state.center, state.right, old.right };
                states[s] = state;
            }
            const RefiningHypothesis bestStep = minimum(step);
            const RefiningHypothesis& globalBest = minimum(best);
            if (smapeOf(globalBest) / smapeOf(bestStep) >= acceptance) {
                best.push_back(bestStep);
                acceptance = kAcceptanceThreshold;
            } else {
                acceptance *= kAcceptanceThreshold;
            }
            // Python's max over the slices' improvements (a NaN first value stays)
            double improvement = smapeOf(previous[0]) / smapeOf(step[0]);
            for (std::size_t s = 1; s < slices.size(); ++s) {
                const double v = smapeOf(previous[s]) / smapeOf(step[s]);
                if (v > improvement)
                    improvement = v;
            }
            if (!(improvement >= kTerminationThreshold))
                break;
            previous = step;
        }
        return minimum(best);
    }

private:
    static constexpr double kAcceptanceThreshold = 1.5;
    static constexpr double kTerminationThreshold = 2.0;

    const Series& m_s;
    const ModelOptions& m_options;
};

} // namespace

double measureOf(const ModelPoint& point, ModelMeasure measure)
{
    const auto& v = point.values;
    if (v.empty())
        return std::numeric_limits<double>::quiet_NaN();
    if (measure == ModelMeasure::Median) {
        std::vector<double> s = v;
        std::sort(s.begin(), s.end());
        const std::size_t n = s.size();
        return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
    double sum = 0;
    for (double x : v)
        sum += x;
    return sum / static_cast<double>(v.size());
}

double ModelTerm::basis(double p) const
{
    double v = 1;
    if (numerator != 0)
        v *= std::pow(p, polyExponent());
    if (logExponent != 0)
        v *= std::pow(std::log2(p), logExponentValue());
    return v;
}

double PerformanceModel::evaluate(double p) const
{
    double v = constant;
    for (const ModelTerm& t : terms)
        v += t.coefficient * t.basis(p);
    return v;
}

QString PerformanceModel::complexity(const QString& parameter) const
{
    if (terms.empty())
        return QStringLiteral("1");
    QStringList parts;
    for (const ModelTerm& t : terms) {
        QStringList factors;
        if (t.numerator != 0)
            factors << QStringLiteral("%1^(%2)").arg(parameter, fractionText(t.numerator, t.denominator));
        if (t.logExponent != 0)
            factors << QStringLiteral("log2(%1)^(%2)").arg(parameter, fractionText(t.logExponent, t.logDenominator));
        parts << factors.join(QStringLiteral(" * "));
    }
    return parts.join(QStringLiteral(" + "));
}

QString PerformanceModel::formula(const QString& parameter, int significantDigits) const
{
    // Function.to_string: the constant when non-zero or alone, then each compound term as
    // "coefficient * p^(i) * log2(p)^(j)" (the coefficient left out when it is exactly 1), joined by " + ".
    auto number = [significantDigits](double v) {
        return significantDigits > 0 ? QString::number(v, 'g', significantDigits) : pythonFloatRepr(v);
    };
    QStringList parts;
    if (constant != 0 || terms.empty())
        parts << number(constant);
    for (const ModelTerm& t : terms) {
        QStringList factors;
        if (t.coefficient != 1)
            factors << number(t.coefficient);
        if (t.numerator != 0)
            factors << QStringLiteral("%1^(%2)").arg(parameter, fractionText(t.numerator, t.denominator));
        if (t.logExponent != 0)
            factors << QStringLiteral("%1^(%2)").arg(
                QStringLiteral("log2(%1)").arg(parameter), fractionText(t.logExponent, t.logDenominator));
        parts << factors.join(QStringLiteral(" * "));
    }
    return parts.join(QStringLiteral(" + "));
}

QString pythonFloatRepr(double value)
{
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
    if (value == 0)
        return std::signbit(value) ? QStringLiteral("-0.0") : QStringLiteral("0.0");
    // The shortest digits that round-trip, in scientific form "d.ddde±x".
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
    const std::string text(buffer, result.ptr);
    const std::size_t e = text.find('e');
    std::string mantissa = text.substr(0, e);
    const int exponent = std::stoi(text.substr(e + 1));
    const bool negative = mantissa[0] == '-';
    if (negative)
        mantissa.erase(0, 1);
    std::string digits;
    for (char c : mantissa)
        if (c != '.')
            digits += c;
    QString out = negative ? QStringLiteral("-") : QString();
    // float_repr_style 'short': fixed notation for -4 <= exponent < 16, else scientific.
    if (exponent >= -4 && exponent < 16) {
        const int point = exponent + 1; // digits before the decimal point
        if (point <= 0) {
            out += QStringLiteral("0.") + QString(-point, QLatin1Char('0')) + QString::fromStdString(digits);
        } else if (point >= static_cast<int>(digits.size())) {
            out += QString::fromStdString(digits) + QString(point - static_cast<int>(digits.size()), QLatin1Char('0'))
                + QStringLiteral(".0");
        } else {
            out += QString::fromStdString(digits.substr(0, point)) + QLatin1Char('.')
                + QString::fromStdString(digits.substr(point));
        }
        return out;
    }
    out += QLatin1Char(digits[0]);
    if (digits.size() > 1)
        out += QLatin1Char('.') + QString::fromStdString(digits.substr(1));
    appendPythonExponent(out, exponent);
    return out;
}

std::vector<ModelTerm> defaultBuildingBlocks(bool allowLog)
{
    // SingleParameterModeler.create_default_building_blocks (extrap/modelers/single_parameter/basic.py).
    static const int withLog[][3] = { { 0, 1, 1 }, { 0, 1, 2 }, { 1, 4, 0 }, { 1, 3, 0 }, { 1, 4, 1 }, { 1, 3, 1 },
        { 1, 4, 2 }, { 1, 3, 2 }, { 1, 2, 0 }, { 1, 2, 1 }, { 1, 2, 2 }, { 2, 3, 0 }, { 3, 4, 0 }, { 2, 3, 1 },
        { 3, 4, 1 }, { 4, 5, 0 }, { 2, 3, 2 }, { 3, 4, 2 }, { 1, 1, 0 }, { 1, 1, 1 }, { 1, 1, 2 }, { 5, 4, 0 },
        { 5, 4, 1 }, { 4, 3, 0 }, { 4, 3, 1 }, { 3, 2, 0 }, { 3, 2, 1 }, { 3, 2, 2 }, { 5, 3, 0 }, { 7, 4, 0 },
        { 2, 1, 0 }, { 2, 1, 1 }, { 2, 1, 2 }, { 9, 4, 0 }, { 7, 3, 0 }, { 5, 2, 0 }, { 5, 2, 1 }, { 5, 2, 2 },
        { 8, 3, 0 }, { 11, 4, 0 }, { 3, 1, 0 }, { 3, 1, 1 } };
    std::vector<ModelTerm> blocks;
    for (const auto& e : withLog) {
        if (!allowLog && e[2] != 0)
            continue;
        ModelTerm t;
        // Fraction(a, b) is kept in lowest terms (Fraction(0, 1) for the pure log terms)
        t.numerator = e[0];
        t.denominator = e[1];
        t.logExponent = e[2];
        blocks.push_back(t);
    }
    return blocks;
}

PerformanceModel fitPerformanceModel(const std::vector<ModelPoint>& points, const ModelOptions& options)
{
    PerformanceModel model;
    Series s;
    for (const ModelPoint& pt : points) {
        if (pt.values.empty())
            continue;
        s.p.push_back(pt.p);
        s.y.push_back(measureOf(pt, options.measure));
    }
    const std::size_t n = s.y.size();
    s.minimumWithout.assign(n, std::numeric_limits<double>::infinity());
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = 0; i < n; ++i)
            if (i != k)
                s.minimumWithout[k] = std::min(s.minimumWithout[k], s.y[i]);
    model.points = static_cast<int>(n);
    model.fewPoints = n < 5;
    model.fewPointsForTerms = options.maxTerms >= 2 && options.modeler == ModelerKind::Basic && n < 4;
    if (n == 0)
        return model;
    model.valid = true;

    // The constant model: the mean of the values (create_constant_model).
    double sum = 0;
    for (double v : s.y)
        sum += v;
    model.constant = sum / static_cast<double>(n);
    double constantRss = 0, constantSmape = 0;
    constantCosts(s, model.constant, constantRss, constantSmape);
    model.rss = constantRss;
    model.smape = constantSmape;
    model.adjustedR2 = 1;
    if (constantRss == 0)
        return model;

    // get_matching_hypotheses: no log terms when a parameter value is below 1.
    bool logCapable = options.allowLog;
    for (double p : s.p)
        if (p < 1.0)
            logCapable = false;

    if (options.modeler == ModelerKind::Refining) {
        const RefiningHypothesis best = RefiningModeler(s, options).run(logCapable);
        if (!best.found)
            return model; // Extra-P fails here (MAX_HYPOTHESIS has no partition); the constant model
        ModelTerm t;
        t.numerator = static_cast<int>(best.poly.num);
        t.denominator = static_cast<int>(best.poly.den);
        t.logExponent = static_cast<int>(best.log.num);
        t.logDenominator = static_cast<int>(best.log.den);
        t.coefficient = best.fit.c1;
        std::vector<double> x(n);
        for (std::size_t i = 0; i < n; ++i)
            x[i] = t.basis(s.p[i]);
        // nonconstancy: the term must improve the constant model's SMAPE by 1.3 and contribute 0.05 %
        const double improvement = constantSmape / best.fit.smape;
        if (improvement < kNonconstancyThreshold || termContribution(s, x, t.coefficient) < kCleanConstantEpsilon)
            return model;
        model.constant = best.fit.c0;
        model.terms = { t };
        model.rss = best.fit.rss;
        model.smape = best.fit.smape;
        const double r2 = 1.0 - best.fit.rss / constantRss;
        model.adjustedR2 = 1.0 - (1.0 - r2) * (static_cast<double>(n) - 1.0) / (static_cast<double>(n) - 2.0);
        return model;
    }

    double bestSmape = constantSmape;
    std::vector<double> x(n);
    const std::vector<ModelTerm> blocks = defaultBuildingBlocks(logCapable);
    for (const ModelTerm& block : blocks) {
        for (std::size_t i = 0; i < n; ++i)
            x[i] = block.basis(s.p[i]);
        const Candidate h = evaluateHypothesis(s, x, options.crossValidation);
        // is_valid: the RSS is a finite number
        if (std::isnan(h.rss) || std::isinf(h.rss))
            continue;
        // compare_hypotheses: a zero coefficient or a term contributing less than the minimum rejects it
        if (h.c1 == 0 || termContribution(s, x, h.c1) < kMinimumTermContribution)
            continue;
        if (!(h.smape < bestSmape))
            continue;
        bestSmape = h.smape;
        model.constant = h.c0;
        ModelTerm t = block;
        t.coefficient = h.c1;
        model.terms = { t };
        model.rss = h.rss;
        model.smape = h.smape;
        // compute_adjusted_rsquared with the constant model's RSS as the total sum of squares
        const double r2 = 1.0 - h.rss / constantRss;
        model.adjustedR2 = 1.0 - (1.0 - r2) * (static_cast<double>(n) - 1.0) / (static_cast<double>(n) - 2.0);
    }
    if (options.maxTerms >= 2 && !model.fewPointsForTerms)
        searchTwoTerms(s, blocks, options, constantRss, model);
    return model;
}

std::vector<PerformanceModel> fitPerformanceModels(
    const std::vector<std::vector<ModelPoint>>& series, const ModelOptions& options, int workers)
{
    std::vector<PerformanceModel> models(series.size());
    parallelFor(series.size(), 16, workers, [&](std::size_t begin, std::size_t end, std::size_t) {
        for (std::size_t i = begin; i < end; ++i)
            models[i] = fitPerformanceModel(series[i], options);
    });
    return models;
}

} // namespace parallax
