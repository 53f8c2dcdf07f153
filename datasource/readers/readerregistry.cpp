// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/readerregistry.h"

#include "datasource/cache/trialcache.h"
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
#include "datasource/readers/otf2reader.h"
#include "datasource/readers/ppkreader.h"
#include "datasource/readers/pstatsreader.h"
#include "datasource/readers/pyinstrumentreader.h"
#include "datasource/readers/snapshotreader.h"
#include "datasource/readers/taureader.h"
#include "datasource/readers/timemoryreader.h"

#include <QFileInfo>

namespace parallax {

ReaderRegistry::ReaderRegistry()
{
    // One line per format: the reader and, for formats TAUdb knows, its data_source table id
    // (docs/FORMATS.md §7.1).
    add(std::make_unique<TauReader>(), 1);
    add(std::make_unique<PpkReader>(), 0);
    add(std::make_unique<SnapshotReader>(), 10);
    add(std::make_unique<CubeReader>(), 8);
    add(std::make_unique<HpcToolkitReader>(), 9);
    add(std::make_unique<TimemoryReader>());
    add(std::make_unique<HatchetJsonReader>());
    add(std::make_unique<PyinstrumentReader>());
    add(std::make_unique<GprofReader>(), 5);
    add(std::make_unique<DotReader>());
    add(std::make_unique<MpipReader>(), 3);
    add(std::make_unique<PstatsReader>());
    add(std::make_unique<CsvReader>());
    add(std::make_unique<JsonReader>());
    add(std::make_unique<CaliReader>());
    add(std::make_unique<CaliJsonReader>());
    add(std::make_unique<Otf2Reader>());
}

void ReaderRegistry::add(std::unique_ptr<Reader> reader, int taudbDataSource)
{
    m_entries.push_back({ std::move(reader), taudbDataSource });
}

const ReaderRegistry& ReaderRegistry::instance()
{
    static const ReaderRegistry registry;
    return registry;
}

const Reader* ReaderRegistry::find(const QString& name) const
{
    for (const auto& [reader, taudb] : m_entries)
        if (reader->name() == name)
            return reader.get();
    return nullptr;
}

const Reader* ReaderRegistry::detect(const QString& path) const
{
    const Reader* best = nullptr;
    int bestScore = 0;
    for (const auto& [reader, taudb] : m_entries) {
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
    for (const auto& [reader, taudb] : m_entries)
        out.push_back(reader.get());
    return out;
}

int ReaderRegistry::taudbDataSource(const QString& readerName) const
{
    QString name = readerName.toLower();
    if (name == QLatin1String("cubex"))
        name = QStringLiteral("cube");
    for (const auto& entry : m_entries)
        if (entry.reader->name() == name)
            return entry.taudbDataSource;
    return NoTaudbDataSource;
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
            for (const auto& [r, taudb] : m_entries)
                known << r->name();
            return ReadError { path, 0, -1,
                QStringLiteral("unknown format '%1' (known: %2)").arg(format, known.join(QStringLiteral(", "))) };
        }
    } else {
        reader = detect(path);
        if (!reader) {
            QStringList supported;
            for (const auto& [r, taudb] : m_entries)
                supported.append(QStringLiteral("%1 (%2: %3)")
                                     .arg(r->description(), r->name(), r->filePatterns().join(QStringLiteral(" "))));
            return ReadError { path, 0, -1,
                QStringLiteral("no reader recognises this path; Parallax reads %1")
                    .arg(supported.join(QStringLiteral("; "))),
                true };
        }
    }
    if (!options.useCache || !TrialCache::enabledByEnvironment())
        return reader->read(path, options, progress);
    qint64 sourceBytes = 0;
    const QString optionText
        = QStringLiteral("strict=%1;%2").arg(options.strict ? 1 : 0).arg(options.formatOptions.join(QLatin1Char(',')));
    const QByteArray key = TrialCache::sourceKey(path, reader->name(), optionText, &sourceBytes);
    if (sourceBytes < TrialCache::minimumSourceBytes())
        return reader->read(path, options, progress);
    QString discarded;
    if (auto cached = TrialCache::load(key, &discarded))
        return cached;
    TrialResult result = reader->read(path, options, progress);
    if (result && options.storeInBackground && discarded.isEmpty()) {
        TrialCache::storeInBackground(result.value(), key);
    } else if (result) {
        TrialCache::store(*result.value(), key);
        if (!discarded.isEmpty()) // after store: the warning is about this open, not the trial
            TrialCache::addWarning(*result.value(), discarded);
    }
    return result;
}

} // namespace parallax
