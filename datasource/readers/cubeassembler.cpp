// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The CUBE reader's trial assembly (docs/FORMATS.md 5; docs/SEMANTICS.md 1.3, 1.4): a CubeDocument
// (cubedocument.h) becomes a Trial.
//
// What the model gets
// -------------------
// A CUBE severity s(metric, cnode, location) lives on three trees. Parallax flattens them like this:
//
// * Metrics. Every CUBE metric that stores values becomes one model Metric: EXCLUSIVE, INCLUSIVE and
//   SIMPLE metrics in CUBE 4, every metric in CUBE 3 (VOID ones too; they are all zero). The name is
//   the disp_name; names that occur twice get " (<uniq_name>)" appended. The unit comes from uom: sec
//   -> "sec", occ -> "count", bytes -> "bytes", usec -> "us", anything else as written. Values stay
//   in that unit. Derived metrics (POSTDERIVED, PREDERIVED_*: a CubePL expression, no data) and the
//   dtypes SCALE_FUNC and unknown ones are skipped with a warning (an error under
//   ReadOptions::strict). Composite dtypes become one metric per part, named "<name> (<part>)", in
//   the layout CubeLib writes (and pycubexr reads): RATE (main, duration: f64 each), COMPLEX (re, im),
//   TAU_ATOMIC (count: u32, then min, max, sum, sum of squares: f64), NDOUBLES(n) (parts 1..n) and
//   HISTOGRAM(n) (min, max, bin 1..bin n). Their min/max parts are non-additive (as MINDOUBLE/MAXDOUBLE
//   below); the others add up. The part metrics follow all declared metrics.
// * The other value. A metric "<uniq_name>:parallax-other" of the opposite type (written by Parallax's CUBE
//   writer, docs/FORMATS.md 5.4, where the call tree does not give it exactly) is no model metric: it supplies
//   the base metric's exclusive (or inclusive) values instead of the computation below.
// * Metric tree. Stored values are inclusive along the metric tree (docs/FORMATS.md 5.1: "Time" already
//   contains its children "Execution", "Overhead", ...). Each model metric holds its stored value,
//   i.e. what CUBE shows for a collapsed metric; the metric-exclusive value (stored minus children)
//   is not materialised. The tree itself is kept as trial metadata "CUBE metric <name>" (parent,
//   uniq_name, type, dtype, uom, url with "@mirror@" expanded to the first <murl>, description), as
//   display information only (docs/SEMANTICS.md 1.2).
// * Call tree. Each cnode becomes the call-path event "root => child => ... => leaf" (a root is a
//   flat event of one component). The leaf name is the region name, with " [ <key> = <value> ]"
//   for cnode parameters (TAU's parameter form, group TAU_PARAM). A region whose one-letter
//   <mangled_name> the producer's C++ demangler turned into a type name ("a" -> "signed char", as
//   Score-P does) is named by its mangled name, with a warning. Distinct regions (name, mod,
//   begin, end) that share a name keep it for the first region in document order; the others are
//   named "name [{mod} {begin}-{end}]" (TAU's source-location form), with a warning. Sibling cnodes
//   whose paths come out identical (the same region called from several call sites or lines) are
//   one event: exclusive, inclusive, calls and subrs are summed, with a warning. Every region's mod
//   and begin/end lines are its events' recorded source location (regionLocation,
//   docs/SEMANTICS.md §12.1).
//   Per cnode c, location t and additive metric m:
//     - EXCLUSIVE metrics (and every CUBE 3 metric, and SIMPLE ones): stored = excl(c);
//       incl(c) = excl(c) + sum of incl over the children of c.
//     - INCLUSIVE metrics (Score-P "time"): stored = incl(c); excl(c) = incl(c) - sum of incl over the
//       children of c. Rounding can leave tiny negative exclusive values; they are kept as computed.
//     - calls(c) = the exclusive value of the Visits metric (uniq_name "visits", else disp_name
//       "Visits"); subrs(c) = the sum of calls over the children of c. Without a Visits metric calls
//       and subrs are 0 (with a warning).
//   Non-additive metrics (dtype MINDOUBLE / MAXDOUBLE, e.g. Score-P min_time / max_time: the least or
//   greatest inclusive time of one visit of that call path) are not summed over the call tree:
//   excl = incl = the stored value of the cnode. CUBE's own view of a collapsed node (the minimum or
//   maximum over the subtree) mixes different call paths and is not reproduced; merged events take the
//   minimum (maximum) over their cnodes that ran. The names are listed in the trial metadata key
//   "CUBE non-additive metrics": sums of them over threads or events mean nothing.
// * Flat events. Each leaf name is also a flat event holding docs/SEMANTICS.md 1.4's flat values over all
//   cnodes with that leaf: excl, calls and subrs summed; incl summed over the outermost such cnodes
//   (no ancestor with the same leaf), so recursion is not counted twice. A call-tree root is its own
//   flat event; if its region also occurs deeper in the tree, that event holds the flat totals (with a
//   warning). Regions that no cnode calls become no event (their count is in "CUBE regions").
// * Presence. CUBE stores a dense matrix, zero where nothing happened. A cell (cnode, location) is
//   present when any stored value of the cnode on that location is non-zero, or a child is present;
//   an event is present on a thread when one of its cnodes is. All-zero rows are therefore absent.
// * System tree. Each location becomes ThreadKey(process rank, 0, thread rank). A location whose key
//   is already taken (e.g. accelerator or metric locations reusing a rank) takes the next free
//   context, with a warning. The names of the system tree nodes (per class: "CUBE machine",
//   "CUBE node", ...), of the location group ("CUBE process") and of the location ("CUBE thread") are
//   per-thread metadata; keys equal on all threads move to the trial (TrialBuilder's rule). The whole
//   chain, outermost first, is "CUBE system path" ("machine: M | node: N"), from which the CUBE
//   browser (algebra/cubespace.h) rebuilds the system tree. CUBE
//   <attr> pairs are trial metadata as written.
// * Topologies. Every <cart> K (document order, from 0) is trial metadata "CUBE topology K" (a JSON
//   object: name, dims with name, size, periodic) and per-thread metadata "CUBE coordinates K"
//   ("x y z", one integer per dim) on each location it places (docs/FORMATS.md 5); names and sizes
//   also in the summary "CUBE topologies".
//

