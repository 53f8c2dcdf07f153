// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "perfdb/trialsearch.h"

#include <QObject>
#include <algorithm>
#include <set>

namespace parallax::perfdb {

namespace {

QString quoted(const QString& text)
{
    return text.contains(QLatin1Char(' ')) || text.isEmpty() ? QLatin1Char('"') + text + QLatin1Char('"') : text;
}

/// The trials matching the search in all of `views` (none: any trial).
DbResult<std::vector<TrialInfo>> matching(Database& db, const TrialSearch& search, const std::vector<qint64>& views)
{
    TrialFilter filter;
    filter.metadata = search.metadata;
    if (!search.nameWords.isEmpty())
        filter.nameContains = search.nameWords.first();
    filter.view = views.empty() ? 0 : views.front();
    auto listed = db.listTrials(filter);
    if (!listed)
        return listed.error();
    std::vector<TrialInfo> trials = std::move(listed.value());
    for (std::size_t i = 1; i < views.size(); ++i) {
        filter.view = views[i];
        auto more = db.listTrials(filter);
        if (!more)
            return more.error();
        std::set<qint64> ids;
        for (const auto& t : more.value())
            ids.insert(t.id);
        std::erase_if(trials, [&](const TrialInfo& t) { return !ids.contains(t.id); });
    }
    std::erase_if(trials, [&](const TrialInfo& t) {
        return std::any_of(search.nameWords.begin(), search.nameWords.end(),
            [&](const QString& word) { return !t.name.contains(word, Qt::CaseInsensitive); });
    });
    return trials;
}

} // namespace

TrialSearch TrialSearch::parse(const QString& text)
{
    TrialSearch search;
    QString term;
    qsizetype separator = -1; // of the first '=' outside quotes
    bool started = false;
    bool quotedStart = false;
    bool inQuotes = false;
    auto flush = [&] {
        if (!started)
            return;
        if (separator > 0) {
            const QString key = term.left(separator).trimmed();
            if (!key.isEmpty())
                search.metadata.emplace_back(key, term.mid(separator + 1));
            else
                search.nameWords.append(term);
        } else if (!quotedStart && term.startsWith(QLatin1String("view:"), Qt::CaseInsensitive) && separator < 0) {
            const QString view = term.mid(5).trimmed();
            if (!view.isEmpty())
                search.views.append(view);
        } else if (!term.isEmpty()) {
            search.nameWords.append(term);
        }
        term.clear();
        separator = -1;
        started = quotedStart = false;
    };
    for (const QChar c : text) {
        if (c == QLatin1Char('"')) {
            if (!started)
                quotedStart = true;
            started = true;
            inQuotes = !inQuotes;
            continue;
        }
        if (!inQuotes && c.isSpace()) {
            flush();
            continue;
        }
        if (!inQuotes && c == QLatin1Char('=') && separator < 0)
            separator = term.size();
        term += c;
        started = true;
    }
    flush();
    return search;
}

QString TrialSearch::describe() const
{
    QStringList parts;
    for (const auto& [key, value] : metadata)
        parts.append(QObject::tr("%1 = %2").arg(quoted(key), quoted(value)));
    for (const QString& word : nameWords)
        parts.append(QObject::tr("name contains %1").arg(quoted(word)));
    for (const QString& view : views)
        parts.append(QObject::tr("in view %1").arg(quoted(view)));
    return QObject::tr("Trials where %1").arg(parts.join(QObject::tr(" and ")));
}

DbResult<TrialListing> searchTrials(Database& db, const TrialSearch& search)
{
    TrialListing listing;
    listing.searching = !search.isEmpty();
    auto views = db.views();
    if (views)
        listing.views = std::move(views.value());
    std::vector<qint64> viewIds; // of the view: terms
    for (const QString& name : search.views) {
        const auto it = std::find_if(listing.views.begin(), listing.views.end(),
            [&](const View& v) { return v.name.compare(name, Qt::CaseInsensitive) == 0; });
        if (it == listing.views.end())
            listing.missingViews.append(name);
        else
            viewIds.push_back(it->id);
    }
    if (!listing.missingViews.isEmpty())
        return listing; // nothing in this database can match
    auto listed = matching(db, search, viewIds);
    if (!listed)
        return listed.error();
    listing.trials = std::move(listed.value());
    // Each TAUdb view with the trials it selects (through the search too).
    for (const View& v : listing.views) {
        std::vector<qint64> withView = viewIds;
        withView.push_back(v.id);
        auto selected = matching(db, search, withView);
        if (selected)
            listing.viewTrials[v.id] = std::move(selected.value());
        else
            listing.viewErrors[v.id] = selected.error().message;
    }
    return listing;
}

} // namespace parallax::perfdb
