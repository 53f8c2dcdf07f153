// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/gui/sourcesettings.h"

#include "datasource/model/trial.h"

#include <QCryptographicHash>
#include <QSettings>

namespace parallax {

namespace {

QStringList& sessionRoots()
{
    static QStringList roots;
    return roots;
}

QString groupOf(const Trial& trial)
{
    const QString key = trial.provenance().source.isEmpty() ? trial.name() : trial.provenance().source;
    return QStringLiteral("sourceBrowser/")
        + QString::fromLatin1(QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha1).toHex());
}

} // namespace

SourceSearch loadSourceSearch(const Trial& trial)
{
    SourceSearch search;
    search.roots = sessionRoots();
    QSettings settings;
    settings.beginGroup(groupOf(trial));
    search.roots << settings.value(QStringLiteral("roots")).toStringList();
    for (const QString& rule : settings.value(QStringLiteral("remaps")).toStringList())
        if (const auto remap = parseRemap(rule))
            search.remaps.push_back(*remap);
    return search;
}

void saveSourceSearch(const Trial& trial, const SourceSearch& search)
{
    QStringList roots;
    for (const QString& root : search.roots)
        if (!sessionRoots().contains(root) && !roots.contains(root))
            roots << root;
    QStringList remaps;
    for (const auto& [from, to] : search.remaps)
        remaps << from + QLatin1Char('=') + to;
    QSettings settings;
    settings.beginGroup(groupOf(trial));
    settings.setValue(QStringLiteral("trial"), trial.provenance().source);
    settings.setValue(QStringLiteral("roots"), roots);
    settings.setValue(QStringLiteral("remaps"), remaps);
}

void addSessionSourceRoots(const QStringList& roots)
{
    for (const QString& root : roots)
        if (!sessionRoots().contains(root))
            sessionRoots() << root;
}

} // namespace parallax
