// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/derivedmetric.h"

#include "algebra/contenthash.h"
#include "algebra/enumnames.h"
#include "algebra/parallelfor.h"
#include "datasource/model/trialbuilder.h"

#include <QDateTime>
#include <QFile>
#include <cmath>
#include <functional>
#include <mutex>

namespace parallax {

namespace {

constexpr auto derivedModeNames
    = std::to_array<EnumName<DerivedMode>>({ { DerivedMode::Ieee, "IEEE" }, { DerivedMode::ParaProf, "PARAPROF" } });

} // namespace

QString derivedModeName(DerivedMode mode) { return enumName(derivedModeNames, mode); }

std::optional<DerivedMode> derivedModeFromName(QStringView name)
{
    return enumFromName(derivedModeNames, name, Qt::CaseInsensitive);
}

QString ExpressionError::toString() const
{
    QStringList where;
    if (line > 0)
        where << QStringLiteral("line %1").arg(line);
    if (position >= 0)
        where << QStringLiteral("column %1").arg(position + 1);
    return where.isEmpty() ? message : where.join(QLatin1String(", ")) + QLatin1String(": ") + message;
}

namespace {

bool isBareStart(QChar c) { return c.isLetter() || c == QLatin1Char('_'); }

bool isBarePart(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('.') || c == QLatin1Char(':');
}

bool isDigit(QChar c) { return c >= QLatin1Char('0') && c <= QLatin1Char('9'); }

} // namespace

/// Recursive descent over the grammar in derivedmetric.h, emitting a postfix program.
class ExpressionParser {
public:
    ExpressionParser(QStringView text, DerivedMode mode, MetricExpression& out)
        : m_text(text)
        , m_mode(mode)
        , m_out(out)
    {
    }

    bool parse(ExpressionError* error)
    {
        next();
        if (m_kind == Kind::End && !m_failed)
            return fail(error, 0, QStringLiteral("empty expression"));
        if (!m_failed)
            expr();
        if (!m_failed && m_kind != Kind::End) {
            if (m_kind == Kind::Close)
                fail(nullptr, m_tokenStart, QStringLiteral("unmatched ')'"));
            else
                fail(nullptr, m_tokenStart,
                    QStringLiteral("expected an operator (+ - * /) or the end of the expression but found %1")
                        .arg(describe()));
        }
        if (m_failed) {
            if (error)
                *error = m_error;
            return false;
        }
        return true;
    }

private:
    enum class Kind { End, Number, Metric, Plus, Minus, Star, Slash, Open, Close };
    using Code = MetricExpression::Code;

    bool fail(ExpressionError* error, qsizetype position, const QString& message)
    {
        if (!m_failed) {
            m_failed = true;
            m_error.position = position;
            m_error.message = message;
        }
        if (error)
            *error = m_error;
        return false;
    }

    QString describe() const
    {
        switch (m_kind) {
        case Kind::End:
            return QStringLiteral("the end of the expression");
        case Kind::Number:
            return QStringLiteral("the number %1").arg(m_text.mid(m_tokenStart, m_pos - m_tokenStart).toString());
        case Kind::Metric:
            return QStringLiteral("the metric '%1'").arg(m_name);
        default:
            return QStringLiteral("'%1'").arg(m_text.mid(m_tokenStart, 1).toString());
        }
    }

    void next()
    {
        if (m_failed)
            return;
        while (m_pos < m_text.size() && m_text[m_pos].isSpace())
            ++m_pos;
        m_tokenStart = m_pos;
        if (m_pos >= m_text.size()) {
            m_kind = Kind::End;
            return;
        }
        const QChar c = m_text[m_pos];
        if (isDigit(c) || (c == QLatin1Char('.') && m_pos + 1 < m_text.size() && isDigit(m_text[m_pos + 1]))) {
            number();
            return;
        }
        if (c == QLatin1Char('"')) {
            const qsizetype close = m_text.indexOf(QLatin1Char('"'), m_pos + 1);
            if (close < 0) {
                fail(nullptr, m_pos, QStringLiteral("unterminated quoted metric name (no closing '\"')"));
                return;
            }
            m_name = m_text.mid(m_pos + 1, close - m_pos - 1).toString();
            if (m_name.isEmpty()) {
                fail(nullptr, m_pos, QStringLiteral("empty metric name \"\""));
                return;
            }
            m_pos = close + 1;
            m_kind = Kind::Metric;
            return;
        }
        if (isBareStart(c)) {
            qsizetype end = m_pos + 1;
            while (end < m_text.size() && isBarePart(m_text[end]))
                ++end;
            m_name = m_text.mid(m_pos, end - m_pos).toString();
            m_pos = end;
            m_kind = Kind::Metric;
            return;
        }
        ++m_pos;
        switch (c.unicode()) {
        case '+':
            m_kind = Kind::Plus;
            return;
        case '-':
            m_kind = Kind::Minus;
            return;
        case '*':
            m_kind = Kind::Star;
            return;
        case '/':
            m_kind = Kind::Slash;
            return;
        case '(':
            m_kind = Kind::Open;
            return;
        case ')':
            m_kind = Kind::Close;
            return;
        default:
            fail(nullptr, m_tokenStart,
                QStringLiteral("unexpected character '%1' (quote metric names that contain it)").arg(c));
        }
    }

