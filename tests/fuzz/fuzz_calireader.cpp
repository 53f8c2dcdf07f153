// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the Caliper .cali reader: any bytes must give a trial or a ReadError that
// names the file, never a crash. Seeds: the .cali samples under ../shared/data (hatchet caliper-*-cali,
// thicket); tests/fuzz/calireader.dict holds the record tokens.
#include "tests/fuzz/fuzzharness.h"

using namespace parallax;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (const auto t = fuzz::fuzzReader("caliper", data, size, QStringLiteral("input.cali")))
        fuzz::checkTrial(*t);
    return 0;
}
