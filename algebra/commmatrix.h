// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QLocale>
#include <QString>
#include <QStringList>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

namespace parallax {

/// What a cell of the communication matrix shows (docs/SEMANTICS.md 13).
enum class CommQuantity { Bytes, Messages, MeanSize };

/// Which side's records fill the matrix: the senders' `Message size sent to node K` (the matrix)
/// or the receivers' `Message size received from node K` (the cross-check). Both are laid out
/// sender × receiver.
enum class CommSide { Sent, Received };

/// "bytes", "messages", "mean"; and back (nullopt for another name).
QString commQuantityName(CommQuantity quantity);
std::optional<CommQuantity> commQuantityOf(const QString& name);

/// A value of `quantity` for people: bytes and messages as whole numbers with digit grouping (the
/// sums of count × mean carry rounding noise), the mean size with one decimal; "-" for 0.
QString formatCommValue(double value, CommQuantity quantity, const QLocale& locale = QLocale());

/// A user event's base name read as a point-to-point message event: the side and the peer node K
/// of `Message size sent to node K` / `Message size received from node K`; nullopt for any other
/// name (`… all nodes` included).
struct CommEventName {
    CommSide side = CommSide::Sent;
    int peer = 0;
};
std::optional<CommEventName> parseCommEventName(const QString& baseName);

/// One non-empty cell: sender row, receiver column (indices into CommMatrix::ranks).
struct CommCell {
    std::uint32_t sender = 0;
    std::uint32_t receiver = 0;
    double bytes = 0;
    double messages = 0;
    double mean() const { return messages > 0 ? bytes / messages : 0.0; }
};

/// The sender × receiver matrix of one trial, one context and one side (docs/SEMANTICS.md 13).
struct CommMatrix {
    /// The axes: node ids ascending, the nodes of the trial's threads and every peer named.
    std::vector<int> ranks;
    /// Per rank the thread a click selects: (n,0,0) if present, else the node's first thread;
    /// invalid for a peer without threads.
    std::vector<ThreadIndex> rankThreads;
    /// The non-empty cells, by sender then receiver.
    std::vector<CommCell> cells;
    /// Per rank: the bytes and messages of its row (as sender) and of its column (as receiver).
    std::vector<double> rowBytes, rowMessages, columnBytes, columnMessages;
    /// "" for all contexts.
    QString context;
    CommSide side = CommSide::Sent;
    /// All contexts: how many (thread, peer) pairs had no plain event, so that the sum of their
    /// context variants stands in for it.
    std::size_t pairsFromContexts = 0;
    /// Records read (after the builder's pooling).
    std::size_t records = 0;

    std::size_t size() const { return ranks.size(); }
    bool empty() const { return cells.empty(); }
    /// The cell (sender, receiver); an empty cell (zeros) when nothing was recorded.
    CommCell cell(std::size_t sender, std::size_t receiver) const;
    /// The index of node id `node` on the axes; -1 when absent.
    int indexOf(int node) const;
    /// A cell's value of `quantity`.
    static double value(const CommCell& cell, CommQuantity quantity);
    /// A row's (sender's) or column's (receiver's) sum of `quantity` (for the mean size: the row's
    /// bytes over its messages).
    double rowSum(std::size_t rank, CommQuantity quantity) const;
    double columnSum(std::size_t rank, CommQuantity quantity) const;
    /// The dense matrix of `quantity`, row-major (size() × size()); empty above MaxDenseRanks.
    std::vector<double> dense(CommQuantity quantity) const;
    /// The largest cell value of `quantity` (0 when empty).
    double maxValue(CommQuantity quantity) const;
    /// The smallest positive cell value of `quantity` (0 when none), for a log scale.
    double minPositiveValue(CommQuantity quantity) const;

    static constexpr std::size_t MaxDenseRanks = 4096;
};

/// The point-to-point message contexts of a trial: the distinct call paths after " : " of its
/// message events (docs/SEMANTICS.md 13), sorted; empty when it has none.
QStringList commContexts(const Trial& trial);

/// Whether the trial has any point-to-point message event (sent or received, any context).
bool hasCommEvents(const Trial& trial);

/// The matrix of `trial` for `context` ("" = all contexts) and `side`, over all threads (in
/// parallel); `cancel` (optional) stops it early with a partial result. Metric-independent.
CommMatrix commMatrix(const Trial& trial, const QString& context = {}, CommSide side = CommSide::Sent,
    const std::atomic_bool* cancel = nullptr);

/// The matrix of `quantity` as CSV: a header "sender/receiver,K…,row sum", one line per sender
/// node, a last line "column sum,…" (numbers in full precision, '.' as decimal point).
QString commMatrixCsv(const CommMatrix& matrix, CommQuantity quantity);

} // namespace parallax
