// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the gprof text reader: any bytes must give a trial or a ReadError that
// names the file, never a crash. Odd sizes are read with the "fixnames" option; sizes divisible by 4
// are gzip-compressed first (the reader takes gzip input through GzipInput).
// Seeds: the gprof samples under ../shared/data (gprof2dot/prof/*.prof, tau2/gprof-wrf/gprof.out).
#include "tests/fuzz/fuzzharness.h"

#include <cmath>

using namespace parallax;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes = fuzz::bytesOf(data, size);
    fuzz::Read how;
    if (size % 2 == 1)
        how.options.formatOptions << QStringLiteral("fixnames");
    const auto t = fuzz::fuzzReader(
        "gprof", size % 4 == 0 && size > 0 ? fuzz::gzip(bytes) : bytes, QStringLiteral("gprof.out"), how);
    if (!t)
        return 0;
    if (t->metricCount() != 1)
        std::abort();
    fuzz::checkRows(*t);
    for (std::size_t i = 0; i < t->threadCount(); ++i) {
        const RowView row = t->row(ThreadIndex(i));
        for (std::size_t k = 0; k < row.size(); ++k) {
            // gprof has no negative or non-finite numbers.
            if (!(row.excl[k] >= 0) || !(row.incl[k] >= 0) || !(row.calls[k] >= 0) || !(row.subrs[k] >= 0)
                || !std::isfinite(row.incl[k]) || !std::isfinite(row.calls[k]))
                std::abort();
        }
        const ThreadKey& key = t->threadKey(ThreadIndex(i));
        if (key.node < 0 || key.context != 0 || key.thread != 0)
            std::abort();
    }
    for (const auto& e : t->events())
        if (e.isCallPath() && (e.depth != 2 || !e.parent.isValid() || !e.leaf.isValid()))
            std::abort(); // arcs are caller => callee, both events
    return 0;
}