    void number()
    {
        qsizetype p = m_pos;
        while (p < m_text.size() && isDigit(m_text[p]))
            ++p;
        if (p < m_text.size() && m_text[p] == QLatin1Char('.')) {
            ++p;
            if (p >= m_text.size() || !isDigit(m_text[p])) {
                fail(nullptr, p, QStringLiteral("expected a digit after '.'"));
                return;
            }
            while (p < m_text.size() && isDigit(m_text[p]))
                ++p;
        }
        if (p < m_text.size() && (m_text[p] == QLatin1Char('e') || m_text[p] == QLatin1Char('E'))) {
            qsizetype q = p + 1;
            if (q < m_text.size() && (m_text[q] == QLatin1Char('+') || m_text[q] == QLatin1Char('-')))
                ++q;
            if (q >= m_text.size() || !isDigit(m_text[q])) {
                fail(nullptr, q, QStringLiteral("expected the digits of the exponent"));
                return;
            }
            while (q < m_text.size() && isDigit(m_text[q]))
                ++q;
            p = q;
        }
        bool ok = false;
        m_number = m_text.mid(m_pos, p - m_pos).toDouble(&ok);
        if (!ok) {
            fail(nullptr, m_pos, QStringLiteral("invalid number '%1'").arg(m_text.mid(m_pos, p - m_pos).toString()));
            return;
        }
        m_pos = p;
        m_kind = Kind::Number;
    }

    void put(Code code, std::uint32_t index = 0, double value = 0)
    {
        m_out.m_program.push_back({ code, index, value });
        switch (code) {
        case Code::Metric:
        case Code::Constant:
            ++m_depth;
            m_out.m_stackSize = std::max(m_out.m_stackSize, m_depth);
            break;
        case Code::Neg:
            break;
        default:
            --m_depth;
        }
    }

    void expr()
    {
        term();
        while (!m_failed && (m_kind == Kind::Plus || m_kind == Kind::Minus)) {
            const Code code = m_kind == Kind::Plus ? Code::Add : Code::Sub;
            next();
            term();
            if (!m_failed)
                put(code);
        }
    }

    void term()
    {
        factor();
        while (!m_failed && (m_kind == Kind::Star || m_kind == Kind::Slash)) {
            const Code code = m_kind == Kind::Star ? Code::Mul : Code::Div;
            next();
            factor();
            if (!m_failed)
                put(code);
        }
    }

    void factor()
    {
        if (m_kind == Kind::Minus) {
            if (m_mode == DerivedMode::ParaProf) {
                fail(nullptr, m_tokenStart, QStringLiteral("unary minus is not allowed in PARAPROF mode"));
                return;
            }
            next();
            primary();
            if (!m_failed)
                put(Code::Neg);
            return;
        }
        primary();
    }

