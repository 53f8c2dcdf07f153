// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "algebra/commmatrix.h"

#include "algebra/parallelfor.h"

#include <QSet>
#include <algorithm>
#include <cmath>
#include <limits>

namespace parallax {

namespace {

const QLatin1String SentPrefix("Message size sent to node ");
const QLatin1String ReceivedPrefix("Message size received from node ");

/// How one user event takes part in the requested matrix.
enum class Role : std::uint8_t { None, Plain, Variant };

struct EventRole {
    Role role = Role::None;
    int peer = 0;
};

} // namespace

QString commQuantityName(CommQuantity quantity)
{
    switch (quantity) {
    case CommQuantity::Bytes:
        return QStringLiteral("bytes");
    case CommQuantity::Messages:
        return QStringLiteral("messages");
    case CommQuantity::MeanSize:
        return QStringLiteral("mean");
    }
    return {};
}

std::optional<CommQuantity> commQuantityOf(const QString& name)
{
    for (const CommQuantity q : { CommQuantity::Bytes, CommQuantity::Messages, CommQuantity::MeanSize })
        if (name.compare(commQuantityName(q), Qt::CaseInsensitive) == 0)
            return q;
    return std::nullopt;
}

QString formatCommValue(double value, CommQuantity quantity, const QLocale& locale)
{
    if (value == 0)
        return QStringLiteral("-");
    if (quantity == CommQuantity::MeanSize)
        return locale.toString(value, 'f', 1);
    return locale.toString(static_cast<qlonglong>(std::llround(value)));
}

std::optional<CommEventName> parseCommEventName(const QString& baseName)
{
    CommEventName out;
    QStringView rest;
    if (baseName.startsWith(SentPrefix)) {
        rest = QStringView(baseName).mid(SentPrefix.size());
    } else if (baseName.startsWith(ReceivedPrefix)) {
        out.side = CommSide::Received;
        rest = QStringView(baseName).mid(ReceivedPrefix.size());
    } else {
        return std::nullopt;
    }
    bool ok = false;
    out.peer = rest.trimmed().toInt(&ok); // "all nodes" fails here
    if (!ok || out.peer < 0)
        return std::nullopt;
    return out;
}

CommCell CommMatrix::cell(std::size_t sender, std::size_t receiver) const
{
    CommCell key;
    key.sender = static_cast<std::uint32_t>(sender);
    key.receiver = static_cast<std::uint32_t>(receiver);
    const auto it = std::lower_bound(cells.begin(), cells.end(), key, [](const CommCell& a, const CommCell& b) {
        return a.sender != b.sender ? a.sender < b.sender : a.receiver < b.receiver;
    });
    if (it != cells.end() && it->sender == key.sender && it->receiver == key.receiver)
        return *it;
    return key;
}

int CommMatrix::indexOf(int node) const
{
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), node);
    return it != ranks.end() && *it == node ? static_cast<int>(it - ranks.begin()) : -1;
}

double CommMatrix::value(const CommCell& cell, CommQuantity quantity)
{
    switch (quantity) {
    case CommQuantity::Bytes:
        return cell.bytes;
    case CommQuantity::Messages:
        return cell.messages;
    case CommQuantity::MeanSize:
        return cell.mean();
    }
    return 0;
}

namespace {

double sumOf(double bytes, double messages, CommQuantity quantity)
{
    CommCell c;
    c.bytes = bytes;
    c.messages = messages;
    return CommMatrix::value(c, quantity);
}

} // namespace

double CommMatrix::rowSum(std::size_t rank, CommQuantity quantity) const
{
    return sumOf(rowBytes[rank], rowMessages[rank], quantity);
}

double CommMatrix::columnSum(std::size_t rank, CommQuantity quantity) const
{
    return sumOf(columnBytes[rank], columnMessages[rank], quantity);
}

std::vector<double> CommMatrix::dense(CommQuantity quantity) const
{
    const std::size_t n = size();
    if (n > MaxDenseRanks)
        return {};
    std::vector<double> out(n * n, 0.0);
    for (const CommCell& c : cells)
        out[std::size_t(c.sender) * n + c.receiver] = value(c, quantity);
    return out;
}