#include "datasource/readers/cubeassembler.h"

#include "datasource/model/names.h"
#include "datasource/model/poolwait.h"
#include "datasource/model/trialbuilder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QThread>
#include <QtConcurrent/QtConcurrentMap>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>

namespace parallax::cube {

namespace {

/// Budget for the call-path names (characters over all cnodes): far above any real profile, it
/// stops a pathological tree (a fuzzer's 50,000 nested cnodes) from needing gigabytes of names.
constexpr qint64 MaxPathCharacters = qint64(1) << 27;

QString kindName(MetricKind k)
{
    // In the order of MetricKind.
    static const char* const names[] = { "EXCLUSIVE", "INCLUSIVE", "SIMPLE", "DERIVED" };
    static_assert(std::size(names) == std::size_t(MetricKind::Derived) + 1);
    return QLatin1String(names[static_cast<std::size_t>(k)]);
}

class TrialAssembler {
public:
    TrialAssembler(
        CubeDocument& doc, TrialBuilder& builder, QStringList& warnings, Progress& progress, const ReadOptions& options)
        : m_doc(doc)
        , m_builder(builder)
        , m_warnings(warnings)
        , m_progress(progress)
        , m_options(options)
    {
    }

    void run()
    {
        m_nC = m_doc.cnodes.size();
        m_nL = m_doc.locations.size();
        addMetrics();
        addThreads();
        addTopologies();
        addEvents();
        buildRows();
        addMetadata();
    }

private:
    void addMetrics()
    {
        // A metric "<uniq_name>:parallax-other" (written by Parallax's CUBE writer, docs/FORMATS.md 5.4) holds
        // the other value of its base metric: it is folded into it, not a metric of its own.
        QHash<QString, CubeMetric*> foldable;
        for (auto& m : m_doc.metrics) {
            const QString uniq = m.uniqName.trimmed();
            if (m.imported && m.components.empty() && uniq.endsWith(OtherValueSuffix)) {
                foldable.insert(uniq.chopped(OtherValueSuffix.size()), &m);
                m.imported = false;
            }
        }
        QHash<QString, int> dispCount;
        for (const auto& m : m_doc.metrics)
            if (m.imported)
                ++dispCount[m.dispName.trimmed()];
        QSet<QString> used;
        for (auto& m : m_doc.metrics) {
            if (!m.imported)
                continue;
            QString name = m.dispName.trimmed();
            if (name.isEmpty())
                name = m.uniqName.trimmed();
            else if (dispCount.value(name) > 1 && !m.uniqName.trimmed().isEmpty())
                name += QStringLiteral(" (%1)").arg(m.uniqName.trimmed());
            if (name.isEmpty())
                name = QStringLiteral("metric %1").arg(m.id);
            if (used.contains(name))
                name += QStringLiteral(" #%1").arg(m.id);
            used.insert(name);
            m.modelName = name;
            m.modelIndex = m_imported.size();
            m_builder.addMetric(Metric(name, unitOfUom(m.uom)));
            m_imported.push_back(&m);
            CubeMetric* other = foldable.value(m.uniqName.trimmed());
            const bool pairs = other && !m.nonAdditive && m.kind != MetricKind::Derived
                && (other->kind == MetricKind::Inclusive) != (m.kind == MetricKind::Inclusive);
            m_other.push_back(pairs ? other : nullptr);
            if (pairs)
                ++m_folded;
        }
        // Calls come from Visits.
        for (int pass = 0; pass < 2 && !m_visits; ++pass)
            for (auto* m : m_imported) {
                const bool match = pass == 0
                    ? m->uniqName.trimmed().compare(QLatin1String("visits"), Qt::CaseInsensitive) == 0
                    : m->dispName.trimmed().compare(QLatin1String("visits"), Qt::CaseInsensitive) == 0;
                if (match && !m->nonAdditive) {
                    m_visits = m;
                    break;
                }
            }
        if (!m_visits && m_nC > 0)
            m_warnings << QStringLiteral("no Visits metric: calls and subrs are 0 for every event");
        if (std::size_t(m_folded) < static_cast<std::size_t>(foldable.size()))
            m_warnings << QStringLiteral(
                "%1 metric(s) named \"...%2\" have no base metric of the opposite type; ignored")
                              .arg(static_cast<std::size_t>(foldable.size()) - std::size_t(m_folded))
                              .arg(OtherValueSuffix);
    }

