// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/readers/extrapreader.h"

#include "datasource/readers/textnumber.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <cmath>
#include <map>
#include <string_view>

namespace parallax {

namespace {

constexpr int kMaxParameters = 4; // Extra-P's text format: "a maximum of 4 parameters"

std::vector<std::string_view> splitBlanks(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size()
            && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\f' || text[i] == '\v'))
            ++i;
        const std::size_t start = i;
        while (i < text.size()
            && !(text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\f' || text[i] == '\v'))
            ++i;
        if (i > start)
            out.push_back(text.substr(start, i - start));
    }
    return out;
}

QString quoted(std::string_view text)
{
    constexpr std::size_t kShown = 40;
    QString s = QString::fromUtf8(text.data(), static_cast<qsizetype>(std::min(text.size(), kShown)));
    if (text.size() > kShown)
        s += QStringLiteral("...");
    return QLatin1Char('\'') + s + QLatin1Char('\'');
}

/// The series of one (call path, metric) key, created in the order keys first appear.
struct SeriesIndex {
    std::map<std::pair<QString, QString>, std::size_t> index;
    ExtrapSeries& of(ExtrapExperiment& e, const QString& callpath, const QString& metric)
    {
        const auto [it, added] = index.try_emplace({ callpath, metric }, e.series.size());
        if (added)
            e.series.push_back(ExtrapSeries { callpath, metric, {} });
        return e.series[it->second];
    }
};

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

std::optional<ExtrapExperiment> parseExtrapText(const QByteArray& data, const QString& name, QString* error)
{
    ExtrapExperiment e;
    e.format = QStringLiteral("text");
    SeriesIndex series;
    QString callpath;
    QString metric;
    bool haveMetric = false;
    std::size_t coordinateId = 0;
    bool anyContent = false;
    const std::string_view text(data.constData(), static_cast<std::size_t>(data.size()));
    std::size_t pos = 0;
    int lineNumber = 0;
    auto at = [&](const QString& what) {
        fail(error, QStringLiteral("%1:%2: %3").arg(name).arg(lineNumber).arg(what));
        return std::nullopt;
    };
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNumber;
        const std::vector<std::string_view> words = splitBlanks(line);
        if (words.empty())
            continue;
        if (words.front().front() == '#')
            continue; // a comment
        anyContent = true;
        const std::string_view field = words.front();
        // The value: the rest of the line after the field name, blanks collapsed.
        std::vector<std::string_view> value(words.begin() + 1, words.end());
        auto valueText = [&] {
            QStringList parts;
            for (std::string_view w : value)
                parts << QString::fromUtf8(w.data(), static_cast<qsizetype>(w.size()));
            return parts.join(QLatin1Char(' '));
        };
        if (field == "PARAMETER") {
            if (value.empty())
                return at(QStringLiteral("PARAMETER needs a name"));
            for (std::string_view w : value)
                e.parameters << QString::fromUtf8(w.data(), static_cast<qsizetype>(w.size()));
            if (e.parameters.size() > kMaxParameters)
                return at(QStringLiteral("%1 parameters; the Extra-P text format has at most %2")
                              .arg(e.parameters.size())
                              .arg(kMaxParameters));
            if (!e.coordinates.empty())
                return at(QStringLiteral("PARAMETER after POINTS; the parameters come first"));
        } else if (field == "POINTS") {
            if (e.parameters.isEmpty())
                return at(QStringLiteral("POINTS before any PARAMETER line"));
            const std::size_t dims = static_cast<std::size_t>(e.parameters.size());
            // Either plain numbers (one parameter) or groups "( a b )( c d )".
            std::string joined;
            for (std::string_view w : value) {
                joined += w;
                joined += ' ';
            }
            std::vector<std::vector<std::string_view>> groups;
            std::vector<std::string> storage;
            if (joined.find('(') != std::string::npos) {
                std::size_t i = 0;
                while (i < joined.size()) {
                    while (i < joined.size() && joined[i] == ' ')
                        ++i;
                    if (i >= joined.size())
                        break;
                    if (joined[i] != '(')
                        return at(QStringLiteral("POINTS: expected '(' starting a point, found %1")
                                      .arg(quoted(std::string_view(joined).substr(i))));
                    const std::size_t close = joined.find(')', i);
                    if (close == std::string::npos)
                        return at(QStringLiteral("POINTS: a '(' without its ')'"));
                    storage.push_back(joined.substr(i + 1, close - i - 1));
                    i = close + 1;
                }
                for (const std::string& g : storage)
                    groups.push_back(splitBlanks(g));
            } else {
                if (dims != 1)
                    return at(
                        QStringLiteral("POINTS: with %1 parameters each point is written '( v1 v2 ... )'").arg(dims));
                for (std::string_view w : value)
                    groups.push_back({ w });
            }
            if (groups.empty())
                return at(QStringLiteral("POINTS needs at least one point"));
            for (const auto& g : groups) {
                if (g.size() != dims)
                    return at(QStringLiteral("POINTS: a point with %1 values, expected %2 (one per parameter)")
                                  .arg(g.size())
                                  .arg(dims));
                std::vector<double> c;
                for (std::string_view w : g) {
                    const auto v = textnumber::parseDoubleInRange(w);
                    if (!v || !std::isfinite(*v))
                        return at(QStringLiteral("POINTS: %1 is not a finite number").arg(quoted(w)));
                    c.push_back(*v);
                }
                e.coordinates.push_back(std::move(c));
            }
        } else if (field == "REGION") {
            if (value.empty())
                return at(QStringLiteral("REGION needs a name"));
            callpath = valueText();
            coordinateId = 0;
        } else if (field == "METRIC") {
            if (value.empty())
                return at(QStringLiteral("METRIC needs a name"));
            metric = valueText();
            haveMetric = true;
            coordinateId = 0;
        } else if (field == "DATA") {
            if (e.parameters.isEmpty())
                return at(QStringLiteral("DATA before any PARAMETER line"));
            if (coordinateId >= e.coordinates.size())
                return at(QStringLiteral("too many DATA lines (%1) for the %2 POINTS given")
                              .arg(coordinateId + 1)
                              .arg(e.coordinates.size()));
            if (value.empty())
                return at(QStringLiteral("DATA needs at least one value"));
            ExtrapSeries::Measurement m;
            m.coordinate = e.coordinates[coordinateId];
            for (std::string_view w : value) {
                const auto v = textnumber::parseDoubleInRange(w);
                if (!v || !std::isfinite(*v))
                    return at(QStringLiteral("DATA: %1 is not a finite number").arg(quoted(w)));
                m.values.push_back(*v);
            }
            series.of(e, callpath, haveMetric ? metric : QString()).measurements.push_back(std::move(m));
            ++coordinateId;
        } else {
            return at(QStringLiteral("unknown field %1; expected PARAMETER, POINTS, REGION, METRIC or DATA")
                          .arg(quoted(field)));
        }
    }
    if (!anyContent) {
        fail(
            error, QStringLiteral("%1: no data (an Extra-P text file has PARAMETER, POINTS and DATA lines)").arg(name));
        return std::nullopt;
    }
    if (e.parameters.isEmpty()) {
        fail(error, QStringLiteral("%1: no PARAMETER line").arg(name));
        return std::nullopt;
    }
    if (e.series.empty()) {
        fail(error, QStringLiteral("%1: no DATA lines").arg(name));
        return std::nullopt;
    }
    return e;
}

namespace {

/// The line and column of a byte offset, for JSON errors.
QString lineOf(const QByteArray& data, qsizetype offset)
{
    int line = 1;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < offset && i < data.size(); ++i)
        if (data[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    return QStringLiteral("%1:%2").arg(line).arg(offset - lineStart + 1);
}

bool numberArray(const QJsonValue& v, std::vector<double>& out)
{
    if (v.isDouble()) { // a single number stands for a one-element list
        out.push_back(v.toDouble());
        return true;
    }
    if (!v.isArray())
        return false;
    for (const auto& x : v.toArray()) {
        if (!x.isDouble())
            return false;
        out.push_back(x.toDouble());
    }
    return true;
}

} // namespace

std::optional<ExtrapExperiment> parseExtrapJson(const QByteArray& data, const QString& name, QString* error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        fail(error,
            QStringLiteral("%1:%2: not valid JSON: %3")
                .arg(name, lineOf(data, parseError.offset), parseError.errorString()));
        return std::nullopt;
    }
    if (!doc.isObject()) {
        fail(error, QStringLiteral("%1: expected a JSON object with \"parameters\" and \"measurements\"").arg(name));
        return std::nullopt;
    }
    const QJsonObject root = doc.object();
    ExtrapExperiment e;
    e.format = QStringLiteral("json");
    SeriesIndex series;
    auto bad = [&](const QString& what) {
        fail(error, QStringLiteral("%1: %2").arg(name, what));
        return std::nullopt;
    };
    if (!root.contains(QLatin1String("parameters")) || !root.value(QLatin1String("parameters")).isArray())
        return bad(QStringLiteral("expected a \"parameters\" array"));
    if (!root.contains(QLatin1String("measurements")))
        return bad(QStringLiteral("expected \"measurements\""));

