// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "app/cli/commmatrixcommand.h"

#include "algebra/commmatrix.h"
#include "app/cli/algebracommand.h"
#include "app/cli/commandline.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace parallax {

using namespace cli;

namespace {

QJsonObject matrixJson(const Trial& trial, const CommMatrix& m, CommQuantity quantity, const QStringList& contexts)
{
    const std::size_t n = m.size();
    QJsonArray ranks;
    for (const int r : m.ranks)
        ranks.append(r);
    QJsonArray rows;
    const std::vector<double> dense = m.dense(quantity);
    for (std::size_t s = 0; s < n && !dense.empty(); ++s) {
        QJsonArray row;
        for (std::size_t r = 0; r < n; ++r)
            row.append(jsonNumber(dense[s * n + r]));
        rows.append(row);
    }
    QJsonArray cells;
    for (const CommCell& c : m.cells)
        cells.append(QJsonObject { { QStringLiteral("sender"), m.ranks[c.sender] },
            { QStringLiteral("receiver"), m.ranks[c.receiver] }, { QStringLiteral("bytes"), jsonNumber(c.bytes) },
            { QStringLiteral("messages"), jsonNumber(c.messages) }, { QStringLiteral("mean"), jsonNumber(c.mean()) } });
    QJsonArray rowSums;
    QJsonArray columnSums;
    for (std::size_t r = 0; r < n; ++r) {
        rowSums.append(jsonNumber(m.rowSum(r, quantity)));
        columnSums.append(jsonNumber(m.columnSum(r, quantity)));
    }
    return QJsonObject { { QStringLiteral("trial"), trial.name() },
        { QStringLiteral("quantity"), commQuantityName(quantity) },
        { QStringLiteral("side"), m.side == CommSide::Sent ? QStringLiteral("sent") : QStringLiteral("received") },
        { QStringLiteral("context"), m.context.isEmpty() ? QJsonValue() : QJsonValue(m.context) },
        { QStringLiteral("contexts"), QJsonArray::fromStringList(contexts) }, { QStringLiteral("ranks"), ranks },
        { QStringLiteral("matrix"), rows }, { QStringLiteral("rowSums"), rowSums },
        { QStringLiteral("columnSums"), columnSums }, { QStringLiteral("cells"), cells },
        { QStringLiteral("pairsFromContexts"), static_cast<qint64>(m.pairsFromContexts) } };
}

void writeText(
    const Trial& trial, const CommMatrix& m, CommQuantity quantity, const QStringList& contexts, QTextStream& out)
{
    const std::size_t n = m.size();
    out << "Communication matrix of " << trial.name() << ": " << commQuantityName(quantity) << ", "
        << (m.side == CommSide::Sent ? "as sent" : "as received") << ", "
        << (m.context.isEmpty() ? QStringLiteral("all contexts") : QStringLiteral("context '%1'").arg(m.context))
        << " (" << n << " ranks, " << m.cells.size() << " sender-receiver pairs; row = sender, column = receiver)\n";
    const auto cell = [&](double v) { return formatCommValue(v, quantity); };
    int width = 8;
    const std::vector<double> dense = m.dense(quantity);
    for (const double v : dense)
        width = std::max(width, static_cast<int>(cell(v).size()));
    for (std::size_t r = 0; r < n; ++r)
        width = std::max(width, static_cast<int>(cell(m.rowSum(r, quantity)).size()));
    out << QStringLiteral("%1").arg(QStringLiteral("from\\to"), 8);
    for (const int r : m.ranks)
        out << ' ' << QStringLiteral("%1").arg(r, width);
    out << ' ' << QStringLiteral("%1").arg(QStringLiteral("row sum"), width) << '\n';
    for (std::size_t s = 0; s < n && !dense.empty(); ++s) {
        out << QStringLiteral("%1").arg(m.ranks[s], 8);
        for (std::size_t r = 0; r < n; ++r)
            out << ' ' << QStringLiteral("%1").arg(cell(dense[s * n + r]), width);
        out << ' ' << QStringLiteral("%1").arg(cell(m.rowSum(s, quantity)), width) << '\n';
    }
    out << QStringLiteral("%1").arg(QStringLiteral("col sum"), 8);
    for (std::size_t r = 0; r < n; ++r)
        out << ' ' << QStringLiteral("%1").arg(cell(m.columnSum(r, quantity)), width);
    out << '\n';
    if (m.pairsFromContexts > 0)
        out << "note: " << m.pairsFromContexts
            << " (thread, peer) pair(s) had only context events; their contexts' sum stands in\n";
    if (!contexts.isEmpty())
        out << "contexts (--context): " << contexts.join(QStringLiteral("; ")) << '\n';
}

} // namespace