    void primary()
    {
        if (m_failed)
            return;
        switch (m_kind) {
        case Kind::Number:
            put(Code::Constant, 0, m_number);
            next();
            return;
        case Kind::Metric: {
            qsizetype index = m_out.m_metrics.indexOf(m_name);
            if (index < 0) {
                index = m_out.m_metrics.size();
                m_out.m_metrics.append(m_name);
                m_out.m_metricPositions.push_back(m_tokenStart);
            }
            put(Code::Metric, static_cast<std::uint32_t>(index));
            next();
            return;
        }
        case Kind::Open: {
            const qsizetype open = m_tokenStart;
            next();
            if (m_failed)
                return;
            if (m_kind == Kind::Close) {
                fail(nullptr, m_tokenStart,
                    QStringLiteral("expected a metric name, a number or '(' but found ')' (empty parentheses)"));
                return;
            }
            expr();
            if (m_failed)
                return;
            if (m_kind != Kind::Close) {
                fail(nullptr, m_tokenStart,
                    QStringLiteral("expected ')' to close the '(' at column %1 but found %2")
                        .arg(open + 1)
                        .arg(describe()));
                return;
            }
            next();
            return;
        }
        default:
            fail(nullptr, m_tokenStart,
                QStringLiteral("expected a metric name, a number or '(' but found %1").arg(describe()));
        }
    }

    QStringView m_text;
    DerivedMode m_mode;
    MetricExpression& m_out;
    qsizetype m_pos = 0;
    qsizetype m_tokenStart = 0;
    Kind m_kind = Kind::End;
    QString m_name;
    double m_number = 0;
    std::size_t m_depth = 0;
    bool m_failed = false;
    ExpressionError m_error;
};

std::optional<MetricExpression> MetricExpression::parse(QStringView text, DerivedMode mode, ExpressionError* error)
{
    MetricExpression e;
    e.m_text = text.toString();
    e.m_mode = mode;
    ExpressionParser parser(text, mode, e);
    if (!parser.parse(error))
        return std::nullopt;
    return e;
}

QString MetricExpression::autoName() const
{
    QString s;
    for (const QChar c : m_text)
        if (!c.isSpace() && c != QLatin1Char('"'))
            s += c;
    return QLatin1Char('(') + s + QLatin1Char(')');
}

double MetricExpression::evaluate(const double* values, double* stack) const
{
    std::size_t top = 0;
    const bool paraprof = m_mode == DerivedMode::ParaProf;
    for (const Instruction& in : m_program) {
        switch (in.code) {
        case Code::Metric:
            stack[top++] = values[in.index];
            continue;
        case Code::Constant:
            stack[top++] = in.value;
            continue;
        case Code::Neg:
            stack[top - 1] = -stack[top - 1];
            continue;
        default:
            break;
        }
        const double b = stack[--top];
        const double a = stack[top - 1];
        double r = 0;
        switch (in.code) {
        case Code::Add:
            r = a + b;
            break;
        case Code::Sub:
            r = paraprof ? (a > b ? a - b : 0.0) : a - b;
            break;
        case Code::Mul:
            r = a * b;
            break;
        case Code::Div:
            r = paraprof && b == 0 ? 0.0 : a / b;
            break;
        default:
            break;
        }
        if (paraprof && !std::isfinite(r))
            r = 0.0;
        stack[top - 1] = r;
    }
    return top > 0 ? stack[top - 1] : 0.0;
}

double MetricExpression::evaluate(const std::vector<double>& values) const
{
    std::vector<double> stack(std::max<std::size_t>(1, m_stackSize));
    return evaluate(values.data(), stack.data());
}

namespace {

/// Reads a name at `pos` of the left-hand side: quoted or bare. Returns false on error.
bool readName(QStringView lhs, qsizetype& pos, QString& name, ExpressionError* error)
{
    if (pos < lhs.size() && lhs[pos] == QLatin1Char('"')) {
        const qsizetype close = lhs.indexOf(QLatin1Char('"'), pos + 1);
        if (close < 0) {
            if (error)
                *error = { pos, 0, QStringLiteral("unterminated quoted metric name (no closing '\"')") };
            return false;
        }
        name = lhs.mid(pos + 1, close - pos - 1).toString();
        if (name.trimmed().isEmpty()) {
            if (error)
                *error = { pos, 0, QStringLiteral("empty metric name before '='") };
            return false;
        }
        pos = close + 1;
        return true;
    }
    if (pos < lhs.size() && isBareStart(lhs[pos])) {
        qsizetype end = pos + 1;
        while (end < lhs.size() && isBarePart(lhs[end]))
            ++end;
        name = lhs.mid(pos, end - pos).toString();
        pos = end;
        return true;
    }
    if (error)
        *error = { pos, 0, QStringLiteral("expected a metric name before '='") };
    return false;
}

} // namespace

std::optional<DerivedMetricDefinition> parseDefinition(QStringView text, ExpressionError* error)
{
    DerivedMetricDefinition def;
    qsizetype equals = -1;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('"'))
            quoted = !quoted;
        else if (text[i] == QLatin1Char('=') && !quoted) {
            equals = i;
            break;
        }
    }
    if (equals < 0) {
        def.expression = text.toString();
        return def;
    }
    const QStringView lhs = text.left(equals);
    qsizetype pos = 0;
    while (pos < lhs.size() && lhs[pos].isSpace())
        ++pos;
    if (!readName(lhs, pos, def.name, error))
        return std::nullopt;
    while (pos < lhs.size() && lhs[pos].isSpace())
        ++pos;
    if (pos < lhs.size() && lhs[pos] == QLatin1Char('[')) {
        const qsizetype close = lhs.indexOf(QLatin1Char(']'), pos + 1);
        if (close < 0) {
            if (error)
                *error = { pos, 0, QStringLiteral("expected ']' to close the unit") };
            return std::nullopt;
        }
        def.unit = lhs.mid(pos + 1, close - pos - 1).trimmed().toString();
        pos = close + 1;
        while (pos < lhs.size() && lhs[pos].isSpace())
            ++pos;
    }
    if (pos < lhs.size()) {
        if (error)
            *error = { pos, 0,
                QStringLiteral(
                    "expected '=' after the metric name but found '%1' (quote names with spaces or operators)")
                    .arg(lhs[pos]) };
        return std::nullopt;
    }
    def.expression = text.mid(equals + 1).toString();
    def.expressionOffset = equals + 1;
    return def;
}

