// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "perfdb/trialsearch.h"
#include "views/history/historyview.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <utility>
#include <vector>

namespace parallax {

/// What `parallax --history --order-by KEY PATHS...` or `parallax --history --order-by KEY --db LOC
/// (--app A [--exp E] | --where KEY=VALUE... | --search TEXT)` asked for.
struct HistoryLaunch {
    QString orderBy; ///< a metadata key, "upload" or "id" (database runs)
    QStringList paths; ///< runs read with the ReaderRegistry
    QString format; ///< a reader name for every path, empty for detection
    QString database; ///< the database location of --app/--exp/--where runs
    QString application;
    QString experiment;
    std::vector<std::pair<QString, QString>> where;
    QString search; ///< a search as the Databases dock's field takes it (perfdb/trialsearch.h)
    QString render; ///< headless rendering: a view of the History window; empty opens the window
    QString out;
    QString size; ///< "WIDTHxHEIGHT"; empty for 1400x900
};

/// The history of trials opened together, ordered by the metadata key `orderKey`; `labels` name
/// them (paths or trial names). Errors (a run without the key) come from computing.
HistorySource historyOfTrials(
    std::vector<std::shared_ptr<const Trial>> trials, QStringList labels, const QString& orderKey);

/// The history of the database trials a search selects (perfdb/trialsearch.h: metadata terms such as
/// Application=A, views, name words), ordered by a metadata key, "upload" or "id". The runs are read
/// when the history is computed (on a worker thread). `metrics`: those offered.
HistorySource historyOfDatabase(
    const QString& location, const perfdb::TrialSearch& search, const QString& orderKey, std::vector<Metric> metrics);

/// A search for the trials of an application and experiment (either may be empty) and metadata
/// conditions, added to `search`.
perfdb::TrialSearch withMetadata(perfdb::TrialSearch search, const QString& application, const QString& experiment,
    const std::vector<std::pair<QString, QString>>& where = {});

/// Opens a history window whose clicked runs open a ComparisonWindow (database runs are loaded
/// first, off the GUI thread).
HistoryView* openHistory(HistorySource source, QWidget* parent = nullptr);

/// Reads the runs (or lists the database's), then opens the history window (or renders it to
/// launch.out and quits) and runs the event loop. Exit code 0, 1 when a run cannot be read or the
/// history not computed, 2 for bad arguments; errors are printed as "parallax: …".
int runHistoryLaunch(const HistoryLaunch& launch);

} // namespace parallax