double CommMatrix::maxValue(CommQuantity quantity) const
{
    double m = 0;
    for (const CommCell& c : cells)
        m = std::max(m, value(c, quantity));
    return m;
}

double CommMatrix::minPositiveValue(CommQuantity quantity) const
{
    double m = std::numeric_limits<double>::infinity();
    for (const CommCell& c : cells)
        if (const double v = value(c, quantity); v > 0)
            m = std::min(m, v);
    return std::isinf(m) ? 0.0 : m;
}

QStringList commContexts(const Trial& trial)
{
    QSet<QString> seen;
    for (const AtomicEvent& e : trial.atomicEvents())
        if (e.hasContext() && parseCommEventName(e.baseName))
            seen.insert(e.context);
    QStringList out(seen.begin(), seen.end());
    out.sort();
    return out;
}

bool hasCommEvents(const Trial& trial)
{
    return std::any_of(trial.atomicEvents().begin(), trial.atomicEvents().end(),
        [](const AtomicEvent& e) { return parseCommEventName(e.baseName).has_value(); });
}

CommMatrix commMatrix(const Trial& trial, const QString& context, CommSide side, const std::atomic_bool* cancel)
{
    CommMatrix m;
    m.context = context;
    m.side = side;
    // Which events count: for all contexts the plain events, and the context variants as a stand-in
    // where a thread has no plain record for a peer; for one context its variants alone.
    std::vector<EventRole> roles(trial.atomicEventCount());
    std::vector<int> nodes;
    for (std::size_t i = 0; i < roles.size(); ++i) {
        const AtomicEvent& e = trial.atomicEvents()[i];
        const auto name = parseCommEventName(e.baseName);
        if (!name || name->side != side)
            continue;
        if (context.isEmpty())
            roles[i].role = e.hasContext() ? Role::Variant : Role::Plain;
        else if (e.context == context)
            roles[i].role = Role::Plain;
        roles[i].peer = name->peer;
        if (roles[i].role != Role::None)
            nodes.push_back(name->peer);
    }
    for (const ThreadKey& k : trial.threads())
        nodes.push_back(k.node);
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    m.ranks = std::move(nodes);
    const std::size_t n = m.ranks.size();
    m.rankThreads.assign(n, ThreadIndex());
    // A click selects (n,0,0), else the node's first thread.
    for (std::size_t t = trial.threadCount(); t-- > 0;)
        m.rankThreads[std::size_t(m.indexOf(trial.threads()[t].node))] = ThreadIndex(static_cast<std::uint32_t>(t));
    for (std::size_t r = 0; r < n; ++r)
        if (const ThreadIndex z = trial.findThread(ThreadKey { m.ranks[r], 0, 0 }); z.isValid())
            m.rankThreads[r] = z;

    // Per worker: the cells its threads recorded, unmerged.
    struct Scratch {
        std::vector<CommCell> cells;
        std::vector<int> plainPeers;
        std::vector<int> variantPeers;
        std::size_t pairsFromContexts = 0;
        std::size_t records = 0;
    };
    const std::size_t threads = trial.threadCount();
    constexpr std::size_t Block = 64;
    std::vector<Scratch> scratch(parallelWorkers(threads, Block, 0));
    parallelFor(threads, Block, 0, [&](std::size_t begin, std::size_t end, std::size_t worker) {
        Scratch& s = scratch[worker];
        for (std::size_t t = begin; t < end; ++t) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return;
            const ThreadKey& key = trial.threads()[t];
            const auto self = static_cast<std::uint32_t>(m.indexOf(key.node));
            const AtomicRow& row = trial.atomicRow(ThreadIndex(static_cast<std::uint32_t>(t)));
            s.plainPeers.clear();
            s.variantPeers.clear();
            auto add = [&](std::size_t i, int peer) {
                const auto other = static_cast<std::uint32_t>(m.indexOf(peer));
                CommCell c;
                c.sender = side == CommSide::Sent ? self : other;
                c.receiver = side == CommSide::Sent ? other : self;
                c.messages = row.count[i];
                c.bytes = row.count[i] * row.mean[i];
                s.cells.push_back(c);
                ++s.records;
            };
            for (std::size_t i = 0; i < row.size(); ++i) {
                const EventRole& r = roles[row.events[i].index()];
                if (r.role == Role::Plain) {
                    add(i, r.peer);
                    s.plainPeers.push_back(r.peer);
                }
            }
            if (!context.isEmpty())
                continue;
            std::sort(s.plainPeers.begin(), s.plainPeers.end());
            for (std::size_t i = 0; i < row.size(); ++i) {
                const EventRole& r = roles[row.events[i].index()];
                if (r.role != Role::Variant || std::binary_search(s.plainPeers.begin(), s.plainPeers.end(), r.peer))
                    continue;
                add(i, r.peer);
                s.variantPeers.push_back(r.peer);
            }
            std::sort(s.variantPeers.begin(), s.variantPeers.end());
            s.pairsFromContexts += static_cast<std::size_t>(
                std::unique(s.variantPeers.begin(), s.variantPeers.end()) - s.variantPeers.begin());
        }
    });

    std::vector<CommCell> all;
    for (Scratch& s : scratch) {
        all.insert(all.end(), s.cells.begin(), s.cells.end());
        m.pairsFromContexts += s.pairsFromContexts;
        m.records += s.records;
    }
    std::sort(all.begin(), all.end(), [](const CommCell& a, const CommCell& b) {
        return a.sender != b.sender ? a.sender < b.sender : a.receiver < b.receiver;
    });
    for (const CommCell& c : all) {
        if (!m.cells.empty() && m.cells.back().sender == c.sender && m.cells.back().receiver == c.receiver) {
            m.cells.back().bytes += c.bytes;
            m.cells.back().messages += c.messages;
        } else {
            m.cells.push_back(c);
        }
    }
    m.rowBytes.assign(n, 0.0);
    m.rowMessages.assign(n, 0.0);
    m.columnBytes.assign(n, 0.0);
    m.columnMessages.assign(n, 0.0);
    for (const CommCell& c : m.cells) {
        m.rowBytes[c.sender] += c.bytes;
        m.rowMessages[c.sender] += c.messages;
        m.columnBytes[c.receiver] += c.bytes;
        m.columnMessages[c.receiver] += c.messages;
    }
    return m;
}

