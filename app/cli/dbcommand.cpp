// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/dbcommand.h"

#include "algebra/semanticmodel.h"
#include "algebra/semanticprofile.h"
#include "app/cli/commandline.h"
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
#include <limits>
#include <unistd.h>
#include <variant>

namespace parallax {

namespace {

using namespace cli;

int fail(const QString& message) { return failure(message); }

void print(const QString& text) { printOut(text); }

void printJson(const QJsonArray& array)
{
    print(QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented)));
}

/// The items as a JSON array of objects.
template <typename T, typename ToObject> void printJsonArray(const std::vector<T>& items, ToObject toObject)
{
    QJsonArray array;
    for (const T& item : items)
        array.append(toObject(item));
    printJson(array);
}

/// One column of a listing: its header, field width (negative: left-aligned; 0: not padded) and text.
template <typename T> struct Column {
    const char* header;
    int width;
    QString (*text)(const T&);
};

/// The items as a table: a header line, then a line an item, the columns two blanks apart.
template <typename T, std::size_t N> void printTable(const std::vector<T>& items, const Column<T> (&columns)[N])
{
    auto line = [&](auto textOf) {
        QStringList cells;
        for (const Column<T>& column : columns)
            cells << QStringLiteral("%1").arg(textOf(column), column.width);
        print(cells.join(QStringLiteral("  ")) + QLatin1Char('\n'));
    };
    line([](const Column<T>& column) { return QString::fromLatin1(column.header); });
    for (const T& item : items)
        line([&](const Column<T>& column) { return column.text(item); });
}

/// The options of the db commands, parsed by each command's own parser.
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
    /// The positional arguments after the command's name ("model save": after "save").
    QStringList positional;
};

QString progressLine(const QString& stage, qint64 done, qint64 total)
{
    return total > 0 ? QStringLiteral("%1: %2/%3").arg(stage).arg(done).arg(total) : stage;
}

int cmdInit(perfdb::Database& db)
{
    print(
        QStringLiteral("%1 database %2 ready (schema %3)\n").arg(db.backend(), db.location()).arg(db.schemaVersion()));
    return 0;
}

int cmdLoad(perfdb::Database& db, const Options& o)
{
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
        printJsonArray(trials.value(), [](const perfdb::TrialInfo& t) {
            return QJsonObject { { QStringLiteral("id"), t.id }, { QStringLiteral("name"), t.name },
                { QStringLiteral("application"), t.application }, { QStringLiteral("experiment"), t.experiment },
                { QStringLiteral("threads"), t.threads }, { QStringLiteral("nodes"), t.nodes },
                { QStringLiteral("metrics"), QJsonArray::fromStringList(t.metrics) },
                { QStringLiteral("data_source"), t.dataSource }, { QStringLiteral("uploaded"), t.uploaded } };
        });
        return 0;
    }
    using Info = perfdb::TrialInfo;
    static const Column<Info> columns[] = { { "id", 6, [](const Info& t) { return QString::number(t.id); } },
        { "application", -16, [](const Info& t) { return t.application; } },
        { "experiment", -16, [](const Info& t) { return t.experiment; } },
        { "name", -32, [](const Info& t) { return t.name; } },
        { "threads", 8, [](const Info& t) { return QString::number(t.threads); } },
        { "metrics", -20, [](const Info& t) { return t.metrics.join(QLatin1Char(',')); } },
        { "uploaded", 0, [](const Info& t) { return t.uploaded; } } };
    printTable(trials.value(), columns);
    return 0;
}

int cmdExport(perfdb::Database& db, const Options& o)
{
    const QString out = o.positional.first();
    const WriterInfo* writer
        = o.format.isEmpty() ? WriterRegistry::instance().forPath(out) : WriterRegistry::instance().find(o.format);
    if (!writer) {
        QStringList known;
        for (const WriterInfo* w : WriterRegistry::instance().writers())
            known.append(w->name);
        return fail(QStringLiteral("export: no writer for %1: Parallax writes %2 (--format)")
                        .arg(out, known.join(QStringLiteral(", "))));
    }
    if (writer->directory && QFileInfo::exists(out) && !QDir(out).isEmpty())
        return fail(QStringLiteral("%1 exists and is not empty; choose a new directory").arg(out));
    if (!writer->directory && QFileInfo::exists(out))
        return fail(QStringLiteral("%1 exists; choose a new file name").arg(out));
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
    const QString path = o.positional[0];
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
        printJsonArray(models.value(), [](const perfdb::SemanticModelInfo& m) {
            return QJsonObject { { QStringLiteral("id"), m.id }, { QStringLiteral("name"), m.name },
                { QStringLiteral("version"), m.version }, { QStringLiteral("created"), m.created },
                { QStringLiteral("comment"), m.comment }, { QStringLiteral("attached_trials"), m.attachedTrials } };
        });
        return 0;
    }
    using Info = perfdb::SemanticModelInfo;
    static const Column<Info> columns[] = { { "id", 6, [](const Info& m) { return QString::number(m.id); } },
        { "name", -24, [](const Info& m) { return m.name; } },
        { "version", 7, [](const Info& m) { return QString::number(m.version); } },
        { "created", -20, [](const Info& m) { return m.created; } },
        { "trials", 6, [](const Info& m) { return QString::number(m.attachedTrials); } },
        { "comment", 0, [](const Info& m) { return m.comment; } } };
    printTable(models.value(), columns);
    return 0;
}

