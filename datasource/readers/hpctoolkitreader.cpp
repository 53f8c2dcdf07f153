// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// HPCToolkit experiment database reader (docs/FORMATS.md 6.4).
//
// The bytes
// ---------
// * experiment.xml (HPCToolkitExperiment version 2.0), read with QXmlStreamReader as a stream:
//   SecHeader holds MetricTable (<Metric i n t="inclusive|exclusive" partner>), MetricDBTable
//   (<MetricDB i n t partner db-glob db-id db-num-metrics db-header-sz>: which column of the
//   metric-db files holds which metric), LoadModuleTable, FileTable and ProcedureTable (id ->
//   name). SecCallPathProfileData is the calling-context tree: PF (procedure frame), Pr (static
//   or inlined procedure), L (loop), C (call site) and S (statement) elements, each with its node
//   id `i`; PF/Pr name their procedure with `n`, and `lm`, `f`, `l` give load module, file and
//   line (each "a string or an id in the table"; `l` may be a "beg-end" range, the first number
//   is used). <M> elements there are hpcprof's summary over all ranks and are not used.
// * One metric-db per rank and thread, named 1.<prog>-<rank:06>-<thread:03>-<host>-<pid>-<gen>
//   .metric-db (the name is split from the right, so <prog> may contain '-'). Layout, checked with
//   xxd on the sample (992 bytes = 32 + 60 x 2 x 8):
//       0  24 bytes  magic "HPCPROF-metricdb__" + version "00.10" + endianness 'b'
//      24  u32       number of nodes N    (0x0000003c = 60 in the sample)
//      28  u32       number of metrics K  (2)
//      32  N x K     doubles, row-major: row k is CCT node id k+1, column c is the MetricDB with
//                    db-id c. In the rank-0 sample row 0 (node 1, the implicit root) holds
//                    999238 / 0 and row 40 (node 41) holds 999238 / 59960.
//   Integers and doubles are big-endian ('b'); a file ending in 'l' is read little-endian.
//   db-header-sz (24) counts the magic only and is not used. The size must be exactly 32 + N*K*8.
//
// What the model gets
// -------------------
// * Threads: each metric-db file is ThreadKey(rank, 0, thread); a key already taken goes to the
//   next free context (warning). Per-thread metadata: "HPCToolkit host", "HPCToolkit pid",
//   "HPCToolkit metric-db" (the file name).
// * Metrics: one model metric per inclusive/exclusive MetricDB pair (partner attributes), named
//   by the MetricDB name without its " (I)"/" (E)" suffix ("CPUTIME (usec)"); unit "us" for
//   "(usec)", "sec" for "(sec)"/"(s)", "count" for PAPI_* and hardware events, else "". A lone
//   inclusive or exclusive MetricDB is a metric too; the other side is derived from the tree.
// * Call tree (Hatchet's choice of nodes, so the 34 nodes of hatchet's dataframe for the sample
//   are the 34 call-path events here): PF and Pr become nodes named by their procedure, S
//   statements "file:line" and L loops "Loop@file:line" with the base name of the enclosing
//   PF/Pr/L file (Hatchet takes the file of the *last PF seen in the document*, which names the
//   sample's node 60 "interp.c:0" although it lies in <unknown file>; Parallax does not copy
//   that). C call sites and Pr elements without a name are folded: their children hang from the
//   enclosing node. Unknown elements in the tree are folded the same way (warning). Groups:
//   HPCTOOLKIT_PROCEDURE, HPCTOOLKIT_STATEMENT, HPCTOOLKIT_LOOP.
//   Events follow CallTreeEvents: call paths "a => b => c", flat events per name (excl summed,
//   incl over the outermost frames). Sibling frames that come out with the same name but are
//   different CCT nodes (the sample's three "<unknown procedure>" callees of node 41) stay
//   separate: the later ones are named "<unknown procedure> [node 46]" after their node id.
// * Values: own(x) = the exclusive column of XML node x minus that of its children other than PF
//   (HPCToolkit's exclusive of a frame or scope already sums its statements, loops, inlined code
//   and call sites; only callee frames are outside it). incl(node) = the inclusive column of the
//   node's row (or, without one, own summed over its XML subtree). excl(node) = incl(node) minus
//   the incl of its model children. So time that HPCToolkit keeps on a folded call site stays on
//   the enclosing node, and a procedure's statements listed as its own children are not counted
//   twice: the exclusive values of a thread sum to its roots' inclusive values. If that differs
//   from the sum of own(x) over all XML nodes, a warning says so. This reproduces Hatchet's "time"
//   and "time (inc)" on the sample exactly (Hatchet subtracts statement exclusives from the parent
//   frame's exclusive). Every node is present on every thread (the metric-db is dense; sampling
//   cannot tell "did not run" from "no sample"). Calls and subrs are 0: a sampling profile has no
//   call counts.
// * Metadata: "HPCToolkit version", "HPCToolkit program", table sizes ("HPCToolkit load modules",
//   "HPCToolkit files", "HPCToolkit procedures", "HPCToolkit CCT nodes"), the metric table
//   ("HPCToolkit metrics"), and per procedure name the source location of its first frame
//   ("HPCToolkit location <name>" = "<file>:<line> in <load module>").
// Not read: SecFlatProfile (warning), trace databases, MetricFormula (derived metrics without
// stored columns are listed in "HPCToolkit metrics" only), and databases without metric-db files
// (hpcprof's sparse format of HPCToolkit 2020+ is a different layout: an error says so).

