// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// A minimal ustar writer and a lenient reader, for building .cubex fixtures in tests and fuzz
// targets (the product reads tars with libarchive only).

#include <QByteArray>
#include <QList>
#include <QString>
#include <algorithm>
#include <cstring>

namespace parallax::test {

struct TarMember {
    QString name;
    QByteArray data;
};

/// A ustar archive (512-byte headers with valid checksums, two zero blocks at the end).
/// Names must be shorter than 100 bytes.
inline QByteArray makeTar(const QList<TarMember>& members)
{
    QByteArray out;
    for (const TarMember& m : members) {
        char header[512];
        std::memset(header, 0, sizeof header);
        const QByteArray name = m.name.toUtf8().left(99);
        std::memcpy(header, name.constData(), static_cast<std::size_t>(name.size()));
        std::memcpy(header + 100, "0000644", 7);
        std::memcpy(header + 108, "0000000", 7);
        std::memcpy(header + 116, "0000000", 7);
        const QByteArray size = QByteArray::number(m.data.size(), 8).rightJustified(11, '0');
        std::memcpy(header + 124, size.constData(), 11);
        std::memcpy(header + 136, "00000000000", 11);
        header[156] = '0';
        std::memcpy(header + 257, "ustar", 6); // "ustar\0"
        std::memcpy(header + 263, "00", 2);
        std::memset(header + 148, ' ', 8);
        unsigned sum = 0;
        for (unsigned char c : header)
            sum += c;
        const QByteArray checksum = QByteArray::number(sum, 8).rightJustified(6, '0');
        std::memcpy(header + 148, checksum.constData(), 6);
        header[154] = '\0';
        header[155] = ' ';
        out.append(header, 512);
        out.append(m.data);
        const qsizetype pad = (512 - m.data.size() % 512) % 512;
        out.append(QByteArray(pad, '\0'));
    }
    out.append(QByteArray(1024, '\0'));
    return out;
}

/// The members of a tar, ignoring checksums; sizes that run past the end are cut to what is there.
inline QList<TarMember> readTar(const QByteArray& tar)
{
    QList<TarMember> members;
    qsizetype at = 0;
    while (at + 512 <= tar.size()) {
        const char* h = tar.constData() + at;
        if (h[0] == '\0')
            break;
        TarMember m;
        m.name = QString::fromUtf8(h, static_cast<qsizetype>(strnlen(h, 100)));
        qint64 size = 0;
        for (int i = 124; i < 136 && h[i] >= '0' && h[i] <= '7'; ++i)
            size = size * 8 + (h[i] - '0');
        at += 512;
        size = std::min<qint64>(size, tar.size() - at);
        m.data = tar.mid(at, static_cast<qsizetype>(size));
        at += (size + 511) / 512 * 512;
        members.append(m);
    }
    return members;
}

} // namespace parallax::test