    void addThreads()
    {
        std::map<std::pair<int, int>, int> nextContext;
        QStringList moved;
        m_threads.reserve(m_nL);
        for (std::size_t i = 0; i < m_nL; ++i) {
            const Location& l = m_doc.locations[i];
            const LocGroup* g = l.group >= 0 ? &m_doc.groups[static_cast<std::size_t>(l.group)] : nullptr;
            auto rankOf = [&](const QString& text, qint64 fallback, const char* what) {
                bool ok = false;
                const qint64 v = parseInteger(text, &ok);
                if (ok && v >= 0 && v <= std::numeric_limits<int>::max())
                    return static_cast<int>(v);
                if (!text.trimmed().isEmpty() || fallback < 0)
                    m_warnings << QStringLiteral("location %1: %2 rank '%3' is not a non-negative integer; %4 used")
                                      .arg(l.id)
                                      .arg(QLatin1String(what), text.trimmed().left(20))
                                      .arg(std::clamp<qint64>(fallback, 0, std::numeric_limits<int>::max()));
                return static_cast<int>(std::clamp<qint64>(fallback, 0, std::numeric_limits<int>::max()));
            };
            const int process = g ? rankOf(g->rankText, g->id, "process") : 0;
            const int thread = rankOf(l.rankText, l.id, "thread");
            ThreadKey key { process, 0, thread };
            // Collisions take the next free context of that (process, thread): contexts are only ever
            // assigned here, in order, so one counter per pair finds it without a search.
            int& next = nextContext[{ process, thread }];
            key.context = next++;
            if (key.context > 0 && moved.size() < 5)
                moved << QStringLiteral("location %1 (%2) -> %3").arg(l.id).arg(l.name, key.toString());
            if (key.context > 0)
                ++m_movedThreads;
            const ThreadIndex t = m_builder.addThread(key);
            m_threads.push_back(t);
            // System tree names (docs/SEMANTICS.md 1.3).
            std::vector<const SysNode*> chain;
            for (int s = g ? g->sysNode : -1; s >= 0 && chain.size() < 64;
                 s = m_doc.sysNodes[static_cast<std::size_t>(s)].parent)
                chain.push_back(&m_doc.sysNodes[static_cast<std::size_t>(s)]);
            std::reverse(chain.begin(), chain.end());
            std::map<QString, QString> byClass;
            QStringList path;
            for (const SysNode* s : chain) {
                const QString cls = s->cls.trimmed().isEmpty() ? QStringLiteral("system tree node") : s->cls.trimmed();
                QString& value = byClass[QStringLiteral("CUBE ") + cls];
                value = value.isEmpty() ? s->name : value + QStringLiteral(" / ") + s->name;
                path << cls + QStringLiteral(": ") + s->name;
            }
            for (const auto& [k, v] : byClass)
                m_builder.addThreadMetadata(t, k, v);
            if (!path.isEmpty())
                m_builder.addThreadMetadata(t, QStringLiteral("CUBE system path"), path.join(QStringLiteral(" | ")));
            if (g) {
                m_builder.addThreadMetadata(t, QStringLiteral("CUBE process"), g->name);
                if (!g->type.isEmpty() && g->type != QLatin1String("process"))
                    m_builder.addThreadMetadata(t, QStringLiteral("CUBE location group type"), g->type);
            }
            m_builder.addThreadMetadata(t, QStringLiteral("CUBE thread"), l.name);
            if (!l.type.isEmpty() && l.type != QLatin1String("thread"))
                m_builder.addThreadMetadata(t, QStringLiteral("CUBE location type"), l.type);
        }
        countWarning(m_warnings, m_movedThreads,
            QStringLiteral("%1 location(s) share a (process rank, thread rank) with another and were given the next "
                           "free context: %2"),
            moved.join(QStringLiteral("; ")));
    }

    /// Leaf names of regions: the name, disambiguated among distinct regions of the same name.
    std::vector<QString> regionNames()
    {
        const std::size_t nR = m_doc.regions.size();
        std::vector<QString> names(nR);
        std::vector<bool> used(nR, false);
        for (const auto& c : m_doc.cnodes)
            used[static_cast<std::size_t>(c.region)] = true;
        struct Key {
            QString mod;
            qint64 begin, end;
            bool operator==(const Key& o) const { return mod == o.mod && begin == o.begin && end == o.end; }
        };
        QHash<QString, std::vector<std::pair<Key, QString>>> byName; // canonical name -> keys and names
        QStringList renamed;
        std::size_t renamedCount = 0;
        std::size_t arrows = 0;
        QStringList typeCodes;
        std::size_t typeCodeCount = 0;
        for (std::size_t r = 0; r < nR; ++r) {
            if (!used[r])
                continue;
            const CubeRegion& region = m_doc.regions[r];
            QString name = region.name;
            if (isTypeCodeDemangling(region)) {
                name = region.mangled.trimmed();
                if (typeCodes.size() < 4)
                    typeCodes << QStringLiteral("%1 -> %2").arg(quoted(region.name.trimmed()), quoted(name));
                ++typeCodeCount;
            }
            if (name.contains(QLatin1String("=>"))) {
                name.replace(QLatin1String("=>"), QLatin1String("= >"));
                ++arrows;
            }
            if (name.trimmed().isEmpty())
                name = QStringLiteral("(unnamed region %1)").arg(region.id);
            const QString canonical = QString::fromStdString(names::canonical(name.toStdString()));
            auto& keys = byName[canonical];
            const Key key { region.mod, region.begin, region.end };
            const auto it = std::find_if(keys.begin(), keys.end(), [&](const auto& k) { return k.first == key; });
            if (it != keys.end()) {
                names[r] = it->second;
                continue;
            }
            if (!keys.empty()) {
                const QString lines = region.begin < 0 && region.end < 0
                    ? QString()
                    : QStringLiteral(" {%1}-{%2}").arg(region.begin).arg(region.end);
                name += QStringLiteral(" [{%1}%2]").arg(region.mod, lines);
                ++renamedCount;
                if (renamed.size() < 3)
                    renamed << quoted(name);
            }
            keys.emplace_back(key, name);
            names[r] = name;
        }
        countWarning(m_warnings, renamedCount,
            QStringLiteral("%1 region(s) share their name with another region (different module or lines) and were "
                           "given a source location: %2"),
            renamed.join(QStringLiteral(", ")));
        countWarning(m_warnings, arrows,
            QStringLiteral("%1 region name(s) contain '=>', the call-path separator; it was written '= >'"));
        countWarning(m_warnings, typeCodeCount,
            QStringLiteral("%1 region name(s) are a C++ type that the producer's demangler read from a one-letter "
                           "<mangled_name>; the mangled name is used: %2"),
            typeCodes.join(QStringLiteral(", ")));
        return names;
    }

