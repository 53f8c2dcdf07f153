// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The compiled half of `import parallax` (docs/python.md): readers and writers through their
// registries, the Trial handle, the algebra and the database. The pure-Python package parallax/
// builds the pandas objects on top.
#include "datasource/readers/readerregistry.h"
#include "datasource/writers/writerregistry.h"
#include "python/src/binding.h"

#include <pybind11/stl.h>

namespace parallax::python {

py::list toPy(const QStringList& list)
{
    py::list out;
    for (const QString& s : list)
        out.append(toPy(s));
    return out;
}

py::array_t<double> toMatrix(std::vector<double>&& values, std::size_t rows, std::size_t columns)
{
    auto* owner = new std::vector<double>(std::move(values));
    const py::capsule free(owner, [](void* p) { delete static_cast<std::vector<double>*>(p); });
    const auto r = static_cast<py::ssize_t>(rows);
    const auto c = static_cast<py::ssize_t>(columns);
    return py::array_t<double>(
        { r, c }, { c * static_cast<py::ssize_t>(sizeof(double)), py::ssize_t(sizeof(double)) }, owner->data(), free);
}

namespace {

std::shared_ptr<TrialHandle> readTrial(const std::string& path, const std::string& format, bool strict, int threads)
{
    const QString qpath = toQ(path);
    const QString qformat = toQ(format);
    if (!qformat.isEmpty() && !ReaderRegistry::instance().find(qformat))
        throw Failure { QStringLiteral("no reader named '%1' (parallax.formats() lists them)").arg(qformat) };
    ReadOptions options;
    options.strict = strict;
    options.threads = threads;
    std::optional<TrialResult> result;
    {
        py::gil_scoped_release release;
        Progress progress;
        result.emplace(ReaderRegistry::instance().read(qpath, options, progress, qformat));
    }
    if (!*result) {
        const ReadError& e = result->error();
        throw ReadFailure { e.file, e.line, e.byteOffset, e.message };
    }
    return std::make_shared<TrialHandle>(TrialHandle { result->value() });
}

} // namespace

} // namespace parallax::python

PYBIND11_MODULE(_parallax, m)
{
    using namespace parallax;
    using namespace parallax::python;
    m.doc() = "The compiled core of the parallax package (readers, algebra, database). Use `import parallax`.";

    static py::exception<Failure> error(m, "Error", PyExc_RuntimeError);
    error.doc() = "A Parallax operation failed (algebra, database, writer or a bad argument).";
    static py::exception<ReadFailure> readError(m, "ReadError", error.ptr());
    readError.doc() = "A profile could not be read. Attributes: file, line (1-based, 0 when unknown), "
                      "byte (offset, -1 when unknown), message.";
    // NOLINTNEXTLINE(performance-unnecessary-value-param): pybind11 takes void (*)(std::exception_ptr)
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p)
                std::rethrow_exception(p);
        } catch (const ReadFailure& e) {
            QString text = e.file;
            if (e.line > 0)
                text += QStringLiteral(":%1").arg(e.line);
            else if (e.byte >= 0)
                text += QStringLiteral(" (byte %1)").arg(e.byte);
            text += QStringLiteral(": ") + e.message;
            py::object instance = py::handle(readError.ptr())(toPy(text));
            instance.attr("file") = toPy(e.file);
            instance.attr("line") = e.line;
            instance.attr("byte") = e.byte;
            instance.attr("message") = toPy(e.message);
            PyErr_SetObject(readError.ptr(), instance.ptr());
        } catch (const Failure& e) {
            error(e.message.toUtf8().constData());
        }
    });

    m.def("_read", &readTrial, py::arg("path"), py::arg("format") = std::string(), py::arg("strict") = false,
        py::arg("threads") = 0, "Reads a trial (see parallax.open).");
    m.def(
        "_readers",
        [] {
            py::list out;
            for (const Reader* r : ReaderRegistry::instance().readers())
                out.append(py::make_tuple(toPy(r->name()), toPy(r->description()), toPy(r->filePatterns())));
            return out;
        },
        "(name, description, file patterns) of every reader.");
    m.def(
        "_writers",
        [] {
            py::list out;
            for (const WriterInfo* w : WriterRegistry::instance().writers())
                out.append(py::make_tuple(toPy(w->name), toPy(w->description), toPy(w->suffixes)));
            return out;
        },
        "(name, description, suffixes) of every writer.");
    addTrial(m);
    addAlgebra(m);
    addDatabase(m);
}
