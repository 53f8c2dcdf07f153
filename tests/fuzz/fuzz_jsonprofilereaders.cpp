// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the JSON profile readers (timemory, Hatchet JSON, pyinstrument): any
// bytes must give a trial or a ReadError that names the file, never a crash. The first byte
// chooses the reader: 0x00 timemory, 0x01 Hatchet, 0x02 pyinstrument (the rest is the file);
// any other first byte leaves the whole input as the file, read by the reader whose sniff() claims
// it, else by the one chosen by size % 3, so the raw samples work as seeds.
// Seeds: hatchet/timemory/wall.tree.json, hatchet/json/*.json, hatchet/pyinstrument-hatchet-json/*.json.
#include "tests/fuzz/fuzzharness.h"

using namespace parallax;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const Reader* readers[]
        = { &fuzz::reader("timemory"), &fuzz::reader("hatchet-json"), &fuzz::reader("pyinstrument") };
    const bool explicitChoice = size > 0 && data[0] < 3;
    const QString input = fuzz::scratchDir("jsonprofiles").filePath(QStringLiteral("profile.json"));
    fuzz::writeFile(input, explicitChoice ? fuzz::bytesOf(data + 1, size - 1) : fuzz::bytesOf(data, size));
    const Reader* reader = explicitChoice ? readers[data[0]] : nullptr;
    if (!reader) {
        int best = 0;
        for (const Reader* r : readers) {
            const int score = r->sniff(input);
            if (score > best) {
                best = score;
                reader = r;
            }
        }
    } else {
        reader->sniff(input);
    }
    if (!reader)
        reader = readers[size % 3];
    if (const auto t = fuzz::readChecked(*reader, input, { fuzz::oneThread(), fuzz::Names::Input, false })) {
        fuzz::checkRows(*t);
        fuzz::checkAtomicIds(*t);
        fuzz::checkCallPathEnds(*t);
    }
    return 0;
}