    /// Score-P runs every region name through the C++ demangler, which reads a one-letter name as an
    /// Itanium type code: a function "a" gets the <name> "signed char", "b" gets "bool"
    /// (pycubexr's call_tree_test). Such a <name> is not the function's; its mangled name is.
    static bool isTypeCodeDemangling(const CubeRegion& region)
    {
        const QString mangled = region.mangled.trimmed();
        if (mangled.size() != 1)
            return false;
        static const QHash<QChar, QLatin1String> builtin { { QLatin1Char('v'), QLatin1String("void") },
            { QLatin1Char('w'), QLatin1String("wchar_t") }, { QLatin1Char('b'), QLatin1String("bool") },
            { QLatin1Char('c'), QLatin1String("char") }, { QLatin1Char('a'), QLatin1String("signed char") },
            { QLatin1Char('h'), QLatin1String("unsigned char") }, { QLatin1Char('s'), QLatin1String("short") },
            { QLatin1Char('t'), QLatin1String("unsigned short") }, { QLatin1Char('i'), QLatin1String("int") },
            { QLatin1Char('j'), QLatin1String("unsigned int") }, { QLatin1Char('l'), QLatin1String("long") },
            { QLatin1Char('m'), QLatin1String("unsigned long") }, { QLatin1Char('x'), QLatin1String("long long") },
            { QLatin1Char('y'), QLatin1String("unsigned long long") }, { QLatin1Char('n'), QLatin1String("__int128") },
            { QLatin1Char('o'), QLatin1String("unsigned __int128") }, { QLatin1Char('f'), QLatin1String("float") },
            { QLatin1Char('d'), QLatin1String("double") }, { QLatin1Char('e'), QLatin1String("long double") },
            { QLatin1Char('g'), QLatin1String("__float128") }, { QLatin1Char('z'), QLatin1String("...") } };
        const auto it = builtin.constFind(mangled.front());
        return it != builtin.cend() && region.name.trimmed() == it.value();
    }

    /// A region's source location (docs/SEMANTICS.md §12): `mod` is the file, `begin`/`end` the
    /// lines (-1: not given; Score-P writes end = -1 for compiler-instrumented functions). A `mod`
    /// without lines that names no file ("MPI", the paradigm Score-P's adapters write) is none.
    static std::optional<SourceLocation> regionLocation(const CubeRegion& region)
    {
        const QString file = region.mod.trimmed();
        const int begin = region.begin > 0 && region.begin <= std::numeric_limits<int>::max() ? int(region.begin) : 0;
        const int end = region.end >= begin && region.end <= std::numeric_limits<int>::max() ? int(region.end) : begin;
        if (file.isEmpty() || (begin == 0 && !file.contains(QLatin1Char('.')) && !file.contains(QLatin1Char('/'))))
            return std::nullopt;
        SourceLocation location;
        location.file = file;
        location.beginLine = begin;
        location.endLine = begin == 0 ? 0 : end;
        return location;
    }

