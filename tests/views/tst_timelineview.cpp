// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The OTF2 time line (issue 19 §3) on the pipit ping-pong traces: per location the bins' exclusive
// times add up to the profile's exclusive time of every region (readOtf2Timeline replays the same
// stream); MPI_Init dominates the first 90 % of the trace (MANIFEST: it takes 208 ms of ~215); a drag
// across the strip chooses a window; Open Window as Trial gives exactly the profile the reader's from=
// and to= options give; a trial that is not a trace shows a note and no time line.
#include "datasource/readers/otf2reader.h"
#include "tests/common/readertest.h"
#include "tests/common/testutil.h"
#include "views/selectionstate.h"
#include "views/timeline/timelineview.h"

#include <QSignalSpy>
#include <QTest>
#include <cmath>

using namespace parallax;
using namespace parallax::test;

namespace {

QString pingPong(const char* variant) { return dataPath(QStringLiteral("otf2/pipit/%1").arg(QLatin1String(variant))); }

} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void binsAddUpToTheProfile_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::newRow("ping-pong") << pingPong("ping-pong-otf2");
        QTest::newRow("papi") << pingPong("ping-pong-otf2-papi");
    }
    void binsAddUpToTheProfile()
    {
        QFETCH(QString, trace);
        Progress progress;
        const auto line = readOtf2Timeline(trace, 500, progress);
        QVERIFY2(line, qPrintable(line ? QString() : line.error().toString()));
        const Otf2Timeline& t = line.value();
        QCOMPARE(t.locations.size(), std::size_t(2));
        QCOMPARE(t.dominant.size(), std::size_t(1000));
        const auto profile = mustReadWith(Otf2Reader(), trace);
        QVERIFY(profile);
        std::size_t checked = 0;
        for (std::size_t loc = 0; loc < 2; ++loc) {
            for (const auto& [region, secs] : t.exclusiveSeconds[loc]) {
                const double excl = fieldOf(*profile, ThreadIndex(loc), t.regions[std::size_t(region)], Field::Excl);
                QVERIFY2(near(secs * 1e6, excl, 1e-6), qPrintable(t.regions[std::size_t(region)]));
                ++checked;
            }
            // MPI_Init holds most of the first 90 % of the bins.
            std::size_t init = 0;
            for (std::size_t b = 0; b < 450; ++b) {
                const int r = t.dominant[loc * 500 + b];
                init += r >= 0 && t.regions[std::size_t(r)] == QLatin1String("MPI_Init") ? 1 : 0;
            }
            QVERIFY2(init >= 440, qPrintable(QString::number(init)));
        }
        QVERIFY(checked >= 10);
    }

    void dragAndOpenWindow()
    {
        SelectionState state;
        TimelineView view(&state);
        view.resize(1200, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QString trace = pingPong("ping-pong-otf2");
        state.setTrial(mustReadWith(Otf2Reader(), trace));
        view.updateNow();
        QVERIFY(view.timeline());
        const double length = view.timeline()->seconds;
        QVERIFY(length > 0.19 && length < 0.22);
        QCOMPARE(view.windowFrom(), 0.0);
        QVERIFY(near(view.windowTo(), length, 1e-6));

        // A drag from 0.1 s to 0.15 s chooses that window (to a pixel).
        TimelineStrip* strip = view.strip();
        const int y = strip->height() / 2;
        QTest::mousePress(strip, Qt::LeftButton, {}, QPoint(strip->xOf(0.1), y));
        QTest::mouseMove(strip, QPoint(strip->xOf(0.15), y));
        QTest::mouseRelease(strip, Qt::LeftButton, {}, QPoint(strip->xOf(0.15), y));
        const double pixel = length / (strip->width() - 150);
        QVERIFY(std::abs(view.windowFrom() - 0.1) <= pixel);
        QVERIFY(std::abs(view.windowTo() - 0.15) <= pixel);

        // Open Window as Trial reads the window's profile, as the reader's options do.
        view.setWindow(0.195, 0.1996);
        QSignalSpy derived(&view, &TimelineView::trialDerived);
        view.openWindow();
        view.waitForWindow();
        QCOMPARE(derived.count(), 1);
        const auto window = derived.front().at(0).value<TrialPtr>();
        QVERIFY(window);
        ReadOptions options;
        options.formatOptions = { QStringLiteral("from=0.195"), QStringLiteral("to=0.1996") };
        const auto expected = mustReadWith(Otf2Reader(), trace, options);
        QVERIFY(expected);
        std::size_t compared = 0;
        for (std::size_t t = 0; t < expected->threadCount(); ++t)
            for (const IntervalEvent& e : expected->events()) {
                const ThreadIndex ti(t);
                QCOMPARE(fieldOf(*window, ti, e.name, Field::Excl), fieldOf(*expected, ti, e.name, Field::Excl));
                QCOMPARE(fieldOf(*window, ti, e.name, Field::Calls), fieldOf(*expected, ti, e.name, Field::Calls));
                ++compared;
            }
        QVERIFY(compared > 10);
        const auto whole = mustReadWith(Otf2Reader(), trace);
        QVERIFY(fieldOf(*window, ThreadIndex(std::size_t { 0 }), QStringLiteral("MPI_Init"), Field::Excl)
            < fieldOf(*whole, ThreadIndex(std::size_t { 0 }), QStringLiteral("MPI_Init"), Field::Excl));

        // A profile that is not a trace: no time line.
        state.setTrial(mustLoad(dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"))));
        view.updateNow();
        QVERIFY(!view.timeline());
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