#include "datasource/readers/hpctoolkitreader.h"

#include "datasource/model/trialbuilder.h"
#include "datasource/readers/calltreeevents.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QXmlStreamReader>
#include <QtEndian>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>

namespace parallax {

namespace {

constexpr char MetricDbMagic[] = "HPCPROF-metricdb__";
constexpr qsizetype MetricDbMagicLength = 18;
constexpr qint64 MetricDbHeader = 32;
/// XML elements nested deeper are refused (docs/FORMATS.md 11): two per call frame, so about 1,000
/// frames, more than the model's call-path names hold, and the bound on what a hostile file costs.
constexpr std::size_t MaxDepth = 2000;

struct MetricDb {
    QString id;
    QString name;
    QString type;
    QString partner;
    QString glob;
    qint64 column = -1;
    qint64 columns = -1;
};

/// One element of the XML tree (C and folded elements included, for the exclusive-only case).
struct XmlNode {
    quint32 id = 0;
    qint64 parent = -1; // index into the XML node list
    qint64 modelNode = -1;
    /// Everything but PF (S, L, C, Pr): a static scope inside the enclosing frame, whose exclusive
    /// cost HPCToolkit also counts in the exclusive of the enclosing scope (a frame's exclusive is
    /// everything in it but its callees).
    bool nested = false;
};

struct Experiment {
    QString version;
    QString program;
    QStringList metrics; // MetricTable, for the metadata
    std::vector<MetricDb> metricDbs;
    QHash<QString, QString> modules, files, procedures;
    qint64 moduleCount = 0, fileCount = 0, procedureCount = 0;
    std::vector<XmlNode> xmlNodes;
    quint32 maxId = 0;
    CallTreeEvents* tree = nullptr;
    std::vector<qint64> modelToXml;
    /// Source location per procedure name (first frame), in order of appearance.
    std::vector<std::pair<QString, QString>> locations;
    QSet<QString> locationNames;
    QStringList unknownElements;
    bool flatProfile = false;
    bool sawTree = false;
};

QString lookup(const QHash<QString, QString>& table, const QString& value)
{
    const auto it = table.constFind(value);
    return it != table.cend() ? it.value() : value;
}

QString baseName(const QString& file)
{
    const qsizetype slash = file.lastIndexOf(QLatin1Char('/'));
    return slash >= 0 ? file.mid(slash + 1) : file;
}

/// "12" or "12-15" -> "12".
QString firstLine(const QString& l)
{
    const qsizetype dash = l.indexOf(QLatin1Char('-'));
    return (dash > 0 ? l.left(dash) : l).trimmed();
}

class XmlParser {
public:
    XmlParser(const QString& path, Experiment& exp, Progress& progress)
        : m_path(path)
        , m_exp(exp)
        , m_progress(progress)
    {
    }

