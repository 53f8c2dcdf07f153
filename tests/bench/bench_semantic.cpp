// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// bench_semantic: times SEAA attribution (docs/SEMANTICS.md 5) of a big trial through a 50-rule model
// and prints JSON lines.
//   bench_semantic [--runs N] [--threads T] [--events E] [--rules R] [--workers W] [DIR]
// Without DIR a trial is synthesized like `parallax-cli synth --threads T --events E` (default
// 16384 x 201). The model has R rules (default 50) over the trial's event names: regular
// expressions, exact names, a group, templates, and every policy (DIRECT, AMORTIZE, WEIGHTED with
// literal weights, AGGREGATE), each at its own priority. Prints every run, the median, the
// conservation error and the peak resident memory.
#include "algebra/semanticprofile.h"
#include "datasource/readers/readerregistry.h"
#include "datasource/synth/synth.h"
#include "tests/bench/benchutil.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sys/resource.h>
#include <thread>
#include <vector>

using namespace parallax;
using namespace parallax::bench;
using namespace parallax::semantic;

namespace {

/// R rules over the trial's flat event names, every selector kind and policy, distinct priorities.
Model benchmarkModel(const Trial& trial, int rules)
{
    Model m;
    m.name = QStringLiteral("benchmark");
    const int declared = 20;
    for (int i = 0; i < declared; ++i) {
        Entity e { QStringLiteral("e%1").arg(i), QStringLiteral("stage"), QStringLiteral("stage %1").arg(i),
            i >= 4 ? QStringLiteral("e%1").arg(i % 4) : QString(), {} };
        e.attrs.insert(QStringLiteral("w"), AttrValue::fromNumber(1 + i % 7));
        m.entities.push_back(e);
    }
    std::vector<QString> names;
    for (const IntervalEvent& e : trial.events())
        if (!e.isCallPath())
            names.push_back(e.name);
    for (int i = 0; i < rules; ++i) {
        Association a;
        a.id = QStringLiteral("rule%1").arg(i);
        a.priority = i;
        const QString& name = names[static_cast<std::size_t>(i * 3) % names.size()];
        switch (i % 5) {
        case 0: // a template per source file / routine prefix
            a.select.kind = SelectorKind::Regex;
            a.select.value = QRegularExpression::escape(name.left(6)) + QStringLiteral("(\\w*).*");
            a.target.entityTemplate
                = EntityTemplate { QStringLiteral("t%1:{1}").arg(i), QStringLiteral("routine"), QStringLiteral("{0}"),
                      QStringLiteral("e%1").arg(i % declared), { { QStringLiteral("rule"), QString::number(i) } } };
            break;
        case 1:
            a.select.kind = SelectorKind::Exact;
            a.select.value = name;
            a.target.ids << QStringLiteral("e%1").arg(i % declared);
            break;
        case 2:
            a.select.kind = SelectorKind::Regex;
            a.select.value = QStringLiteral(".*") + QRegularExpression::escape(name.mid(name.size() / 3, 5))
                + QStringLiteral(".*");
            a.target.ids << QStringLiteral("e%1").arg(i % declared) << QStringLiteral("e%1").arg((i + 1) % declared)
                         << QStringLiteral("e%1").arg((i + 2) % declared);
            a.policy = Policy::Amortize;
            break;
        case 3:
            a.select.kind = SelectorKind::Regex;
            a.select.value = QRegularExpression::escape(name.left(4)) + QStringLiteral(".*");
            a.target.ids << QStringLiteral("e%1").arg(i % declared) << QStringLiteral("e%1").arg((i + 5) % declared);
            a.policy = Policy::Weighted;
            a.weightAttr = QStringLiteral("w");
            break;
        default:
            if (i == 4) {
                a.select.kind = SelectorKind::Group;
                a.select.value = QStringLiteral("MPI");
                a.target.ids << QStringLiteral("e1");
            } else {
                a.select.kind = SelectorKind::Regex;
                a.select.value = QStringLiteral(".*") + QRegularExpression::escape(name.right(4));
                a.target.ids << QStringLiteral("e%1").arg(i % declared)
                             << QStringLiteral("e%1").arg((i + 3) % declared);
                a.policy = Policy::Aggregate;
            }
            break;
        }
        compileSelector(a.select);
        m.associations.push_back(a);
    }
    return m;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    SynthBenchOptions o;
    int rules = 50;
    const bool parsed = parseSynthBenchOptions(argc, argv, o,
        "bench_semantic [--runs N] [--threads T] [--events E] [--rules R] [--workers W] [DIR]",
        [&](const char* name, auto value) {
            if (std::strcmp(name, "--rules") != 0)
                return false;
            rules = std::max(1, std::atoi(value()));
            return true;
        });
    if (!parsed)
        return 1;
    const char* dir = o.directories.empty() ? nullptr : o.directories.back();
    QElapsedTimer timer;
    timer.start();
    const std::shared_ptr<const Trial> trial = synthBenchTrial(dir, o, 1);
    if (!trial)
        return 2;
    const Model model = benchmarkModel(*trial, rules);
    if (auto error = validateModel(model)) {
        std::fprintf(stderr, "bench_semantic: %s\n", qPrintable(error->toString()));
        return 2;
    }
    std::printf("{\"trial\":\"%s\",\"threads\":%zu,\"events\":%zu,\"cells\":%zu,\"rules\":%zu,\"prepare_wall_s\":%.3f,"
                "\"cores\":%u}\n",
        dir ? dir : "synthesized", trial->threadCount(), trial->eventCount(), trial->cellCount(),
        model.associations.size(), static_cast<double>(timer.nsecsElapsed()) / 1e9,
        std::thread::hardware_concurrency());
    std::vector<double> wall;
    ProfilePtr profile;
    AttributeOptions options;
    options.workers = o.workers;
    for (int r = 0; r < o.runs; ++r) {
        profile.reset();
        timer.restart();
        auto result = attribute(model, trial, options);
        const double w = static_cast<double>(timer.nsecsElapsed()) / 1e9;
        if (auto* error = std::get_if<AttributionError>(&result)) {
            std::fprintf(stderr, "bench_semantic: %s\n", qPrintable(error->message));
            return 2;
        }
        profile = std::get<ProfilePtr>(result);
        wall.push_back(w);
        std::printf("{\"run\":%d,\"attribute_wall_s\":%.4f}\n", r + 1, w);
    }
    std::size_t matched = 0;
    for (const AssociationReport& a : profile->associationReports())
        matched += a.events.size();
    std::printf("{\"mode\":\"attribute\",\"runs\":%d,\"median_wall_s\":%.4f,\"min_wall_s\":%.4f,\"entities\":%zu,"
                "\"components\":%zu,\"source_events\":%zu,\"matched_events\":%zu,\"conservation_error\":%.3g,"
                "\"peak_rss_mb\":%.1f,\"loadavg_1min\":%.2f}\n",
        o.runs, median(wall), *std::min_element(wall.begin(), wall.end()), profile->entities().size(),
        profile->components().size(), profile->sourceEvents().size(), matched, profile->conservationError(),
        peakRssMb(), loadAverage());
    return 0;
}
