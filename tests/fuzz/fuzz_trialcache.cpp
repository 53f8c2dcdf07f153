// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point: any bytes as a trial cache file (docs/FORMATS.md §13) must give a trial or
// an error, never a crash. So that mutations reach the decoder rather than stopping at the checksum,
// the harness repairs the header's payload size and checksum (unless the last byte is odd: then the
// header is checked as given) and expects the key the payload itself stores. A trial that decodes
// must keep the model's invariants and survive a serialize/deserialize round trip.
#include "datasource/cache/trialcache.h"
#include "tests/fuzz/fuzzharness.h"

#include <cstring>

using namespace parallax;

namespace {

constexpr int HeaderSize = 32;

// The key stored at the start of the payload (a u64 length, the bytes, zero padding to 8), or empty.
QByteArray storedKey(const QByteArray& file)
{
    if (file.size() < HeaderSize + 8)
        return {};
    quint64 n = 0;
    std::memcpy(&n, file.constData() + HeaderSize, 8);
    if (n > static_cast<quint64>(file.size() - HeaderSize - 8))
        return {};
    return file.mid(HeaderSize + 8, static_cast<qsizetype>(n));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    QByteArray file = fuzz::bytesOf(data, size);
    const bool repair = size == 0 || (data[size - 1] & 1) == 0;
    if (repair && file.size() >= HeaderSize) {
        const auto payload = static_cast<quint64>(file.size() - HeaderSize);
        std::memcpy(file.data() + 16, &payload, 8);
        const quint64 sum = TrialCache::checksum(file.constData() + HeaderSize, static_cast<qint64>(payload));
        std::memcpy(file.data() + 24, &sum, 8);
    }
    const QByteArray key = storedKey(file);
    QString error;
    const auto t = TrialCache::deserialize(file, key, &error);
    if (!t) {
        if (error.isEmpty())
            std::abort(); // a refusal says why
        return 0;
    }
    fuzz::checkRows(*t);
    fuzz::checkAtomicIds(*t);
    fuzz::touchValues(*t);
    // What decodes, encodes to a file that decodes to the same shape.
    const QByteArray again = TrialCache::serialize(*t, key);
    const auto u = TrialCache::deserialize(again, key, &error);
    if (!u || u->threadCount() != t->threadCount() || u->eventCount() != t->eventCount()
        || u->metricCount() != t->metricCount() || u->atomicEventCount() != t->atomicEventCount()
        || u->cellCount() != t->cellCount())
        std::abort();
    return 0;
}
