// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the HPCToolkit reader: any bytes must give a trial or a ReadError that
// names a file of the database, never a crash. The bytes become one file of a database whose other
// files are the real sample (PARALLAX_DATA_DIR/hatchet/hpctoolkit-cpi-database):
//   input starting with '<' or white space: experiment.xml (the four real metric-db files stay);
//   anything else: the rank-0 metric-db (the real experiment.xml and ranks 1-3 stay).
// Seeds: the sample's experiment.xml and metric-db files as they are.
#include "tests/fuzz/fuzzharness.h"

#include <QStringList>

using namespace parallax;

namespace {

const QString Sample = QStringLiteral(PARALLAX_DATA_DIR "/hatchet/hpctoolkit-cpi-database");
const QString Rank0 = QStringLiteral("1.cpi-000000-000-a8c00270-160443-0.metric-db");

QByteArray sampleFile(const QString& name) { return fuzz::sampleFile(Sample, name); }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QDir dir(fuzz::scratchDir("hpctk").path());
    static const QByteArray xml = sampleFile(QStringLiteral("experiment.xml"));
    static const bool prepared = [&] {
        for (const QString& name : QDir(Sample).entryList({ QStringLiteral("*.metric-db") }, QDir::Files))
            fuzz::writeFile(dir.filePath(name), sampleFile(name));
        return true;
    }();
    (void)prepared;
    const QByteArray bytes = fuzz::bytesOf(data, size);
    const bool xmlMode = size > 0 && (data[0] == '<' || data[0] == ' ' || data[0] == '\n' || data[0] == '\t');
    fuzz::writeFile(dir.filePath(QStringLiteral("experiment.xml")), xmlMode ? bytes : xml);
    fuzz::writeFile(dir.filePath(Rank0), xmlMode ? sampleFile(Rank0) : bytes);
    const auto t
        = fuzz::readChecked(fuzz::reader("hpctoolkit"), dir.path(), { fuzz::oneThread(), fuzz::Names::InputOrBelow });
    if (t) {
        fuzz::checkRows(*t);
        fuzz::checkCallPathEnds(*t);
    }
    return 0;
}
