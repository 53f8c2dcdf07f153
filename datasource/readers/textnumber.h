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

#ifndef PARALLAX_TEXTNUMBER_FAST_PATH
#define PARALLAX_TEXTNUMBER_FAST_PATH 0
#endif

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

    /// A hand-written fast path (Clinger): up to 15 digits with an optional fraction and no
    /// exponent. The mantissa and 10^k are exact doubles, so one correctly rounded division gives
    /// exactly from_chars's result. std::nullopt for anything else (the caller then asks from_chars).
    /// Kept for the benchmark (tests/bench/bench_textnumber.cpp), which measured it against
    /// from_chars alone on the TAU reader's workload: see parseDouble.
    inline std::optional<double> shortDecimal(const char* first, const char* last)
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

/// from_chars alone (the library path), with parseDouble's rules.
inline std::optional<double> parseDoubleLibrary(std::string_view text, NumberRange* range = nullptr)
{
    if (range)
        *range = NumberRange::InRange;
    const char* first;
    const char* last;
    if (!detail::prepare(text, first, last))
        return std::nullopt;
    return detail::fromChars(first, last, range);
}

/// The hand-written fast path first, from_chars for the rest, with parseDouble's rules.
inline std::optional<double> parseDoubleFastPath(std::string_view text, NumberRange* range = nullptr)
{
    if (range)
        *range = NumberRange::InRange;
    const char* first;
    const char* last;
    if (!detail::prepare(text, first, last))
        return std::nullopt;
    if (const auto v = detail::shortDecimal(first, last))
        return v;
    return detail::fromChars(first, last, range);
}

/// The one number parser of every reader that reads numbers from file text: a double from the
/// whole of `text`, in decimal or exponent notation, or (any case) nan, inf, infinity, each
/// optionally signed ('+' or '-'); correctly rounded, whatever the process's locale. std::nullopt
/// when the text is anything else. Text beyond the range of a double reads as strtod reads it
/// (+-inf, or +-0 below the smallest subnormal) and sets `*range`, so the reader can warn.
///
/// It is std::from_chars: the hand-written fast path (parseDoubleFastPath) was measured against it
/// on the TAU reader's workload (tests/bench/bench_textnumber.cpp, docs/HACKING.md) and kept only if
/// it were at least 5 % faster there. PARALLAX_TEXTNUMBER_FAST_PATH is that decision.
inline std::optional<double> parseDouble(std::string_view text, NumberRange* range = nullptr)
{
#if PARALLAX_TEXTNUMBER_FAST_PATH
    return parseDoubleFastPath(text, range);
#else
    return parseDoubleLibrary(text, range);
#endif
}

/// A whole decimal integer (optionally signed) that fits `Int`.
template <typename Int> std::optional<Int> parseInt(std::string_view text)
{
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    if (text.empty() || text.front() == '+')
        return std::nullopt;
    Int v = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), v);
    if (result.ec != std::errc() || result.ptr != text.data() + text.size())
        return std::nullopt;
    return v;
}

} // namespace parallax::textnumber
