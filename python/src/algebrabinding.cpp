// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The algebra of runs (algebra/operations.h, algebra/derivedmetric.h) for _parallax: trials in, a new
// trial out, computed with the GIL released. Option names are the algebra's own (matching.h); a
// collapse policy collapses every operand first, as parallax-cli does (collapseOperandThreads).
#include "algebra/derivedmetric.h"
#include "algebra/matching.h"
#include "algebra/operations.h"
#include "python/src/binding.h"

#include <pybind11/stl.h>

namespace parallax::python {

namespace {

AlgebraOptions options(
    const std::string& match, const std::string& threads, int absent, int conflict, const std::string& name)
{
    AlgebraOptions o;
    const auto policy = eventMatchPolicyFromName(toQ(match));
    if (!policy)
        throw Failure { QStringLiteral("match: '%1' is none of exact, no_source, routine").arg(toQ(match)) };
    o.match.policy = *policy;
    const auto threadPolicy = threadPolicyFromName(toQ(threads));
    if (!threadPolicy)
        throw Failure { QStringLiteral(
            "threads: '%1' is none of strict, union_by_key, collapse_process, collapse_all, map_by_order")
                            .arg(toQ(threads)) };
    o.threads = *threadPolicy;
    o.absent = absent == 0 ? AbsentCells::AsZero : AbsentCells::Skip;
    o.conflict = static_cast<MergeConflict>(conflict);
    o.name = toQ(name);
    return o;
}

std::shared_ptr<TrialHandle> result(const AlgebraResult& r)
{
    if (!r)
        throw Failure { r.error() };
    return std::make_shared<TrialHandle>(TrialHandle { r.trial() });
}

std::vector<std::shared_ptr<const Trial>> trials(const std::vector<std::shared_ptr<TrialHandle>>& handles)
{
    std::vector<std::shared_ptr<const Trial>> out;
    out.reserve(handles.size());
    for (const auto& h : handles)
        out.push_back(h->trial);
    return out;
}

} // namespace

void addAlgebra(py::module_& m)
{
    const auto binary = [&m](const char* name, AlgebraResult (*op)(const Trial&, const Trial&, const AlgebraOptions&),
                            const char* doc) {
        m.def(
            name,
            [op](const TrialHandle& a, const TrialHandle& b, const std::string& match, const std::string& threads,
                const std::string& resultName) {
                const AlgebraOptions o = options(match, threads, 0, 0, resultName);
                std::vector<std::shared_ptr<const Trial>> operands { a.trial, b.trial };
                std::optional<AlgebraResult> r;
                {
                    py::gil_scoped_release release;
                    if (QString error; !collapseOperandThreads(operands, o.threads, &error))
                        r.emplace(AlgebraResult::failure(error));
                    else
                        r.emplace(op(*operands[0], *operands[1], o));
                }
                return result(*r);
            },
            py::arg("a"), py::arg("b"), py::arg("match") = "exact", py::arg("threads") = "strict", py::arg("name") = "",
            doc);
    };
    binary("_diff", &difference, "diff(A, B) = A - B cell by cell (docs/SEMANTICS.md 4.3).");
    binary("_ratio", &ratio, "ratio(A, B) = A / B cell by cell (docs/SEMANTICS.md 4.3).");

    m.def(
        "_nary",
        [](const std::string& operation, const std::vector<std::shared_ptr<TrialHandle>>& operands,
            const std::string& match, const std::string& threads, int absent, int conflict,
            const std::string& resultName) {
            if (operands.empty())
                throw Failure { QStringLiteral("%1 needs at least one trial").arg(toQ(operation)) };
            const AlgebraOptions o = options(match, threads, absent, conflict, resultName);
            auto list = trials(operands);
            std::optional<AlgebraResult> r;
            {
                py::gil_scoped_release release;
                if (QString error; !collapseOperandThreads(list, o.threads, &error))
                    r.emplace(AlgebraResult::failure(error));
                else if (operation == "mean")
                    r.emplace(mean(list, o));
                else if (operation == "merge")
                    r.emplace(merge(list, o));
                else if (operation == "min")
                    r.emplace(summary(list, Summary::Minimum, o));
                else if (operation == "max")
                    r.emplace(summary(list, Summary::Maximum, o));
                else if (operation == "stddev")
                    r.emplace(summary(list, Summary::StdDev, o));
            }
            if (!r)
                throw Failure { QStringLiteral("no operation '%1'").arg(toQ(operation)) };
            return result(*r);
        },
        py::arg("operation"), py::arg("operands"), py::arg("match") = "exact", py::arg("threads") = "strict",
        py::arg("absent") = 0, py::arg("conflict") = 0, py::arg("name") = "",
        "mean, merge, min, max or stddev of several trials (docs/SEMANTICS.md 4.3).");

    m.def(
        "_derive",
        [](const TrialHandle& trial, const std::string& definition, const std::string& mode) {
            const auto derivedMode = derivedModeFromName(toQ(mode));
            if (!derivedMode)
                throw Failure { QStringLiteral("mode: '%1' is neither IEEE nor PARAPROF").arg(toQ(mode)) };
            std::optional<AlgebraResult> r;
            {
                py::gil_scoped_release release;
                r.emplace(deriveMetric(*trial.trial, toQ(definition), *derivedMode));
            }
            return result(*r);
        },
        py::arg("trial"), py::arg("definition"), py::arg("mode") = "IEEE",
        "A copy of the trial with a derived metric, e.g. 'FLOPS = \"PAPI_FP_OPS\" / \"TIME\"'.");
}

} // namespace parallax::python
