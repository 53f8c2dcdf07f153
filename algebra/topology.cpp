// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/topology.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace parallax {

namespace {

constexpr std::array<int, 3> Unplaced { -1, -1, -1 };

/// The value of `key` per thread (per-thread metadata, else the trial-wide value), or empty
/// strings when no thread and not the trial has it. One pass over the metadata.
std::vector<QString> valuesOf(const Trial& trial, const QString& key)
{
    const StringId k = trial.strings().find(key);
    if (!k.isValid())
        return {};
    QString common;
    for (const auto& e : trial.metadata())
        if (e.key == k)
            common = trial.strings().get(e.value);
    std::vector<QString> out(trial.threadCount(), common);
    bool any = !common.isNull();
    for (std::size_t t = 0; t < trial.threadCount(); ++t)
        for (const auto& e : trial.threadMetadata(ThreadIndex(t)))
            if (e.key == k) {
                out[t] = trial.strings().get(e.value);
                any = true;
            }
    if (!any)
        return {};
    return out;
}

/// Integers in `text` ("2", "(1,2,3)", "0 1 0").
std::vector<int> integers(const QString& text)
{
    static const QRegularExpression number(QStringLiteral("-?\\d+"));
    std::vector<int> out;
    for (auto it = number.globalMatch(text); it.hasNext();) {
        bool ok = false;
        const int v = it.next().captured().toInt(&ok);
        if (!ok)
            return {};
        out.push_back(v);
    }
    return out;
}

/// Extents from the placed coordinates (largest + 1).
void fitDims(Topology& topo)
{
    topo.dims = { 1, 1, 1 };
    for (const auto& c : topo.coords)
        if (c[0] >= 0)
            for (int a = 0; a < 3; ++a)
                topo.dims[a] = std::max(topo.dims[a], c[a] + 1);
}

/// A physical topology from per-thread integer keys; `combine` maps their values to (x, y, z).
/// nullopt unless at least one thread has every key.
template <typename Combine>
std::optional<Topology> physical(const Trial& trial, const QString& name, const QStringList& keys,
    const std::array<QString, 3>& axes, Combine combine)
{
    std::vector<std::vector<QString>> columns;
    for (const auto& k : keys) {
        columns.push_back(valuesOf(trial, k));
        if (columns.back().empty())
            return std::nullopt;
    }
    Topology topo;
    topo.name = name;
    topo.source = Topology::Source::Physical;
    topo.axisNames = axes;
    topo.coords.assign(trial.threadCount(), Unplaced);
    std::vector<std::vector<int>> values(keys.size());
    for (std::size_t t = 0; t < trial.threadCount(); ++t) {
        bool good = true;
        for (qsizetype k = 0; k < keys.size() && good; ++k) {
            values[k] = integers(columns[k][t]);
            good = !values[k].empty() && std::all_of(values[k].begin(), values[k].end(), [](int v) { return v >= 0; });
        }
        if (good)
            topo.coords[t] = combine(values);
    }
    if (topo.placedCount() == 0)
        return std::nullopt;
    fitDims(topo);
    return topo;
}

void addCube(const Trial& trial, std::vector<Topology>& out)
{
    for (int k = 0;; ++k) {
        const QString def = trial.metadataValue(QStringLiteral("CUBE topology %1").arg(k));
        if (def.isNull())
            return;
        const QJsonObject o = QJsonDocument::fromJson(def.toUtf8()).object();
        const QJsonArray dims = o.value(QStringLiteral("dims")).toArray();
        if (dims.isEmpty())
            continue;
        Topology topo;
        topo.source = Topology::Source::Cube;
        topo.name = o.value(QStringLiteral("name")).toString();
        if (topo.name.isEmpty())
            topo.name = QStringLiteral("CUBE topology %1").arg(k);
        std::vector<int> sizes;
        for (const auto& d : dims)
            sizes.push_back(std::max(1, d.toObject().value(QStringLiteral("size")).toInt()));
        // Dims beyond the third fold into z, the last fastest.
        long long zExtent = 1;
        for (std::size_t d = 2; d < sizes.size(); ++d)
            zExtent *= sizes[d];
        if (zExtent > (1 << 24))
            continue;
        for (std::size_t a = 0; a < 3 && a < sizes.size(); ++a) {
            const QJsonObject d = dims[static_cast<qsizetype>(a)].toObject();
            topo.dims[a] = sizes[a];
            topo.axisNames[a] = d.value(QStringLiteral("name")).toString();
            topo.periodic[a] = d.value(QStringLiteral("periodic")).toBool();
        }
        topo.dims[2] = static_cast<int>(zExtent);
        if (sizes.size() > 3) {
            topo.axisNames[2] = QStringLiteral("dims 3-%1").arg(sizes.size());
            topo.periodic[2] = false;
        }
        topo.coords.assign(trial.threadCount(), Unplaced);
        const auto values = valuesOf(trial, QStringLiteral("CUBE coordinates %1").arg(k));
        for (std::size_t t = 0; t < values.size(); ++t) {
            const std::vector<int> c = integers(values[t]);
            if (c.size() != sizes.size())
                continue;
            bool good = true;
            for (std::size_t d = 0; d < c.size(); ++d)
                good = good && c[d] >= 0 && c[d] < sizes[d];
            if (!good)
                continue;
            int z = 0;
            for (std::size_t d = 2; d < c.size(); ++d)
                z = z * sizes[d] + c[d];
            topo.coords[t] = { c[0], c.size() > 1 ? c[1] : 0, z };
        }
        out.push_back(std::move(topo));
    }
}

} // namespace

