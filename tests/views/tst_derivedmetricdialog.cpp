// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The derived-metric editor: live checking, metric buttons, definitions from a file.
#include "algebra/derivedmetric.h"
#include "tests/common/testutil.h"
#include "views/derived/derivedmetricdialog.h"

#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

using namespace parallax;
using namespace parallax::test;

class TestDerivedMetricDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void typedDefinition()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/ppk/xgc-5metrics-16rank.ppk")));
        QVERIFY(trial);
        DerivedMetricDialog dialog(trial);
        QVERIFY(!dialog.isAcceptable());
        // The metric buttons insert quoted names, the operator buttons the operators.
        auto* expression = dialog.findChildren<QLineEdit*>().at(2);
        for (QPushButton* button : dialog.findChildren<QPushButton*>()) {
            if (button->text() == QLatin1String("PAPI_TOT_INS") || button->text() == QLatin1String("/"))
                button->click();
            if (button->text() == QLatin1String("/"))
                QVERIFY(!dialog.isAcceptable()); // "PAPI_TOT_INS" / is incomplete
        }
        for (QPushButton* button : dialog.findChildren<QPushButton*>())
            if (button->text() == QLatin1String("PAPI_TOT_CYC"))
                button->click();
        QCOMPARE(expression->text().simplified(), QStringLiteral("\"PAPI_TOT_INS\" / \"PAPI_TOT_CYC\""));
        dialog.findChildren<QLineEdit*>().at(0)->setText(QStringLiteral("IPC"));
        QVERIFY2(dialog.isAcceptable(), qPrintable(dialog.status()));
        QVERIFY(dialog.status().contains(QLatin1String("IPC")));
        const auto definitions = dialog.definitions();
        QCOMPARE(definitions.size(), std::size_t(1));
        const AlgebraResult result = deriveMetrics(*trial, definitions, dialog.mode());
        QVERIFY2(result, qPrintable(result.error()));
        const MetricId ipc = result.trial()->findMetric(QStringLiteral("IPC"));
        QVERIFY(ipc.isValid());
        const QString event = trial->event(trial->row(ThreadIndex(0u)).events[0]).name;
        QCOMPARE(
            exclOf(*result.trial(), 0, event, ipc.index()), exclOf(*trial, 0, event, 4) / exclOf(*trial, 0, event, 1));
        if (qEnvironmentVariableIsSet("PARALLAX_SCREENSHOT_DIR")) {
            dialog.resize(720, 330);
            dialog.grab().save(qEnvironmentVariable("PARALLAX_SCREENSHOT_DIR") + QStringLiteral("/derived-metric.png"));
        }
    }

    void errorsAsTyped()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/ppk/xgc-5metrics-16rank.ppk")));
        QVERIFY(trial);
        DerivedMetricDialog dialog(trial);
        dialog.setDefinition(QStringLiteral("X"), QStringLiteral("(\"PAPI_TOT_INS\" + 2"));
        QVERIFY(!dialog.isAcceptable());
        QVERIFY2(dialog.status().contains(QLatin1String("column")), qPrintable(dialog.status()));
        dialog.setDefinition(QStringLiteral("X"), QStringLiteral("\"NO_SUCH\" * 2"));
        QVERIFY(!dialog.isAcceptable());
        QVERIFY(dialog.status().contains(QLatin1String("no metric")));
        dialog.setDefinition(QStringLiteral("PAPI_L1_DCM"), QStringLiteral("\"PAPI_TOT_INS\" * 2"));
        QVERIFY(!dialog.isAcceptable());
        QVERIFY(dialog.status().contains(QLatin1String("already has")));
    }

    void definitionsFromFile()
    {
        const auto trial = mustLoad(dataPath(QStringLiteral("tau2/ppk/xgc-5metrics-16rank.ppk")));
        QVERIFY(trial);
        QTemporaryDir tmp;
        const QString good = tmp.filePath(QStringLiteral("good.txt"));
        writeText(
            good, "# counters\nIPC = \"PAPI_TOT_INS\" / \"PAPI_TOT_CYC\"\nMISS [1/ins] = PAPI_L1_DCM / PAPI_TOT_INS\n");
        DerivedMetricDialog dialog(trial);
        QVERIFY(dialog.loadFile(good));
        QVERIFY(dialog.isAcceptable());
        QCOMPARE(dialog.definitions().size(), std::size_t(2));
        const AlgebraResult result = deriveMetrics(*trial, dialog.definitions(), dialog.mode());
        QVERIFY2(result, qPrintable(result.error()));
        QCOMPARE(result.trial()->metricCount(), trial->metricCount() + 2);
        const QString bad = tmp.filePath(QStringLiteral("bad.txt"));
        writeText(bad, "IPC = \"PAPI_TOT_INS\" /\n");
        QVERIFY(!dialog.loadFile(bad));
        QVERIFY(!dialog.isAcceptable());
        QVERIFY2(dialog.status().contains(QLatin1String("line 1")), qPrintable(dialog.status()));
    }
};

QTEST_MAIN(TestDerivedMetricDialog)
#include "tst_derivedmetricdialog.moc"
