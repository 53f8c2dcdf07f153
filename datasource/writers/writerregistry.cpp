// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/writers/writerregistry.h"

#include "datasource/writers/csvwriter.h"
#include "datasource/writers/cubewriter.h"
#include "datasource/writers/jsonwriter.h"
#include "datasource/writers/ppkwriter.h"
#include "datasource/writers/tausnapshotwriter.h"
#include "datasource/writers/tauwriter.h"

namespace parallax {

WriterRegistry::WriterRegistry()
{
    m_writers.push_back(
        { QStringLiteral("tau"), QStringLiteral("TAU profile directory (MULTI__ directories for several metrics)"), {},
            true, &TauWriter::write });
    m_writers.push_back({ QStringLiteral("ppk"), QStringLiteral("ParaProf packed profile"), { QStringLiteral(".ppk") },
        false, &PpkWriter::write });
    m_writers.push_back({ QStringLiteral("csv"), QStringLiteral("CSV table (one row per thread, event and metric)"),
        { QStringLiteral(".csv") }, false, &CsvWriter::write });
    m_writers.push_back({ QStringLiteral("json"), QStringLiteral("Parallax JSON trial"), { QStringLiteral(".json") },
        false, &JsonWriter::write });
    m_writers.push_back(
        { QStringLiteral("cube"), QStringLiteral("CUBE 4 archive (anchor.xml and per-metric .index/.data)"),
            { QStringLiteral(".cubex") }, false, &CubeWriter::write });
    m_writers.push_back({ QStringLiteral("snapshot"),
        QStringLiteral("TAU snapshot profile directory (snapshot.N.C.T, one fragment per snapshot)"), {}, true,
        &TauSnapshotWriter::write });
}

const WriterRegistry& WriterRegistry::instance()
{
    static const WriterRegistry registry;
    return registry;
}

const WriterInfo* WriterRegistry::find(const QString& name) const
{
    for (const WriterInfo& writer : m_writers)
        if (writer.name == name)
            return &writer;
    return nullptr;
}

const WriterInfo* WriterRegistry::forPath(const QString& path) const
{
    const QString lower = path.toLower();
    for (const WriterInfo& writer : m_writers)
        for (const QString& suffix : writer.suffixes)
            if (lower.endsWith(suffix))
                return &writer;
    for (const WriterInfo& writer : m_writers)
        if (writer.directory)
            return &writer;
    return nullptr;
}

std::vector<const WriterInfo*> WriterRegistry::writers() const
{
    std::vector<const WriterInfo*> out;
    for (const WriterInfo& writer : m_writers)
        out.push_back(&writer);
    return out;
}

QString WriterRegistry::write(const Trial& trial, const QString& path, const QString& format) const
{
    const WriterInfo* writer = format.isEmpty() ? forPath(path) : find(format);
    if (!writer) {
        QStringList known;
        for (const WriterInfo& w : m_writers)
            known.append(w.name);
        return QStringLiteral("unknown output format \"%1\"; Parallax writes %2")
            .arg(format, known.join(QStringLiteral(", ")));
    }
    return writer->write(trial, path);
}

} // namespace parallax
