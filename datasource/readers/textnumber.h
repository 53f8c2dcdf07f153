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

/// A double from the whole of `text`: decimal or exponent notation, or (any case) nan, inf,
/// infinity, each optionally signed. std::nullopt when the text is anything else.
inline std::optional<double> parseDouble(std::string_view text)
{
    if (text.empty())
        return std::nullopt;
    const char* first = text.data();
    const char* last = first + text.size();
    if (*first == '+')
        ++first; // from_chars takes no '+'; a hand-written file may
    if (first == last || *first == '+')
        return std::nullopt;
    double v = 0;
    const auto result = std::from_chars(first, last, v);
    if (result.ec == std::errc::result_out_of_range) {
        // Overflow to infinity or underflow to zero, as strtod would (in the C locale, whatever the
        // process's LC_NUMERIC); the text is a valid number.
        static const locale_t cLocale = newlocale(LC_ALL_MASK, "C", locale_t(0));
        const std::string copy(first, last);
        char* end = nullptr;
        v = strtod_l(copy.c_str(), &end, cLocale);
        return end == copy.c_str() + copy.size() ? std::optional<double>(v) : std::nullopt;
    }
    if (result.ec != std::errc() || result.ptr != last)
        return std::nullopt;
    return v;
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
