// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once
// The samples of ../shared/data (PARALLAX_DATA_DIR) a user would open, by the rules of
// tst_allsamples: a directory a reader is confident about is one sample, any other file is one unless
// it is no profile (notAProfile); `pending` lists the samples no reader takes yet. tst_allsamples and
// the Python tests (through tests/python/list_samples) read the same list.
#include "datasource/readers/readerregistry.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>
#include <algorithm>

namespace parallax::test {

// The issue numbers are those of the issue texts (issue 12 "0."); the tracker numbers them 4 higher.
const char* const ExtraP
    = "Extra-P input: the Extra-P readers of issue 13 (tracker #17, \"scaling and parameter models\")";
const char* const NoIssue = "no issue adds a reader for this format yet";

struct Pending {
    const char* path; // relative to the data folder; a directory stands for everything in it
    const char* why;
};

/// Samples no reader takes yet. Remove an entry when its reader lands (the test then says so).
const Pending pending[] = {
    { "extrap/text/one_parameter_1.txt", ExtraP },
    { "extrap/text/one_parameter_6.txt", ExtraP },
    { "extrap/text/one_parameter_7.txt", ExtraP },
    { "extrap/text/one_parameter_segmented_1.txt", ExtraP },
    { "extrap/text/two_parameter_1.txt", ExtraP },
    { "extrap/text/two_parameter_3.txt", ExtraP },
    { "extrap/text/two_parameter_4.txt", ExtraP },
    { "extrap/text/three_parameter_3.txt", ExtraP },
    { "extrap/input/input_data_1p.txt", ExtraP },
    { "extrap/input/input_data_2p.txt", ExtraP },
    { "extrap/json/input_1.JSON", ExtraP },
    { "extrap/jsonlines/test1.jsonl", ExtraP },
    { "extrap/talpas/talpas_1.txt", ExtraP },
    // HPCToolkit 2020+ sparse database (meta.db, profile.db, cct.db, trace.db; format 4.0): the
    // HPCToolkit reader reads the 2017 experiment.xml + metric-db layout only.
    { "otf2/pipit/ping-pong-hpctoolkit", NoIssue },
    // Charm++ Projections logs (.sts, .projrc, gzipped .log per PE).
    { "otf2/pipit/ping-pong-projections", NoIssue },
};

/// Whether the folder's MANIFEST.md (the nearest one above the file) describes the file as expected
/// values: a line that names the file and calls it ground truth, gold, expected values or a payload.
inline bool manifestCallsExpected(const QFileInfo& f, const QString& root)
{
    QDir dir = f.dir();
    while (true) {
        QFile manifest(dir.filePath(QStringLiteral("MANIFEST.md")));
        if (manifest.open(QIODevice::ReadOnly)) {
            const QStringList lines = QString::fromUtf8(manifest.readAll()).split(QLatin1Char('\n'));
            static const char* const words[] = { "ground truth", "gold", "expected", "payload" };
            for (const QString& line : lines) {
                if (!line.contains(f.fileName()))
                    continue;
                for (const char* w : words)
                    if (line.contains(QLatin1String(w), Qt::CaseInsensitive))
                        return true;
            }
            return false;
        }
        if (QDir::cleanPath(dir.absolutePath()) == QDir::cleanPath(root) || !dir.cdUp())
            return false;
    }
}

/// Why a file is not a profile, or empty when it may be one.
inline QString notAProfile(const QFileInfo& f, const QString& root)
{
    const QString name = f.fileName();
    const QString suffix = f.suffix().toLower();
    if (suffix == QLatin1String("md") || name.startsWith(QLatin1String("LICENSE"), Qt::CaseInsensitive)
        || name.startsWith(QLatin1String("COPYING"), Qt::CaseInsensitive)
        || name.startsWith(QLatin1String("README"), Qt::CaseInsensitive) || name == QLatin1String("COMMIT")
        || name == QLatin1String("PROVENANCE.tsv"))
        return QStringLiteral("documentation, licence or provenance");
    static const QSet<QString> config { QStringLiteral("cfg"), QStringLiteral("ini"), QStringLiteral("yaml"),
        QStringLiteral("yml"), QStringLiteral("projrc") };
    if (config.contains(suffix) || name.endsWith(QLatin1String(".yaml.ex")))
        return QStringLiteral("configuration (e.g. Score-P's scorep.cfg, a CubeGUI profile.ini)");
    static const QSet<QString> source { QStringLiteral("c"), QStringLiteral("cc"), QStringLiteral("cpp"),
        QStringLiteral("cxx"), QStringLiteral("h"), QStringLiteral("hh"), QStringLiteral("hpp"), QStringLiteral("f"),
        QStringLiteral("f77"), QStringLiteral("f90"), QStringLiteral("f95"), QStringLiteral("py") };
    if (source.contains(suffix))
        return QStringLiteral("source code");
    static const QSet<QString> dumps { QStringLiteral("csv"), QStringLiteral("out"), QStringLiteral("data") };
    if (dumps.contains(suffix) && manifestCallsExpected(f, root)) {
        // A dump a reader takes (Hatchet's dataframe CSV is one) is read as a profile too.
        if (!ReaderRegistry::instance().detect(f.filePath()))
            return QStringLiteral("expected values (MANIFEST.md)");
    }
    return {};
}

inline QString relative(const QString& root, const QString& path) { return path.mid(root.size() + 1); }

/// What listSampleUnits() found.
struct SampleUnits {
    QStringList units; ///< sorted paths: directories and files
    QHash<QString, const Pending*> pending; ///< by path, the pending entries
    QMap<QString, int> skipped; ///< files skipped by notAProfile(), per reason
    QStringList failures; ///< a pending entry that is missing or that the rules call no profile
};

/// The sample units below `root`.
inline SampleUnits listSampleUnits(const QString& root)
{
    SampleUnits found;
    QHash<QString, const Pending*>& pendingByPath = found.pending;
    QStringList& failures = found.failures;
    QStringList& units = found.units;
    QMap<QString, int>& skipped = found.skipped;
    const ReaderRegistry& registry = ReaderRegistry::instance();
    for (const Pending& p : pending) {
        const QString path = root + QLatin1Char('/') + QLatin1String(p.path);
        if (!QFileInfo::exists(path))
            failures << QStringLiteral("%1: listed as not yet readable, but it is not in the data folder")
                            .arg(QLatin1String(p.path));
        pendingByPath.insert(path, &p);
    }

    QSet<QString> covered;
    auto inside = [&](const QString& path) {
        return std::any_of(
            covered.cbegin(), covered.cend(), [&](const QString& c) { return path.startsWith(c + QLatin1Char('/')); });
    };
    QDirIterator dirs(root, QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    QStringList allDirs;
    while (dirs.hasNext())
        allDirs << dirs.next();
    allDirs.sort(); // parents before children
    for (const QString& dir : allDirs) {
        if (inside(dir))
            continue;
        // A directory is one sample when a reader is confident about it (a TAU profile directory,
        // an HPCToolkit database), or when it is a pending multi-file sample; a low
        // score is a reader's fallback guess for any directory.
        int best = 0;
        for (const Reader* r : registry.readers())
            best = std::max(best, r->sniff(dir));
        if (best >= 50 || pendingByPath.contains(dir)) {
            units << dir;
            covered.insert(dir);
        }
    }
    QDirIterator files(root, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QFileInfo f(files.next());
        if (inside(f.filePath()))
            continue;
        const QString why = notAProfile(f, root);
        if (!why.isEmpty()) {
            ++skipped[why];
            if (pendingByPath.contains(f.filePath()))
                failures << QStringLiteral("%1: listed as not yet readable, but the rules say it is no profile (%2)")
                                .arg(relative(root, f.filePath()), why);
            continue;
        }
        units << f.filePath();
    }
    units.sort();
    return found;
}

} // namespace parallax::test