    void run()
    {
        QFile file(m_path);
        if (!file.open(QIODevice::ReadOnly))
            throw ParseError { QStringLiteral("cannot open: %1").arg(file.errorString()), 0, -1, m_path };
        m_xml.setDevice(&file);
        bool root = false;
        qint64 lastPos = 0;
        while (!m_xml.atEnd()) {
            const auto token = m_xml.readNext();
            if ((m_count++ & 0x3ff) == 0) {
                if (m_progress.isCancelled())
                    throw Cancelled {};
                const qint64 pos = file.pos();
                m_progress.advance(pos - lastPos);
                lastPos = pos;
            }
            if (token == QXmlStreamReader::StartElement) {
                if (!root) {
                    if (m_xml.name() != QLatin1String("HPCToolkitExperiment"))
                        fail(QStringLiteral("expected the root element <HPCToolkitExperiment>, found <%1>")
                                 .arg(m_xml.name().toString()));
                    root = true;
                    m_exp.version = attr("version");
                    continue;
                }
                startElement();
            } else if (token == QXmlStreamReader::EndElement) {
                endElement();
            }
        }
        if (m_xml.hasError())
            fail(QStringLiteral("malformed XML: %1").arg(m_xml.errorString()));
        if (!root)
            fail(QStringLiteral("no <HPCToolkitExperiment> element"));
    }

private:
    struct Frame {
        QString tag;
        qint64 xmlNode = -1; // -1: not a tree node
        qint64 modelNode = -1; // the model node children attach to
        QString file; // the file statements inside belong to
    };

    [[noreturn]] void fail(const QString& message) { throw ParseError { message, m_xml.lineNumber(), -1, m_path }; }

    QString attr(const char* name) const { return m_xml.attributes().value(QLatin1String(name)).toString(); }

    void startElement()
    {
        const QString tag = m_xml.name().toString();
        if (m_stack.size() >= MaxDepth)
            fail(QStringLiteral("<%1> is nested more than %2 elements deep (expected a call tree of at most about %3 "
                                "frames)")
                     .arg(tag)
                     .arg(MaxDepth)
                     .arg(MaxDepth / 2));
        Frame frame { tag, -1, m_stack.empty() ? -1 : m_stack.back().modelNode,
            m_stack.empty() ? QString() : m_stack.back().file };
        if (m_inTree) {
            treeElement(frame);
        } else if (tag == QLatin1String("Header")) {
            if (m_exp.program.isEmpty())
                m_exp.program = attr("n");
        } else if (tag == QLatin1String("Metric") && parentIs("MetricTable")) {
            m_exp.metrics << QStringLiteral("%1 (id %2, %3)").arg(attr("n"), attr("i"), attr("t"));
        } else if (tag == QLatin1String("MetricDB")) {
            MetricDb db;
            db.id = attr("i");
            db.name = attr("n");
            db.type = attr("t");
            db.partner = attr("partner");
            db.glob = attr("db-glob");
            bool ok = false;
            db.column = attr("db-id").toLongLong(&ok);
            if (!ok || db.column < 0)
                fail(QStringLiteral("<MetricDB n=\"%1\"> needs a db-id attribute (a column number), found '%2'")
                         .arg(db.name, attr("db-id")));
            const QString columns = attr("db-num-metrics");
            db.columns = columns.isEmpty() ? -1 : columns.toLongLong(&ok);
            if (!columns.isEmpty() && (!ok || db.columns <= db.column))
                fail(QStringLiteral("<MetricDB n=\"%1\">: db-num-metrics '%2' must be a number above db-id %3")
                         .arg(db.name, columns)
                         .arg(db.column));
            m_exp.metricDbs.push_back(db);
        } else if (tag == QLatin1String("LoadModule")) {
            m_exp.modules.insert(attr("i"), attr("n"));
            ++m_exp.moduleCount;
        } else if (tag == QLatin1String("File")) {
            m_exp.files.insert(attr("i"), attr("n"));
            ++m_exp.fileCount;
        } else if (tag == QLatin1String("Procedure")) {
            m_exp.procedures.insert(attr("i"), attr("n"));
            ++m_exp.procedureCount;
        } else if (tag == QLatin1String("SecCallPathProfileData")) {
            if (m_exp.sawTree)
                fail(QStringLiteral("a second <SecCallPathProfileData>; one call-path profile per database is "
                                    "supported"));
            m_exp.sawTree = true;
            m_inTree = true;
            m_treeDepth = m_stack.size();
            frame.modelNode = -1;
        } else if (tag == QLatin1String("SecFlatProfile")) {
            m_exp.flatProfile = true;
        }
        m_stack.push_back(frame);
    }

    bool parentIs(const char* tag) const { return !m_stack.empty() && m_stack.back().tag == QLatin1String(tag); }

