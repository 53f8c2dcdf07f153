// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The compact row store of a built trial (issue 18 §2): every value reads back exactly as given,
// counts narrow to float only when exact, event lists are shared, and a real TAU directory read
// through the packing reader equals the same rows built the generic way.
#include "datasource/model/rowstore.h"
#include "datasource/model/trialbuilder.h"
#include "datasource/readers/readerregistry.h"
#include "datasource/synth/synth.h"
#include "datasource/writers/tauwriter.h"

#include <QTemporaryDir>
#include <QTest>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <set>

using namespace parallax;

namespace {

IntervalRow makeRow(
    const std::vector<std::uint32_t>& ids, std::size_t metrics, std::mt19937_64& rng, bool integerCounts, bool withSqr)
{
    IntervalRow row;
    std::uniform_real_distribution<double> value(0.0, 1e7);
    std::uniform_int_distribution<int> count(0, 1 << 20);
    for (const auto id : ids)
        row.events.push_back(EventId(id));
    const std::size_t n = ids.size();
    for (std::size_t i = 0; i < n; ++i) {
        row.calls.push_back(integerCounts ? count(rng) : value(rng));
        row.subrs.push_back(integerCounts ? count(rng) : value(rng));
    }
    for (std::size_t k = 0; k < n * metrics; ++k) {
        row.excl.push_back(value(rng));
        row.incl.push_back(value(rng));
        if (withSqr)
            row.exclSqr.push_back(value(rng));
    }
    return row;
}

/// Bit-for-bit equality of a stored value with its source (NaNs included).
bool sameBits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

void compareRows(const RowView& got, const IntervalRow& want)
{
    QCOMPARE(got.size(), want.size());
    QVERIFY(std::equal(got.events.begin(), got.events.end(), want.events.begin(), want.events.end()));
    QCOMPARE(got.calls.size(), want.calls.size());
    QCOMPARE(got.excl.size(), want.excl.size());
    QCOMPARE(got.incl.size(), want.incl.size());
    QCOMPARE(got.exclSqr.size(), want.exclSqr.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        QVERIFY2(sameBits(got.calls[i], want.calls[i]), qPrintable(QString::number(i)));
        QVERIFY(sameBits(got.subrs[i], want.subrs[i]));
    }
    for (std::size_t k = 0; k < want.excl.size(); ++k) {
        QVERIFY(sameBits(got.excl[k], want.excl[k]));
        QVERIFY(sameBits(got.incl[k], want.incl[k]));
        if (!want.exclSqr.empty())
            QVERIFY(sameBits(got.exclSqr[k], want.exclSqr[k]));
    }
}

} // namespace

