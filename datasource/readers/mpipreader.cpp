// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// mpiP report reader (docs/FORMATS.md 6.2; mpiP 3.x text reports): detection and the guarded read. The
// report is parsed by mpipparser.cpp (its layout is described there) into an mpip::Report, which
// mpipassembler.cpp turns into the trial (the mapping is described there).
#include "datasource/readers/mpipreader.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/gzipinput.h"
#include "datasource/readers/mpipreport.h"

#include <QFileInfo>
#include <string_view>

namespace parallax {

MpipReader::MpipReader()
    : Reader({ QStringLiteral("mpip"), QStringLiteral("mpiP report"),
        { QStringLiteral("*.mpiP"), QStringLiteral("*.mpiP.gz") } })
{
}

int MpipReader::sniff(const QString& path) const
{
    const QFileInfo info(path);
    if (!info.isFile())
        return 0;
    const QString lower = info.fileName().toLower();
    const bool named = lower.endsWith(QLatin1String(".mpip")) || lower.endsWith(QLatin1String(".mpip.gz"));
    Progress progress;
    GzipInput input(progress, 4096);
    if (!input.open(path).isEmpty())
        return 0;
    char head[4096];
    const qint64 n = input.read(head, sizeof head);
    if (n > 0) {
        std::string_view text(head, static_cast<std::size_t>(n));
        std::size_t i = 0;
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
            ++i;
        if (text.substr(i, 6) == "@ mpiP")
            return 100;
    }
    return named ? 40 : 0; // so that read() explains what is wrong with it
}

TrialResult MpipReader::read(const QString& path, const ReadOptions& options, Progress& progress) const
{
    (void)options;
    const ReadJob job { path, {}, QStringLiteral("out of memory (the report is too large, or corrupt)") };
    const QString notAFile = QStringLiteral("not a file; an mpiP report is one text file");
    return guardedFileRead(
        *this, job, notAFile, [&](TrialBuilder& builder, QStringList& warnings) -> std::optional<ReadError> {
            progress.setStage(QStringLiteral("Reading mpiP report"), QFileInfo(path).size());
            GzipInput input(progress);
            input.openOrThrow(path);
            mpip::Report report;
            mpip::parseReport(input, progress, report, warnings);
            progress.setStage(QStringLiteral("Building the trial"), 0);
            mpip::assembleTrial(report, builder, warnings, progress);
            return std::nullopt;
        });
}

} // namespace parallax