    void addEvents()
    {
        const std::vector<QString> regionName = regionNames();
        m_pathEvent.assign(m_nC, EventId());
        m_flatEvent.assign(m_nC, EventId());
        std::vector<QString> paths(m_nC);
        qint64 pathChars = 0;
        for (std::size_t c = 0; c < m_nC; ++c) {
            throwIfCancelled(m_progress);
            const CubeCnode& cnode = m_doc.cnodes[c];
            const CubeRegion& region = m_doc.regions[static_cast<std::size_t>(cnode.region)];
            QString leaf = regionName[static_cast<std::size_t>(cnode.region)];
            QStringList groups;
            if (!region.paradigm.trimmed().isEmpty())
                groups << region.paradigm.trimmed();
            if (!cnode.params.isEmpty()) {
                QString params = cnode.params.join(QStringLiteral(", "));
                params.replace(QLatin1String("=>"), QLatin1String("= >"));
                leaf += QStringLiteral(" [ %1 ]").arg(params);
                groups << QStringLiteral("TAU_PARAM");
            }
            m_flatEvent[c] = m_builder.addEvent(leaf, groups);
            std::optional<SourceLocation> location = regionLocation(region);
            if (location) {
                // A name that says the same (TAU's [{file} {l,c}-{l,c}], as tau2cube and the CUBE writer
                // leave it) is finer: it may give columns.
                const auto named = parseSourceLocation(leaf);
                if (named && named->file == location->file && named->beginLine == location->beginLine
                    && named->endLine == location->endLine)
                    location.reset();
            }
            if (location)
                m_builder.setSourceLocation(m_flatEvent[c], *location);
            if (cnode.parent < 0) {
                paths[c] = leaf;
                m_pathEvent[c] = m_flatEvent[c];
            } else {
                paths[c] = paths[static_cast<std::size_t>(cnode.parent)] + QStringLiteral(" => ") + leaf;
                pathChars += paths[c].size();
                if (pathChars > MaxPathCharacters)
                    parseFail(QStringLiteral("the call-path names need more than %1 characters (call tree too deep for "
                                             "the model: cnode %2 is at depth %3)")
                                  .arg(MaxPathCharacters)
                                  .arg(cnode.id)
                                  .arg(paths[c].count(QLatin1String(" => ")) + 1));
                m_pathEvent[c] = m_builder.addEvent(paths[c], QStringList { QStringLiteral("TAU_CALLPATH") } + groups);
                if (location)
                    m_builder.setSourceLocation(m_pathEvent[c], *location);
            }
            if (cnode.children.empty())
                paths[c].clear(); // only parents' paths are needed later
        }
        paths.clear();
        // Groups of cnodes per event; flat events use docs/SEMANTICS.md 1.4's rule ("outermost" flags).
        m_eventCount = 0;
        for (std::size_t c = 0; c < m_nC; ++c)
            m_eventCount = std::max(
                { m_eventCount, std::size_t(m_flatEvent[c].index()) + 1, std::size_t(m_pathEvent[c].index()) + 1 });
        m_members.assign(m_eventCount, {});
        std::vector<int> active(m_eventCount, 0);
        std::vector<int> stack;
        std::vector<int> roots(m_eventCount, 0);
        std::vector<bool> deep(m_eventCount, false);
        std::size_t mergedPaths = 0;
        for (std::size_t c = 0; c < m_nC; ++c) {
            const int parent = m_doc.cnodes[c].parent;
            while (!stack.empty() && stack.back() != parent) {
                --active[m_flatEvent[static_cast<std::size_t>(stack.back())].index()];
                stack.pop_back();
            }
            const std::size_t flat = m_flatEvent[c].index();
            m_members[flat].push_back({ static_cast<int>(c), active[flat] == 0 });
            if (parent < 0) {
                if (roots[flat]++ > 0)
                    ++mergedPaths; // two roots with the same leaf
            } else {
                deep[flat] = true;
                auto& members = m_members[m_pathEvent[c].index()];
                if (!members.empty())
                    ++mergedPaths;
                members.push_back({ static_cast<int>(c), true });
            }
            ++active[flat];
            stack.push_back(static_cast<int>(c));
        }
        std::size_t recursive = 0;
        for (std::size_t e = 0; e < m_eventCount; ++e)
            recursive += roots[e] > 0 && deep[e] ? 1 : 0;
        countWarning(m_warnings, recursive,
            QStringLiteral(
                "%1 call-tree root(s) also occur deeper in the call tree; their events hold the flat totals, "
                "not the root alone"));
        countWarning(m_warnings, mergedPaths,
            QStringLiteral("%1 cnode(s) have the same call path as an earlier cnode (another call site or line); their "
                           "values were summed into one event"));
    }

    /// The values a metric does not store, along the call tree: inclusive values for a metric stored
    /// exclusively, exclusive values for an INCLUSIVE one (see the top of this file).
    std::vector<double> otherValues(const CubeMetric& m) const
    {
        std::vector<double> other(m.stored.begin(), m.stored.end());
        const bool inclusive = m.kind == MetricKind::Inclusive;
        for (std::size_t c = m_nC; c-- > 0;) {
            const int p = m_doc.cnodes[c].parent;
            if (p < 0)
                continue;
            double* dst = other.data() + static_cast<std::size_t>(p) * m_nL;
            if (inclusive) {
                const double* src = m.stored.data() + c * m_nL;
                for (std::size_t l = 0; l < m_nL; ++l)
                    dst[l] -= src[l];
            } else {
                const double* src = other.data() + c * m_nL;
                for (std::size_t l = 0; l < m_nL; ++l)
                    dst[l] += src[l];
            }
        }
        return other;
    }

    /// Locations are processed in blocks of this many: the values of one cnode on a block of locations are
    /// contiguous, so walking events in the outer loop and locations in the inner one stays in cache.
    static constexpr std::size_t Block = 16;

