// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// `parallax-cli flame` (issue 16, section 5): folded stacks of one run against Python reading the TAU
// profile files itself, the mean and one thread, difffolded of two runs against the two single-run
// outputs, the JSON frames, and the errors.
#include "tests/common/clirunner.h"
#include "tests/common/testutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QTest>
#include <cmath>

using namespace parallax::test;

namespace {

/// Folded text as path -> values.
QMap<QString, QList<double>> parseFolded(const QByteArray& text, int columns)
{
    QMap<QString, QList<double>> out;
    for (const QString& line : QString::fromUtf8(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        QStringList parts = line.split(QLatin1Char(' '));
        QList<double> values;
        for (int k = 0; k < columns; ++k)
            values.prepend(parts.takeLast().toDouble());
        out.insert(parts.join(QLatin1Char(' ')), values);
    }
    return out;
}

/// Python reads the TAU profile files: per call path ("a;b" with TAU's names trimmed of padding),
/// the exclusive value of each thread file; the roots are the first components of the paths.
const char* const pythonOracle = R"PY(
import glob, json, re, sys
files = sorted(glob.glob(sys.argv[1] + '/profile.*'))
rows = {}
for i, f in enumerate(files):
    for line in open(f):
        m = re.match(r'"(.*)" (\S+) (\S+) (\S+) (\S+)', line)
        if m:
            rows.setdefault(m.group(1), {})[i] = float(m.group(4))
paths = [n for n in rows if ' => ' in n]
roots = {p.split(' => ')[0] for p in paths}
out = {}
for n in list(paths) + [r for r in roots if r in rows]:
    key = ';'.join(' '.join(c.split()) for c in n.split(' => '))
    out[key] = [rows[n].get(i, 0.0) for i in range(len(files))]
print(json.dumps({'threads': len(files), 'paths': out}))
)PY";

} // namespace