std::size_t Topology::placedCount() const
{
    return static_cast<std::size_t>(
        std::count_if(coords.begin(), coords.end(), [](const auto& c) { return c[0] >= 0; }));
}

Topology defaultGrid(const Trial& trial)
{
    const auto n = static_cast<long long>(trial.threadCount());
    const int cols = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n)))));
    Topology topo;
    topo.name = QStringLiteral("Grid by thread index");
    topo.source = Topology::Source::Default;
    topo.dims = { cols, static_cast<int>(std::max(1LL, (n + cols - 1) / cols)), 1 };
    topo.coords.resize(static_cast<std::size_t>(n));
    for (long long i = 0; i < n; ++i)
        topo.coords[static_cast<std::size_t>(i)] = { static_cast<int>(i % cols), static_cast<int>(i / cols), 0 };
    return topo;
}

std::optional<Topology> userGrid(const Trial& trial, std::array<int, 3> dims, const QString& order, QString* error)
{
    auto fail = [&](const QString& message) -> std::optional<Topology> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    QString sorted = order.toLower();
    std::sort(sorted.begin(), sorted.end());
    if (sorted != QLatin1String("xyz"))
        return fail(QStringLiteral("order '%1': expected a permutation of xyz").arg(order));
    const auto n = static_cast<long long>(trial.threadCount());
    int zeros = 0;
    long long known = 1;
    for (int& d : dims) {
        if (d < 0)
            return fail(QStringLiteral("grid dimension %1: expected a positive size or 0 (computed)").arg(d));
        if (d == 0)
            ++zeros;
        else
            known *= d;
    }
    if (zeros > 0) {
        // Share what is left among the 0 dims, as evenly as integers allow.
        const long long rest = std::max(1LL, (n + known - 1) / known);
        const int each = std::max(1, static_cast<int>(std::ceil(std::pow(static_cast<double>(rest), 1.0 / zeros))));
        int left = zeros;
        long long remaining = rest;
        for (int& d : dims)
            if (d == 0) {
                d = --left == 0 ? static_cast<int>(std::max(1LL, remaining)) : each;
                remaining = (remaining + d - 1) / d;
            }
    }
    if (static_cast<long long>(dims[0]) * dims[1] * dims[2] < n)
        return fail(QStringLiteral("a %1 x %2 x %3 grid has fewer cells than the %4 threads")
                        .arg(dims[0])
                        .arg(dims[1])
                        .arg(dims[2])
                        .arg(n));
    Topology topo;
    topo.name = QStringLiteral("Grid %1 x %2 x %3 (%4)").arg(dims[0]).arg(dims[1]).arg(dims[2]).arg(order.toLower());
    topo.source = Topology::Source::User;
    topo.dims = dims;
    topo.coords.resize(static_cast<std::size_t>(n));
    for (long long i = 0; i < n; ++i) {
        long long rest = i;
        std::array<int, 3> c {};
        for (const QChar axis : order.toLower()) {
            const int a = axis.unicode() - 'x';
            c[static_cast<std::size_t>(a)] = static_cast<int>(rest % dims[static_cast<std::size_t>(a)]);
            rest /= dims[static_cast<std::size_t>(a)];
        }
        topo.coords[static_cast<std::size_t>(i)] = c;
    }
    return topo;
}

std::vector<Topology> topologies(const Trial& trial)
{
    std::vector<Topology> out;
    if (trial.threadCount() == 0)
        return out;
    addCube(trial, out);
    if (auto t = physical(trial, QStringLiteral("Cray network (CRAY_PMI_X/Y/Z)"),
            { QStringLiteral("CRAY_PMI_X"), QStringLiteral("CRAY_PMI_Y"), QStringLiteral("CRAY_PMI_Z") },
            { QStringLiteral("X"), QStringLiteral("Y"), QStringLiteral("Z") },
            [](const std::vector<std::vector<int>>& v) {
                return std::array<int, 3> { v[0][0], v[1][0], v[2][0] };
            }))
        out.push_back(std::move(*t));
    {
        const QStringList keys { QStringLiteral("CRAY_TOPO_COLUMN_ID"), QStringLiteral("CRAY_TOPO_ROW_ID"),
            QStringLiteral("CRAY_TOPO_CAGE_ID"), QStringLiteral("CRAY_TOPO_SLOT_ID"),
            QStringLiteral("CRAY_TOPO_NODE_ID") };
        // Cray XC: 16 slots per chassis, 4 nodes per slot.
        constexpr int Slots = 16, Nodes = 4;
        if (auto t = physical(trial, QStringLiteral("Cray cabinets (column; cage.slot; row.node)"), keys,
                { QStringLiteral("column"), QStringLiteral("cage.slot"), QStringLiteral("row.node") },
                [](const std::vector<std::vector<int>>& v) {
                    return std::array<int, 3> { v[0][0], v[2][0] * Slots + v[3][0], v[1][0] * Nodes + v[4][0] };
                }))
            out.push_back(std::move(*t));
    }
    for (const char* key : { "BGQ Coords", "BGP Coords", "BGL Coords" }) {
        if (auto t = physical(trial, QStringLiteral("Blue Gene torus (%1)").arg(QLatin1String(key)),
                { QLatin1String(key) }, { QStringLiteral("X"), QStringLiteral("Y"), QStringLiteral("Z") },
                [](const std::vector<std::vector<int>>& v) {
                    const auto& c = v[0];
                    return c.size() == 3 ? std::array<int, 3> { c[0], c[1], c[2] } : Unplaced;
                }))
            out.push_back(std::move(*t));
    }
    out.push_back(defaultGrid(trial));
    return out;
}

} // namespace parallax