int runCommMatrixCommand(const QStringList& args)
{
    Command cmd(QStringLiteral("commmatrix"), QStringLiteral("PATH"),
        QStringLiteral("The communication matrix (docs/SEMANTICS.md 13): per sender and receiver rank (node id) the\n"
                       "bytes, messages or mean message size of the point-to-point messages TAU records with\n"
                       "TAU_COMM_MATRIX=1 ('Message size sent to node K') or an OTF2 trace holds; the row and\n"
                       "column sums; the call-path contexts of the messages."));
    const auto quantityOption = cmd.add({ QStringLiteral("quantity") },
        QStringLiteral("What a cell shows: bytes (default), messages or mean (bytes per message)."),
        QStringLiteral("Q"));
    const auto contextOption = cmd.add({ QStringLiteral("context") },
        QStringLiteral("Only the messages sent in this call-path context (the text after ' : '; default all)."),
        QStringLiteral("C"));
    const auto receivedOption = cmd.add({ QStringLiteral("received") },
        QStringLiteral("The receivers' records ('Message size received from node K') instead, as a cross-check."));
    const auto csv = cmd.add({ QStringLiteral("csv") }, QStringLiteral("Print the matrix as CSV."));
    const auto json = cmd.add({ QStringLiteral("json") },
        QStringLiteral("Print ranks, matrix, row and column sums, cells and contexts as JSON."));
    const auto source = cmd.addTrialSource();
    cmd.addArgument(QStringLiteral("PATH"), QStringLiteral("A profile or trace in any format, or db:ID."));
    if (const auto stop = cmd.parse(args))
        return *stop;
    const auto path = cmd.onePath(source);
    if (!path)
        return ExitUsage;
    if (cmd.isSet(csv) && cmd.isSet(json))
        return cmd.usageError(QStringLiteral("give --csv or --json, not both"));
    CommQuantity quantity = CommQuantity::Bytes;
    if (cmd.isSet(quantityOption)) {
        const auto q = commQuantityOf(cmd.value(quantityOption));
        if (!q)
            return cmd.usageError(
                QStringLiteral("--quantity takes bytes, messages or mean, not '%1'").arg(cmd.value(quantityOption)));
        quantity = *q;
    }

    QString error;
    const auto trial = loadTrialOperand(*path, cmd.value(source.db), cmd.value(source.format), &error);
    if (!trial)
        return failure(error);
    if (!hasCommEvents(*trial))
        return failure(QStringLiteral("%1 has no point-to-point message events ('Message size sent to node K'; "
                                      "TAU records them with TAU_COMM_MATRIX=1): no communication matrix")
                           .arg(*path));
    const QStringList contexts = commContexts(*trial);
    const QString context = cmd.value(contextOption);
    if (!context.isEmpty() && !contexts.contains(context))
        return failure(QStringLiteral("%1 has no message context '%2' (it has %3)")
                           .arg(*path, context,
                               contexts.isEmpty() ? QStringLiteral("none") : contexts.join(QStringLiteral("; "))));
    const CommSide side = cmd.isSet(receivedOption) ? CommSide::Received : CommSide::Sent;
    const CommMatrix m = commMatrix(*trial, context, side);
    if (m.empty())
        return failure(QStringLiteral("%1 has no %2 messages%3")
                           .arg(*path, side == CommSide::Sent ? QStringLiteral("sent") : QStringLiteral("received"),
                               context.isEmpty() ? QString() : QStringLiteral(" in context '%1'").arg(context)));
    if (m.size() > CommMatrix::MaxDenseRanks && !cmd.isSet(json))
        return failure(QStringLiteral("%1 ranks: more than %2 to print as a table; use --json (its cells)")
                           .arg(m.size())
                           .arg(CommMatrix::MaxDenseRanks));
    if (cmd.isSet(json)) {
        printOut(QJsonDocument(matrixJson(*trial, m, quantity, contexts)).toJson(QJsonDocument::Indented));
        return ExitSuccess;
    }
    if (cmd.isSet(csv)) {
        printOut(commMatrixCsv(m, quantity));
        return ExitSuccess;
    }
    QString text;
    QTextStream out(&text);
    writeText(*trial, m, quantity, contexts, out);
    out.flush();
    printOut(text);
    return ExitSuccess;
}

} // namespace parallax