std::optional<std::vector<DerivedMetricDefinition>> parseDefinitionFile(QStringView text, ExpressionError* error)
{
    std::vector<DerivedMetricDefinition> out;
    int lineNo = 0;
    for (QStringView line : text.split(QLatin1Char('\n'))) {
        ++lineNo;
        bool quoted = false;
        for (qsizetype i = 0; i < line.size(); ++i) {
            if (line[i] == QLatin1Char('"'))
                quoted = !quoted;
            else if (line[i] == QLatin1Char('#') && !quoted) {
                line = line.left(i);
                break;
            }
        }
        if (line.trimmed().isEmpty())
            continue;
        ExpressionError e;
        auto def = parseDefinition(line, &e);
        if (!def) {
            if (error) {
                *error = e;
                error->line = lineNo;
            }
            return std::nullopt;
        }
        def->line = lineNo;
        out.push_back(std::move(*def));
    }
    return out;
}

namespace {

/// Copies a trial's structure (metrics, events, groups, atomic events and rows, threads, metadata)
/// into a builder; interval rows are left to the caller.
void copyStructure(const Trial& in, TrialBuilder& b)
{
    b.addDefinitionsOf(in);
    for (const ThreadKey& k : in.threads())
        b.addThread(k);
    std::vector<AtomicRow> atomicRows;
    atomicRows.reserve(in.threadCount());
    for (std::size_t t = 0; t < in.threadCount(); ++t)
        atomicRows.push_back(in.atomicRow(ThreadIndex(t)));
    b.setAtomicRows(std::move(atomicRows));
    for (const MetadataEntry& e : in.metadata())
        b.addMetadata(in.strings().get(e.key), in.strings().get(e.value));
    std::vector<StringId> cache(in.strings().size());
    StringPool& pool = b.strings();
    auto translate = [&](StringId id) {
        StringId& slot = cache[id.index()];
        if (!slot.isValid())
            slot = pool.intern(in.strings().get(id));
        return slot;
    };
    for (std::size_t t = 0; t < in.threadCount(); ++t) {
        const auto& entries = in.threadMetadata(ThreadIndex(t));
        if (entries.empty())
            continue;
        std::vector<MetadataEntry> copy;
        copy.reserve(entries.size());
        for (const MetadataEntry& e : entries)
            copy.push_back({ translate(e.key), translate(e.value) });
        b.setThreadMetadataEntries(ThreadIndex(t), std::move(copy));
    }
    for (const QString& w : in.warnings())
        b.addWarning(w);
}

struct Compiled {
    DerivedMetricDefinition def;
    MetricExpression expr;
    QString name;
    std::vector<std::size_t> operands; ///< result metric index of each referenced metric
};

/// An error message at a position of the definition text (expressions are parsed in place, so
/// their positions already count from the start of the definition).
QString located(const DerivedMetricDefinition& def, qsizetype position, const QString& message)
{
    ExpressionError e { position, def.line, message };
    return e.toString();
}

/// deriveMetrics with errors that say where but not which operation (the callers prefix them).
AlgebraResult derive(const Trial& trial, const std::vector<DerivedMetricDefinition>& definitions, DerivedMode mode)
{
    if (definitions.empty())
        return AlgebraResult::failure(QStringLiteral("no definitions"));
    const std::size_t m0 = trial.metricCount();
    std::vector<Compiled> compiled;
    QHash<QString, std::size_t> newIndex;
    for (const DerivedMetricDefinition& def : definitions) {
        ExpressionError e;
        // Parsed in place (padded to its offset), so every column counts from the line's start.
        const QString padded = QString(def.expressionOffset, QLatin1Char(' ')) + def.expression;
        auto expr = MetricExpression::parse(padded, mode, &e);
        if (!expr)
            return AlgebraResult::failure(located(def, e.position, e.message));
        Compiled c { def, std::move(*expr), def.name, {} };
        if (c.name.isEmpty())
            c.name = c.expr.autoName();
        if (trial.findMetric(c.name).isValid())
            return AlgebraResult::failure(
                located(def, -1, QStringLiteral("name collision: the trial already has a metric '%1'").arg(c.name)));
        if (newIndex.contains(c.name))
            return AlgebraResult::failure(
                located(def, -1, QStringLiteral("name collision: '%1' is defined twice").arg(c.name)));
        newIndex.insert(c.name, m0 + compiled.size());
        compiled.push_back(std::move(c));
    }
    // Resolve references, then order the definitions so that each comes after what it uses.
    QStringList known;
    for (const Metric& m : trial.metrics())
        known << m.name;
    for (Compiled& c : compiled)
        for (std::size_t i = 0; i < static_cast<std::size_t>(c.expr.metrics().size()); ++i) {
            const QString& name = c.expr.metrics()[static_cast<qsizetype>(i)];
            const MetricId existing = trial.findMetric(name);
            if (existing.isValid())
                c.operands.push_back(existing.index());
            else if (newIndex.contains(name))
                c.operands.push_back(newIndex.value(name));
            else
                return AlgebraResult::failure(located(c.def, c.expr.metricPosition(i),
                    QStringLiteral("unknown metric '%1' (the trial has: %2)")
                        .arg(name, known.join(QLatin1String(", ")))));
        }
    std::vector<std::size_t> order;
    std::vector<int> state(compiled.size(), 0); // 0 new, 1 on the stack, 2 done
    std::vector<std::size_t> path;
    QString cycle;
    std::function<bool(std::size_t)> visit = [&](std::size_t d) {
        if (state[d] == 2)
            return true;
        if (state[d] == 1) {
            QStringList names;
            auto it = std::find(path.begin(), path.end(), d);
            for (; it != path.end(); ++it)
                names << compiled[*it].name;
            names << compiled[d].name;
            cycle = names.join(QLatin1String(" -> "));
            return false;
        }
        state[d] = 1;
        path.push_back(d);
        for (std::size_t m : compiled[d].operands)
            if (m >= m0 && !visit(m - m0))
                return false;
        path.pop_back();
        state[d] = 2;
        order.push_back(d);
        return true;
    };
    for (std::size_t d = 0; d < compiled.size(); ++d)
        if (!visit(d))
            return AlgebraResult::failure(
                located(compiled[d].def, -1, QStringLiteral("reference cycle: %1").arg(cycle)));

    TrialBuilder builder(trial.name());
    copyStructure(trial, builder);
    for (const Compiled& c : compiled) {
        Metric m(c.name, c.def.unit);
        m.derived = true;
        m.expression = c.expr.text().trimmed();
        builder.addMetric(m);
    }
    const std::size_t total = m0 + compiled.size();
    const std::size_t threads = trial.threadCount();
    std::vector<IntervalRow> rows(threads);
    std::vector<std::size_t> nonFinite(compiled.size(), 0);
    std::mutex nonFiniteMutex;
    parallelFor(threads, 64, 0, [&](std::size_t begin, std::size_t end, std::size_t) {
        std::vector<double> values, stack;
        std::vector<std::size_t> local(compiled.size(), 0);
        for (std::size_t t = begin; t < end; ++t) {
            const RowView in = trial.row(ThreadIndex(t));
            IntervalRow& out = rows[t];
            const std::size_t n = in.size();
            out.events = in.events.toVector();
            out.calls = in.calls.toVector();
            out.subrs = in.subrs.toVector();
            out.excl.resize(total * n);
            out.incl.resize(total * n);
            std::copy(in.excl.begin(), in.excl.end(), out.excl.begin());
            std::copy(in.incl.begin(), in.incl.end(), out.incl.begin());
            if (!in.exclSqr.empty()) {
                out.exclSqr.assign(total * n, 0.0);
                std::copy(in.exclSqr.begin(), in.exclSqr.end(), out.exclSqr.begin());
            }
            for (std::size_t d : order) {
                const Compiled& c = compiled[d];
                values.resize(c.operands.size());
                stack.resize(std::max<std::size_t>(1, c.expr.stackSize()));
                const std::size_t target = m0 + d;
                for (auto* column : { &out.excl, &out.incl }) {
                    double* col = column->data();
                    for (std::size_t i = 0; i < n; ++i) {
                        for (std::size_t k = 0; k < c.operands.size(); ++k)
                            values[k] = col[c.operands[k] * n + i];
                        const double v = c.expr.evaluate(values.data(), stack.data());
                        col[target * n + i] = v;
                        if (!std::isfinite(v))
                            ++local[d];
                    }
                }
            }
        }
        std::lock_guard lock(nonFiniteMutex);
        for (std::size_t d = 0; d < compiled.size(); ++d)
            nonFinite[d] += local[d];
    });
    builder.setIntervalRows(std::move(rows));

    Provenance provenance;
    provenance.operation = QStringLiteral("derive");
    provenance.operands << QStringLiteral("%1 [%2]").arg(trial.name(), contentHash(trial));
    provenance.options << QStringLiteral("mode=") + derivedModeName(mode);
    provenance.options << contentHashAlgorithmOption();
    for (const Compiled& c : compiled)
        provenance.options << QStringLiteral("metric[%1]=%2").arg(c.name, c.expr.text().trimmed())
                + (c.def.unit.isEmpty() ? QString() : QStringLiteral(" [%1]").arg(c.def.unit));
    provenance.options << QStringLiteral("version=") + parallaxVersion();
    provenance.options << QStringLiteral("time=") + QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    for (std::size_t d = 0; d < compiled.size(); ++d)
        if (nonFinite[d] > 0) {
            const QString w = QStringLiteral("derived metric '%1': %2 non-finite values (excl and incl)")
                                  .arg(compiled[d].name)
                                  .arg(nonFinite[d]);
            builder.addWarning(w);
            provenance.options << QStringLiteral("warning=") + w;
        }
    builder.setProvenance(provenance);
    std::shared_ptr<Trial> result = builder.build();
    // Same events and threads in the same order: the operand's presence markers still apply.
    auto presence = Presence::of(trial);
    result->cached<Presence>([&](const Trial&) { return std::move(presence); });
    return AlgebraResult(result);
}

} // namespace