    void treeElement(Frame& frame)
    {
        const QString& tag = frame.tag;
        frame.xmlNode = m_stack.empty() ? -1 : m_stack.back().xmlNode;
        if (tag == QLatin1String("M") || tag == QLatin1String("Info") || tag == QLatin1String("NV"))
            return; // hpcprof's summary values; the metric-db files hold the per-thread ones
        const bool procedure = tag == QLatin1String("PF") || tag == QLatin1String("Pr");
        const bool known
            = procedure || tag == QLatin1String("C") || tag == QLatin1String("S") || tag == QLatin1String("L");
        const QString idText = attr("i");
        if (!known) {
            if (!m_exp.unknownElements.contains(tag) && m_exp.unknownElements.size() < 20)
                m_exp.unknownElements << tag;
            if (idText.isEmpty())
                return; // transparent: its children belong to the enclosing node
        }
        bool ok = false;
        const qulonglong id = idText.toULongLong(&ok);
        if (!ok || id == 0 || id > 0xffffffffULL)
            fail(QStringLiteral("<%1> needs a node id attribute i (a positive integer), found '%2'").arg(tag, idText));
        if (!m_ids.contains(static_cast<quint32>(id)))
            m_ids.insert(static_cast<quint32>(id));
        else
            fail(QStringLiteral("node id %1 occurs twice in the call tree").arg(id));
        m_exp.maxId = std::max(m_exp.maxId, static_cast<quint32>(id));
        XmlNode node;
        node.id = static_cast<quint32>(id);
        node.parent = frame.xmlNode;
        node.nested = tag != QLatin1String("PF");
        frame.xmlNode = static_cast<qint64>(m_exp.xmlNodes.size());
        const QString line = firstLine(attr("l"));
        const std::size_t parentModel
            = frame.modelNode < 0 ? CallTreeEvents::NoParent : static_cast<std::size_t>(frame.modelNode);
        QString name;
        QString group;
        if (procedure) {
            const QString n = attr("n");
            name = lookup(m_exp.procedures, n);
            if (!attr("f").isEmpty())
                frame.file = lookup(m_exp.files, attr("f"));
            if (!name.isEmpty()) {
                group = QStringLiteral("HPCTOOLKIT_PROCEDURE");
                if (!m_exp.locationNames.contains(name) && m_exp.locationNames.size() < 100000) {
                    m_exp.locationNames.insert(name);
                    const QString module = lookup(m_exp.modules, attr("lm"));
                    m_exp.locations.emplace_back(name,
                        QStringLiteral("%1:%2 in %3")
                            .arg(frame.file.isEmpty() ? QStringLiteral("<unknown file>") : frame.file,
                                line.isEmpty() ? QStringLiteral("0") : line,
                                module.isEmpty() ? QStringLiteral("<unknown load module>") : module));
                }
            }
        } else if (tag == QLatin1String("L")) {
            if (!attr("f").isEmpty())
                frame.file = lookup(m_exp.files, attr("f"));
            name = QStringLiteral("Loop@%1:%2")
                       .arg(baseName(frame.file.isEmpty() ? QStringLiteral("<unknown file>") : frame.file),
                           line.isEmpty() ? QStringLiteral("0") : line);
            group = QStringLiteral("HPCTOOLKIT_LOOP");
        } else if (tag == QLatin1String("S")) {
            name = QStringLiteral("%1:%2").arg(
                baseName(frame.file.isEmpty() ? QStringLiteral("<unknown file>") : frame.file),
                line.isEmpty() ? QStringLiteral("0") : line);
            group = QStringLiteral("HPCTOOLKIT_STATEMENT");
        }
        if (!name.isEmpty()) {
            const std::size_t model
                = m_exp.tree->addNode(parentModel, name, QStringLiteral("node %1").arg(id), QStringList { group });
            frame.modelNode = static_cast<qint64>(model);
            node.modelNode = static_cast<qint64>(model);
            m_exp.modelToXml.push_back(frame.xmlNode);
        }
        m_exp.xmlNodes.push_back(node);
    }

    void endElement()
    {
        if (m_stack.empty())
            return;
        if (m_inTree && m_stack.size() == m_treeDepth + 1
            && m_stack.back().tag == QLatin1String("SecCallPathProfileData"))
            m_inTree = false;
        m_stack.pop_back();
    }