int cmdModelShow(perfdb::Database& db, const Options& o)
{
    const auto model = findModel(db, o.positional[0]);
    if (!model)
        return fail(model.error().toString());
    QByteArray json = model.value().json;
    if (!json.endsWith('\n'))
        json += '\n';
    std::fwrite(json.constData(), 1, static_cast<std::size_t>(json.size()), stdout);
    return 0;
}

int cmdModelAttachOrDetach(perfdb::Database& db, const Options& o, bool attach)
{
    qint64 trial = 0;
    parseId(o.positional[0], trial); // checked by the parser
    const QString& ref = o.positional[1];
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
            return fail(
                QStringLiteral("no version of semantic model \"%1\" is attached to trial %2").arg(ref).arg(trial));
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

int cmdModelDelete(perfdb::Database& db, const Options& o)
{
    const auto model = findModel(db, o.positional[0]);
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

/// `db semantic TRIAL_ID [MODEL]`: the semantic profile of a stored trial, computed on load with
/// the models attached to it (or the one named).
int cmdSemantic(perfdb::Database& db, const Options& o)
{
    qint64 trialId = 0;
    parseId(o.positional[0], trialId); // checked by the parser
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
        return fail(QStringLiteral("trial %1 has no metric \"%2\"").arg(trialId).arg(o.metric));
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
        printJson(array);
    return 0;
}

} // namespace

perfdb::DbResult<std::shared_ptr<Trial>> loadTrialFromDatabase(const QString& location, qint64 id)
{
    auto db = perfdb::Database::open(databaseLocation(location));
    if (!db)
        return db.error();
    Progress progress;
    return db.value()->loadTrial(id, progress);
}

namespace {

int cmdViews(perfdb::Database& db, const Options&)
{
    const auto views = db.views();
    if (!views)
        return fail(views.error().toString());
    for (const auto& v : views.value())
        print(QStringLiteral("%1  %2  %3  (%4)\n").arg(v.id, 4).arg(v.parent, 4).arg(v.name, v.conjoin));
    return 0;
}

int cmdRename(perfdb::Database& db, const Options& o)
{
    const auto r = db.renameTrial(o.id, o.positional.first());
    return r ? 0 : fail(r.error().toString());
}

int cmdDelete(perfdb::Database& db, const Options& o)
{
    const auto r = db.deleteTrial(o.id);
    if (!r)
        return fail(r.error().toString());
    print(QStringLiteral("deleted trial %1\n").arg(o.id));
    return 0;
}

int cmdMeta(perfdb::Database& db, const Options& o)
{
    const auto r = db.setMetadata(o.id, o.positional.first(), o.positional.size() == 2 ? o.positional[1] : QString());
    return r ? 0 : fail(r.error().toString());
}

/// The options a db command takes besides --db.
enum Option : unsigned {
    App = 1u << 0,
    Exp = 1u << 1,
    Name = 1u << 2,
    Format = 1u << 3,
    Comment = 1u << 4,
    Metric = 1u << 5,
    Force = 1u << 6,
    Id = 1u << 7, ///< --id N, required
    View = 1u << 8,
    Json = 1u << 9,
    Where = 1u << 10,
    TrialArgument = 1u << 11, ///< the first positional argument is a trial id
};

struct DbSubcommand;
int runModelCommand(const QStringList& args);

/// One db command: the table gives the dispatch, each command's parser and usage line, and
/// the list in `db --help`.
struct DbSubcommand {
    const char* name;
    const char* arguments; ///< the positional arguments, for the usage line
    const char* summary;
    unsigned options;
    int minArguments;
    int maxArguments; ///< -1: any number
    int (*run)(perfdb::Database&, const Options&);
};

const DbSubcommand dbCommands[] = {
    { "init", "", "Create the schema (or migrate an older one).", 0, 0, 0,
        [](perfdb::Database& db, const Options&) { return cmdInit(db); } },
    { "load", "--app A --exp E PATH...", "Read each PATH and store it as one trial.", App | Exp | Name | Format, 1, -1,
        cmdLoad },
    { "list", "", "List trials (id, name, application, experiment, threads, metrics, upload time).",
        App | Exp | Name | Where | View | Json, 0, 0, cmdList },
    { "rename", "--id N NAME", "Rename a trial.", Id, 1, 1, cmdRename },
    { "delete", "--id N", "Delete a trial and all its rows.", Id, 0, 0, cmdDelete },
    { "meta", "--id N KEY [VALUE]", "Set a metadata value of a trial (no VALUE: remove the key).", Id, 1, 2, cmdMeta },
    { "export", "--id N OUT",
        "Write a trial back: a TAU profile directory, or a ParaProf .ppk when OUT ends in .ppk\n"
        "(or another format by OUT's suffix or --format).",
        Id | Format, 1, 1, cmdExport },
    { "views", "", "List the TAUdb views (saved metadata filters).", 0, 0, 0, cmdViews },
    { "model", "save|list|show|attach|detach|delete ...", "SEAA semantic models: 'parallax-cli db model --help'.", 0, 0,
        -1, nullptr },
    { "semantic", "TRIAL_ID [MODEL]",
        "Load a stored trial and print its semantic profile with each attached model (or with\n"
        "MODEL), as 'parallax-cli semantic' prints it (mean over threads).",
        Metric | Json | TrialArgument, 1, 2, cmdSemantic },
};

const DbSubcommand modelCommands[] = {
    { "save", "FILE.json",
        "Check the model file, then store it as the next version of its name (--name, default the\n"
        "file's \"name\"); stored versions never change.",
        Name | Comment, 1, 1, cmdModelSave },
    { "list", "", "List the stored models (id, name, version, created, attached trials, comment).", Json, 0, 0,
        cmdModelList },
    { "show", "MODEL", "Print a stored model's JSON.", 0, 1, 1, cmdModelShow },
    { "attach", "TRIAL_ID MODEL", "Attach a model version to a trial.", TrialArgument, 2, 2,
        [](perfdb::Database& db, const Options& o) { return cmdModelAttachOrDetach(db, o, true); } },
    { "detach", "TRIAL_ID MODEL", "Detach a model from a trial (a bare NAME: every attached version of it).",
        TrialArgument, 2, 2,
        [](perfdb::Database& db, const Options& o) { return cmdModelAttachOrDetach(db, o, false); } },
    { "delete", "ID|NAME@VERSION",
        "Delete a model version; one attached to a trial is refused unless --force (which\n"
        "detaches it everywhere).",
        Force, 1, 1, cmdModelDelete },
};

const char* const LocationHelp
    = "LOCATION is an SQLite file, or a PostgreSQL server as postgresql://user@host:port/db or a libpq\n"
      "keyword string (\"host=/tmp port=5432 dbname=perf\"); the password comes from the URI, PGPASSWORD\n"
      "or ~/.pgpass. Without --db: $PARALLAX_DB, else the default SQLite database\n"
      "(~/.local/share/parallax/parallax.sqlite).\n";
const char* const ModelHelp = "MODEL is a model id, a NAME (its latest version) or NAME@VERSION.\n";

template <std::size_t N>
QString tableHelp(
    const QString& prefix, const DbSubcommand (&table)[N], const QString& description, const QString& notes)
{
    QString text = QStringLiteral("Usage: parallax-cli %1 COMMAND [--db LOCATION] [options] [arguments]\n%2\n\n"
                                  "Commands:\n")
                       .arg(prefix, description);
    for (const DbSubcommand& c : table) {
        QString line = QStringLiteral("  ") + QLatin1String(c.name);
        if (*c.arguments)
            line += QLatin1Char(' ') + QString::fromUtf8(c.arguments);
        text += line + QLatin1Char('\n');
        for (const QString& l : QString::fromUtf8(c.summary).split(QLatin1Char('\n')))
            text += QStringLiteral("      ") + l + QLatin1Char('\n');
    }
    text += QLatin1Char('\n') + notes
        + QStringLiteral("'parallax-cli %1 COMMAND --help' describes a command's options.\n\n").arg(prefix);
    return text + exitStatusHelp();
}

QString dbHelp()
{
    return tableHelp(QStringLiteral("db"), dbCommands, QStringLiteral("The experiment database."),
        QString::fromUtf8(LocationHelp) + QLatin1Char('\n'));
}

QString modelHelp()
{
    return tableHelp(QStringLiteral("db model"), modelCommands,
        QStringLiteral("SEAA semantic models stored in the database."),
        QString::fromUtf8(ModelHelp) + QLatin1Char('\n'));
}

/// Parses and checks one command's line, opens the database and runs the command.
int runSubcommand(const QString& prefix, const DbSubcommand& c, const QStringList& args)
{
    Command cmd(prefix + QLatin1Char(' ') + QLatin1String(c.name), QString::fromUtf8(c.arguments),
        QString::fromUtf8(c.summary));
    const auto db = cmd.add({ QStringLiteral("db") },
        QStringLiteral("The database: an SQLite file, postgresql://... or a libpq keyword string (default "
                       "$PARALLAX_DB, else the default SQLite database)."),
        QStringLiteral("LOCATION"));
    const bool isList = QLatin1String(c.name) == QLatin1String("list");
    const bool isModel = prefix != QLatin1String("db");
    QCommandLineOption app(QStringLiteral("app"),
        isList ? QStringLiteral("Only trials of application A.")
               : QStringLiteral("The application the trials belong to (required)."),
        QStringLiteral("A"));
    QCommandLineOption exp(QStringLiteral("exp"),
        isList ? QStringLiteral("Only trials of experiment E.")
               : QStringLiteral("The experiment the trials belong to (required)."),
        QStringLiteral("E"));
    QCommandLineOption name(QStringLiteral("name"),
        isList        ? QStringLiteral("Only trials whose name contains TEXT.")
            : isModel ? QStringLiteral("The model's name (default: the file's \"name\").")
                      : QStringLiteral("The trial's name (one PATH only; default: the directory name)."),
        isList ? QStringLiteral("TEXT") : QStringLiteral("NAME"));
    QCommandLineOption format(QStringLiteral("format"),
        isList || QLatin1String(c.name) != QLatin1String("export")
            ? QStringLiteral("Read with this reader instead of detecting the format.")
            : QStringLiteral("The format to write (see 'parallax-cli formats'; default: by OUT's suffix)."),
        QStringLiteral("NAME"));
    QCommandLineOption comment(
        QStringLiteral("comment"), QStringLiteral("A comment stored with the version."), QStringLiteral("TEXT"));
    QCommandLineOption metric(
        QStringLiteral("metric"), QStringLiteral("The metric (default the first)."), QStringLiteral("NAME"));
    QCommandLineOption force(QStringLiteral("force"), QStringLiteral("Also delete a version attached to trials."));
    QCommandLineOption id(
        QStringLiteral("id"), QStringLiteral("The trial (see 'parallax-cli db list')."), QStringLiteral("N"));
    QCommandLineOption view(QStringLiteral("view"),
        QStringLiteral("Only trials of the TAUdb view ID (see 'db views')."), QStringLiteral("ID"));
    QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON (a stable interface for scripts)."));
    QCommandLineOption where(QStringLiteral("where"),
        QStringLiteral("Only trials whose metadata KEY has VALUE (repeatable: all must hold)."),
        QStringLiteral("KEY=VALUE"));
    const std::pair<Option, QCommandLineOption*> optional[] = { { App, &app }, { Exp, &exp }, { Name, &name },
        { Format, &format }, { Comment, &comment }, { Metric, &metric }, { Force, &force }, { Id, &id },
        { View, &view }, { Json, &json }, { Where, &where } };
    for (const auto& [bit, option] : optional)
        if (c.options & bit)
            cmd.add(*option);
    if (!isModel)
        cmd.setEpilogue(QString::fromUtf8(LocationHelp));
    else
        cmd.setEpilogue(QString::fromUtf8(ModelHelp));
    if (const auto stop = cmd.parse(args))
        return *stop;

    Options o;
    o.db = cmd.value(db);
    o.positional = cmd.positional();
    if (c.options & App)
        o.app = cmd.value(app);
    if (c.options & Exp)
        o.exp = cmd.value(exp);
    if (c.options & Name)
        o.name = cmd.value(name);
    if (c.options & Format)
        o.format = cmd.value(format);
    if (c.options & Comment)
        o.comment = cmd.value(comment);
    if (c.options & Metric)
        o.metric = cmd.value(metric);
    o.force = (c.options & Force) && cmd.isSet(force);
    o.json = (c.options & Json) && cmd.isSet(json);
    if (c.options & Id) {
        if (!cmd.isSet(id))
            return cmd.usageError(QStringLiteral("needs --id N (see 'parallax-cli db list')"));
        const auto n = cmd.integer(id, 0, std::numeric_limits<qint64>::max(), -1);
        if (!n)
            return ExitUsage;
        o.id = *n;
    }
    if (c.options & View) {
        const auto n = cmd.integer(view, 0, std::numeric_limits<qint64>::max(), 0);
        if (!n)
            return ExitUsage;
        o.view = *n;
    }
    if (c.options & Where) {
        auto pairs = cmd.keyValues(where);
        if (!pairs)
            return ExitUsage;
        o.where = std::move(*pairs);
    }
    const auto count = o.positional.size();
    if (count < c.minArguments || (c.maxArguments >= 0 && count > c.maxArguments))
        return cmd.usageError(QStringLiteral("needs %1, got %2 argument(s)")
                                  .arg(*c.arguments ? QString::fromUtf8(c.arguments) : QStringLiteral("no arguments"))
                                  .arg(count));
    if ((c.options & TrialArgument)
        && !cmd.integer(QStringLiteral("TRIAL_ID"), o.positional.first(), 0, std::numeric_limits<qint64>::max()))
        return ExitUsage;
    // Command-specific checks, all before the database is opened.
    const QString command = QLatin1String(c.name);
    if (!isModel && command == QLatin1String("load")) {
        if (o.app.isEmpty() || o.exp.isEmpty())
            return cmd.usageError(
                QStringLiteral("needs --app and --exp (the application and experiment the trials belong to)"));
        if (!o.name.isEmpty() && count > 1)
            return cmd.usageError(QStringLiteral("--name names one trial; give one PATH with it"));
        if (!cmd.checkReader(o.format))
            return ExitUsage;
    }
    if (!isModel && command == QLatin1String("export") && !o.format.isEmpty()
        && !WriterRegistry::instance().find(o.format)) {
        QStringList known;
        for (const WriterInfo* w : WriterRegistry::instance().writers())
            known.append(w->name);
        return cmd.usageError(QStringLiteral("--format: '%1' is not a writer; Parallax writes %2")
                                  .arg(o.format, known.join(QStringLiteral(", "))));
    }
    if (isModel && command == QLatin1String("delete")) {
        qint64 modelId = 0;
        if (!parseId(o.positional[0], modelId) && !o.positional[0].contains(QLatin1Char('@')))
            return cmd.usageError(
                QStringLiteral("deletes one version: give its ID or NAME@VERSION, got '%1'").arg(o.positional[0]));
    }
    auto opened = perfdb::Database::open(databaseLocation(o.db));
    if (!opened)
        return fail(opened.error().toString());
    return c.run(*opened.value(), o);
}

template <std::size_t N>
int runTable(const QString& prefix, const DbSubcommand (&table)[N], const QString& help, const QStringList& args)
{
    if (args.isEmpty()) {
        std::fputs(help.toLocal8Bit().constData(), stderr);
        std::fprintf(stderr, "\nparallax-cli %s: no command given\n", prefix.toLocal8Bit().constData());
        return ExitUsage;
    }
    const QString& first = args.first();
    if (first == QLatin1String("--help") || first == QLatin1String("-h")
        || (first == QLatin1String("help") && args.size() == 1)) {
        printOut(help);
        return ExitSuccess;
    }
    // "db help load" is "db load --help".
    const bool helpOf = first == QLatin1String("help");
    const QString name = helpOf ? args[1] : first;
    const QStringList rest = helpOf ? args.mid(2) << QStringLiteral("--help") : args.mid(1);
    for (const DbSubcommand& c : table) {
        if (name != QLatin1String(c.name))
            continue;
        if (!c.run)
            return runModelCommand(rest);
        return runSubcommand(prefix, c, rest);
    }
    std::fprintf(stderr, "parallax-cli %s: unknown command '%s'\nTry 'parallax-cli %s --help' for the commands.\n",
        prefix.toLocal8Bit().constData(), name.toLocal8Bit().constData(), prefix.toLocal8Bit().constData());
    return ExitUsage;
}

int runModelCommand(const QStringList& args)
{
    return runTable(QStringLiteral("db model"), modelCommands, modelHelp(), args);
}

} // namespace

int runDbCommand(const QStringList& args) { return runTable(QStringLiteral("db"), dbCommands, dbHelp(), args); }

} // namespace parallax
