// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The experiment database (perfdb/database.h) for _parallax: one connection per object, every call
// with the GIL released. parallax/db.py turns the listings into DataFrames.
#include "perfdb/database.h"
#include "perfdb/databaselocation.h"
#include "python/src/binding.h"

#include <map>
#include <pybind11/stl.h>

namespace parallax::python {

namespace {

struct DatabaseHandle {
    std::unique_ptr<perfdb::Database> db;
    perfdb::Database& get() const
    {
        if (!db)
            throw Failure { QStringLiteral("the database connection is closed") };
        return *db;
    }
};

template <typename T> T value(perfdb::DbResult<T>&& r)
{
    if (!r)
        throw Failure { r.error().toString() };
    return std::move(r.value());
}

} // namespace

void addDatabase(py::module_& m)
{
    m.def(
        "_database_location", [](const std::string& location) { return toPy(databaseLocation(toQ(location))); },
        py::arg("location") = std::string(),
        "The location connect() uses: `location`, else $PARALLAX_DB, else the default SQLite file.");

    py::class_<DatabaseHandle>(m, "Database",
        "A connection to a Parallax (TAUdb) experiment database, SQLite or PostgreSQL. Use "
        "parallax.db.connect(); the methods of parallax.db.Database wrap these.")
        .def(py::init([](const std::string& location) {
            const QString where = databaseLocation(toQ(location));
            std::optional<perfdb::DbResult<std::unique_ptr<perfdb::Database>>> opened;
            {
                py::gil_scoped_release release;
                opened.emplace(perfdb::Database::open(where));
            }
            return DatabaseHandle { value(std::move(*opened)) };
        }),
            py::arg("location") = std::string())
        .def_property_readonly(
            "location", [](const DatabaseHandle& h) { return toPy(h.get().location()); },
            "The file path or connection string (without a password).")
        .def_property_readonly(
            "backend", [](const DatabaseHandle& h) { return toPy(h.get().backend()); }, "'sqlite' or 'postgresql'.")
        .def(
            "close", [](DatabaseHandle& h) { h.db.reset(); }, "Closes the connection.")
        .def(
            "_trials",
            [](const DatabaseHandle& h, const std::string& app, const std::string& exp, const std::string& name,
                const std::map<std::string, std::string>& where, bool metadata) {
                perfdb::TrialFilter filter;
                filter.application = toQ(app);
                filter.experiment = toQ(exp);
                filter.nameContains = toQ(name);
                for (const auto& [key, v] : where)
                    filter.metadata.emplace_back(toQ(key), toQ(v));
                std::vector<perfdb::TrialInfo> infos;
                std::vector<std::vector<std::pair<QString, QString>>> metadataOf;
                {
                    py::gil_scoped_release release;
                    infos = value(h.get().listTrials(filter));
                    if (metadata)
                        for (const perfdb::TrialInfo& info : infos)
                            metadataOf.push_back(value(h.get().trialMetadata(info.id)));
                }
                py::list rows;
                for (std::size_t i = 0; i < infos.size(); ++i) {
                    const perfdb::TrialInfo& t = infos[i];
                    py::dict row;
                    row["id"] = t.id;
                    row["name"] = toPy(t.name);
                    row["application"] = toPy(t.application);
                    row["experiment"] = toPy(t.experiment);
                    row["threads"] = t.threads;
                    row["nodes"] = t.nodes;
                    row["metrics"] = toPy(t.metrics);
                    row["data_source"] = toPy(t.dataSource);
                    row["uploaded"] = toPy(t.uploaded);
                    if (metadata) {
                        py::dict meta;
                        for (const auto& [key, v] : metadataOf[i])
                            meta[toPy(key)] = toPy(v);
                        row["metadata"] = meta;
                    }
                    rows.append(row);
                }
                return rows;
            },
            py::arg("app"), py::arg("exp"), py::arg("name"), py::arg("where"), py::arg("metadata"),
            "The trials the filter selects, one dict each (id, name, application, experiment, threads, ...).")
        .def(
            "load",
            [](const DatabaseHandle& h, qint64 id) {
                std::optional<perfdb::DbResult<std::shared_ptr<Trial>>> loaded;
                {
                    py::gil_scoped_release release;
                    Progress progress;
                    loaded.emplace(h.get().loadTrial(id, progress));
                }
                return std::make_shared<TrialHandle>(TrialHandle { value(std::move(*loaded)) });
            },
            py::arg("id"), "Loads stored trial `id`.")
        .def(
            "store",
            [](const DatabaseHandle& h, const TrialHandle& trial, const std::string& app, const std::string& exp,
                const std::string& name) {
                perfdb::UploadOptions upload;
                upload.application = toQ(app);
                upload.experiment = toQ(exp);
                upload.name = toQ(name);
                std::optional<perfdb::DbResult<qint64>> id;
                {
                    py::gil_scoped_release release;
                    Progress progress;
                    id.emplace(h.get().uploadTrial(*trial.trial, upload, progress));
                }
                return value(std::move(*id));
            },
            py::arg("trial"), py::arg("app") = std::string(), py::arg("exp") = std::string(),
            py::arg("name") = std::string(), "Stores a trial; returns its id.")
        .def(
            "delete",
            [](const DatabaseHandle& h, qint64 id) {
                py::gil_scoped_release release;
                value(h.get().deleteTrial(id));
            },
            py::arg("id"), "Deletes stored trial `id`.");
}

} // namespace parallax::python
