// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/readerregistry.h"

#include "datasource/readers/calijsonreader.h"
#include "datasource/readers/calireader.h"
#include "datasource/readers/csvreader.h"
#include "datasource/readers/cubereader.h"
#include "datasource/readers/dotreader.h"
#include "datasource/readers/gprofreader.h"
#include "datasource/readers/hatchetjsonreader.h"
#include "datasource/readers/hpctoolkitreader.h"
#include "datasource/readers/jsonreader.h"
#include "datasource/readers/mpipreader.h"
#include "datasource/readers/ppkreader.h"
#include "datasource/readers/pyinstrumentreader.h"
#include "datasource/readers/pstatsreader.h"
#include "datasource/readers/snapshotreader.h"
#include "datasource/readers/taureader.h"
#include "datasource/readers/timemoryreader.h"

#include <QFileInfo>

namespace parallax {

ReaderRegistry::ReaderRegistry()
{
    m_readers.push_back(std::make_unique<TauReader>());
    m_readers.push_back(std::make_unique<PpkReader>());
    m_readers.push_back(std::make_unique<SnapshotReader>());
    m_readers.push_back(std::make_unique<CubeReader>());
    m_readers.push_back(std::make_unique<HpcToolkitReader>());
    m_readers.push_back(std::make_unique<TimemoryReader>());
    m_readers.push_back(std::make_unique<HatchetJsonReader>());
    m_readers.push_back(std::make_unique<PyinstrumentReader>());
    m_readers.push_back(std::make_unique<GprofReader>());
    m_readers.push_back(std::make_unique<DotReader>());
    m_readers.push_back(std::make_unique<MpipReader>());
    m_readers.push_back(std::make_unique<PstatsReader>());
    m_readers.push_back(std::make_unique<CsvReader>());
    m_readers.push_back(std::make_unique<JsonReader>());
    m_readers.push_back(std::make_unique<CaliReader>());
    m_readers.push_back(std::make_unique<CaliJsonReader>());
}

const ReaderRegistry& ReaderRegistry::instance()
{
    static const ReaderRegistry registry;
    return registry;
}

const Reader* ReaderRegistry::find(const QString& name) const
{
    for (const auto& reader : m_readers)
        if (reader->name() == name)
            return reader.get();
    return nullptr;
}

const Reader* ReaderRegistry::detect(const QString& path) const
{
    const Reader* best = nullptr;
    int bestScore = 0;
    for (const auto& reader : m_readers) {
        const int score = reader->sniff(path);
        if (score > bestScore) {
            best = reader.get();
            bestScore = score;
        }
    }
    return best;
}

std::vector<const Reader*> ReaderRegistry::readers() const
{
    std::vector<const Reader*> out;
    for (const auto& reader : m_readers)
        out.push_back(reader.get());
    return out;
}

TrialResult ReaderRegistry::read(
    const QString& path, const ReadOptions& options, Progress& progress, const QString& format) const
{
    if (!QFileInfo::exists(path))
        return ReadError { path, 0, -1, QStringLiteral("no such file or directory") };
    const Reader* reader = nullptr;
    if (!format.isEmpty()) {
        reader = find(format);
        if (!reader) {
            QStringList known;
            for (const auto& r : m_readers)
                known << r->name();
            return ReadError { path, 0, -1,
                QStringLiteral("unknown format '%1' (known: %2)").arg(format, known.join(QStringLiteral(", "))) };
        }
    } else {
        reader = detect(path);
        if (!reader) {
            QStringList supported;
            for (const auto& r : m_readers)
                supported.append(QStringLiteral("%1 (%2: %3)")
                                     .arg(r->description(), r->name(), r->filePatterns().join(QStringLiteral(" "))));
            return ReadError { path, 0, -1,
                QStringLiteral("no reader recognises this path; Parallax reads %1")
                    .arg(supported.join(QStringLiteral("; "))) };
        }
    }
    return reader->read(path, options, progress);
}

} // namespace parallax
