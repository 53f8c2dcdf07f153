// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The MIME types Parallax installs (resources/linux/parallax-mime.xml), as a desktop sees them:
// Qt's QMimeDatabase reads the same shared-mime-info data as file managers. CTest points
// XDG_DATA_DIRS at the database install_mime built from the installed package and the system's
// definitions, as the shared-mime-info trigger does when the package installs.
#include <QDir>
#include <QFile>
#include <QMimeDatabase>
#include <QTemporaryDir>
#include <QTest>

class tst_MimeTypes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void byName_data();
    void byName();
    void byContent_data();
    void byContent();
    void notProfiles();
};

namespace {
QString data(const char* relative) { return QDir(QStringLiteral(PARALLAX_DATA_DIR)).filePath(QLatin1String(relative)); }
QString source(const char* relative)
{
    return QDir(QStringLiteral(PARALLAX_SOURCE_DIR)).filePath(QLatin1String(relative));
}
} // namespace

void tst_MimeTypes::initTestCase()
{
    // Without the installed package the database cannot know the types: say why, not just fail.
    const QString package = QStringLiteral(PARALLAX_INSTALL_PREFIX "/share/mime/packages/" PARALLAX_APP_ID ".xml");
    QVERIFY2(QFile::exists(package), qPrintable(package + QStringLiteral(" is missing (install_tree writes it)")));
    const QString cache = qEnvironmentVariable("XDG_DATA_DIRS") + QStringLiteral("/mime/mime.cache");
    QVERIFY2(QFile::exists(cache), qPrintable(cache + QStringLiteral(" is missing (install_mime builds it)")));
}

void tst_MimeTypes::byName_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("type");
    QTest::newRow("TAU profile") << data("tau2/tau-profiles-openmp-2thread/profile.0.0.0")
                                 << QStringLiteral("application/x-tau-profile");
    QTest::newRow("ppk") << data("tau2/ppk/matmult-heatmap.ppk") << QStringLiteral("application/x-tau-ppk");
    QTest::newRow("TAU snapshot") << data("tau2/tauprofile-xml-merged/tauprofile.xml")
                                  << QStringLiteral("application/x-tau-snapshot+xml");
    QTest::newRow("CUBE 3") << data("cube/scalasca-cube3/kojak-example-ctest-pomp.cube")
                            << QStringLiteral("application/x-cube+xml");
    QTest::newRow("CUBE 4") << data("cube/pycubexr/call_tree_test/call_tree_test.cubex")
                            << QStringLiteral("application/x-cubex");
    QTest::newRow("Caliper") << data("thicket/rajaperf/quartz/gcc10.3.1_1048576/O3/3/Base_Seq-default.cali")
                             << QStringLiteral("application/x-caliper");
    QTest::newRow("mpiP") << source("tests/data/mpip/heat2d.4.12345.1.mpiP") << QStringLiteral("text/x-mpip");
}

void tst_MimeTypes::byName()
{
    QFETCH(QString, path);
    QFETCH(QString, type);
    QVERIFY2(QFile::exists(path), qPrintable(path));
    const QMimeType mime = QMimeDatabase().mimeTypeForFile(path);
    QCOMPARE(mime.name(), type);
    QVERIFY(!mime.comment().isEmpty());
}

// Renamed files: the magic and root-XML rules recognise the content alone.
void tst_MimeTypes::byContent_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("type");
    QTest::newRow("TAU profile") << data("tau2/tau-profiles-openmp-2thread/profile.0.0.0")
                                 << QStringLiteral("application/x-tau-profile");
    QTest::newRow("TAU snapshot") << data("tau2/tauprofile-xml-merged/tauprofile.xml")
                                  << QStringLiteral("application/x-tau-snapshot+xml");
    QTest::newRow("CUBE 3") << data("cube/scalasca-cube3/kojak-example-ctest-pomp.cube")
                            << QStringLiteral("application/x-cube+xml");
    QTest::newRow("Caliper") << data("thicket/rajaperf/quartz/gcc10.3.1_1048576/O3/3/Base_Seq-default.cali")
                             << QStringLiteral("application/x-caliper");
    QTest::newRow("mpiP") << source("tests/data/mpip/heat2d.4.12345.1.mpiP") << QStringLiteral("text/x-mpip");
}

void tst_MimeTypes::byContent()
{
    QFETCH(QString, path);
    QFETCH(QString, type);
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
    const QByteArray head = file.read(4096);
    QCOMPARE(QMimeDatabase().mimeTypeForData(head).name(), type);
}

// Ordinary files keep their own types: the rules do not claim what is not a profile.
void tst_MimeTypes::notProfiles()
{
    const QMimeDatabase db;
    QCOMPARE(db.mimeTypeForFile(source("README.md")).name(), QStringLiteral("text/markdown"));
    QCOMPARE(db.mimeTypeForFile(source("resources/linux/parallax-mime.xml")).name(), QStringLiteral("application/xml"));
    QCOMPARE(db.mimeTypeForData(QByteArray("profile 1 2 3\nplain text\n")).name(), QStringLiteral("text/plain"));
}

QTEST_GUILESS_MAIN(tst_MimeTypes)
#include "tst_mimetypes.moc"
