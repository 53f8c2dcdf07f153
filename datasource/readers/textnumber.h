// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <locale.h>
#include <optional>
#include <stdlib.h>
#include <string>
#include <string_view>

namespace parallax::textnumber {

/// Appends the shortest text that reads back to exactly `v` (std::to_chars), so doubles round-trip
/// bit for bit (NaN payloads and signs aside). Non-finite values are written as `nan`, `inf`,
/// `-inf` (CSV), or, with `json`, as the strings "NaN", "Infinity", "-Infinity".
inline void appendDouble(std::string& out, double v, bool json = false)
{
    if (std::isnan(v)) {
        out += json ? "\"NaN\"" : "nan";
        return;
    }
    if (std::isinf(v)) {
        if (json)
            out += v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
        else
            out += v > 0 ? "inf" : "-inf";
        return;
    }
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    out.append(buffer, result.ptr);
}

template <typename Int> void appendInt(std::string& out, Int v)
{
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    out.append(buffer, result.ptr);
}

/// Appends code point `cp` as UTF-8 (a JSON \u escape, an XML character reference); nothing for a
/// value beyond U+10FFFF.
inline void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x110000) {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

/// Why a number did not read as an ordinary finite double.
enum class NumberRange : std::uint8_t {
    InRange, ///< read exactly (correctly rounded)
    Overflow, ///< beyond the largest double: read as +-inf (as strtod does)
    Underflow, ///< nonzero but below the smallest subnormal: read as +-0 (as strtod does)
};

namespace detail {

/// The library path: libstdc++'s std::from_chars (correctly rounded, locale-independent, no
/// leading '+'); out-of-range text is given strtod's answer (+-inf, +-0) in the C locale.
inline std::optional<double> fromChars(const char* first, const char* last, NumberRange* range)
{
    double v = 0;
    const auto result = std::from_chars(first, last, v);
    if (result.ec == std::errc::result_out_of_range && result.ptr == last) {
        static const locale_t cLocale = newlocale(LC_ALL_MASK, "C", locale_t(0));
        const std::string copy(first, last);
        char* end = nullptr;
        v = strtod_l(copy.c_str(), &end, cLocale);
        if (end != copy.c_str() + copy.size())
            return std::nullopt;
        if (range)
            *range = std::isinf(v) ? NumberRange::Overflow : NumberRange::Underflow;
        return v;
    }
    if (result.ec != std::errc() || result.ptr != last)
        return std::nullopt;
    return v;
}

/// Strips one leading '+' (from_chars takes none; a hand-written file may have it).
inline bool prepare(std::string_view text, const char*& first, const char*& last)
{
    first = text.data();
    last = first + text.size();
    if (first != last && *first == '+')
        ++first;
    return first != last && *first != '+';
}

} // namespace detail

/// The one number parser of every reader that reads numbers from file text: a double from the
/// whole of `text`, in decimal or exponent notation, or (any case) nan, inf, infinity, each
/// optionally signed ('+' or '-'); correctly rounded, whatever the process's locale. std::nullopt
/// when the text is anything else. Text beyond the range of a double reads as strtod reads it
/// (+-inf, or +-0 below the smallest subnormal) and sets `*range`, so the reader can warn.
///
/// It is libstdc++'s std::from_chars alone. The TAU and snapshot readers had a hand-written fast
/// path (Clinger: <= 15 digits, no exponent, one exact division); measured against from_chars on
/// the TAU reader's workload (tests/bench/bench_textnumber.cpp: the 4.2 million number tokens of a
/// 4096-thread synthetic TAU directory, median of 7 or 9 runs, six runs of the benchmark on 2
/// cores at load 3.6-5) from_chars took 0.53-0.88 of the fast path's time, and libstdc++ 12's
/// from_chars gives the same bits: the fast path would have had to be 5 % faster on the reader to
/// stay, so it went.
inline std::optional<double> parseDouble(std::string_view text, NumberRange* range = nullptr)
{
    if (range)
        *range = NumberRange::InRange;
    const char* first;
    const char* last;
    if (!detail::prepare(text, first, last))
        return std::nullopt;
    return detail::fromChars(first, last, range);
}

/// A whole decimal integer exactly as std::from_chars reads it (a '-' for signed types only, no
/// '+', no blanks) that fits `Int`.
template <typename Int> std::optional<Int> parseIntStrict(std::string_view text)
{
    Int v = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size())
        return std::nullopt;
    return v;
}

/// A whole decimal integer (optionally signed, '+' or '-') that fits `Int`.
template <typename Int> std::optional<Int> parseInt(std::string_view text)
{
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    if (text.empty() || text.front() == '+')
        return std::nullopt;
    return parseIntStrict<Int>(text);
}

/// parseDouble(), refusing text beyond the range of a double (std::nullopt instead of +-inf or +-0).
inline std::optional<double> parseDoubleInRange(std::string_view text)
{
    NumberRange range;
    const std::optional<double> v = parseDouble(text, &range);
    if (!v || range != NumberRange::InRange)
        return std::nullopt;
    return v;
}

} // namespace parallax::textnumber