    /// Runs work(first, last) for blocks of locations, on the thread pool when there are several.
    template <typename Work> void forEachBlock(const Work& work)
    {
        std::vector<std::size_t> blocks;
        for (std::size_t l = 0; l < m_nL; l += Block)
            blocks.push_back(l);
        std::atomic<bool> cancelled { false };
        auto guarded = [&](std::size_t first) {
            if (cancelled.load(std::memory_order_relaxed) || m_progress.isCancelled()) {
                cancelled = true;
                return;
            }
            work(first, std::min(first + Block, m_nL));
        };
        if (m_options.threads != 1 && blocks.size() > 1 && QThread::idealThreadCount() > 1)
            waitInPool([&] { QtConcurrent::blockingMap(blocks, guarded); });
        else
            for (std::size_t b : blocks)
                guarded(b);
        if (cancelled || m_progress.isCancelled())
            throw Cancelled {};
    }

    /// Calls cell(members, location, row, position) for every present cell of the locations
    /// [first, last), event by event.
    template <typename Cell>
    void forEachCell(std::vector<IntervalRow>& rows, std::size_t first, std::size_t last, const Cell& cell) const
    {
        constexpr std::uint32_t End = std::numeric_limits<std::uint32_t>::max();
        const std::size_t count = last - first;
        IntervalRow* row[Block];
        std::size_t cursor[Block];
        std::uint32_t next[Block]; // the event at the cursor, End when the row is done
        for (std::size_t j = 0; j < count; ++j) {
            row[j] = &rows[m_threads[first + j].index()];
            cursor[j] = 0;
            next[j] = row[j]->size() ? row[j]->events[0].index() : End;
        }
        for (std::size_t e = 0; e < m_eventCount; ++e) {
            const auto id = static_cast<std::uint32_t>(e);
            for (std::size_t j = 0; j < count; ++j) {
                if (next[j] != id)
                    continue;
                IntervalRow& r = *row[j];
                const std::size_t i = cursor[j]++;
                cell(m_members[e], first + j, r, i);
                next[j] = i + 1 < r.size() ? r.events[i + 1].index() : End;
            }
        }
    }

    /// Presence of every (cnode, location), calls and subrs, and the present events of each thread.
    void computePresence()
    {
        const std::size_t cells = m_nC * m_nL;
        m_present.assign(cells, 0);
        for (const CubeMetric* m : m_imported) {
            if (m->stored.empty())
                continue;
            for (std::size_t i = 0; i < cells; ++i)
                if (m->stored[i] != 0 || std::isnan(m->stored[i]))
                    m_present[i] = 1;
        }
        for (std::size_t c = m_nC; c-- > 0;) {
            const int p = m_doc.cnodes[c].parent;
            if (p < 0)
                continue;
            unsigned char* dst = m_present.data() + static_cast<std::size_t>(p) * m_nL;
            const unsigned char* src = m_present.data() + c * m_nL;
            for (std::size_t l = 0; l < m_nL; ++l)
                dst[l] |= src[l];
        }
        if (m_visits && !m_visits->stored.empty()) {
            if (m_visits->kind == MetricKind::Inclusive) {
                m_visitsExclusive = otherValues(*m_visits);
                m_calls = m_visitsExclusive.data();
            } else {
                m_calls = m_visits->stored.data();
            }
            m_subrs.assign(cells, 0.0);
            for (std::size_t c = 0; c < m_nC; ++c) {
                const int p = m_doc.cnodes[c].parent;
                if (p < 0)
                    continue;
                double* dst = m_subrs.data() + static_cast<std::size_t>(p) * m_nL;
                const double* src = m_calls + c * m_nL;
                for (std::size_t l = 0; l < m_nL; ++l)
                    dst[l] += src[l];
            }
        }
        m_rowEvents.assign(m_nL, {});
        forEachBlock([&](std::size_t first, std::size_t last) {
            unsigned char mark[Block] = {};
            for (std::size_t e = 0; e < m_eventCount; ++e) {
                for (const Member& member : m_members[e]) {
                    const unsigned char* present = m_present.data() + static_cast<std::size_t>(member.cnode) * m_nL;
                    for (std::size_t l = first; l < last; ++l)
                        mark[l - first] |= present[l];
                }
                for (std::size_t l = first; l < last; ++l)
                    if (mark[l - first]) {
                        m_rowEvents[l].push_back(static_cast<std::uint32_t>(e));
                        mark[l - first] = 0;
                    }
            }
        });
        qint64 modelCells = 0;
        for (const auto& events : m_rowEvents)
            modelCells += static_cast<qint64>(events.size());
        if (modelCells * qint64(2 + 2 * m_imported.size()) > 2 * m_doc.cellBudget)
            parseFail(
                QStringLiteral("the trial would hold %1 cells x %2 metrics, more than this reader allows for a file "
                               "of this size (corrupt file, or too large a profile)")
                    .arg(modelCells)
                    .arg(m_imported.size()));
    }