    if (!root.contains(QLatin1String("callpaths"))) {
        // The current form.
        for (const auto& p : root.value(QLatin1String("parameters")).toArray()) {
            if (!p.isString())
                return bad(QStringLiteral("\"parameters\": expected parameter names (strings)"));
            e.parameters << p.toString();
        }
        if (e.parameters.isEmpty())
            return bad(QStringLiteral("\"parameters\" is empty"));
        const QJsonValue ms = root.value(QLatin1String("measurements"));
        if (!ms.isObject())
            return bad(QStringLiteral("\"measurements\": expected an object {callpath: {metric: [...]}}"));
        const QJsonObject byCallpath = ms.toObject();
        for (auto cp = byCallpath.begin(); cp != byCallpath.end(); ++cp) {
            if (!cp.value().isObject())
                return bad(QStringLiteral("measurements.%1: expected an object {metric: [...]}").arg(cp.key()));
            const QJsonObject byMetric = cp.value().toObject();
            for (auto mt = byMetric.begin(); mt != byMetric.end(); ++mt) {
                if (!mt.value().isArray())
                    return bad(QStringLiteral("measurements.%1.%2: expected a list of {\"point\", \"values\"}")
                                   .arg(cp.key(), mt.key()));
                ExtrapSeries& s = series.of(e, cp.key(), mt.key());
                int k = 0;
                for (const auto& item : mt.value().toArray()) {
                    const QString where = QStringLiteral("measurements.%1.%2[%3]").arg(cp.key(), mt.key()).arg(k++);
                    const QJsonObject o = item.toObject();
                    ExtrapSeries::Measurement m;
                    if (!numberArray(o.value(QLatin1String("point")), m.coordinate))
                        return bad(QStringLiteral("%1: expected \"point\": a list of numbers").arg(where));
                    if (m.coordinate.size() != static_cast<std::size_t>(e.parameters.size()))
                        return bad(QStringLiteral("%1: a point with %2 values, expected %3 (one per parameter)")
                                       .arg(where)
                                       .arg(m.coordinate.size())
                                       .arg(e.parameters.size()));
                    if (!numberArray(o.value(QLatin1String("values")), m.values) || m.values.empty())
                        return bad(QStringLiteral("%1: expected \"values\": a non-empty list of numbers").arg(where));
                    if (std::find(e.coordinates.begin(), e.coordinates.end(), m.coordinate) == e.coordinates.end())
                        e.coordinates.push_back(m.coordinate);
                    s.measurements.push_back(std::move(m));
                }
            }
        }
    } else {
        // The legacy form: objects with ids, measurements one value each, aggregated per key.
        auto byId = [&](const char* key, std::map<int, QJsonObject>& out) -> bool {
            const QJsonValue v = root.value(QLatin1String(key));
            if (!v.isArray())
                return false;
            for (const auto& x : v.toArray()) {
                const QJsonObject o = x.toObject();
                if (!o.value(QLatin1String("id")).isDouble())
                    return false;
                out[o.value(QLatin1String("id")).toInt()] = o;
            }
            return true;
        };
        std::map<int, QJsonObject> parameters, callpaths, metrics, coordinates;
        if (!byId("parameters", parameters))
            return bad(QStringLiteral("\"parameters\": expected a list of {\"id\", \"name\"}"));
        if (!byId("callpaths", callpaths))
            return bad(QStringLiteral("\"callpaths\": expected a list of {\"id\", \"name\"}"));
        if (!byId("metrics", metrics))
            return bad(QStringLiteral("\"metrics\": expected a list of {\"id\", \"name\"}"));
        if (!byId("coordinates", coordinates))
            return bad(QStringLiteral("\"coordinates\": expected a list of {\"id\", \"parameter_value_pairs\"}"));
        std::vector<QString> callpathNames, metricNames;
        std::vector<int> parameterIds;
        for (const auto& [id, o] : parameters) {
            e.parameters << o.value(QLatin1String("name")).toString();
            parameterIds.push_back(id);
        }
        if (e.parameters.isEmpty())
            return bad(QStringLiteral("\"parameters\" is empty"));
        for (const auto& [id, o] : callpaths)
            callpathNames.push_back(o.value(QLatin1String("name")).toString());
        for (const auto& [id, o] : metrics)
            metricNames.push_back(o.value(QLatin1String("name")).toString());
        for (const auto& [id, o] : coordinates) {
            std::map<int, double> pairs;
            for (const auto& pv : o.value(QLatin1String("parameter_value_pairs")).toArray()) {
                const QJsonObject p = pv.toObject();
                if (!p.value(QLatin1String("parameter_id")).isDouble()
                    || !p.value(QLatin1String("parameter_value")).isDouble())
                    return bad(QStringLiteral("coordinate %1: expected {\"parameter_id\", \"parameter_value\"} pairs")
                                   .arg(id));
                pairs[p.value(QLatin1String("parameter_id")).toInt()]
                    = p.value(QLatin1String("parameter_value")).toDouble();
            }
            if (pairs.size() != static_cast<std::size_t>(e.parameters.size()))
                return bad(QStringLiteral("coordinate %1: %2 parameter values, expected %3")
                               .arg(id)
                               .arg(pairs.size())
                               .arg(e.parameters.size()));
            std::vector<double> c;
            c.reserve(pairs.size());
            for (const auto& [pid, v] : pairs)
                c.push_back(v);
            e.coordinates.push_back(std::move(c));
        }
        const QJsonValue ms = root.value(QLatin1String("measurements"));
        if (!ms.isArray())
            return bad(QStringLiteral("\"measurements\": expected a list"));
        // (coordinate, callpath, metric) in the order first seen, as Extra-P's aggregate_data.
        std::vector<std::tuple<int, int, int>> order;
        std::map<std::tuple<int, int, int>, std::vector<double>> values;
        int k = 0;
        for (const auto& x : ms.toArray()) {
            const QJsonObject o = x.toObject();
            const QString where = QStringLiteral("measurements[%1]").arg(k++);
            for (const char* key : { "coordinate_id", "callpath_id", "metric_id", "value" })
                if (!o.value(QLatin1String(key)).isDouble())
                    return bad(QStringLiteral("%1: expected a number \"%2\"").arg(where, QLatin1String(key)));
            const int c = o.value(QLatin1String("coordinate_id")).toInt() - 1;
            const int cp = o.value(QLatin1String("callpath_id")).toInt() - 1;
            const int mt = o.value(QLatin1String("metric_id")).toInt() - 1;
            if (c < 0 || c >= static_cast<int>(e.coordinates.size()))
                return bad(QStringLiteral("%1: no coordinate %2").arg(where).arg(c + 1));
            if (cp < 0 || cp >= static_cast<int>(callpathNames.size()))
                return bad(QStringLiteral("%1: no callpath %2").arg(where).arg(cp + 1));
            if (mt < 0 || mt >= static_cast<int>(metricNames.size()))
                return bad(QStringLiteral("%1: no metric %2").arg(where).arg(mt + 1));
            const auto key = std::make_tuple(c, cp, mt);
            auto [it, added] = values.try_emplace(key);
            if (added)
                order.push_back(key);
            it->second.push_back(o.value(QLatin1String("value")).toDouble());
        }
        for (const auto& key : order) {
            const auto [c, cp, mt] = key;
            ExtrapSeries::Measurement m;
            m.coordinate = e.coordinates[static_cast<std::size_t>(c)];
            m.values = values[key];
            series.of(e, callpathNames[static_cast<std::size_t>(cp)], metricNames[static_cast<std::size_t>(mt)])
                .measurements.push_back(std::move(m));
        }
    }
    if (e.series.empty())
        return bad(QStringLiteral("no measurements"));
    return e;
}

std::optional<ExtrapExperiment> readExtrapFile(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        fail(error, QStringLiteral("%1: cannot open: %2").arg(path, file.errorString()));
        return std::nullopt;
    }
    const QByteArray data = file.readAll();
    for (char c : data) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        if (c == '{' || c == '[')
            return parseExtrapJson(data, path, error);
        break;
    }
    return parseExtrapText(data, path, error);
}

} // namespace parallax
