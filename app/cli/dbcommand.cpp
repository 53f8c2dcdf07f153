#include "app/cli/dbcommand.h"

#include "algebra/semanticmodel.h"
#include "algebra/semanticprofile.h"
#include "app/cli/semanticcommand.h"
#include "datasource/readers/readerregistry.h"
#include "datasource/writers/writerregistry.h"
#include "perfdb/databaselocation.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <unistd.h>
#include <variant>

namespace parallax {

namespace {

    const char* const DbUsage = R"(usage: parallax-cli db <command> [--db LOCATION] ...

LOCATION is an SQLite file, or a PostgreSQL server as postgresql://user@host:port/db or a libpq
keyword string ("host=/tmp port=5432 dbname=perf"); the password comes from the URI, PGPASSWORD
or ~/.pgpass. Without --db: $PARALLAX_DB, else the default SQLite database
(~/.local/share/parallax/parallax.sqlite).

commands:
  init                                  create the schema (or migrate an older one)
  load --app A --exp E [--name T] [--format F] PATH...
                                        read each PATH and store it as one trial
  list [--app A] [--exp E] [--name TEXT] [--where KEY=VALUE]... [--view ID] [--json]
                                        list trials (id, name, application, experiment,
                                        threads, metrics, upload time)
  rename --id N NAME                    rename a trial
  delete --id N                         delete a trial and all its rows
  meta --id N KEY [VALUE]               set a metadata value (no VALUE: remove the key)
  export --id N [--format tau|ppk] OUT  write a trial back: a TAU profile directory, or a
                                        ParaProf .ppk when OUT ends in .ppk (or --format)
  views                                 list the TAUdb views (saved metadata filters)

SEAA semantic models (SEMANTICS.md 5): MODEL is an id, a NAME (its latest version) or NAME@VERSION.
  model save FILE.json [--name N] [--comment C]
                                        check the model file, then store it as the next version
                                        of N (default: the file's "name"); versions never change
  model list [--json]                   list the stored models (id, name, version, created,
                                        attached trials, comment)
  model show MODEL                      print a stored model's JSON
  model attach TRIAL_ID MODEL           attach a model version to a trial
  model detach TRIAL_ID MODEL           detach it (a bare NAME: every attached version of it)
  model delete ID|NAME@VERSION [--force]
                                        delete a model version; one that is attached to a trial
                                        is refused unless --force (which detaches it everywhere)
  semantic TRIAL_ID [MODEL] [--metric M] [--json]
                                        load a stored trial and print its semantic profile with
                                        each attached model (or with MODEL), as
                                        `parallax-cli semantic` prints it (mean over threads)
)";

    int fail(const QString& message, int code = 2)
    {
        std::fprintf(stderr, "parallax-cli: %s\n", message.toLocal8Bit().constData());
        return code;
    }

    int usage(const QString& message)
    {
        if (!message.isEmpty())
            std::fprintf(stderr, "parallax-cli: db: %s\n", message.toLocal8Bit().constData());
        std::fputs(DbUsage, stderr);
        return 1;
    }

    void print(const QString& text)
    {
        const QByteArray bytes = text.toUtf8();
        std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
    }

    /// Options shared by the db commands, parsed once.
    struct Options {
        QString db;
        QString app;
        QString exp;
        QString name;
        QString format;
        QString comment;
        QString metric;
        bool force = false;
        qint64 id = -1;
        qint64 view = 0;
        bool json = false;
        std::vector<std::pair<QString, QString>> where;
        QStringList positional;
        QString error;
    };

