// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the OTF2 reader's definitions path: any bytes as the global definitions
// (traces.def) of a copy of the real trace PARALLAX_DATA_DIR/otf2/pipit/ping-pong-otf2 (its anchor
// file and per-location files stay as they are) must give a trial or a ReadError naming the anchor
// file or the definitions file and the byte, never a crash, and never an allocation of what a record
// claims (libFuzzer's malloc limit, -rss_limit_mb). Seeds: the sample's traces.def.
#include "tests/fuzz/fuzzharness.h"

using namespace parallax;

namespace {

const QString Sample = QStringLiteral(PARALLAX_DATA_DIR "/otf2/pipit/ping-pong-otf2");

QByteArray sampleFile(const QString& name) { return fuzz::sampleFile(Sample, name); }

} // namespace

// Debian's libotf2 3.0.2 leaks a few bytes inside OTF2_GlobalDefReader_ReadDefinitions when a
// definition record is malformed (valgrind: "definitely lost", allocated and dropped within the
// library, which the reader closes through OTF2_Reader_Close on every path). The library has no
// frame pointers, so LeakSanitizer sees only its module: leaks allocated inside it are not ours.
extern "C" const char*
__lsan_default_suppressions() // NOLINT(bugprone-reserved-identifier,readability-identifier-naming): LSan hook
{
    return "leak:libopen-trace-format2.so\n";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QDir dir(fuzz::scratchDir("otf2").path());
    static const bool prepared = [&] {
        dir.mkpath(QStringLiteral("traces"));
        fuzz::writeFile(dir.filePath(QStringLiteral("traces.otf2")), sampleFile(QStringLiteral("traces.otf2")));
        for (const char* name : { "traces/0.def", "traces/0.evt", "traces/1.def", "traces/1.evt" })
            fuzz::writeFile(dir.filePath(QLatin1String(name)), sampleFile(QLatin1String(name)));
        return true;
    }();
    (void)prepared;
    fuzz::writeFile(dir.filePath(QStringLiteral("traces.def")), fuzz::bytesOf(data, size));
    // The reader's own check of the definitions names the definitions file and the byte
    // (docs/FORMATS.md, OTF2); the library's errors name the anchor file.
    const QString anchor = dir.filePath(QStringLiteral("traces.otf2"));
    const QString definitions = dir.filePath(QStringLiteral("traces.def"));
    fuzz::Read how;
    how.names = fuzz::Names::AnyFile;
    how.errorCheck
        = [&](const ReadError& e) { return e.file == anchor || (e.file == definitions && e.byteOffset >= 0); };
    const auto t = fuzz::readChecked(fuzz::reader("otf2"), anchor, how);
    if (t) {
        fuzz::checkRows(*t);
        fuzz::checkCallPathEnds(*t);
    }
    return 0;
}
