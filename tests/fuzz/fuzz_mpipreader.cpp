// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the mpiP reader: any bytes must give a trial or a ReadError that names the
// file, never a crash. size % 4 == 3: the bytes are gzip-compressed into a .mpiP.gz; otherwise they
// are the report itself (.mpiP). Seeds: tests/data/mpip/*.mpiP (see tests/fuzz/mpipreader.dict).
#include "tests/fuzz/fuzzharness.h"

#include <cmath>

using namespace parallax;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes = fuzz::bytesOf(data, size);
    const bool compressed = size % 4 == 3;
    const auto t = fuzz::fuzzReader("mpip", compressed ? fuzz::gzip(bytes) : bytes,
        compressed ? QStringLiteral("input.mpiP.gz") : QStringLiteral("input.mpiP"));
    if (!t)
        return 0;
    if (t->metricCount() != 1 || t->threadCount() == 0)
        std::abort();
    fuzz::checkRows(*t);
    fuzz::checkAtomicIds(*t);
    for (std::size_t i = 0; i < t->threadCount(); ++i) {
        const RowView row = t->row(ThreadIndex(i));
        for (std::size_t k = 0; k < row.size(); ++k)
            if (!std::isfinite(row.incl[k]) || !std::isfinite(row.excl[k]))
                std::abort();
        const ThreadKey& key = t->threadKey(ThreadIndex(i));
        if (key.node < 0 || key.context != 0 || key.thread != 0)
            std::abort();
    }
    for (const auto& e : t->events())
        if (e.isCallPath() && !e.leaf.isValid())
            std::abort(); // every call site ends in its flat MPI event
    return 0;
}
