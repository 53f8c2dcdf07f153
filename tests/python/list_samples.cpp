// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Prints the sample units of a data folder by tst_allsamples' rules (tests/common/samplelist.h), one a
// line: "sample\tPATH" or "pending\tPATH" (no reader takes it yet). The Python tests read every
// "sample" through `import parallax`.
//   list_samples DATA_DIR
#include "tests/common/samplelist.h"

#include <QCoreApplication>
#include <cstdio>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() != 2) {
        std::fprintf(stderr, "usage: list_samples DATA_DIR\n");
        return 2;
    }
    const QString root = QDir::cleanPath(args[1]);
    const parallax::test::SampleUnits found = parallax::test::listSampleUnits(root);
    for (const QString& failure : found.failures)
        std::fprintf(stderr, "list_samples: %s\n", qPrintable(failure));
    for (const QString& unit : found.units)
        std::printf("%s\t%s\n", found.pending.contains(unit) ? "pending" : "sample", unit.toUtf8().constData());
    return found.failures.isEmpty() && !found.units.isEmpty() ? 0 : 1;
}