    Options parse(const QStringList& args)
    {
        Options o;
        for (int i = 0; i < args.size(); ++i) {
            const QString& a = args[i];
            auto value = [&](QString& out) {
                if (i + 1 >= args.size()) {
                    o.error = QStringLiteral("%1 needs a value").arg(a);
                    return false;
                }
                out = args[++i];
                return true;
            };
            QString v;
            if (a == QLatin1String("--db")) {
                value(o.db);
            } else if (a == QLatin1String("--app")) {
                value(o.app);
            } else if (a == QLatin1String("--exp")) {
                value(o.exp);
            } else if (a == QLatin1String("--name")) {
                value(o.name);
            } else if (a == QLatin1String("--format")) {
                value(o.format);
            } else if (a == QLatin1String("--comment")) {
                value(o.comment);
            } else if (a == QLatin1String("--metric")) {
                value(o.metric);
            } else if (a == QLatin1String("--force")) {
                o.force = true;
            } else if (a == QLatin1String("--json")) {
                o.json = true;
            } else if (a == QLatin1String("--id") || a == QLatin1String("--view")) {
                if (!value(v))
                    continue;
                bool ok = false;
                const qint64 n = v.toLongLong(&ok);
                if (!ok || n < 0)
                    o.error = QStringLiteral("%1 needs a number, got '%2'").arg(a, v);
                else
                    (a == QLatin1String("--id") ? o.id : o.view) = n;
            } else if (a == QLatin1String("--where")) {
                if (!value(v))
                    continue;
                const qsizetype eq = v.indexOf(QLatin1Char('='));
                if (eq <= 0)
                    o.error = QStringLiteral("--where needs KEY=VALUE, got '%1'").arg(v);
                else
                    o.where.emplace_back(v.left(eq), v.mid(eq + 1));
            } else if (a.startsWith(QLatin1String("--"))) {
                o.error = QStringLiteral("unknown option %1").arg(a);
            } else {
                o.positional << a;
            }
        }
        return o;
    }

    QString progressLine(const QString& stage, qint64 done, qint64 total)
    {
        return total > 0 ? QStringLiteral("%1: %2/%3").arg(stage).arg(done).arg(total) : stage;
    }

    int cmdInit(perfdb::Database& db)
    {
        print(QStringLiteral("%1 database %2 ready (schema %3)\n")
                  .arg(db.backend(), db.location())
                  .arg(db.schemaVersion()));
        return 0;
    }

    int cmdLoad(perfdb::Database& db, const Options& o)
    {
        if (o.positional.isEmpty())
            return usage(QStringLiteral("load needs at least one PATH"));
        if (o.app.isEmpty() || o.exp.isEmpty())
            return usage(
                QStringLiteral("load needs --app and --exp (the application and experiment the trials belong to)"));
        if (!o.name.isEmpty() && o.positional.size() > 1)
            return usage(QStringLiteral("--name names one trial; give one PATH with it"));
        const bool interactive = isatty(fileno(stderr));
        for (const QString& path : o.positional) {
            Progress readProgress;
            const TrialResult read = ReaderRegistry::instance().read(path, ReadOptions {}, readProgress, o.format);
            if (!read)
                return fail(read.error().toString());
            for (const QString& w : read.value()->warnings())
                std::fprintf(stderr, "parallax-cli: warning: %s\n", w.toLocal8Bit().constData());
            perfdb::UploadOptions upload;
            upload.application = o.app;
            upload.experiment = o.exp;
            upload.name = o.name;
            Progress progress([interactive](const QString& stage, qint64 done, qint64 total) {
                if (interactive)
                    std::fprintf(stderr, "\r%-70s", progressLine(stage, done, total).toLocal8Bit().constData());
            });
            const auto id = db.uploadTrial(*read.value(), upload, progress);
            if (interactive)
                std::fprintf(stderr, "\r%-70s\r", "");
            if (!id)
                return fail(id.error().toString());
            const perfdb::TransferStats stats = db.lastTransfer();
            print(QStringLiteral("stored %1 as trial %2 (%3 rows in %4 s)\n")
                      .arg(QDir::toNativeSeparators(path))
                      .arg(id.value())
                      .arg(stats.rows)
                      .arg(stats.seconds, 0, 'f', 2));
        }
        return 0;
    }

