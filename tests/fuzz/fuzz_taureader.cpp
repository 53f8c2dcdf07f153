// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point: any bytes as profile.0.0.0 must give a trial or a ReadError, never a crash.
#include "datasource/readers/taureader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <cstdint>
#include <cstdlib>

using namespace parallax;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/parallax-fuzz-XXXXXX"));
    static const TauReader reader;
    {
        QFile f(dir.filePath(QStringLiteral("profile.0.0.0")));
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        f.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    }
    ReadOptions options;
    options.threads = 1;
    Progress progress;
    const TrialResult result = reader.read(dir.path(), options, progress);
    if (result.ok()) {
        // Touch everything a view would.
        const Trial& t = *result.value();
        double sum = 0;
        for (std::size_t i = 0; i < t.threadCount(); ++i)
            for (double v : t.row(ThreadIndex(i)).incl)
                sum += v;
        (void)sum;
    } else if (result.error().message.isEmpty()) {
        std::abort(); // every error must say what was expected
    }
    return 0;
}
