// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point: any bytes as a .ppk (gzip or raw) must give a trial or a ReadError, never a
// crash. A trial that reads must also survive the writer and read back with the same shape.
#include "datasource/writers/ppkwriter.h"
#include "tests/fuzz/fuzzharness.h"

using namespace parallax;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    fuzz::Read how { ReadOptions {}, fuzz::Names::Nothing };
    how.options.threads = size % 2 ? 1 : 2; // odd sizes inflate inline, even ones on a second thread
    const auto t = fuzz::fuzzReader("ppk", data, size, QStringLiteral("input.ppk"), how);
    if (!t)
        return 0;
    fuzz::touchValues(*t);
    // Write it and read it back: same shape, or a writer error that says why.
    const QString output = fuzz::scratchDir("ppk").filePath(QStringLiteral("output.ppk"));
    const QString error = PpkWriter::write(*t, output);
    if (!error.isEmpty()) {
        if (!error.contains(output))
            std::abort();
        return 0;
    }
    Progress progress;
    const TrialResult again = fuzz::reader("ppk").read(output, how.options, progress);
    if (!again.ok())
        std::abort();
    const Trial& u = *again.value();
    std::size_t realThreads = 0; // the writer leaves out derived threads (negative keys)
    for (const ThreadKey& k : t->threads())
        realThreads += k.node >= 0 && k.context >= 0 && k.thread >= 0 ? 1 : 0;
    if (u.threadCount() != realThreads || u.eventCount() != t->eventCount()
        || u.atomicEventCount() != t->atomicEventCount() || u.metricCount() != t->metricCount()
        || u.groupCount() != t->groupCount())
        std::abort();
    return 0;
}
