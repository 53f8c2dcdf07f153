// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// The CUBE reader's picture of one CUBE document (docs/FORMATS.md 5): the metric tree, regions, the
// call tree of cnodes, the system tree, and each metric's stored values as dense arrays. cubexml
// fills it from XML, cubedata from the .index/.data members of a .cubex, cubeassembler turns it
// into a Trial; cubereader.cpp runs them. Internal to the CUBE reader (namespace parallax::cube).

#include "datasource/readers/reader.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace parallax::cube {

/// Bytes read from a file or archive member at a time.
inline constexpr std::size_t ChunkSize = std::size_t { 256 } * 1024;
/// Far beyond any real metric tree (Scalasca's has ~200); it bounds the builder's linear metric search.
inline constexpr std::size_t MaxMetrics = 4096;

enum class MetricKind { Exclusive, Inclusive, Simple, Derived };
enum class ValueType { Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Double, Unsupported };

struct CubeMetric {
    qint64 id = -1;
    int parent = -1;
    qint64 line = 0;
    QString dispName, uniqName, dtype, uom, val, url, descr, typeText, cubepl;
    MetricKind kind = MetricKind::Exclusive;
    ValueType valueType = ValueType::Double;
    bool nonAdditive = false;
    bool minimum = false;
    /// Becomes a model metric (stores values, supported dtype).
    bool imported = false;
    /// A composite dtype (RATE, COMPLEX, TAU_ATOMIC, NDOUBLES(n), HISTOGRAM(n)): each value is a record
    /// of `recordSize` bytes whose parts become model metrics of their own (componentMetrics, indices
    /// into CubeDocument::metrics, appended by classifyMetrics).
    struct Component {
        QString part;
        int offset;
        ValueType type;
        int extremum; // 0 additive, -1 minimum, +1 maximum
    };
    std::vector<Component> components;
    int recordSize = 0;
    std::vector<int> componentMetrics;
    /// The composite metric a component metric belongs to (index into CubeDocument::metrics), or -1.
    int compositeOf = -1;
    std::size_t modelIndex = 0;
    QString modelName;
    /// Stored values, [cnode position * locations + location column]; empty means all zero.
    std::vector<double> stored;
    /// Where the values came from ("anchor.xml", "3.data"), for duplicate detection.
    QString dataSource;
};

struct CubeRegion {
    qint64 id = -1;
    qint64 line = 0;
    QString name, mangled, mod, paradigm, role, descr;
    QString beginText, endText;
    qint64 begin = -1;
    qint64 end = -1;
};

struct CubeCnode {
    qint64 id = -1;
    qint64 calleeId = -1;
    int region = -1;
    int parent = -1;
    std::vector<int> children;
    qint64 xmlLine = 0;
    QString callLine, mod;
    QStringList params;
};

struct SysNode {
    QString cls, name;
    int parent = -1;
};

struct LocGroup {
    qint64 id = -1;
    qint64 line = 0;
    QString name, type, rankText;
    int sysNode = -1;
};

struct Location {
    qint64 id = -1;
    qint64 line = 0;
    QString name, type, rankText;
    int group = -1;
};

/// A `<cart>` topology: named dims, and the coordinates of the locations it places.
struct CubeCart {
    struct Dim {
        QString name;
        qint64 size = 0;
        bool periodic = false;
    };
    struct Coord {
        enum class Of : std::uint8_t { Location, Process, Machine, Node };
        Of of = Of::Location; ///< CUBE 4 locId / CUBE 3 thrdId, or procId (every location of it), ...
        qint64 id = -1;
        qint64 line = 0;
        QString text; ///< "x y z", as written
    };
    QString name;
    std::vector<Dim> dims;
    std::vector<Coord> coords;
};

struct CubeDocument {
    QString version;
    int major = 0;
    std::vector<std::pair<QString, QString>> attrs;
    QStringList mirrors;
    std::vector<CubeMetric> metrics;
    std::vector<CubeRegion> regions;
    std::vector<CubeCnode> cnodes; // document order = depth-first pre-order
    std::vector<SysNode> sysNodes;
    std::vector<LocGroup> groups;
    std::vector<Location> locations; // sorted by Id after finalize()
    QStringList topologies;
    std::vector<CubeCart> carts;
    QStringList unknownElements;
    bool hasSeverity = false;
    bool finalized = false;
    /// Values this reader may hold in dense arrays (see allocateStored), and those allocated so far.
    qint64 cellBudget = qint64(1) << 24;
    qint64 cellsAllocated = 0;
    QHash<qint64, int> metricById;
    QHash<qint64, int> cnodeById;

    std::size_t cellCount() const { return cnodes.size() * locations.size(); }
};

/// The model unit of a CUBE uom: sec, us (usec), count (occ), bytes, else the uom as written (cubeassembler.cpp;
/// the CUBE writer maps units back with it).
QString unitOfUom(const QString& uom);

/// "line N" or "<member> line N", for messages.
QString where(const QString& member, qint64 line);

inline qint64 parseInteger(QStringView text, bool* ok) { return text.trimmed().toLongLong(ok); }

/// Checks ids, resolves callees, orders locations by Id. Called once the structure is complete
/// (before the first CUBE 3 severity row, or at the end of the XML).
void finalizeStructure(CubeDocument& doc, const QString& member);

/// Gives a metric its dense value array (cnodes x locations, zero). The total is bounded by
/// CubeDocument::cellBudget, which grows with the file size: a real file stores (or lists) its values,
/// so only a corrupt one can ask for much more memory than its own size.
void allocateStored(CubeDocument& doc, CubeMetric& m);

/// Warnings that mean data was not imported: errors under ReadOptions::strict.
void dataWarning(QStringList& warnings, const QString& w, const ReadOptions& options);

/// A warning about `count` things (`text` with %1 = the count); none when the count is 0.
template <typename Count> void countWarning(QStringList& warnings, Count count, const QString& text)
{
    if (count > 0)
        warnings << text.arg(count);
}

/// countWarning() with %2 = `details` (examples, the first line).
template <typename Count>
void countWarning(QStringList& warnings, Count count, const QString& text, const QString& details)
{
    if (count > 0)
        warnings << text.arg(count).arg(details);
}

} // namespace parallax::cube