    QString m_path;
    Experiment& m_exp;
    Progress& m_progress;
    QXmlStreamReader m_xml;
    std::vector<Frame> m_stack;
    QSet<quint32> m_ids;
    bool m_inTree = false;
    std::size_t m_treeDepth = 0;
    quint64 m_count = 0;
};

struct ModelMetric {
    QString name;
    QString unit;
    qint64 inclColumn = -1;
    qint64 exclColumn = -1;
};

QString metricBaseName(QString name)
{
    for (const char* suffix : { " (I)", " (E)", ":Sum (I)", ":Sum (E)" })
        if (name.endsWith(QLatin1String(suffix))) {
            name.chop(static_cast<qsizetype>(std::strlen(suffix)));
            break;
        }
    return name.trimmed().isEmpty() ? QStringLiteral("metric") : name.trimmed();
}

QString unitOf(const QString& name)
{
    if (name.contains(QLatin1String("(usec)"), Qt::CaseInsensitive) || name.contains(QLatin1String("(us)")))
        return QStringLiteral("us");
    if (name.contains(QLatin1String("(sec)"), Qt::CaseInsensitive) || name.contains(QLatin1String("(s)")))
        return QStringLiteral("sec");
    if (name.startsWith(QLatin1String("PAPI_")) || name.startsWith(QLatin1String("perf::")))
        return QStringLiteral("count");
    return {};
}

std::vector<ModelMetric> pairMetrics(const Experiment& exp, const QString& xmlPath, QStringList& warnings)
{
    std::vector<ModelMetric> out;
    QSet<QString> done;
    auto byId = [&](const QString& id) -> const MetricDb* {
        for (const MetricDb& db : exp.metricDbs)
            if (db.id == id)
                return &db;
        return nullptr;
    };
    for (const MetricDb& db : exp.metricDbs) {
        if (done.contains(db.id))
            continue;
        done.insert(db.id);
        ModelMetric m;
        m.name = metricBaseName(db.name);
        const MetricDb* partner = db.partner.isEmpty() ? nullptr : byId(db.partner);
        if (partner && done.contains(partner->id))
            partner = nullptr;
        if (db.type == QLatin1String("inclusive")) {
            m.inclColumn = db.column;
            if (partner && partner->type == QLatin1String("exclusive")) {
                m.exclColumn = partner->column;
                done.insert(partner->id);
            }
        } else if (db.type == QLatin1String("exclusive")) {
            m.exclColumn = db.column;
            if (partner && partner->type == QLatin1String("inclusive")) {
                m.inclColumn = partner->column;
                done.insert(partner->id);
            }
        } else {
            warnings << QStringLiteral("metric '%1' (MetricDB %2) is neither inclusive nor exclusive (t=\"%3\"); it "
                                       "was read as an inclusive metric")
                            .arg(db.name, db.id, db.type);
            m.inclColumn = db.column;
        }
        m.unit = unitOf(m.name);
        out.push_back(m);
    }
    // Distinct names.
    QHash<QString, int> seen;
    for (ModelMetric& m : out)
        if (seen[m.name]++ > 0)
            m.name += QStringLiteral(" (%1)").arg(seen[m.name]);
    if (out.empty())
        throw ParseError {
            QStringLiteral("experiment.xml has no <MetricDBTable>: the columns of the *.metric-db files are unknown "
                           "(expected hpcprof-mpi output with a MetricDBTable in the SecHeader)"),
            0, -1, xmlPath
        };
    return out;
}

struct DbFile {
    QString path;
    ThreadKey key;
    QString host;
    QString pid;
};

/// 1.<prog>-<rank>-<thread>-<host>-<pid>-<gen>.metric-db, split from the right.
bool parseDbName(const QString& fileName, DbFile& out)
{
    QString stem = fileName;
    if (stem.endsWith(QLatin1String(".metric-db")))
        stem.chop(10);
    const QStringList parts = stem.split(QLatin1Char('-'));
    if (parts.size() < 6)
        return false;
    const qsizetype n = parts.size();
    bool okRank = false, okThread = false;
    const long long rank = parts[n - 5].toLongLong(&okRank);
    const long long thread = parts[n - 4].toLongLong(&okThread);
    if (!okRank || !okThread || rank < 0 || thread < 0 || rank > INT32_MAX || thread > INT32_MAX)
        return false;
    out.key = ThreadKey { static_cast<int>(rank), 0, static_cast<int>(thread) };
    out.host = parts[n - 3];
    out.pid = parts[n - 2];
    return true;
}

double readDouble(const uchar* p, bool big)
{
    const quint64 bits = big ? qFromBigEndian<quint64>(p) : qFromLittleEndian<quint64>(p);
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

} // namespace

HpcToolkitReader::HpcToolkitReader()
    : Reader({ QStringLiteral("hpctoolkit"), QStringLiteral("HPCToolkit experiment database"),
        { QStringLiteral("experiment.xml"), QStringLiteral("*.metric-db") } })
{
}

int HpcToolkitReader::sniff(const QString& path) const
{
    const QFileInfo info(path);
    QString xml;
    if (info.isDir())
        xml = QDir(path).filePath(QStringLiteral("experiment.xml"));
    else if (info.isFile() && info.fileName().endsWith(QLatin1String(".metric-db")))
        xml = info.dir().filePath(QStringLiteral("experiment.xml"));
    else if (info.isFile())
        xml = path;
    QFile file(xml);
    if (xml.isEmpty() || !file.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray head = file.read(16384);
    if (head.contains("<HPCToolkitExperiment"))
        return 100;
    return 0;
}

TrialResult HpcToolkitReader::read(const QString& inputPath, const ReadOptions& options, Progress& progress) const
{
    const QFileInfo info(inputPath);
    QString dirPath;
    if (info.isDir())
        dirPath = info.absoluteFilePath();
    else if (info.isFile())
        dirPath = info.absolutePath();
    else
        return ReadError { inputPath, 0, -1, QStringLiteral("no such file or directory") };
    const QDir dir(dirPath);
    const QString xmlPath = info.isFile() && !info.fileName().endsWith(QLatin1String(".metric-db"))
        ? info.absoluteFilePath()
        : dir.filePath(QStringLiteral("experiment.xml"));
    if (!QFileInfo(xmlPath).isFile())
        return ReadError { inputPath, 0, -1,
            QStringLiteral("no experiment.xml: an HPCToolkit database is a directory with experiment.xml and "
                           "*.metric-db files") };
    TrialBuilder builder(QFileInfo(dirPath).fileName());
    QStringList warnings;
    Experiment exp;
    (void)options;
    const ReadJob job { inputPath, dir.absolutePath(),
        QStringLiteral("out of memory (the database is too large, or corrupt)"), {}, {} };
    return guardedRead(*this, job, builder, warnings, [&]() -> std::optional<ReadError> {
        progress.setStage(QStringLiteral("Reading experiment.xml"), QFileInfo(xmlPath).size());
        CallTreeEvents tree(0);
        exp.tree = &tree;
        XmlParser(xmlPath, exp, progress).run();
        if (!exp.sawTree)
            throw ParseError { QStringLiteral("no <SecCallPathProfileData> (call tree) in experiment.xml"), 0, -1,
                xmlPath };
        if (exp.flatProfile)
            warnings << QStringLiteral("the flat profile section (SecFlatProfile) was not read; the call tree holds "
                                       "the same data");
        if (!exp.unknownElements.isEmpty())
            warnings << QStringLiteral("unknown call-tree element(s) were folded into their parent: %1")
                            .arg(exp.unknownElements.join(QStringLiteral(", ")));
        const std::vector<ModelMetric> metrics = pairMetrics(exp, xmlPath, warnings);
        const std::size_t M = metrics.size();
        tree.setMetricCount(M);
        qint64 columns = 0;
        for (const MetricDb& db : exp.metricDbs)
            columns = std::max({ columns, db.column + 1, db.columns });
        QString glob = exp.metricDbs.front().glob;
        if (glob.isEmpty())
            glob = QStringLiteral("*.metric-db");

        // The metric-db files, one per rank and thread.
        std::vector<DbFile> dbFiles;
        for (const QString& name : dir.entryList({ glob }, QDir::Files, QDir::Name)) {
            DbFile f;
            f.path = dir.filePath(name);
            if (!parseDbName(name, f)) {
                warnings << QStringLiteral("metric-db file name '%1' does not follow 1.<program>-<rank>-<thread>-"
                                           "<host>-<pid>-<gen>.metric-db; it was given rank %2")
                                .arg(name)
                                .arg(dbFiles.size());
                f.key = ThreadKey { static_cast<int>(dbFiles.size()), 0, 0 };
            }
            dbFiles.push_back(f);
        }
        if (dbFiles.empty())
            throw ParseError { QStringLiteral(
                                   "no metric-db files matching '%1' next to experiment.xml (expected one per rank and "
                                   "thread, written by hpcprof-mpi)")
                                   .arg(glob),
                0, -1, dirPath };
        std::stable_sort(
            dbFiles.begin(), dbFiles.end(), [](const DbFile& a, const DbFile& b) { return a.key < b.key; });

        for (const ModelMetric& m : metrics)
            builder.addMetric(Metric(m.name, m.unit));
        std::map<ThreadKey, bool> taken;
        std::size_t moved = 0;
        std::vector<ThreadIndex> threads;
        for (DbFile& f : dbFiles) {
            while (taken.count(f.key)) {
                ++f.key.context;
                ++moved;
            }
            taken[f.key] = true;
            const ThreadIndex ti = builder.addThread(f.key);
            threads.push_back(ti);
            builder.addThreadMetadata(ti, QStringLiteral("HPCToolkit metric-db"), QFileInfo(f.path).fileName());
            if (!f.host.isEmpty())
                builder.addThreadMetadata(ti, QStringLiteral("HPCToolkit host"), f.host);
            if (!f.pid.isEmpty())
                builder.addThreadMetadata(ti, QStringLiteral("HPCToolkit pid"), f.pid);
        }
        if (moved > 0)
            warnings << QStringLiteral("%1 metric-db file(s) have the rank and thread of another file; they were given "
                                       "the next free context")
                            .arg(moved);

        QString error;
        if (!tree.createEvents(builder, warnings, error))
            throw ParseError { error, 0, -1, xmlPath };

        // Decode each metric-db into one row.
        progress.setStage(QStringLiteral("Reading metric-db files"), static_cast<qint64>(dbFiles.size()));
        const std::size_t nX = exp.xmlNodes.size();
        const std::size_t nModel = tree.nodeCount();
        std::vector<IntervalRow> rows(dbFiles.size());
        CallTreeEvents::ThreadValues values;
        std::vector<double> xmlIncl(nX), own(nX, 0.0);
        std::size_t inconsistent = 0;
        double worst = 0;
        for (std::size_t k = 0; k < dbFiles.size(); ++k) {
            if (progress.isCancelled())
                throw Cancelled {};
            const QString& path = dbFiles[k].path;
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                throw ParseError { QStringLiteral("cannot open: %1").arg(file.errorString()), 0, -1, path };
            const qint64 size = file.size();
            const QByteArray header = file.read(MetricDbHeader);
            if (header.size() < MetricDbHeader)
                throw ParseError {
                    QStringLiteral("truncated header: %1 bytes, expected %2 (magic \"HPCPROF-metricdb__\", version, "
                                   "node and metric counts)")
                        .arg(header.size())
                        .arg(MetricDbHeader),
                    0, header.size(), path
                };
            if (std::memcmp(header.constData(), MetricDbMagic, MetricDbMagicLength) != 0)
                throw ParseError { QStringLiteral("not a metric-db file: expected the magic \"HPCPROF-metricdb__\""), 0,
                    0, path };
            const char endian = header[23];
            if (endian != 'b' && endian != 'l')
                throw ParseError { QStringLiteral(
                                       "unknown byte order '%1' at the end of the magic (expected 'b' or 'l')")
                                       .arg(QString::fromLatin1(header.mid(23, 1).toHex())),
                    0, 23, path };
            const bool big = endian == 'b';
            const QByteArray version = header.mid(18, 5);
            if (version != "00.10" && k == 0)
                warnings << QStringLiteral("metric-db version '%1' (read as 00.10)").arg(QString::fromLatin1(version));
            const uchar* h = reinterpret_cast<const uchar*>(header.constData());
            const quint32 nodes = big ? qFromBigEndian<quint32>(h + 24) : qFromLittleEndian<quint32>(h + 24);
            const quint32 cols = big ? qFromBigEndian<quint32>(h + 28) : qFromLittleEndian<quint32>(h + 28);
            if (static_cast<qint64>(cols) != columns)
                throw ParseError { QStringLiteral(
                                       "the file has %1 metric column(s); experiment.xml's MetricDBTable describes %2")
                                       .arg(cols)
                                       .arg(columns),
                    0, 28, path };
            if (nodes < exp.maxId)
                throw ParseError { QStringLiteral(
                                       "the file has %1 node row(s), but experiment.xml's call tree uses node id %2")
                                       .arg(nodes)
                                       .arg(exp.maxId),
                    0, 24, path };
            const qint64 expected = MetricDbHeader + qint64(nodes) * qint64(cols) * 8;
            if (size != expected)
                throw ParseError { QStringLiteral(
                                       "the file is %1 bytes; %2 nodes x %3 metrics of 8-byte values need exactly %4")
                                       .arg(size)
                                       .arg(nodes)
                                       .arg(cols)
                                       .arg(expected),
                    0, std::min(size, expected), path };
            // Only the rows of the tree's nodes are needed.
            const QByteArray body = file.read(qint64(exp.maxId) * cols * 8);
            if (body.size() != qint64(exp.maxId) * cols * 8)
                throw ParseError { QStringLiteral("read error: %1").arg(file.errorString()), 0,
                    MetricDbHeader + body.size(), path };
            const uchar* data = reinterpret_cast<const uchar*>(body.constData());
            auto value = [&](quint32 id, qint64 column) {
                return readDouble(data + ((id - 1) * qint64(cols) + column) * 8, big);
            };
            values.reset(nModel, M);
            std::vector<double> ownTotal(M, 0.0);
            std::vector<char> checkable(M, 0);
            for (std::size_t m = 0; m < M; ++m) {
                const ModelMetric& metric = metrics[m];
                // own(x): the node's exclusive cost without that of its nested statements and loops.
                if (metric.exclColumn >= 0) {
                    for (std::size_t x = 0; x < nX; ++x)
                        own[x] = value(exp.xmlNodes[x].id, metric.exclColumn);
                    for (std::size_t x = 0; x < nX; ++x) {
                        const qint64 p = exp.xmlNodes[x].parent;
                        if (p >= 0 && exp.xmlNodes[x].nested)
                            own[static_cast<std::size_t>(p)] -= value(exp.xmlNodes[x].id, metric.exclColumn);
                    }
                    for (std::size_t x = 0; x < nX; ++x)
                        ownTotal[m] += own[x];
                }
                if (metric.inclColumn >= 0) {
                    for (std::size_t x = 0; x < nX; ++x)
                        xmlIncl[x] = value(exp.xmlNodes[x].id, metric.inclColumn);
                    checkable[m] = metric.exclColumn >= 0;
                } else {
                    // Exclusive only: inclusive = own cost summed over the XML subtree.
                    for (std::size_t x = 0; x < nX; ++x)
                        xmlIncl[x] = own[x];
                    for (std::size_t x = nX; x-- > 0;)
                        if (exp.xmlNodes[x].parent >= 0)
                            xmlIncl[static_cast<std::size_t>(exp.xmlNodes[x].parent)] += xmlIncl[x];
                }
                for (std::size_t i = 0; i < nModel; ++i)
                    values.incl[i * M + m] = xmlIncl[static_cast<std::size_t>(exp.modelToXml[i])];
            }
            tree.exclusiveFromInclusive(values);
            for (std::size_t m = 0; m < M; ++m) {
                if (!checkable[m])
                    continue;
                double modelExclusive = 0;
                for (std::size_t i = 0; i < nModel; ++i)
                    modelExclusive += values.excl[i * M + m];
                const double diff = std::fabs(modelExclusive - ownTotal[m]);
                if (!(diff <= 1e-9 * std::max(1.0, std::fabs(ownTotal[m])))) {
                    ++inconsistent;
                    worst = std::max(worst, diff);
                }
            }
            values.present.assign(nModel, 1);
            rows[threads[k].index()] = tree.makeRow(values);
            progress.advance(1);
        }
        if (inconsistent > 0)
            warnings << QStringLiteral("on %1 thread/metric pair(s) the metric-db's exclusive values do not add up to "
                                       "the call tree's inclusive totals (largest difference %2); the exclusive values "
                                       "were derived from the inclusive ones")
                            .arg(inconsistent)
                            .arg(worst);
        builder.setIntervalRows(std::move(rows));

        builder.addMetadata(QStringLiteral("HPCToolkit version"), exp.version);
        if (!exp.program.isEmpty())
            builder.addMetadata(QStringLiteral("HPCToolkit program"), exp.program);
        builder.addMetadata(QStringLiteral("HPCToolkit load modules"), QString::number(exp.moduleCount));
        builder.addMetadata(QStringLiteral("HPCToolkit files"), QString::number(exp.fileCount));
        builder.addMetadata(QStringLiteral("HPCToolkit procedures"), QString::number(exp.procedureCount));
        builder.addMetadata(QStringLiteral("HPCToolkit CCT nodes"), QString::number(exp.xmlNodes.size()));
        if (!exp.metrics.isEmpty())
            builder.addMetadata(QStringLiteral("HPCToolkit metrics"), exp.metrics.join(QStringLiteral("; ")));
        for (const auto& [name, location] : exp.locations)
            builder.addMetadata(QStringLiteral("HPCToolkit location ") + name, location);
        return std::nullopt;
    });
}

} // namespace parallax
