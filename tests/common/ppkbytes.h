// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// Hand-made packed-profile streams for the ppk tests (docs/FORMATS.md 3).

#include <QByteArray>
#include <QtEndian>
#include <bit>
#include <cstdint>

namespace parallax::test {

/// A Java DataOutputStream image, as ParaProf writes a packed profile: big-endian i32 and f64, strings
/// as a u16 length and their (modified UTF-8) bytes.
class Bytes {
public:
    QByteArray data;
    Bytes& i32(std::int32_t v)
    {
        const auto be = qToBigEndian(static_cast<std::uint32_t>(v));
        data.append(reinterpret_cast<const char*>(&be), 4);
        return *this;
    }
    Bytes& f64(double v)
    {
        const auto be = qToBigEndian(std::bit_cast<std::uint64_t>(v));
        data.append(reinterpret_cast<const char*>(&be), 8);
        return *this;
    }
    /// A string given as its encoded bytes.
    Bytes& str(const QByteArray& encoded)
    {
        data.append(static_cast<char>(encoded.size() >> 8));
        data.append(static_cast<char>(encoded.size() & 0xFF));
        data.append(encoded);
        return *this;
    }
    /// The 'PPK' magic that opens every packed profile.
    Bytes& magic()
    {
        data.append("\0P\0P\0K", 6);
        return *this;
    }
};

} // namespace parallax::test
