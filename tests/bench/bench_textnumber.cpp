// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// bench_textnumber: the hand-written fast path the TAU and snapshot readers had (Clinger: <= 15
// digits, no exponent, one exact division; kept here, and only here, as the benchmark's contender)
// against textnumber::parseDouble, i.e. libstdc++'s std::from_chars alone, on the TAU reader's real
// workload. Prints JSON lines; no assertions on time (a benchmark, not a test).
//   bench_textnumber [--runs N] DIR     DIR: a TAU profile directory, e.g. one made by
//                                       parallax-cli synth --threads 4096 --events 101 --seed 1 DIR
// 1. The workload: every number token the TAU reader parses (the blank-separated fields after each
//    quoted event name, GROUP="..." excluded), taken from DIR's profile.* files.
// 2. Exactness: both paths give bit-identical doubles for every token, and for 2,000,000 random
//    doubles printed as TAU prints them (%.16G), shortest round trip (to_chars) and %.17g (which
//    must read back to the same double).
// 3. Time, median of N runs (interleaved): parsing every token with each path; reading DIR with the
//    TAU reader as built (textnumber::parseDouble). The fast path's gain on the reader is the parse
//    time it saves divided by the reader's time; the rule was to keep it only if that is >= 5 %.
// Machine load (/proc/loadavg) is printed before and after.
#include "datasource/readers/progress.h"
#include "datasource/readers/readerregistry.h"
#include "datasource/readers/textnumber.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QThread>
#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using namespace parallax;

namespace {

/// The former hand-written fast path: up to 15 digits with an optional fraction and no exponent.
/// The mantissa and 10^k are exact doubles, so one correctly rounded division is exact.
std::optional<double> shortDecimal(const char* first, const char* last)
{
    static constexpr double powers[]
        = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
    const bool negative = first != last && *first == '-';
    std::uint64_t mantissa = 0;
    int digits = 0;
    int fraction = -1;
    for (const char* p = first + (negative ? 1 : 0); p != last; ++p) {
        const char c = *p;
        if (c >= '0' && c <= '9') {
            mantissa = mantissa * 10 + static_cast<std::uint64_t>(c - '0');
            if (++digits > 15)
                return std::nullopt;
            if (fraction >= 0)
                ++fraction;
        } else if (c == '.' && fraction < 0) {
            fraction = 0;
        } else {
            return std::nullopt;
        }
    }
    if (digits == 0)
        return std::nullopt;
    double v = static_cast<double>(mantissa);
    if (fraction > 0)
        v /= powers[fraction];
    return negative ? -v : v;
}

/// The fast path first, textnumber::parseDouble (from_chars) for the rest: what the TAU reader did.
std::optional<double> parseFastPath(std::string_view text, textnumber::NumberRange* range)
{
    const char* first = text.data();
    const char* last = first + text.size();
    if (first != last && *first == '+')
        ++first;
    if (first != last && *first != '+')
        if (const auto v = shortDecimal(first, last)) {
            if (range)
                *range = textnumber::NumberRange::InRange;
            return v;
        }
    return textnumber::parseDouble(text, range);
}

std::optional<double> parseLibrary(std::string_view text, textnumber::NumberRange* range)
{
    return textnumber::parseDouble(text, range);
}

std::string loadavg()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly))
        return "unknown";
    return f.readAll().trimmed().toStdString();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// The number tokens of one TAU profile file, as the TAU reader splits its lines.
void collectTokens(const std::string& text, std::vector<std::string_view>& tokens)
{
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        std::string_view line(text.data() + pos, end - pos);
        pos = end + 1;
        if (line.empty() || line.front() != '"')
            continue;
        const std::size_t group = line.rfind("GROUP=\"");
        if (group != std::string_view::npos)
            line = line.substr(0, group);
        const std::size_t quote = line.rfind('"');
        if (quote == 0 || quote == std::string_view::npos)
            continue;
        std::string_view rest = line.substr(quote + 1);
        std::size_t i = 0;
        while (i < rest.size()) {
            while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t'))
                ++i;
            std::size_t j = i;
            while (j < rest.size() && rest[j] != ' ' && rest[j] != '\t')
                ++j;
            if (j > i)
                tokens.push_back(rest.substr(i, j - i));
            i = j;
        }
    }
}

template <typename Parse> double parseAll(const std::vector<std::string_view>& tokens, Parse parse, double& sink)
{
    QElapsedTimer t;
    t.start();
    double sum = 0;
    for (std::string_view token : tokens)
        if (const auto v = parse(token, nullptr))
            sum += *v;
    sink += sum;
    return static_cast<double>(t.nsecsElapsed()) / 1e9;
}