QString commMatrixCsv(const CommMatrix& matrix, CommQuantity quantity)
{
    const auto number = [](double v) { return QString::number(v, 'g', 17); };
    const std::size_t n = matrix.size();
    QString out = QStringLiteral("sender/receiver");
    for (const int r : matrix.ranks)
        out += QLatin1Char(',') + QString::number(r);
    out += QStringLiteral(",row sum\n");
    std::size_t next = 0; // the cells are sorted by sender, then receiver
    for (std::size_t s = 0; s < n; ++s) {
        out += QString::number(matrix.ranks[s]);
        for (std::size_t r = 0; r < n; ++r) {
            double v = 0;
            if (next < matrix.cells.size() && matrix.cells[next].sender == s && matrix.cells[next].receiver == r)
                v = CommMatrix::value(matrix.cells[next++], quantity);
            out += QLatin1Char(',') + number(v);
        }
        out += QLatin1Char(',') + number(matrix.rowSum(s, quantity)) + QLatin1Char('\n');
    }
    out += QStringLiteral("column sum");
    CommCell total;
    for (std::size_t r = 0; r < n; ++r) {
        out += QLatin1Char(',') + number(matrix.columnSum(r, quantity));
        total.bytes += matrix.columnBytes[r];
        total.messages += matrix.columnMessages[r];
    }
    out += QLatin1Char(',') + number(CommMatrix::value(total, quantity)) + QLatin1Char('\n');
    return out;
}

} // namespace parallax
