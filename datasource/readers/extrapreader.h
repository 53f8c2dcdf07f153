// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace parallax {

/// The measurements of one (call path, metric) of an Extra-P experiment: per point its coordinate
/// (one value per parameter) and the repetitions measured there.
struct ExtrapSeries {
    QString callpath;
    QString metric;
    struct Measurement {
        std::vector<double> coordinate;
        std::vector<double> values;
    };
    std::vector<Measurement> measurements;
};

/// An Extra-P input file (docs/FORMATS.md §10): the parameters, the points and the series in the order
/// the file gives them (Extra-P's order of (call path, metric) keys).
struct ExtrapExperiment {
    QString format; ///< "text" or "json"
    QStringList parameters;
    std::vector<std::vector<double>> coordinates;
    std::vector<ExtrapSeries> series;
};

/// Extra-P's text input (PARAMETER, POINTS, REGION, METRIC, DATA lines; '#' comments). `name` names the
/// input in errors ("NAME:LINE: what was expected"). Up to four parameters, as Extra-P.
std::optional<ExtrapExperiment> parseExtrapText(const QByteArray& data, const QString& name, QString* error);

/// Extra-P's JSON input: the current form {"parameters": [...], "measurements": {callpath: {metric:
/// [{"point": [...], "values": [...]}]}}} or the legacy form with "callpaths", "metrics",
/// "coordinates" and "measurements" by id.
std::optional<ExtrapExperiment> parseExtrapJson(const QByteArray& data, const QString& name, QString* error);

/// Reads a file: JSON when its first non-blank byte is '{', else the text format.
std::optional<ExtrapExperiment> readExtrapFile(const QString& path, QString* error);

} // namespace parallax
