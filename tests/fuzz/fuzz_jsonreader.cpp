// libFuzzer entry point: any bytes as a .json file must give a trial or a ReadError, never a crash.
// A trial that reads must also survive the json writer, read back the same and write the same bytes.
#include "datasource/readers/jsonreader.h"
#include "datasource/writers/jsonwriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdint>
#include <cstdlib>

using namespace parallax;

namespace {

/// tmpfs when there is one: rewriting a file thousands of times a second on ext4 is slow.
QString scratchBase()
{
    return QFileInfo(QStringLiteral("/dev/shm")).isWritable() ? QStringLiteral("/dev/shm") : QDir::tempPath();
}

QByteArray bytesOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static QTemporaryDir dir(scratchBase() + QStringLiteral("/parallax-fuzz-json-XXXXXX"));
    static const JsonReader reader;
    const QString input = dir.filePath(QStringLiteral("input.json"));
    {
        QFile f(input);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        f.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    }
    Progress progress;
    reader.sniff(input);
    const TrialResult result = reader.read(input, ReadOptions {}, progress);
    if (!result.ok()) {
        if (result.error().message.isEmpty())
            std::abort(); // every error must say what was expected
        return 0;
    }
    const Trial& t = *result.value();
    double sum = 0;
    for (std::size_t i = 0; i < t.threadCount(); ++i) {
        for (double v : t.row(ThreadIndex(i)).incl)
            sum += v;
        for (double v : t.atomicRow(ThreadIndex(i)).sumSquares)
            sum += v;
    }
    (void)sum;
    // Written and read back: the same shape, and writing that gives the same bytes.
    const QString first = dir.filePath(QStringLiteral("first.json"));
    const QString second = dir.filePath(QStringLiteral("second.json"));
    if (!JsonWriter::write(t, first).isEmpty())
        std::abort();
    const TrialResult again = reader.read(first, ReadOptions {}, progress);
    if (!again.ok())
        std::abort();
    const Trial& u = *again.value();
    if (u.threadCount() != t.threadCount() || u.eventCount() != t.eventCount()
        || u.atomicEventCount() != t.atomicEventCount() || u.metricCount() != t.metricCount()
        || u.groupCount() != t.groupCount() || u.cellCount() != t.cellCount())
        std::abort();
    if (!JsonWriter::write(u, second).isEmpty() || bytesOf(first) != bytesOf(second))
        std::abort();
    return 0;
}