    void buildRows()
    {
        computePresence();
        const std::size_t nM = m_imported.size();
        // The values each metric does not store. The model's rows hold every present cell twice per
        // metric, so these arrays (at most one per metric) never dominate the memory used.
        struct Source {
            std::size_t k;
            const CubeMetric* metric;
            const double* excl;
            const double* incl;
        };
        std::vector<std::vector<double>> others;
        std::vector<Source> sources;
        for (std::size_t k = 0; k < nM; ++k) {
            const CubeMetric& m = *m_imported[k];
            if (m.stored.empty())
                continue; // all zero
            Source source { k, &m, m.stored.data(), m.stored.data() };
            if (const CubeMetric* other = m_other[k]) {
                // The other value as written; all zero when the file has no values for it.
                if (other->stored.empty())
                    others.emplace_back(m.stored.size(), 0.0);
                const double* values = other->stored.empty() ? others.back().data() : other->stored.data();
                (m.kind == MetricKind::Inclusive ? source.excl : source.incl) = values;
            } else if (!m.nonAdditive) {
                others.push_back(otherValues(m));
                (m.kind == MetricKind::Inclusive ? source.excl : source.incl) = others.back().data();
            }
            sources.push_back(source);
        }
        std::vector<IntervalRow> rows(m_builder.threadCount());
        forEachBlock([&](std::size_t first, std::size_t last) {
            for (std::size_t l = first; l < last; ++l) {
                IntervalRow& row = rows[m_threads[l].index()];
                const auto& present = m_rowEvents[l];
                const std::size_t n = present.size();
                row.events.resize(n);
                for (std::size_t i = 0; i < n; ++i)
                    row.events[i] = EventId(present[i]);
                row.calls.assign(n, 0.0);
                row.subrs.assign(n, 0.0);
                row.excl.assign(n * nM, 0.0);
                row.incl.assign(n * nM, 0.0);
                std::vector<std::uint32_t>().swap(m_rowEvents[l]);
            }
            forEachCell(rows, first, last,
                [&](const std::vector<Member>& members, std::size_t l, IntervalRow& row, std::size_t i) {
                    const std::size_t n = row.size();
                    if (m_calls) {
                        double calls = 0, subrs = 0;
                        for (const Member& member : members) {
                            const std::size_t at = static_cast<std::size_t>(member.cnode) * m_nL + l;
                            calls += m_calls[at];
                            subrs += m_subrs[at];
                        }
                        row.calls[i] = calls;
                        row.subrs[i] = subrs;
                    }
                    for (const Source& source : sources) {
                        double ex = 0, in = 0;
                        if (source.metric->nonAdditive) {
                            // Min/max over the cnodes that ran (visited, when Visits is known), else over the
                            // present ones.
                            const bool minimum = source.metric->minimum;
                            bool any = false;
                            for (int pass = 0; pass < 2 && !any; ++pass)
                                for (const Member& member : members) {
                                    const std::size_t at = static_cast<std::size_t>(member.cnode) * m_nL + l;
                                    if (!m_present[at] || (pass == 0 && m_calls && m_calls[at] <= 0))
                                        continue;
                                    const double value = source.excl[at];
                                    ex = !any ? value : minimum ? std::min(ex, value) : std::max(ex, value);
                                    any = true;
                                }
                            in = ex;
                        } else {
                            for (const Member& member : members) {
                                const std::size_t at = static_cast<std::size_t>(member.cnode) * m_nL + l;
                                ex += source.excl[at];
                                if (member.outermost)
                                    in += source.incl[at];
                            }
                        }
                        row.excl[source.k * n + i] = ex;
                        row.incl[source.k * n + i] = in;
                    }
                });
        });
        m_builder.setIntervalRows(std::move(rows));
    }

