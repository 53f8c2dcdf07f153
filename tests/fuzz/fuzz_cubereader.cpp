// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the CUBE reader: any bytes must give a trial or a ReadError that names the
// file, never a crash. The input size picks how the bytes are presented:
//   size % 4 == 0: as a .cubex (raw tar bytes, so mutated headers test libarchive's error paths);
//   size % 4 == 1: as a .cubex rebuilt from the members of a leniently read tar with valid headers, so
//                  mutations reach anchor.xml, the .index and the .data decoders;
//   size % 4 == 2: as a .cube (XML, or gzip when it starts with the gzip magic);
//   size % 4 == 3: gzip-compressed into a .cube.gz.
// Seeds: the CUBE samples under ../shared/data (see tests/fuzz/cubereader.dict for tokens).
#include "tests/common/minitar.h"
#include "tests/fuzz/fuzzharness.h"

using namespace parallax;
using parallax::fuzz::gzip;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QDir dir(fuzz::scratchDir("cube").path());
    const QByteArray bytes = fuzz::bytesOf(data, size);
    QString input;
    QByteArray content;
    switch (size % 4) {
    case 0:
        input = dir.filePath(QStringLiteral("input.cubex"));
        content = bytes;
        break;
    case 1:
        input = dir.filePath(QStringLiteral("rebuilt.cubex"));
        content = test::makeTar(test::readTar(bytes));
        break;
    case 2:
        input = dir.filePath(QStringLiteral("input.cube"));
        content = bytes;
        break;
    default:
        input = dir.filePath(QStringLiteral("input.cube.gz"));
        content = gzip(bytes);
        break;
    }
    fuzz::writeFile(input, content);
    fuzz::Read how;
    how.options.strict = (size / 4) % 2 == 1;
    // Every error names the file and says what was expected.
    if (const auto t = fuzz::readChecked(fuzz::reader("cube"), input, how)) {
        fuzz::checkRows(*t);
        fuzz::touchValues(*t);
        fuzz::checkThreadKeys(*t);
        fuzz::checkCallPathPrefixes(*t);
    }
    return 0;
}
