// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/readerregistry.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QTest>

namespace parallax::test {

inline QString dataPath(const QString& relative) { return QStringLiteral(PARALLAX_DATA_DIR "/") + relative; }

inline TrialResult load(const QString& path, bool strict = false)
{
    ReadOptions options;
    options.strict = strict;
    Progress progress;
    return ReaderRegistry::instance().read(path, options, progress);
}

/// Loads a path that must read; fails the calling test otherwise (use with QVERIFY(trial)).
inline std::shared_ptr<Trial> mustLoad(const QString& path)
{
    auto result = load(path);
    if (!result.ok()) {
        qWarning("%s", qPrintable(result.error().toString()));
        return nullptr;
    }
    return result.value();
}

inline void writeText(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

/// The exclusive or inclusive value of an event on thread (node, 0, 0); a huge negative
/// sentinel when the thread or the event is absent, so comparisons fail loudly.
inline double cellValue(const Trial& trial, int node, const QString& event, std::size_t metric, bool inclusive)
{
    const ThreadIndex t = trial.findThread({ node, 0, 0 });
    const EventId e = trial.findEvent(event);
    if (!t.isValid() || !e.isValid())
        return -1e300;
    const auto i = trial.row(t).find(e);
    if (i < 0)
        return -1e300;
    const auto k = static_cast<std::size_t>(i);
    return inclusive ? trial.row(t).inclusive(metric, k) : trial.row(t).exclusive(metric, k);
}

inline double exclOf(const Trial& trial, int node, const QString& event, std::size_t metric = 0)
{
    return cellValue(trial, node, event, metric, false);
}

inline double inclOf(const Trial& trial, int node, const QString& event, std::size_t metric = 0)
{
    return cellValue(trial, node, event, metric, true);
}

} // namespace parallax::test
