#pragma once

#include "datasource/readers/readerregistry.h"

#include <QDir>
#include <QFile>
#include <QString>
#include <QTest>

namespace parallax::test {

inline QString dataPath(const QString& relative)
{
    return QStringLiteral(PARALLAX_DATA_DIR "/") + relative;
}

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

inline double exclOf(const Trial& trial, int node, const QString& event, std::size_t metric = 0)
{
    const ThreadIndex t = trial.findThread({ node, 0, 0 });
    const EventId e = trial.findEvent(event);
    if (!t.isValid() || !e.isValid())
        return -1e300;
    const auto i = trial.row(t).find(e);
    return i < 0 ? -1e300 : trial.row(t).exclusive(metric, static_cast<std::size_t>(i));
}

inline double inclOf(const Trial& trial, int node, const QString& event, std::size_t metric = 0)
{
    const ThreadIndex t = trial.findThread({ node, 0, 0 });
    const EventId e = trial.findEvent(event);
    if (!t.isValid() || !e.isValid())
        return -1e300;
    const auto i = trial.row(t).find(e);
    return i < 0 ? -1e300 : trial.row(t).inclusive(metric, static_cast<std::size_t>(i));
}

} // namespace parallax::test
