// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// libFuzzer entry point for the Extra-P input reader (text and JSON, docs/FORMATS.md §10) and the model
// fit behind it: any bytes must give an experiment or an error naming the input, never a crash, and
// every single-parameter series of an experiment must fit (algebra/perfmodel.h). Seeds: the Extra-P
// test inputs in PARALLAX_DATA_DIR/extrap (text/, input/, json/).
#include "algebra/perfmodel.h"
#include "datasource/readers/extrapreader.h"

#include <cstdint>
#include <cstdlib>

using namespace parallax;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QString name = QStringLiteral("input.txt");
    QString error;
    const bool json = !bytes.isEmpty() && bytes.trimmed().startsWith('{');
    const auto e = json ? parseExtrapJson(bytes, name, &error) : parseExtrapText(bytes, name, &error);
    if (!e) {
        if (!error.startsWith(name))
            std::abort(); // an error names the input
        return 0;
    }
    if (e->parameters.isEmpty() || e->series.empty())
        std::abort();
    for (const ExtrapSeries& s : e->series) {
        if (s.measurements.empty())
            std::abort();
        std::vector<ModelPoint> points;
        for (const auto& m : s.measurements) {
            if (m.coordinate.size() != static_cast<std::size_t>(e->parameters.size()) || m.values.empty())
                std::abort();
            points.push_back(ModelPoint { m.coordinate.front(), m.values });
        }
        if (e->parameters.size() == 1) {
            const PerformanceModel model = fitPerformanceModel(points);
            if (!model.valid || model.terms.size() > 1)
                std::abort();
            (void)model.formula();
        }
    }
    return 0;
}
