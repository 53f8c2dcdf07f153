// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the Caliper json-split reader: any bytes must give a trial or a ReadError that
// names the file, never a crash. Seeds: the json-split samples under ../shared/data (hatchet
// caliper-*-json); tests/fuzz/calijsonreader.dict holds the JSON tokens.
#include "tests/fuzz/fuzzharness.h"

using namespace parallax;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (const auto t = fuzz::fuzzReader("caliper-json", data, size, QStringLiteral("input.json")))
        fuzz::checkTrial(*t);
    return 0;
}