class TestRowStore : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void valuesReadBackExactly()
    {
        std::mt19937_64 rng(7);
        std::vector<IntervalRow> rows;
        for (std::size_t r = 0; r < 300; ++r) {
            std::vector<std::uint32_t> ids;
            for (std::uint32_t e = 0; e < 40; ++e)
                if ((e + r) % 3 != 0)
                    ids.push_back(e);
            rows.push_back(makeRow(ids, 3, rng, r % 2 == 0, r % 5 == 0));
        }
        rows.emplace_back(); // a thread without any cell
        const std::vector<IntervalRow> want = rows;
        RowStore store = RowStore::pack(rows, 3);
        QCOMPARE(store.rowCount(), want.size());
        for (std::size_t r = 0; r < want.size(); ++r)
            compareRows(store.row(r), want[r]);
        QVERIFY(rows.front().events.empty()); // each row is freed once packed
    }

    void countsNarrowOnlyWhenExact()
    {
        RowStore::Writer writer(1);
        IntervalRow exact;
        exact.events = { EventId(0u), EventId(1u), EventId(2u), EventId(3u) };
        exact.calls = { 1, 16777216, std::numeric_limits<double>::quiet_NaN(), 0.5 };
        exact.subrs = { 0, 3, 4, -2 };
        exact.excl = { 1.1, 2.2, 3.3, 4.4 };
        exact.incl = exact.excl;
        const RowStore::Slot narrow = writer.append(exact);
        QVERIFY(narrow.floatCounts());
        compareRows(RowStore::view(narrow), exact);

        IntervalRow wide = exact;
        wide.calls[1] = 16777217; // 2^24 + 1 is not a float
        const RowStore::Slot full = writer.append(wide);
        QVERIFY(!full.floatCounts());
        compareRows(RowStore::view(full), wide);

        IntervalRow huge = exact;
        huge.subrs[0] = 1e300; // beyond float's range: kept as double, never converted
        QVERIFY(!writer.append(huge).floatCounts());
        IntervalRow fraction = exact;
        fraction.calls[3] = 0.1; // not a float either
        const RowStore::Slot tenth = writer.append(fraction);
        QVERIFY(!tenth.floatCounts());
        QCOMPARE(RowStore::view(tenth).calls[3], 0.1);
    }

    void identicalEventListsAreStoredOnce()
    {
        std::mt19937_64 rng(3);
        RowStore::Writer writer(1);
        std::vector<RowStore::Slot> stored;
        stored.reserve(101);
        for (int r = 0; r < 100; ++r)
            stored.push_back(writer.append(makeRow({ 1, 4, 9, 16 }, 1, rng, true, false)));
        stored.push_back(writer.append(makeRow({ 1, 4, 9 }, 1, rng, true, false)));
        QCOMPARE(writer.lists().size(), std::size_t { 2 });
        for (int r = 1; r < 100; ++r)
            QCOMPARE(stored[r].events, stored[0].events);
        QVERIFY(stored[100].events != stored[0].events);
    }

    void permutedValuesFollowTheirCells()
    {
        std::mt19937_64 rng(11);
        RowStore::Writer writer(2);
        const IntervalRow row = makeRow({ 5, 6, 7 }, 2, rng, false, true);
        const RowStore::Slot slot = writer.append(row);
        slot.permuteValues({ 2, 0, 1 });
        const RowView view = RowStore::view(slot);
        for (std::size_t k = 0; k < 3; ++k) {
            const std::size_t from = std::vector<std::size_t> { 2, 0, 1 }[k];
            QCOMPARE(view.calls[k], row.calls[from]);
            for (std::size_t m = 0; m < 2; ++m) {
                QCOMPARE(view.excl[m * 3 + k], row.excl[m * 3 + from]);
                QCOMPARE(view.incl[m * 3 + k], row.incl[m * 3 + from]);
                QCOMPARE(view.exclSqr[m * 3 + k], row.exclSqr[m * 3 + from]);
            }
        }
    }

    void inclusiveValuesEqualToExclusiveAreNotStored()
    {
        std::mt19937_64 rng(13);
        RowStore::Writer writer(2);
        std::vector<std::uint32_t> ids(150);
        std::iota(ids.begin(), ids.end(), 0u);
        IntervalRow row = makeRow(ids, 2, rng, true, false);
        for (std::size_t k = 0; k < row.incl.size(); ++k)
            if (k % 10 != 3)
                row.incl[k] = row.excl[k]; // leaves: inclusive is exclusive
        row.excl[7] = 0.0;
        row.incl[7] = -0.0; // equal as numbers, not as bits: must come back as -0.0
        row.incl[8] = std::numeric_limits<double>::quiet_NaN();
        const RowStore::Slot slot = writer.append(row);
        QVERIFY(slot.sparseIncl());
        QCOMPARE(slot.patches, std::uint32_t { 32 }); // 30 by k % 10 == 3, and cells 7 and 8
        compareRows(RowStore::view(slot), row);
        QVERIFY(std::signbit(RowStore::view(slot).incl[7]));
        QVERIFY(slot.valueBytes() < std::size_t { 150 } * (8 + 2 * 2 * 8)); // less than with a dense inclusive column

        // Sorting the cells of a shared list moves the sparse inclusive values with their cells.
        std::vector<std::uint32_t> order(150);
        std::iota(order.begin(), order.end(), 0u);
        std::shuffle(order.begin(), order.end(), rng);
        slot.permuteValues(order);
        const RowView view = RowStore::view(slot);
        for (std::size_t k = 0; k < 150; ++k)
            for (std::size_t m = 0; m < 2; ++m) {
                QVERIFY(sameBits(view.excl[m * 150 + k], row.excl[m * 150 + order[k]]));
                QVERIFY(sameBits(view.incl[m * 150 + k], row.incl[m * 150 + order[k]]));
            }

        // A row whose inclusive values mostly differ keeps the dense column.
        const IntervalRow wide = makeRow(ids, 2, rng, true, false);
        const RowStore::Slot dense = writer.append(wide);
        QVERIFY(!dense.sparseIncl());
        QVERIFY(RowStore::view(dense).incl.denseData() != nullptr);
        compareRows(RowStore::view(dense), wide);
    }

    /// The TAU reader packs rows in its workers; the trial must equal the one built from the same
    /// rows through the builder's generic path, and take at most 24 bytes a cell for one metric
    /// (shared lists, integer counts as float).
    void tauDirectoryEqualsTheGenericPath()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SynthOptions options;
        options.threads = 257;
        options.events = 60;
        options.callpathDepth = 2;
        options.userEvents = 3;
        options.seed = 5;
        options.realistic = true;
        const QString written = TauWriter::write(*synthesizeTrial(options), dir.path());
        QVERIFY2(written.isEmpty(), qPrintable(written));
        Progress progress;
        const auto read = ReaderRegistry::instance().read(dir.path(), ReadOptions {}, progress);
        QVERIFY2(read.ok(), qPrintable(read.ok() ? QString() : read.error().toString()));
        const Trial& trial = *read.value();

        TrialBuilder builder(QStringLiteral("copy"));
        builder.addDefinitionsOf(trial);
        std::vector<IntervalRow> rows;
        for (std::size_t t = 0; t < trial.threadCount(); ++t) {
            builder.addThread(trial.threadKey(ThreadIndex(t)));
            rows.push_back(trial.row(ThreadIndex(t)).toRow());
        }
        const std::vector<IntervalRow> want = rows;
        builder.setIntervalRows(std::move(rows));
        const auto copy = builder.build();
        QCOMPARE(copy->threadCount(), trial.threadCount());
        for (std::size_t t = 0; t < trial.threadCount(); ++t) {
            compareRows(trial.row(ThreadIndex(t)), want[t]);
            compareRows(copy->row(ThreadIndex(t)), want[t]);
        }
        QVERIFY(trial.cellCount() > std::size_t { 257 } * 100);
        std::set<const EventId*> lists;
        for (std::size_t t = 0; t < trial.threadCount(); ++t)
            lists.insert(trial.row(ThreadIndex(t)).events.data());
        QVERIFY2(lists.size() <= 4, qPrintable(QString::number(lists.size()))); // one per reader worker
        // Beyond the 32-byte slot of each row: at most 4 + 4 + 8 + 8 bytes a cell and the shared lists
        // (less where inclusive equals exclusive).
        const double perCell = static_cast<double>(trial.cellBytes() - trial.threadCount() * sizeof(RowStore::Slot))
            / static_cast<double>(trial.cellCount());
        QVERIFY2(perCell <= 24.2, qPrintable(QString::number(perCell)));
    }
};

QTEST_GUILESS_MAIN(TestRowStore)
#include "tst_rowstore.moc"
