// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/reader.h"

#include "datasource/model/trialbuilder.h"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <charconv>
#include <dirent.h>
#include <sys/stat.h>

namespace parallax {

QString ReadError::toString() const
{
    QString where = file;
    if (line > 0)
        where += QLatin1Char(':') + QString::number(line);
    else if (byteOffset >= 0)
        where += QStringLiteral(" (byte %1)").arg(byteOffset);
    if (where.isEmpty())
        return message;
    return where + QStringLiteral(": ") + message;
}

bool parseThreadFileName(const QString& fileName, QLatin1StringView prefix, ThreadKey& key)
{
    const QByteArray utf8 = fileName.toUtf8();
    return parseThreadFileName(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())),
        std::string_view(prefix.data(), static_cast<std::size_t>(prefix.size())), key);
}

bool parseThreadFileName(std::string_view name, std::string_view prefix, ThreadKey& key)
{
    if (name.substr(0, prefix.size()) != prefix)
        return false;
    name.remove_prefix(prefix.size());
    int v[3];
    for (int i = 0; i < 3; ++i) {
        const auto dot = i < 2 ? name.find('.') : name.size();
        if (dot == std::string_view::npos || dot == 0)
            return false;
        const std::string_view part = name.substr(0, dot);
        if (!std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return false;
        const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v[i]);
        if (ec != std::errc() || ptr != part.data() + part.size())
            return false;
        name.remove_prefix(std::min(name.size(), dot + 1));
    }
    key = ThreadKey { v[0], v[1], v[2] };
    return true;
}

namespace {

/// Calls `visit` with the name of each regular file (or link to one) of the directory and the
/// directory's native path, until it returns false.
void forEachFile(const QString& dir, const std::function<bool(std::string_view, const QByteArray&)>& visit)
{
    const QByteArray native = QFile::encodeName(dir);
    DIR* d = ::opendir(native.constData());
    if (!d)
        return;
    while (const dirent* entry = ::readdir(d)) {
        if (entry->d_type != DT_REG && entry->d_type != DT_UNKNOWN && entry->d_type != DT_LNK)
            continue;
        const std::string_view name(entry->d_name);
        if (name == "." || name == "..")
            continue;
        if (entry->d_type != DT_REG) {
            struct stat st { };
            const QByteArray path = native + '/' + QByteArray(name.data(), static_cast<qsizetype>(name.size()));
            if (::stat(path.constData(), &st) != 0 || !S_ISREG(st.st_mode))
                continue;
        }
        if (!visit(name, native))
            break;
    }
    ::closedir(d);
}

} // namespace

bool directoryHasFile(const QString& dir, const std::function<bool(std::string_view name)>& match)
{
    bool found = false;
    forEachFile(dir, [&](std::string_view name, const QByteArray&) {
        found = match(name);
        return !found;
    });
    return found;
}

std::vector<QByteArray> directoryFiles(const QString& dir, const std::function<bool(std::string_view name)>& match)
{
    std::vector<QByteArray> files;
    forEachFile(dir, [&](std::string_view name, const QByteArray& native) {
        if (match(name)) {
            QByteArray path = native;
            path += '/';
            path.append(name.data(), static_cast<qsizetype>(name.size()));
            files.push_back(std::move(path));
        }
        return true;
    });
    return files;
}

TrialResult finishRead(const Reader& reader, const ReadJob& job, TrialBuilder& builder, const QStringList& warnings)
{
    for (const QString& w : warnings)
        builder.addWarning(w);
    Provenance provenance;
    provenance.operation = QStringLiteral("read");
    provenance.source = job.source.isEmpty() ? QFileInfo(job.path).absoluteFilePath() : job.source;
    provenance.reader = reader.name();
    provenance.options = job.options;
    builder.setProvenance(provenance);
    return builder.build();
}

} // namespace parallax
