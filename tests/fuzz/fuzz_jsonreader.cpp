// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point: any bytes as a .json file must give a trial or a ReadError, never a crash.
// A trial that reads must also survive the json writer, read back the same and write the same bytes.
#include "datasource/writers/jsonwriter.h"
#include "tests/fuzz/fuzzharness.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return parallax::fuzz::roundTrip<parallax::JsonWriter>("json", "json", data, size);
}