bool sameBits(std::optional<double> a, std::optional<double> b)
{
    return a.has_value() == b.has_value()
        && (!a || std::bit_cast<std::uint64_t>(*a) == std::bit_cast<std::uint64_t>(*b));
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int runs = 7;
    QString dir;
    const QStringList args = app.arguments().mid(1);
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--runs") && i + 1 < args.size())
            runs = std::max(1, args[++i].toInt());
        else
            dir = args[i];
    }
    if (dir.isEmpty()) {
        std::fprintf(stderr, "usage: bench_textnumber [--runs N] TAU_DIRECTORY\n");
        return 2;
    }
    std::printf("{\"load_before\":\"%s\",\"cores\":%d}\n", loadavg().c_str(), QThread::idealThreadCount());

    // 1. The workload.
    std::vector<std::string> files;
    std::vector<std::string_view> tokens;
    qint64 bytes = 0;
    for (const QString& name : QDir(dir).entryList({ QStringLiteral("profile.*") }, QDir::Files, QDir::Name)) {
        QFile f(QDir(dir).filePath(name));
        if (!f.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "cannot read %s\n", qPrintable(f.fileName()));
            return 1;
        }
        files.push_back(f.readAll().toStdString());
        bytes += static_cast<qint64>(files.back().size());
    }
    if (files.empty()) {
        std::fprintf(stderr, "%s has no profile.* files\n", qPrintable(dir));
        return 1;
    }
    for (const std::string& text : files)
        collectTokens(text, tokens);
    std::size_t shortTokens = 0;
    for (std::string_view token : tokens) {
        const char* first = token.data();
        const char* last = first + token.size();
        if (first != last && *first == '+')
            ++first;
        if (shortDecimal(first, last))
            ++shortTokens;
    }
    std::printf("{\"files\":%zu,\"bytes\":%lld,\"number_tokens\":%zu,\"fast_path_eligible\":%zu}\n", files.size(),
        static_cast<long long>(bytes), tokens.size(), shortTokens);

    // 2. Exactness.
    std::size_t mismatches = 0;
    for (std::string_view token : tokens)
        if (!sameBits(parseFastPath(token, nullptr), parseLibrary(token, nullptr)))
            ++mismatches;
    std::mt19937_64 rng(12345);
    std::size_t roundTripFailures = 0, checked = 0;
    char buffer[64];
    for (int i = 0; i < 2000000; ++i) {
        double v;
        switch (i % 4) {
        case 0: // any bit pattern
            v = std::bit_cast<double>(rng());
            break;
        case 1: // timer-like values: microseconds with a fraction
            v = static_cast<double>(rng() % 100000000000ull) / 1000.0;
            break;
        case 2: // integers (calls)
            v = static_cast<double>(rng() % 10000000ull);
            break;
        default: // short decimals in the fast path's reach
            v = static_cast<double>(rng() % 1000000000000000ull) / std::pow(10.0, static_cast<double>(rng() % 16));
        }
        if (!std::isfinite(v))
            continue;
        const auto shortest = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
        const std::string_view s(buffer, static_cast<std::size_t>(shortest - buffer));
        const auto a = parseFastPath(s, nullptr), b = parseLibrary(s, nullptr);
        if (!sameBits(a, b) || !a || std::bit_cast<std::uint64_t>(*a) != std::bit_cast<std::uint64_t>(v))
            ++roundTripFailures;
        for (const char* format : { "%.16G", "%.17g", "%.15g" }) {
            const int n = std::snprintf(buffer, sizeof buffer, format, v);
            const std::string_view t(buffer, static_cast<std::size_t>(n));
            const auto x = parseFastPath(t, nullptr), y = parseLibrary(t, nullptr);
            const double reference = std::strtod(buffer, nullptr);
            if (!sameBits(x, y) || !x || std::bit_cast<std::uint64_t>(*x) != std::bit_cast<std::uint64_t>(reference))
                ++roundTripFailures;
            if (format[2] == '1' && format[3] == '7' && (!x || *x != v))
                ++roundTripFailures; // %.17g reads back exactly
        }
        ++checked;
    }
    std::printf("{\"exactness\":{\"tokens_differing\":%zu,\"random_values\":%zu,\"failures\":%zu}}\n", mismatches,
        checked, roundTripFailures);

    // 3. Time.
    double sink = 0;
    std::vector<double> fast, library, reader;
    for (int r = 0; r < runs; ++r) {
        fast.push_back(parseAll(tokens, parseFastPath, sink));
        library.push_back(parseAll(tokens, parseLibrary, sink));
    }
    for (int r = 0; r < runs; ++r) {
        Progress progress;
        QElapsedTimer t;
        t.start();
        const auto result = ReaderRegistry::instance().read(dir, ReadOptions {}, progress);
        reader.push_back(static_cast<double>(t.nsecsElapsed()) / 1e9);
        if (!result) {
            std::fprintf(stderr, "the TAU reader failed on %s\n", qPrintable(dir));
            return 1;
        }
    }
    const double f = median(fast), l = median(library), rd = median(reader);
    const double gainOnReader = (l - f) / rd;
    std::printf("{\"runs\":%d,\"parse_fast_path_s\":%.4f,\"parse_from_chars_s\":%.4f,\"parse_speedup\":%.3f,"
                "\"ns_per_token_fast\":%.2f,\"ns_per_token_from_chars\":%.2f,\"tau_reader_s\":%.4f,"
                "\"fast_path_gain_on_reader\":%.4f,\"keep_fast_path\":%s,\"sink\":%g}\n",
        runs, f, l, l / f, f / static_cast<double>(tokens.size()) * 1e9, l / static_cast<double>(tokens.size()) * 1e9,
        rd, gainOnReader, gainOnReader >= 0.05 ? "true" : "false", sink);
    std::printf("{\"load_after\":\"%s\"}\n", loadavg().c_str());
    return mismatches == 0 && roundTripFailures == 0 ? 0 : 1;
}
