// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the gprof2dot DOT reader: any bytes must give a trial or a ReadError that
// names the file, never a crash. Seeds: hatchet/gprof2dot-cpi/callgrind.dot.64042.0.1 (see
// tests/fuzz/dot.dict for the DOT tokens).
#include "tests/fuzz/fuzzharness.h"

#include <cmath>

using namespace parallax;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto t = fuzz::fuzzReader("gprof2dot", data, size, QStringLiteral("callgraph.dot"));
    if (!t)
        return 0;
    if (t->metricCount() != 1 || t->threadCount() != 1)
        std::abort();
    fuzz::checkRows(*t);
    const RowView row = t->row(ThreadIndex(0u));
    for (std::size_t k = 0; k < row.size(); ++k)
        if (!std::isfinite(row.excl[k]) || !std::isfinite(row.incl[k]) || !(row.calls[k] >= 0))
            std::abort();
    for (const auto& e : t->events())
        if (e.isCallPath() && (e.depth != 2 || !e.parent.isValid() || !e.leaf.isValid()))
            std::abort(); // edges are caller => callee, both events
    return 0;
}
