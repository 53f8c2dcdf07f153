// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/progress.h"
#include "datasource/readers/reader.h"

#include <QByteArray>
#include <QFile>
#include <QString>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace parallax {

/// The two bytes every gzip member starts with (RFC 1952): `p` must hold at least two bytes.
inline bool isGzipMagic(const char* p)
{
    return static_cast<unsigned char>(p[0]) == 0x1f && static_cast<unsigned char>(p[1]) == 0x8b;
}

/// The first `max` bytes of a regular file, as they are (not inflated), for sniff(); std::nullopt
/// when `path` is not a regular file or cannot be opened.
std::optional<QByteArray> fileHead(const QString& path, qint64 max);

/// The first `max` uncompressed bytes of gzip data that starts `compressed` (fewer when it holds fewer,
/// empty when it is not gzip): enough to sniff the format of a compressed file.
QByteArray gunzipPrefix(const QByteArray& compressed, qsizetype max);

/// A file read in chunks as its uncompressed bytes: inflated with zlib when it starts with the
/// gzip magic (concatenated members are one stream, as gunzip reads them), passed through
/// otherwise. The readers' one way to take compressed input (ppk, .cube.gz, the text formats). Progress advances by
/// the file bytes read, out of the file size.
class GzipInput {
public:
    explicit GzipInput(Progress& progress, std::size_t chunk = std::size_t { 256 } * 1024);
    ~GzipInput();
    GzipInput(const GzipInput&) = delete;
    GzipInput& operator=(const GzipInput&) = delete;

    /// Empty on success, else why the file cannot be read.
    QString open(const QString& path);
    /// open(), with an error thrown as a ParseError (for the path being read: no line or offset).
    void openOrThrow(const QString& path);
    bool isGzip() const { return m_gzip; }

    /// Up to `max` uncompressed bytes into `dst`; 0 at the end of the data, -1 on an error.
    qint64 read(char* dst, std::size_t max);
    /// read(), with an error thrown as a ParseError at the offset of the uncompressed stream.
    std::size_t readOrThrow(char* dst, std::size_t max);
    /// After read() returned -1: "read error: …" or "corrupt gzip data at compressed byte N (…)".
    const QString& error() const { return m_error; }
    /// After read() returned -1: the file offset of the error.
    qint64 errorOffset() const { return m_errorOffset; }

    /// Uncompressed bytes handed out so far.
    qint64 produced() const { return m_produced; }
    /// The gzip data ended inside a member (no end marker, so no CRC check): a truncated file.
    bool cutShort() const { return m_cutShort; }
    /// Bytes after the last gzip member that do not start another member.
    qint64 trailingGarbage() const { return m_trailingGarbage; }

private:
    bool fillInput();
    qint64 failed(const QString& message, qint64 offset);

    Progress& m_progress;
    QFile m_file;
    std::vector<char> m_in;
    struct Zlib;
    std::unique_ptr<Zlib> m_z;
    bool m_gzip = false;
    bool m_inputEof = false;
    bool m_memberEnded = false;
    bool m_cutShort = false;
    qint64 m_produced = 0;
    qint64 m_compressedRead = 0;
    qint64 m_trailingGarbage = 0;
    QString m_error;
    qint64 m_errorOffset = -1;
};

/// Runs a GzipInput on its own thread, a few chunks ahead of the consumer, so inflating and decoding
/// overlap (the ppk reader, for large files). An error (a ParseError from readOrThrow(), or running
/// out of memory) is handed over in stream order, after the chunks produced before it.
class GzipPipe {
public:
    GzipPipe(GzipInput& input, std::size_t chunk, int chunks = 4);
    ~GzipPipe();
    GzipPipe(const GzipPipe&) = delete;
    GzipPipe& operator=(const GzipPipe&) = delete;

    /// Up to `max` uncompressed bytes into `dst`; 0 at the end of the data; throws the input's error.
    std::size_t read(char* dst, std::size_t max);

private:
    void produce();

    GzipInput& m_input;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::vector<std::vector<char>> m_free;
    std::deque<std::pair<std::vector<char>, std::size_t>> m_full;
    std::optional<ParseError> m_error;
    bool m_finished = false;
    bool m_stop = false;
    std::vector<char> m_current;
    std::size_t m_currentSize = 0;
    std::size_t m_currentPos = 0;
};

/// What forEachLine() leaves: the number of the last complete line, and the bytes after it (a last
/// line without a newline; empty when the data ends with one).
struct LineEnd {
    qint64 lines = 0;
    std::string tail;
};

/// Feeds the lines of an opened `input` to onLine(std::string_view line, qint64 number) (1-based,
/// without the '\n'), reading `chunk` bytes at a time: the text readers' one line loop. Throws
/// Cancelled when `progress` is cancelled, and ParseError at the line for a read error or corrupt
/// gzip data, and for a line longer than `maxLineBytes`.
template <typename OnLine>
LineEnd forEachLine(GzipInput& input, Progress& progress, std::size_t chunk, std::size_t maxLineBytes, OnLine&& onLine)
{
    std::vector<char> buffer(chunk);
    LineEnd end;
    std::string& pending = end.tail; // a line continued from the previous chunk
    qint64& lineNo = end.lines;
    const auto tooLong = [&](qint64 line) {
        return ParseError::atLine(line, QStringLiteral("a line longer than %1 bytes").arg(maxLineBytes));
    };
    for (;;) {
        throwIfCancelled(progress);
        const qint64 n = input.read(buffer.data(), buffer.size());
        if (n < 0)
            throw ParseError::atLine(lineNo + 1, input.error(), input.errorOffset());
        if (n == 0)
            break;
        std::string_view data(buffer.data(), static_cast<std::size_t>(n));
        while (!data.empty()) {
            const std::size_t nl = data.find('\n');
            if (nl == std::string_view::npos) {
                pending.append(data);
                if (pending.size() > maxLineBytes)
                    throw tooLong(lineNo + 1);
                break;
            }
            ++lineNo;
            if (pending.empty()) {
                onLine(data.substr(0, nl), lineNo);
            } else {
                pending.append(data.substr(0, nl));
                if (pending.size() > maxLineBytes)
                    throw tooLong(lineNo);
                onLine(std::string_view(pending), lineNo);
                pending.clear();
            }
            data.remove_prefix(nl + 1);
        }
    }
    return end;
}

} // namespace parallax