    void addTopologies()
    {
        QHash<qint64, std::size_t> locationOfId;
        for (std::size_t i = 0; i < m_nL; ++i)
            locationOfId.insert(m_doc.locations[i].id, i);
        int skipped = 0;
        QString firstSkipped;
        for (std::size_t k = 0; k < m_doc.carts.size(); ++k) {
            const CubeCart& cart = m_doc.carts[k];
            QJsonArray dims;
            for (const auto& d : cart.dims)
                dims.append(QJsonObject { { QStringLiteral("name"), d.name }, { QStringLiteral("size"), d.size },
                    { QStringLiteral("periodic"), d.periodic } });
            const QJsonObject topo { { QStringLiteral("name"), cart.name }, { QStringLiteral("dims"), dims } };
            m_builder.addMetadata(QStringLiteral("CUBE topology %1").arg(k),
                QString::fromUtf8(QJsonDocument(topo).toJson(QJsonDocument::Compact)));
            const QString key = QStringLiteral("CUBE coordinates %1").arg(k);
            auto skip = [&](const CubeCart::Coord& c, const QString& why) {
                if (skipped++ == 0)
                    firstSkipped = QStringLiteral("%1: <coord> '%2' of topology '%3': %4")
                                       .arg(where(QString(), c.line), c.text.trimmed().left(40), cart.name, why);
            };
            for (const auto& c : cart.coords) {
                const auto parts = QStringView(c.text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
                if (static_cast<std::size_t>(parts.size()) != cart.dims.size()) {
                    skip(c, QStringLiteral("expected %1 coordinates").arg(cart.dims.size()));
                    continue;
                }
                QStringList values;
                bool good = true;
                for (std::size_t d = 0; d < cart.dims.size() && good; ++d) {
                    bool ok = false;
                    const qint64 v = parts[static_cast<qsizetype>(d)].toLongLong(&ok);
                    good = ok && v >= 0 && v < cart.dims[d].size;
                    values << QString::number(v);
                }
                if (!good) {
                    skip(c, QStringLiteral("expected integers from 0 to the dimension's size - 1"));
                    continue;
                }
                const QString text = values.join(QLatin1Char(' '));
                std::vector<std::size_t> placed;
                if (c.of == CubeCart::Coord::Of::Location) {
                    if (const auto it = locationOfId.constFind(c.id); it != locationOfId.constEnd())
                        placed.push_back(*it);
                } else if (c.of == CubeCart::Coord::Of::Process) {
                    for (std::size_t i = 0; i < m_nL; ++i) {
                        const int g = m_doc.locations[i].group;
                        if (g >= 0 && m_doc.groups[static_cast<std::size_t>(g)].id == c.id)
                            placed.push_back(i);
                    }
                } else {
                    skip(c, QStringLiteral("only locations and processes are placed"));
                    continue;
                }
                if (placed.empty())
                    skip(c, QStringLiteral("no location has that id"));
                for (const std::size_t i : placed)
                    m_builder.addThreadMetadata(m_threads[i], key, text, true);
            }
        }
        if (skipped > 0)
            m_warnings
                << QStringLiteral("%1 topology coordinate(s) ignored; the first: %2").arg(skipped).arg(firstSkipped);
    }

    void addMetadata()
    {
        for (const auto& [key, value] : m_doc.attrs)
            m_builder.addMetadata(key, value);
        m_builder.addMetadata(QStringLiteral("CUBE format version"), m_doc.version);
        if (!m_doc.mirrors.isEmpty())
            m_builder.addMetadata(QStringLiteral("CUBE mirrors"), m_doc.mirrors.join(QStringLiteral("; ")));
        m_builder.addMetadata(QStringLiteral("CUBE regions"), QString::number(m_doc.regions.size()));
        m_builder.addMetadata(QStringLiteral("CUBE cnodes"), QString::number(m_doc.cnodes.size()));
        if (!m_doc.topologies.isEmpty())
            m_builder.addMetadata(QStringLiteral("CUBE topologies"), m_doc.topologies.join(QStringLiteral("; ")));
        QStringList nonAdditive;
        for (const auto& m : m_doc.metrics) {
            if (!m.imported)
                continue;
            QStringList parts;
            parts << QStringLiteral("uniq_name %1").arg(m.uniqName.trimmed());
            if (m.parent >= 0) {
                const CubeMetric& p = m_doc.metrics[static_cast<std::size_t>(m.parent)];
                parts << QStringLiteral("parent %1").arg(p.imported ? p.modelName : p.dispName.trimmed());
            }
            parts << QStringLiteral("type %1").arg(kindName(m.kind))
                  << QStringLiteral("dtype %1").arg(m.dtype.trimmed()) << QStringLiteral("uom %1").arg(m.uom.trimmed());
            if (!m.val.trimmed().isEmpty())
                parts << QStringLiteral("val %1").arg(m.val.trimmed());
            if (!m.url.trimmed().isEmpty()) {
                // "@mirror@" stands for a <murl> of the document; CubeGUI tries them in order.
                QString url = m.url.trimmed();
                if (!m_doc.mirrors.isEmpty())
                    url.replace(QLatin1String("@mirror@"), m_doc.mirrors.first().trimmed());
                parts << QStringLiteral("url %1").arg(url);
            }
            if (!m.descr.trimmed().isEmpty())
                parts << m.descr.trimmed();
            m_builder.addMetadata(QStringLiteral("CUBE metric ") + m.modelName, parts.join(QStringLiteral("; ")));
            if (m.nonAdditive)
                nonAdditive << m.modelName;
        }
        if (!nonAdditive.isEmpty())
            m_builder.addMetadata(QStringLiteral("CUBE non-additive metrics"), nonAdditive.join(QStringLiteral(", ")));
    }

    struct Member {
        int cnode;
        bool outermost;
    };

    CubeDocument& m_doc;
    TrialBuilder& m_builder;
    QStringList& m_warnings;
    Progress& m_progress;
    const ReadOptions& m_options;
    std::size_t m_nC = 0;
    std::size_t m_nL = 0;
    std::vector<CubeMetric*> m_imported;
    /// Per imported metric: the ":parallax-other" metric holding its other value, or nullptr.
    std::vector<const CubeMetric*> m_other;
    qsizetype m_folded = 0;
    static inline const QLatin1String OtherValueSuffix { ":parallax-other" };
    CubeMetric* m_visits = nullptr;
    std::vector<ThreadIndex> m_threads;
    std::size_t m_movedThreads = 0;
    std::vector<EventId> m_pathEvent;
    std::vector<EventId> m_flatEvent;
    std::size_t m_eventCount = 0;
    std::vector<std::vector<Member>> m_members;
    std::vector<unsigned char> m_present;
    std::vector<double> m_visitsExclusive;
    std::vector<std::vector<std::uint32_t>> m_rowEvents;
    const double* m_calls = nullptr;
    std::vector<double> m_subrs;
};

} // namespace

QString unitOfUom(const QString& uom)
{
    const QString u = uom.trimmed().toLower();
    if (u == QLatin1String("sec") || u == QLatin1String("s") || u == QLatin1String("seconds"))
        return QStringLiteral("sec");
    if (u == QLatin1String("usec") || u == QLatin1String("us"))
        return QStringLiteral("us");
    if (u == QLatin1String("occ") || u == QLatin1String("occurrences"))
        return QStringLiteral("count");
    if (u == QLatin1String("bytes") || u == QLatin1String("byte"))
        return QStringLiteral("bytes");
    return uom.trimmed();
}

void assembleTrial(
    CubeDocument& doc, TrialBuilder& builder, QStringList& warnings, Progress& progress, const ReadOptions& options)
{
    TrialAssembler(doc, builder, warnings, progress, options).run();
}

} // namespace parallax::cube
