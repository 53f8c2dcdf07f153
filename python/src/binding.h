// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once
// Shared pieces of the `_parallax` extension (docs/python.md): string conversion, the Trial handle
// and the functions that add each part of the module.
#include "datasource/model/trial.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <string>
#include <utility>
#include <vector>

namespace parallax::python {

namespace py = pybind11;

inline py::str toPy(const QString& s)
{
    const QByteArray utf8 = s.toUtf8();
    return { utf8.constData(), static_cast<std::size_t>(utf8.size()) };
}
inline QString toQ(const std::string& s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
py::list toPy(const QStringList& list);

/// A Trial as Python holds it: shared, immutable.
struct TrialHandle {
    std::shared_ptr<const Trial> trial;
};

/// A reader's failure, raised in Python as parallax.ReadError(file, line, byte, message).
struct ReadFailure {
    QString file;
    qint64 line = 0;
    qint64 byte = -1;
    QString message;
};
/// Any other failure of the library (an algebra or database error, a bad argument), raised as
/// parallax.Error.
struct Failure {
    QString message;
};

/// A NumPy array that owns `values` (moved in, no copy).
template <typename T> py::array_t<T> toArray(std::vector<T>&& values)
{
    auto* owner = new std::vector<T>(std::move(values));
    const py::capsule free(owner, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    return py::array_t<T>(static_cast<py::ssize_t>(owner->size()), owner->data(), free);
}
/// A 2-D NumPy array (rows x columns, C order) that owns `values`.
py::array_t<double> toMatrix(std::vector<double>&& values, std::size_t rows, std::size_t columns);

/// The metric a Python argument names: a name, an index, or None (`fallback`).
MetricId metricArgument(const Trial& trial, const py::object& metric);

void addTrial(py::module_& m);
void addAlgebra(py::module_& m);
void addDatabase(py::module_& m);

} // namespace parallax::python