    int cmdList(perfdb::Database& db, const Options& o)
    {
        perfdb::TrialFilter filter;
        filter.application = o.app;
        filter.experiment = o.exp;
        filter.nameContains = o.name;
        filter.metadata = o.where;
        filter.view = o.view;
        const auto trials = db.listTrials(filter);
        if (!trials)
            return fail(trials.error().toString());
        if (o.json) {
            QJsonArray array;
            for (const auto& t : trials.value()) {
                QJsonObject item;
                item.insert(QStringLiteral("id"), t.id);
                item.insert(QStringLiteral("name"), t.name);
                item.insert(QStringLiteral("application"), t.application);
                item.insert(QStringLiteral("experiment"), t.experiment);
                item.insert(QStringLiteral("threads"), t.threads);
                item.insert(QStringLiteral("nodes"), t.nodes);
                item.insert(QStringLiteral("metrics"), QJsonArray::fromStringList(t.metrics));
                item.insert(QStringLiteral("data_source"), t.dataSource);
                item.insert(QStringLiteral("uploaded"), t.uploaded);
                array.append(item);
            }
            print(QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented)));
            return 0;
        }
        print(QStringLiteral("%1  %2  %3  %4  %5  %6  %7\n")
                  .arg(QStringLiteral("id"), 6)
                  .arg(QStringLiteral("application"), -16)
                  .arg(QStringLiteral("experiment"), -16)
                  .arg(QStringLiteral("name"), -32)
                  .arg(QStringLiteral("threads"), 8)
                  .arg(QStringLiteral("metrics"), -20)
                  .arg(QStringLiteral("uploaded")));
        for (const auto& t : trials.value()) {
            print(QStringLiteral("%1  %2  %3  %4  %5  %6  %7\n")
                      .arg(t.id, 6)
                      .arg(t.application, -16)
                      .arg(t.experiment, -16)
                      .arg(t.name, -32)
                      .arg(t.threads, 8)
                      .arg(t.metrics.join(QLatin1Char(',')), -20)
                      .arg(t.uploaded));
        }
        return 0;
    }

    int cmdExport(perfdb::Database& db, const Options& o)
    {
        if (o.id < 0 || o.positional.size() != 1)
            return usage(QStringLiteral("export needs --id N and one OUT path"));
        const QString out = o.positional.first();
        const WriterInfo* writer
            = o.format.isEmpty() ? WriterRegistry::instance().forPath(out) : WriterRegistry::instance().find(o.format);
        if (!writer) {
            QStringList known;
            for (const WriterInfo* w : WriterRegistry::instance().writers())
                known.append(w->name);
            return fail(QStringLiteral("export --format %1: Parallax writes %2")
                            .arg(o.format, known.join(QStringLiteral(", "))),
                1);
        }
        if (writer->directory && QFileInfo::exists(out) && !QDir(out).isEmpty())
            return fail(QStringLiteral("%1 exists and is not empty; choose a new directory").arg(out), 1);
        if (!writer->directory && QFileInfo::exists(out))
            return fail(QStringLiteral("%1 exists; choose a new file name").arg(out), 1);
        Progress progress;
        const auto trial = db.loadTrial(o.id, progress);
        if (!trial)
            return fail(trial.error().toString());
        const QString error = writer->write(*trial.value(), out);
        if (!error.isEmpty())
            return fail(error);
        print(QStringLiteral("wrote trial %1 (%2 threads) to %3 (%4)\n")
                  .arg(o.id)
                  .arg(trial.value()->threadCount())
                  .arg(out, writer->name));
        return 0;
    }

    // SEAA semantic models -------------------------------------------------------------------

    /// A trial id given as a positional argument.
    bool parseId(const QString& text, qint64& id)
    {
        bool ok = false;
        id = text.toLongLong(&ok);
        return ok && id >= 0;
    }

    /// MODEL on the command line: an id (all digits), NAME (its latest version) or NAME@VERSION.
    perfdb::DbResult<perfdb::StoredSemanticModel> findModel(perfdb::Database& db, const QString& ref)
    {
        qint64 id = 0;
        if (parseId(ref, id))
            return db.semanticModel(id);
        const qsizetype at = ref.lastIndexOf(QLatin1Char('@'));
        if (at > 0) {
            bool ok = false;
            const int version = ref.mid(at + 1).toInt(&ok);
            if (ok && version > 0)
                return db.semanticModelByName(ref.left(at), version);
        }
        return db.semanticModelByName(ref);
    }

    /// A stored model's JSON, parsed and validated again (a model stored by another tool, or by an
    /// older Parallax, may not pass today's checks). Errors name the model and the line.
    std::variant<semantic::Model, semantic::ModelError> parseStored(const perfdb::StoredSemanticModel& stored)
    {
        return semantic::parseModel(stored.json,
            QStringLiteral("semantic model %1@%2 (id %3)")
                .arg(stored.info.name)
                .arg(stored.info.version)
                .arg(stored.info.id));
    }

    int cmdModelSave(perfdb::Database& db, const Options& o)
    {
        if (o.positional.size() != 2)
            return usage(QStringLiteral("model save needs one FILE.json"));
        const QString path = o.positional[1];
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("%1: %2").arg(path, file.errorString()));
        const QByteArray json = file.readAll();
        // Validate before storing: the database keeps only models that load.
        const auto parsed = semantic::parseModel(json, path);
        if (const auto* error = std::get_if<semantic::ModelError>(&parsed))
            return fail(error->toString());
        const semantic::Model& model = std::get<semantic::Model>(parsed);
        QString name = o.name;
        if (name.isEmpty())
            name = model.name;
        if (name.isEmpty())
            name = QFileInfo(path).completeBaseName();
        const auto saved = db.saveSemanticModel(name, json, o.comment);
        if (!saved)
            return fail(saved.error().toString());
        print(QStringLiteral("stored %1 as semantic model \"%2\" version %3 (id %4)\n")
                  .arg(QDir::toNativeSeparators(path), name)
                  .arg(saved.value().version)
                  .arg(saved.value().id));
        return 0;
    }

    int cmdModelList(perfdb::Database& db, const Options& o)
    {
        const auto models = db.semanticModels();
        if (!models)
            return fail(models.error().toString());
        if (o.json) {
            QJsonArray array;
            for (const auto& m : models.value()) {
                QJsonObject item;
                item.insert(QStringLiteral("id"), m.id);
                item.insert(QStringLiteral("name"), m.name);
                item.insert(QStringLiteral("version"), m.version);
                item.insert(QStringLiteral("created"), m.created);
                item.insert(QStringLiteral("comment"), m.comment);
                item.insert(QStringLiteral("attached_trials"), m.attachedTrials);
                array.append(item);
            }
            print(QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented)));
            return 0;
        }
        print(QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                  .arg(QStringLiteral("id"), 6)
                  .arg(QStringLiteral("name"), -24)
                  .arg(QStringLiteral("version"), 7)
                  .arg(QStringLiteral("created"), -20)
                  .arg(QStringLiteral("trials"), 6)
                  .arg(QStringLiteral("comment")));
        for (const auto& m : models.value())
            print(QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                      .arg(m.id, 6)
                      .arg(m.name, -24)
                      .arg(m.version, 7)
                      .arg(m.created, -20)
                      .arg(m.attachedTrials, 6)
                      .arg(m.comment));
        return 0;
    }

    int cmdModel(perfdb::Database& db, const Options& o)
    {
        const QString sub = o.positional.value(0);
        if (sub == QLatin1String("save"))
            return cmdModelSave(db, o);
        if (sub == QLatin1String("list"))
            return cmdModelList(db, o);
        if (sub == QLatin1String("show")) {
            if (o.positional.size() != 2)
                return usage(QStringLiteral("model show needs one MODEL (ID, NAME or NAME@VERSION)"));
            const auto model = findModel(db, o.positional[1]);
            if (!model)
                return fail(model.error().toString());
            QByteArray json = model.value().json;
            if (!json.endsWith('\n'))
                json += '\n';
            std::fwrite(json.constData(), 1, static_cast<std::size_t>(json.size()), stdout);
            return 0;
        }
        if (sub == QLatin1String("attach") || sub == QLatin1String("detach")) {
            qint64 trial = 0;
            if (o.positional.size() != 3 || !parseId(o.positional[1], trial))
                return usage(QStringLiteral("model %1 needs TRIAL_ID MODEL").arg(sub));
            const bool attach = sub == QLatin1String("attach");
            const QString& ref = o.positional[2];
            qint64 refId = 0;
            if (!attach && !parseId(ref, refId) && !ref.contains(QLatin1Char('@'))) {
                // detach NAME: whichever versions of it are attached, not only the latest.
                const auto attached = db.semanticModelsOfTrial(trial);
                if (!attached)
                    return fail(attached.error().toString());
                int detached = 0;
                for (const auto& m : attached.value()) {
                    if (m.info.name != ref)
                        continue;
                    const auto done = db.detachSemanticModel(trial, m.info.id);
                    if (!done)
                        return fail(done.error().toString());
                    print(QStringLiteral("detached semantic model \"%1\" version %2 (id %3) from trial %4\n")
                              .arg(m.info.name)
                              .arg(m.info.version)
                              .arg(m.info.id)
                              .arg(trial));
                    ++detached;
                }
                if (detached == 0)
                    return fail(QStringLiteral("no version of semantic model \"%1\" is attached to trial %2")
                                    .arg(ref)
                                    .arg(trial));
                return 0;
            }
            const auto model = findModel(db, ref);
            if (!model)
                return fail(model.error().toString());
            const perfdb::SemanticModelInfo& info = model.value().info;
            if (attach) {
                // Refuse a model this Parallax cannot load (stored by another tool or version).
                const auto parsed = parseStored(model.value());
                if (const auto* error = std::get_if<semantic::ModelError>(&parsed))
                    return fail(error->toString());
            }
            const auto done = attach ? db.attachSemanticModel(trial, info.id) : db.detachSemanticModel(trial, info.id);
            if (!done)
                return fail(done.error().toString());
            print(QStringLiteral("%1 semantic model \"%2\" version %3 (id %4) %5 trial %6\n")
                      .arg(attach ? QStringLiteral("attached") : QStringLiteral("detached"), info.name)
                      .arg(info.version)
                      .arg(info.id)
                      .arg(attach ? QStringLiteral("to") : QStringLiteral("from"))
                      .arg(trial));
            return 0;
        }
        if (sub == QLatin1String("delete")) {
            if (o.positional.size() != 2)
                return usage(QStringLiteral("model delete needs one ID (or NAME@VERSION)"));
            const QString& ref = o.positional[1];
            qint64 id = 0;
            if (!parseId(ref, id) && !ref.contains(QLatin1Char('@')))
                return usage(QStringLiteral("model delete deletes one version: give its ID or NAME@VERSION"));
            const auto model = findModel(db, ref);
            if (!model)
                return fail(model.error().toString());
            const perfdb::SemanticModelInfo& info = model.value().info;
            const auto done = db.deleteSemanticModel(info.id, o.force);
            if (!done)
                return fail(done.error().toString() + (o.force ? QString() : QStringLiteral(" (add --force)")));
            print(QStringLiteral("deleted semantic model \"%1\" version %2 (id %3)\n")
                      .arg(info.name)
                      .arg(info.version)
                      .arg(info.id));
            return 0;
        }
        return usage(sub.isEmpty() ? QStringLiteral("model needs a command (save, list, show, attach, detach, delete)")
                                   : QStringLiteral("unknown model command '%1'").arg(sub));
    }

    /// `db semantic TRIAL_ID [MODEL]`: the semantic profile of a stored trial, computed on load with
    /// the models attached to it (or the one named).
    int cmdSemantic(perfdb::Database& db, const Options& o)
    {
        qint64 trialId = 0;
        if (o.positional.isEmpty() || o.positional.size() > 2 || !parseId(o.positional[0], trialId))
            return usage(QStringLiteral("semantic needs TRIAL_ID [MODEL]"));
        std::vector<perfdb::StoredSemanticModel> models;
        if (o.positional.size() == 2) {
            auto model = findModel(db, o.positional[1]);
            if (!model)
                return fail(model.error().toString());
            models.push_back(std::move(model.value()));
        } else {
            auto attached = db.semanticModelsOfTrial(trialId);
            if (!attached)
                return fail(attached.error().toString());
            models = std::move(attached.value());
            if (models.empty())
                return fail(QStringLiteral("trial %1 has no semantic model attached: attach one (db model attach %1 "
                                           "MODEL) or name one (db semantic %1 MODEL)")
                                .arg(trialId));
        }
        Progress progress;
        const auto loaded = db.loadTrial(trialId, progress);
        if (!loaded)
            return fail(loaded.error().toString());
        const TrialPtr trial = loaded.value();
        if (trial->metricCount() == 0)
            return fail(QStringLiteral("trial %1 has no metric").arg(trialId));
        if (!o.metric.isEmpty() && !trial->findMetric(o.metric).isValid())
            return fail(QStringLiteral("trial %1 has no metric \"%2\"").arg(trialId).arg(o.metric), 1);
        // The report is the one of `parallax-cli semantic` (semanticcommand.h), so a stored trial
        // reads exactly like the same trial given as a path.
        SemanticReportOptions report;
        report.metric = o.metric;
        QJsonArray array;
        bool first = true;
        for (const perfdb::StoredSemanticModel& stored : models) {
            const auto parsed = parseStored(stored);
            if (const auto* error = std::get_if<semantic::ModelError>(&parsed))
                return fail(error->toString());
            const auto profile = semantic::attribute(std::get<semantic::Model>(parsed), trial);
            if (const auto* error = std::get_if<semantic::AttributionError>(&profile))
                return fail(QStringLiteral("trial %1, semantic model %2@%3: %4")
                                .arg(trialId)
                                .arg(stored.info.name)
                                .arg(stored.info.version)
                                .arg(error->message));
            const semantic::SemanticProfile& p = *std::get<semantic::ProfilePtr>(profile);
            if (o.json) {
                QJsonObject model;
                model.insert(QStringLiteral("id"), stored.info.id);
                model.insert(QStringLiteral("name"), stored.info.name);
                model.insert(QStringLiteral("version"), stored.info.version);
                QJsonObject item;
                item.insert(QStringLiteral("trial"), trialId);
                item.insert(QStringLiteral("model"), model);
                item.insert(QStringLiteral("profile"), QJsonDocument::fromJson(semanticJson(p, report)).object());
                array.append(item);
                continue;
            }
            if (!first)
                print(QStringLiteral("\n"));
            first = false;
            print(QStringLiteral("trial %1, semantic model \"%2\" version %3 (id %4)\n")
                      .arg(trialId)
                      .arg(stored.info.name)
                      .arg(stored.info.version)
                      .arg(stored.info.id));
            print(semanticReport(p, report));
        }
        if (o.json)
            print(QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented)));
        return 0;
    }

} // namespace

