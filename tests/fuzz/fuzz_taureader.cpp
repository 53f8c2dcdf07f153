// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point: any bytes as profile.0.0.0 must give a trial or a ReadError, never a crash.
#include "tests/fuzz/fuzzharness.h"

using namespace parallax;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // The bytes are the one profile of a TAU profile directory, which is what is read (no sniff).
    const QString dir = fuzz::scratchDir("tau").path();
    fuzz::writeFile(dir + QStringLiteral("/profile.0.0.0"), fuzz::bytesOf(data, size));
    if (const auto t = fuzz::readChecked(fuzz::reader("tau"), dir, { fuzz::oneThread(), fuzz::Names::Nothing, false }))
        fuzz::touchValues(*t);
    return 0;
}
