// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/historyruns.h"

#include "datasource/readers/progress.h"

#include <cmath>
#include <optional>

namespace parallax {

namespace {

/// The runs of a history from the database's stored derived rows (docs/SEMANTICS.md §9), without
/// loading a trial; nullopt with `why` set when they cannot give historyOf's exact numbers (a
/// trial TAU's loader wrote, a maximum TAUdb clamped at 0), `error` set on a database error.
std::optional<std::vector<HistoryRunSummary>> storedSummaries(perfdb::Database& db,
    const std::vector<perfdb::TrialInfo>& trials, const QString& key, HistoryOptions& options, QString& why,
    QString& error)
{
    const int code = derivedThreadOf(options.statistic, options.value);
    const perfdb::DerivedColumn column = options.value == ValueType::Inclusive ? perfdb::DerivedColumn::Inclusive
        : options.value == ValueType::Calls                                    ? perfdb::DerivedColumn::Calls
                                                                               : perfdb::DerivedColumn::Exclusive;
    const std::vector<int> codes { code, -4, -5 };
    std::vector<qint64> ids;
    ids.reserve(trials.size());
    for (const perfdb::TrialInfo& info : trials)
        ids.push_back(info.id);
    const bool metadataOrder = key != QLatin1String("upload") && key != QLatin1String("id");
    auto orderOf = [&](std::size_t i, const perfdb::DerivedTrialValues& v) {
        return key == QLatin1String("upload") ? trials[i].uploaded
            : key == QLatin1String("id")      ? QString::number(trials[i].id)
                                              : v.metadataValue;
    };
    // The metric: given, else the first run's first metric (a second read when the guess was wrong).
    QString metric = options.metric.isEmpty() ? trials.front().metrics.value(0) : options.metric;
    std::vector<perfdb::DerivedTrialValues> values;
    for (int attempt = 0; attempt < 2; ++attempt) {
        auto read = db.derivedValues(ids, metric, column, codes, metadataOrder ? key : QString());
        if (!read) {
            error = read.error().toString();
            return std::nullopt;
        }
        values = std::move(read.value());
        if (!options.metric.isEmpty())
            break;
        QStringList orders;
        for (std::size_t i = 0; i < values.size(); ++i)
            orders << orderOf(i, values[i]);
        const QString first = values[historyOrder(orders).front()].metrics.value(0);
        if (first == metric)
            break;
        metric = first;
    }
    options.metric = metric;
    std::vector<HistoryRunSummary> runs;
    runs.reserve(values.size());
    const bool spread = options.statistic == Statistic::Min || options.statistic == Statistic::Max;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const perfdb::DerivedTrialValues& v = values[i];
        if (!v.parallax) {
            why = QStringLiteral("trial %1 was not written by Parallax (its derived rows are TAU's own)").arg(v.trial);
            return std::nullopt;
        }
        HistoryRunSummary s;
        s.run.label = QStringLiteral("db:%1 %2").arg(v.trial).arg(v.name);
        s.run.order = orderOf(i, v);
        s.run.trialName = v.name;
        s.hasMetric = v.hasMetric;
        s.higherIsBetter = v.higherIsBetter;
        s.events.reserve(static_cast<std::size_t>(v.events.size()));
        for (qsizetype e = 0; e < v.events.size(); ++e) {
            const auto k = static_cast<std::size_t>(e);
            HistoryEventSummary es;
            es.event = v.events[e];
            if (v.hasMetric) {
                es.minimum = v.values[1][k];
                es.maximum = v.values[2][k];
                // No derived row: the event never ran; its means and total are 0, its extremes undefined.
                es.value = std::isnan(es.minimum) && !spread ? 0.0 : v.values[0][k];
                // TAUdb's MAX row starts at 0: with a negative minimum a 0 may hide a negative maximum.
                if (es.minimum < 0 && es.maximum == 0) {
                    why = QStringLiteral("trial %1: the stored maximum of '%2' is clamped at 0 (docs/FORMATS.md 2.1)")
                              .arg(v.trial)
                              .arg(es.event);
                    return std::nullopt;
                }
            }
            s.events.push_back(std::move(es));
        }
        runs.push_back(std::move(s));
    }
    return runs;
}

} // namespace

DatabaseHistory databaseHistory(perfdb::Database& db, const std::vector<perfdb::TrialInfo>& trials, const QString& key,
    HistoryOptions options, bool loadTrials, const std::atomic_bool* cancel)
{
    DatabaseHistory d;
    if (trials.empty()) {
        d.result.error = QStringLiteral("no trials to make a history of");
        return d;
    }
    // The stored derived rows when they hold the statistic exactly, else every trial loaded.
    std::optional<std::vector<HistoryRunSummary>> summaries;
    if (!loadTrials) {
        QString why;
        QString error;
        if (derivedThreadOf(options.statistic, options.value) == 0)
            why = QStringLiteral("the statistic '%1' has no derived row in the database")
                      .arg(statisticName(options.statistic));
        else
            summaries = storedSummaries(db, trials, key, options, why, error);
        if (!error.isEmpty()) {
            d.result.error = error;
            return d;
        }
        if (!summaries)
            d.warning = QStringLiteral("%1 (docs/SEMANTICS.md §9): loading every trial").arg(why);
    }
    if (summaries) {
        for (const HistoryRunSummary& s : *summaries)
            if (s.run.order.isEmpty()) {
                d.result.error = QStringLiteral("%1 has no metadata '%2' to order it by").arg(s.run.label, key);
                return d;
            }
        d.result = historyOfSummaries(std::move(*summaries), options);
        return d;
    }
    std::vector<HistoryInput> runs;
    for (const perfdb::TrialInfo& info : trials) {
        if (cancel && cancel->load()) {
            d.result.error = QStringLiteral("cancelled");
            return d;
        }
        Progress progress;
        auto loaded = db.loadTrial(info.id, progress);
        if (!loaded) {
            d.result.error = QStringLiteral("db:%1: %2").arg(info.id).arg(loaded.error().toString());
            return d;
        }
        HistoryInput in;
        in.trial = loaded.value();
        in.label = QStringLiteral("db:%1 %2").arg(info.id).arg(info.name);
        in.order = key == QLatin1String("upload") ? info.uploaded
            : key == QLatin1String("id")          ? QString::number(info.id)
                                                  : in.trial->metadataValue(key);
        if (in.order.isEmpty()) {
            d.result.error = QStringLiteral("%1 has no metadata '%2' to order it by").arg(in.label, key);
            return d;
        }
        runs.push_back(std::move(in));
    }
    d.result = historyOf(std::move(runs), options);
    return d;
}

} // namespace parallax