QString databaseLocation(const QString& option)
{
    if (!option.isEmpty())
        return option;
    if (qEnvironmentVariableIsSet("PARALLAX_DB"))
        return qEnvironmentVariable("PARALLAX_DB");
    return defaultDatabasePath();
}

perfdb::DbResult<std::shared_ptr<Trial>> loadTrialFromDatabase(const QString& location, qint64 id)
{
    auto db = perfdb::Database::open(databaseLocation(location));
    if (!db)
        return db.error();
    Progress progress;
    return db.value()->loadTrial(id, progress);
}

int runDbCommand(const QStringList& args)
{
    if (args.isEmpty() || args.first() == QLatin1String("help") || args.first() == QLatin1String("--help"))
        return usage({});
    const QString command = args.first();
    const Options o = parse(args.mid(1));
    if (!o.error.isEmpty())
        return usage(o.error);
    static const QStringList commands
        = { QStringLiteral("init"), QStringLiteral("load"), QStringLiteral("list"), QStringLiteral("rename"),
              QStringLiteral("delete"), QStringLiteral("meta"), QStringLiteral("export"), QStringLiteral("views"),
              QStringLiteral("model"), QStringLiteral("semantic") };
    if (!commands.contains(command))
        return usage(QStringLiteral("unknown command '%1'").arg(command));
    auto opened = perfdb::Database::open(databaseLocation(o.db));
    if (!opened)
        return fail(opened.error().toString());
    perfdb::Database& db = *opened.value();
    if (command == QLatin1String("init"))
        return cmdInit(db);
    if (command == QLatin1String("load"))
        return cmdLoad(db, o);
    if (command == QLatin1String("list"))
        return cmdList(db, o);
    if (command == QLatin1String("export"))
        return cmdExport(db, o);
    if (command == QLatin1String("model"))
        return cmdModel(db, o);
    if (command == QLatin1String("semantic"))
        return cmdSemantic(db, o);
    if (command == QLatin1String("views")) {
        const auto views = db.views();
        if (!views)
            return fail(views.error().toString());
        for (const auto& v : views.value())
            print(QStringLiteral("%1  %2  %3  (%4)\n").arg(v.id, 4).arg(v.parent, 4).arg(v.name, v.conjoin));
        return 0;
    }
    if (o.id < 0)
        return usage(QStringLiteral("%1 needs --id N").arg(command));
    if (command == QLatin1String("rename")) {
        if (o.positional.size() != 1)
            return usage(QStringLiteral("rename needs one NAME"));
        const auto r = db.renameTrial(o.id, o.positional.first());
        return r ? 0 : fail(r.error().toString());
    }
    if (command == QLatin1String("delete")) {
        const auto r = db.deleteTrial(o.id);
        if (!r)
            return fail(r.error().toString());
        print(QStringLiteral("deleted trial %1\n").arg(o.id));
        return 0;
    }
    // meta
    if (o.positional.isEmpty() || o.positional.size() > 2)
        return usage(QStringLiteral("meta needs KEY [VALUE]"));
    const auto r = db.setMetadata(o.id, o.positional.first(), o.positional.size() == 2 ? o.positional[1] : QString());
    return r ? 0 : fail(r.error().toString());
}

} // namespace parallax
