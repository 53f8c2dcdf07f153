// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "perfdb/database.h"

#include <QString>
#include <QStringList>
#include <map>
#include <utility>
#include <vector>

namespace parallax::perfdb {

/// A search over a database's trials, parsed. Terms are separated by spaces and all must hold;
/// double quotes group text with spaces:
/// - `key=value`: the trial's metadata entry `key` is exactly `value` (Application=LULESH);
/// - `view:NAME`: the trial is among those the TAUdb view NAME selects;
/// - anything else: the trial's name contains it (case-insensitive).
struct TrialSearch {
    std::vector<std::pair<QString, QString>> metadata;
    QStringList nameWords;
    QStringList views;

    bool isEmpty() const { return metadata.empty() && nameWords.isEmpty() && views.isEmpty(); }
    static TrialSearch parse(const QString& text);
    /// What the search means, in words ("Trials where name contains "a b" and in view v").
    QString describe() const;
};

/// One database's trials under a search: those it matches, and for each TAUdb view the trials the
/// view selects among them.
struct TrialListing {
    std::vector<TrialInfo> trials;
    std::vector<View> views;
    std::map<qint64, std::vector<TrialInfo>> viewTrials;
    std::map<qint64, QString> viewErrors; ///< a view whose selection failed: the message
    QStringList missingViews; ///< view: terms that name no view of this database (then no trials)
    bool searching = false; ///< the search was not empty
};

/// Lists the trials of `db` the search matches. Its metadata terms and first name word go to
/// listTrials(); more words and views (several views intersect) are applied here. An error only
/// when the trials cannot be listed; a view that fails is kept in viewErrors.
DbResult<TrialListing> searchTrials(Database& db, const TrialSearch& search);

} // namespace parallax::perfdb
