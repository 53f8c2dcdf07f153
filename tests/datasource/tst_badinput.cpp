// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// Bad input: every case gets an error naming the file, the line and what was expected, or (when the
// rest of the trial is sound) a warning that lists the skipped file. Never a crash, never silence.
#include "tests/common/testutil.h"

#include <QTemporaryDir>

using namespace parallax;
using namespace parallax::test;

namespace {

const QByteArray Header = "# Name Calls Subrs Excl Incl ProfileCalls # <metadata><attribute><name>Metric "
                          "Name</name><value>TIME</value></attribute></metadata>\n";

QByteArray goodFile(const QByteArray& metric = "TIME")
{
    QByteArray h = Header;
    h.replace(QByteArray("<value>TIME</value>"), QByteArray("<value>" + metric + "</value>"));
    return QByteArray("2 templated_functions_MULTI_") + metric + "\n" + h
        + "\"main\" 1 1 10 30 0 GROUP=\"TAU_DEFAULT\"\n\"work\" 5 0 20 20 0 GROUP=\"TAU_USER\"\n0 aggregates\n";
}

/// Reads a directory holding one bad profile.0.0.0 and expects an error mentioning all `parts`.
void expectError(const QByteArray& content, const QStringList& parts, bool strict = false)
{
    QTemporaryDir dir;
    writeText(dir.filePath(QStringLiteral("profile.0.0.0")), content);
    const auto result = load(dir.path(), strict);
    QVERIFY2(!result.ok(), "a bad file must not read as a trial");
    const QString message = result.error().toString();
    QVERIFY2(message.contains(QStringLiteral("profile.0.0.0")), qPrintable(message));
    for (const QString& p : parts)
        QVERIFY2(message.contains(p), qPrintable(QStringLiteral("'%1' not in: %2").arg(p, message)));
}

/// expectError() of goodFile() with `from` replaced by `to`.
void expectErrorIn(const QByteArray& from, const QByteArray& to, const QStringList& parts)
{
    QByteArray content = goodFile();
    content.replace(from, to);
    expectError(content, parts);
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void emptyDirectory()
    {
        QTemporaryDir dir;
        const auto result = load(dir.path());
        QVERIFY(!result.ok());
        QVERIFY2(result.error().toString().contains(QStringLiteral("empty")), qPrintable(result.error().toString()));
        QVERIFY(result.error().toString().contains(dir.path()));
    }

    void directoryWithoutProfiles()
    {
        QTemporaryDir dir;
        writeText(dir.filePath(QStringLiteral("notes.txt")), "hello\n");
        const auto result = load(dir.path());
        QVERIFY(!result.ok());
        const QString m = result.error().toString();
        QVERIFY2(m.contains(QStringLiteral("profile.N.C.T")) && m.contains(QStringLiteral("notes.txt")), qPrintable(m));
    }

    void missingPath()
    {
        const auto result = load(QStringLiteral("/nonexistent/parallax/path"));
        QVERIFY(!result.ok());
        QVERIFY(result.error().toString().contains(QStringLiteral("no such file")));
    }

    void truncatedFile()
    {
        QByteArray f = goodFile();
        f.truncate(f.indexOf("\"work\""));
        expectError(f, { QStringLiteral(":4:"), QStringLiteral("ends after 1 of the 2 event lines") });
        expectError("2 templated_functions_MULTI_TIME\n", { QStringLiteral(":2:"), QStringLiteral("column header") });
        QByteArray noAggr = goodFile();
        noAggr.truncate(noAggr.indexOf("0 aggregates"));
        expectError(noAggr, { QStringLiteral("aggregates") });
    }

    void wrongFunctionCount()
    {
        expectErrorIn(
            "2 templated_functions", "1 templated_functions", { QStringLiteral(":4:"), QStringLiteral("too small") });
        expectErrorIn(
            "2 templated_functions", "3 templated_functions", { QStringLiteral(":5:"), QStringLiteral("too large") });
        expectErrorIn("2 templated_functions", "two templated_functions",
            { QStringLiteral(":1:"), QStringLiteral("templated_functions") });
    }

    void nonNumericField()
    {
        expectErrorIn("\"work\" 5 0 20", "\"work\" 5 0 2x0",
            { QStringLiteral(":4:"), QStringLiteral("expected a number for Excl"), QStringLiteral("2x0") });
        expectErrorIn(
            "\"work\" 5 0 20 20 0", "\"work\" 5 0 20", { QStringLiteral(":4:"), QStringLiteral("expected 5 numbers") });
    }

    void unterminatedQuote()
    {
        expectErrorIn("\"work\" 5 0 20 20 0 GROUP=\"TAU_USER\"", "\"work 5 0 20 20 0",
            { QStringLiteral(":4:"), QStringLiteral("unterminated quote") });
        expectErrorIn("GROUP=\"TAU_USER\"", "GROUP=\"TAU_USER", { QStringLiteral(":4:"), QStringLiteral("GROUP") });
    }

    void largeFileReadWhole()
    {
        // The reader looks at a file's first 64 KiB for binary data before reading the rest
        // (docs/FORMATS.md 11): a file of several times that is still read to its last line.
        constexpr int Events = 5000;
        QByteArray text = QByteArray::number(Events) + " templated_functions_MULTI_TIME\n" + Header;
        for (int i = 0; i < Events; ++i)
            text += "\"event " + QByteArray::number(i) + "\" 1 0 " + QByteArray::number(i) + " " + QByteArray::number(i)
                + " 0 GROUP=\"TAU_USER\"\n";
        text += "0 aggregates\n";
        QVERIFY(text.size() > qsizetype { 3 } * 64 * 1024);
        QTemporaryDir dir;
        writeText(dir.filePath(QStringLiteral("profile.0.0.0")), text);
        const auto trial = mustLoad(dir.path());
        QVERIFY(trial);
        QCOMPARE(trial->eventCount(), std::size_t(Events));
        QCOMPARE(exclOf(*trial, 0, QStringLiteral("event 4999")), 4999.0);
    }

    void binaryGarbage()
    {
        QByteArray garbage;
        for (int i = 0; i < 512; ++i)
            garbage.append(static_cast<char>((i * 131 + 7) % 256));
        expectError(garbage, { QStringLiteral("binary data"), QStringLiteral("byte") });
        expectError(QByteArray("\x7f"
                               "ELF\x02\x01\x01",
                        7),
            { QStringLiteral(":1:") });
        expectError(QByteArray(), { QStringLiteral("empty") });
    }

    void badUserEvents()
    {
        expectError(
            goodFile() + "1 userevents\n\"x\" 1 1 1 1 1\n", { QStringLiteral(":7:"), QStringLiteral("# eventname") });
        expectError(goodFile() + "2 userevents\n# eventname numevents max min mean sumsqr\n\"x\" 1 1 1 1 1\n",
            { QStringLiteral("1 of the 2 user event lines") });
        expectError(goodFile() + "1 userevents\n# eventname numevents max min mean sumsqr\n\"x\" 1 1 one 1 1\n",
            { QStringLiteral(":8:"), QStringLiteral("expected a number for min") });
        expectError(goodFile() + "garbage here\n", { QStringLiteral(":6:"), QStringLiteral("userevents") });
    }

    void skippedFileIsListed()
    {
        QTemporaryDir dir;
        writeText(dir.filePath(QStringLiteral("profile.0.0.0")), goodFile());
        QByteArray bad = goodFile();
        bad.replace("\"work\" 5 0 20", "\"work\" 5 0 oops");
        writeText(dir.filePath(QStringLiteral("profile.1.0.0")), bad);
        const auto result = load(dir.path());
        QVERIFY(result.ok());
        const Trial& trial = *result.value();
        QCOMPARE(trial.threadCount(), std::size_t(1));
        const QString warnings = trial.warnings().join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("skipped 1 unreadable")), qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("profile.1.0.0:4")), qPrintable(warnings));
        // Strict mode refuses the whole trial instead.
        const auto strict = load(dir.path(), true);
        QVERIFY(!strict.ok());
        QVERIFY(strict.error().toString().contains(QStringLiteral("profile.1.0.0:4")));
    }

    void metricsThatCannotBeMerged()
    {
        {
            QTemporaryDir dir; // one directory, two metrics
            writeText(dir.filePath(QStringLiteral("profile.0.0.0")), goodFile("TIME"));
            writeText(dir.filePath(QStringLiteral("profile.1.0.0")), goodFile("PAPI_FP_OPS"));
            const auto r = load(dir.path());
            QVERIFY(!r.ok());
            const QString m = r.error().toString();
            QVERIFY2(m.contains(QStringLiteral("cannot be merged")) && m.contains(QStringLiteral("PAPI_FP_OPS"))
                    && m.contains(QStringLiteral("profile.1.0.0")),
                qPrintable(m));
        }
        {
            QTemporaryDir dir; // metric directories with different thread sets
            writeText(dir.filePath(QStringLiteral("MULTI__TIME/profile.0.0.0")), goodFile("TIME"));
            writeText(dir.filePath(QStringLiteral("MULTI__TIME/profile.1.0.0")), goodFile("TIME"));
            writeText(dir.filePath(QStringLiteral("MULTI__PAPI_FP_OPS/profile.0.0.0")), goodFile("PAPI_FP_OPS"));
            const auto r = load(dir.path());
            QVERIFY(!r.ok());
            const QString m = r.error().toString();
            QVERIFY2(m.contains(QStringLiteral("profile.1.0.0")) && m.contains(QStringLiteral("MULTI__PAPI_FP_OPS")),
                qPrintable(m));
        }
        {
            QTemporaryDir dir; // two directories claiming one metric
            writeText(dir.filePath(QStringLiteral("MULTI__TIME/profile.0.0.0")), goodFile("TIME"));
            writeText(dir.filePath(QStringLiteral("MULTI__TIME_copy/profile.0.0.0")), goodFile("TIME"));
            const auto r = load(dir.path());
            QVERIFY(!r.ok());
            QVERIFY2(r.error().toString().contains(QStringLiteral("both hold metric 'TIME'")),
                qPrintable(r.error().toString()));
        }
    }

    void malformedMetadataIsAWarning()
    {
        QTemporaryDir dir;
        QByteArray f = goodFile();
        f.replace("</value></attribute></metadata>", "</valu></attribute></metadata>");
        writeText(dir.filePath(QStringLiteral("profile.0.0.0")), f);
        const auto r = load(dir.path());
        QVERIFY(r.ok());
        QVERIFY2(r.value()->warnings().join(QLatin1Char('\n')).contains(QStringLiteral("metadata block is malformed")),
            qPrintable(r.value()->warnings().join(QLatin1Char('\n'))));
    }

    void hugeCountDoesNotAllocate()
    {
        expectErrorIn("2 templated_functions", "2147483647 templated_functions", { QStringLiteral("event lines") });
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
