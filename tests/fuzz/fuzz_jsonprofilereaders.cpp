// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the JSON profile readers (timemory, Hatchet JSON, pyinstrument): any
// bytes must give a trial or a ReadError that names the file, never a crash. The first byte
// chooses the reader: 0x00 timemory, 0x01 Hatchet, 0x02 pyinstrument (the rest is the file);
// any other first byte leaves the whole input as the file, read by the reader whose sniff() claims
// it, else by the one chosen by size % 3, so the raw samples work as seeds.
// Seeds: hatchet/timemory/wall.tree.json, hatchet/json/*.json, hatchet/pyinstrument-hatchet-json/*.json.
#include "datasource/readers/hatchetjsonreader.h"
#include "datasource/readers/pyinstrumentreader.h"
#include "datasource/readers/timemoryreader.h"
#include "tests/fuzz/fuzzscratch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdint>
#include <cstdlib>

using namespace parallax;
using parallax::fuzz::scratchBase;

namespace {

void check(const Trial& t)
{
    const std::size_t metrics = t.metricCount();
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        const IntervalRow& row = t.row(ThreadIndex(i));
        const std::size_t n = row.size();
        if (row.calls.size() != n || row.subrs.size() != n || row.excl.size() != n * metrics
            || row.incl.size() != n * metrics)
            std::abort();
        for (std::size_t k = 1; k < n; ++k)
            if (!(row.events[k - 1] < row.events[k]))
                std::abort();
        for (std::size_t k = 0; k < n; ++k)
            if (row.events[k].index() >= t.eventCount())
                std::abort();
        const AtomicRow& ar = t.atomicRow(ThreadIndex(i));
        for (std::size_t k = 0; k < ar.size(); ++k)
            if (ar.events[k].index() >= t.atomicEventCount())
                std::abort();
    }
    for (const auto& e : t.events())
        if (e.isCallPath() && (!e.parent.isValid() || !e.leaf.isValid()))
            std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static QTemporaryDir dir(scratchBase() + QStringLiteral("/parallax-fuzz-jsonprofiles-XXXXXX"));
    static const TimemoryReader timemory;
    static const HatchetJsonReader hatchet;
    static const PyinstrumentReader pyinstrument;
    const Reader* readers[] = { &timemory, &hatchet, &pyinstrument };
    const bool explicitChoice = size > 0 && data[0] < 3;
    const QByteArray bytes = explicitChoice
        ? QByteArray(reinterpret_cast<const char*>(data) + 1, static_cast<qsizetype>(size - 1))
        : QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QString input = dir.filePath(QStringLiteral("profile.json"));
    {
        QFile f(input);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        f.write(bytes);
    }
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
    ReadOptions options;
    options.threads = 1;
    Progress progress;
    const TrialResult result = reader->read(input, options, progress);
    if (!result.ok()) {
        if (result.error().message.isEmpty() || result.error().file != input)
            std::abort();
        return 0;
    }
    check(*result.value());
    return 0;
}
