// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// The LULESH scaling runs (PARALLAX_DATA_DIR/thicket/mpi_scaling_cali, 27…343 ranks, parameter
// mpi.world.size) and `parallax-cli model --json`'s models of them: the oracle the scaling window's
// models page and the main window's growth columns are checked against (docs/SEMANTICS.md §10.6).

#include "tests/common/clirunner.h"
#include "tests/common/testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <cmath>
#include <map>
#include <utility>

namespace parallax::test {

/// The five runs, in no order of their rank counts (the models must not depend on it).
inline QStringList luleshRuns()
{
    QStringList runs;
    for (const char* n : { "125", "27", "343", "64", "216" })
        runs << dataPath(QStringLiteral("thicket/mpi_scaling_cali/%1_cores.cali").arg(QLatin1String(n)));
    return runs;
}

/// One call path's model as the CLI prints it.
struct CliModel {
    QString formula;
    double prediction = 0;
    double measuredAtLargest = std::nan(""); ///< the mean of the values at 343 ranks
};

/// The CLI's models of the LULESH runs over mpi.world.size at `target`, in its order (the dominating
/// first), and by call path; `options` are added to the command (--modeler, --terms).
inline std::pair<QStringList, std::map<QString, CliModel>> luleshCliModels(
    bool exclusive, int target, const QStringList& options = {})
{
    QStringList args { QStringLiteral("model"), QStringLiteral("--param"), QStringLiteral("mpi.world.size"),
        QStringLiteral("--target"), QString::number(target), QStringLiteral("--json") };
    args << options;
    if (exclusive)
        args << QStringLiteral("--exclusive");
    const CliRun r = runCli(args + luleshRuns());
    if (r.exitCode != 0)
        qWarning("%s", r.err.constData());
    QStringList order;
    std::map<QString, CliModel> byPath;
    for (const auto& v : QJsonDocument::fromJson(r.out).object().value(QStringLiteral("models")).toArray()) {
        const QJsonObject m = v.toObject();
        CliModel c { m.value(QStringLiteral("model")).toString(), m.value(QStringLiteral("prediction")).toDouble() };
        for (const auto& p : m.value(QStringLiteral("points")).toArray())
            if (p.toObject().value(QStringLiteral("p")).toDouble() == 343) {
                double sum = 0;
                const QJsonArray values = p.toObject().value(QStringLiteral("values")).toArray();
                for (const auto& x : values)
                    sum += x.toDouble();
                c.measuredAtLargest = sum / static_cast<double>(values.size());
            }
        const QString path = m.value(QStringLiteral("callpath")).toString();
        order << path;
        byPath[path] = c;
    }
    return { order, byPath };
}

} // namespace parallax::test