AlgebraResult deriveMetrics(
    const Trial& trial, const std::vector<DerivedMetricDefinition>& definitions, DerivedMode mode)
{
    AlgebraResult r = derive(trial, definitions, mode);
    return r ? r : AlgebraResult::failure(QStringLiteral("derive: ") + r.error());
}

AlgebraResult deriveMetric(const Trial& trial, const QString& definition, DerivedMode mode)
{
    ExpressionError e;
    auto def = parseDefinition(definition, &e);
    if (!def)
        return AlgebraResult::failure(QStringLiteral("derive: ") + e.toString());
    return deriveMetrics(trial, { *def }, mode);
}

AlgebraResult deriveMetricsFromFile(const Trial& trial, const QString& path, DerivedMode mode)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return AlgebraResult::failure(QStringLiteral("%1: cannot read: %2").arg(path, file.errorString()));
    const QString text = QString::fromUtf8(file.readAll());
    ExpressionError e;
    auto defs = parseDefinitionFile(text, &e);
    if (!defs)
        return AlgebraResult::failure(QStringLiteral("%1: %2").arg(path, e.toString()));
    if (defs->empty())
        return AlgebraResult::failure(QStringLiteral("%1: no definitions").arg(path));
    AlgebraResult r = derive(trial, *defs, mode);
    if (!r)
        return AlgebraResult::failure(QStringLiteral("%1: %2").arg(path, r.error()));
    return r;
}

} // namespace parallax