class TestCliFlame : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void foldedAgainstPython()
    {
        const QString dir = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        QProcess python;
        python.start(
            QStringLiteral("/usr/bin/python3"), { QStringLiteral("-c"), QString::fromUtf8(pythonOracle), dir });
        QVERIFY(python.waitForFinished(60000));
        QCOMPARE(python.exitCode(), 0);
        const QJsonObject oracle = QJsonDocument::fromJson(python.readAllStandardOutput()).object();
        const QJsonObject paths = oracle.value(QStringLiteral("paths")).toObject();
        const int threads = oracle.value(QStringLiteral("threads")).toInt();
        QCOMPARE(threads, 4);
        QCOMPARE(paths.size(), 12); // .TAU application, 7 children, MPI_Finalize's 4

        const CliRun total
            = runCli({ QStringLiteral("flame"), dir, QStringLiteral("--total"), QStringLiteral("--folded") });
        QCOMPARE(total.exitCode, 0);
        QVERIFY(total.err.isEmpty());
        const CliRun mean = runCli({ QStringLiteral("flame"), dir });
        QCOMPARE(mean.exitCode, 0);
        const CliRun rank2
            = runCli({ QStringLiteral("flame"), dir, QStringLiteral("--thread"), QStringLiteral("2,0,0") });
        QCOMPARE(rank2.exitCode, 0);
        const auto ft = parseFolded(total.out, 1);
        const auto fm = parseFolded(mean.out, 1);
        const auto f2 = parseFolded(rank2.out, 1);
        QCOMPARE(ft.size(), 12);
        double sum = 0;
        for (auto it = paths.begin(); it != paths.end(); ++it) {
            const QJsonArray v = it.value().toArray();
            double t = 0;
            for (const auto& x : v)
                t += x.toDouble();
            sum += t;
            QVERIFY2(ft.contains(it.key()), qPrintable(it.key()));
            QCOMPARE(ft.value(it.key()).front(), t); // whole microseconds: printed as integers
            QVERIFY(std::fabs(fm.value(it.key()).front() - t / threads) <= 1e-6);
            QCOMPARE(f2.value(it.key()).front(), v.at(2).toDouble());
        }
        QCOMPARE(sum, 214047.0);
        // Integral values have no decimals.
        for (const QByteArray& line : total.out.split('\n'))
            QVERIFY2(!line.mid(line.lastIndexOf(' ') + 1).contains('.'), line.constData());
    }

    void differentialAgainstTheSingleRuns()
    {
        // Caliper's MPI scaling study: 27 and 64 ranks of the same code.
        const QString a = dataPath(QStringLiteral("thicket/mpi_scaling_cali/27_cores.cali"));
        const QString b = dataPath(QStringLiteral("thicket/mpi_scaling_cali/64_cores.cali"));
        const CliRun diff = runCli({ QStringLiteral("flame"), a, b, QStringLiteral("--total") });
        QCOMPARE(diff.exitCode, 0);
        const CliRun ra = runCli({ QStringLiteral("flame"), a, QStringLiteral("--total") });
        const CliRun rb = runCli({ QStringLiteral("flame"), b, QStringLiteral("--total") });
        const auto d = parseFolded(diff.out, 2);
        const auto fa = parseFolded(ra.out, 1);
        const auto fb = parseFolded(rb.out, 1);
        QVERIFY(fa.size() > 10);
        QVERIFY(d.size() >= std::max(fa.size(), fb.size()));
        for (auto it = d.begin(); it != d.end(); ++it) {
            QCOMPARE(it.value()[0], fa.value(it.key(), { 0.0 }).front());
            QCOMPARE(it.value()[1], fb.value(it.key(), { 0.0 }).front());
        }
        for (auto it = fa.begin(); it != fa.end(); ++it)
            QVERIFY2(d.contains(it.key()), qPrintable(it.key()));
        for (auto it = fb.begin(); it != fb.end(); ++it)
            QVERIFY2(d.contains(it.key()), qPrintable(it.key()));

        // JSON: frames with A, B, Δ and the only-in flags; the root's width is max(A, B).
        const CliRun json
            = runCli({ QStringLiteral("flame"), a, b, QStringLiteral("--total"), QStringLiteral("--json") });
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        const QJsonArray frames = o.value(QStringLiteral("frames")).toArray();
        QCOMPARE(frames.size(), d.size());
        const QJsonObject root = frames.first().toObject();
        QCOMPARE(root.value(QStringLiteral("depth")).toInt(), 0);
        const double ra0 = root.value(QStringLiteral("a")).toDouble();
        const double rb0 = root.value(QStringLiteral("b")).toDouble();
        QVERIFY(ra0 > 0 && rb0 > 0);
        QCOMPARE(root.value(QStringLiteral("width")).toDouble(), std::max(ra0, rb0));
        QCOMPARE(root.value(QStringLiteral("delta")).toDouble(), ra0 - rb0);
    }

    void jsonFramesOfOneRun()
    {
        const QString dir = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        const CliRun r = runCli({ QStringLiteral("flame"), dir, QStringLiteral("--json"), QStringLiteral("--total") });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("metric")).toString(), QStringLiteral("TIME"));
        QVERIFY(o.value(QStringLiteral("callPaths")).toBool());
        QCOMPARE(o.value(QStringLiteral("depth")).toInt(), 3);
        const QJsonArray frames = o.value(QStringLiteral("frames")).toArray();
        QCOMPARE(frames.size(), 12);
        // The root is .TAU application's inclusive total: 51781 + 55329 + 54029 + 52908 in the four files.
        const QJsonObject root = frames.first().toObject();
        QCOMPARE(root.value(QStringLiteral("name")).toString(), QStringLiteral(".TAU application"));
        QCOMPARE(root.value(QStringLiteral("width")).toDouble(), 214047.0);
        // Children in order of value: MPI_Finalize() first, at x = 0.
        const QJsonObject first = frames.at(1).toObject();
        QCOMPARE(first.value(QStringLiteral("name")).toString(), QStringLiteral("MPI_Finalize()"));
        QCOMPARE(first.value(QStringLiteral("x")).toDouble(), 0.0);
    }

    void errors()
    {
        const QString dir = dataPath(QStringLiteral("tau2/tau-profiles-callpath-cpi-4rank"));
        CliRun r = runCli({ QStringLiteral("flame"), dir, QStringLiteral("--metric"), QStringLiteral("PAPI_NONE") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no metric 'PAPI_NONE'"));
        r = runCli({ QStringLiteral("flame"), dir, QStringLiteral("--thread"), QStringLiteral("9,0,0") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no such thread"));
        r = runCli({ QStringLiteral("flame"), dir, QStringLiteral("--total"), QStringLiteral("--mean") });
        QCOMPARE(r.exitCode, 2);
        r = runCli({ QStringLiteral("flame") });
        QCOMPARE(r.exitCode, 2);
        // A flat profile: a warning, one line per routine.
        r = runCli({ QStringLiteral("flame"), dataPath(QStringLiteral("tau2/tau-profiles-openmp-2thread")) });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.contains("no call paths"));
        QVERIFY(!r.out.contains(';'));
    }
};

QTEST_GUILESS_MAIN(TestCliFlame)
#include "tst_cli_flame.moc"
