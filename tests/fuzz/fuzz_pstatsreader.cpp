// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the Python pstats reader (marshal decoder and stats mapping): any bytes,
// written as a .pstats file, must give a trial or a ReadError that names the file and a byte offset,
// never a crash. Seeds: ../shared/data/hatchet/cprofile-hatchet-pstats/*.pstats.
#include "tests/fuzz/fuzzharness.h"

using namespace parallax;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    fuzz::Read how { ReadOptions {}, fuzz::Names::Input };
    // An error gives the byte offset (unless the input is empty or memory ran out).
    how.errorCheck = [size](const ReadError& e) {
        return size == 0 || e.byteOffset >= 0 || e.message.contains(QLatin1String("memory"));
    };
    const auto t = fuzz::fuzzReader("pstats", data, size, QStringLiteral("input.pstats"), how);
    if (!t)
        return 0;
    if (t->metricCount() != 1 || t->threadCount() != 1)
        std::abort();
    fuzz::checkRows(*t);
    for (const auto& e : t->events())
        if (e.depth > 2)
            std::abort(); // "caller => callee" only: names never add components
    return 0;
}
