// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/readers/progress.h"

#include <QString>
#include <QStringList>
#include <map>
#include <utility>
#include <vector>

/// An mpiP report as parsed (docs/FORMATS.md 6.2): what mpipparser reads and mpipassembler turns into a trial.

namespace parallax {
class GzipInput;
class TrialBuilder;
} // namespace parallax

namespace parallax::mpip {

struct Frame {
    QString where;
    qint64 line = -1;
    QString function;
};

struct Callsite {
    qint64 id = 0;
    /// By stack level (sparse: a corrupt level number must not allocate the levels below it).
    std::map<qint64, Frame> frames;
    QString call;
    qint64 lineNo = 0;
};

struct StatRow {
    qint64 site = 0;
    int rank = -1; // -1: the `*` row
    double count = 0;
    double max = 0;
    double mean = 0;
    double min = 0;
    double sum = 0; // size statistics only
    qint64 line = 0;
    QString name;
};

struct TaskTime {
    double app = 0;
    double mpi = 0;
    qint64 line = 0;
};

struct AggregateRow {
    qint64 site = 0;
    double a = 0; // time (ms) or count
    double b = 0; // total bytes
    qint64 line = 0;
};

/// The whole report, parsed; rows are kept as they come and resolved when the report is complete.
struct Report {
    std::vector<std::pair<QString, QString>> header;
    std::map<int, QString> hosts;
    std::map<int, TaskTime> tasks;
    bool hasTaskTotal = false;
    TaskTime taskTotal;
    bool hasMpiTime = false;
    bool hasTimeStats = false;
    qint64 declaredCallsites = -1;
    qint64 callsitesLine = 0;
    std::map<qint64, Callsite> callsites;
    std::vector<StatRow> rows[3]; // time, sent, io
    std::vector<StatRow> stars[3];
    std::vector<AggregateRow> aggregates[3]; // time, sent, io
    QStringList skipped;
    bool ended = false;
};

/// The titles of the statistics and aggregate sections (time, sent, I/O).
inline constexpr const char* StatTitles[3]
    = { "Callsite Time statistics", "Callsite Message Sent statistics", "Callsite I/O statistics" };
inline constexpr const char* AggregateTitles[3]
    = { "Aggregate Time", "Aggregate Sent Message Size", "Aggregate I/O Size" };

/// Reads the lines of `input` (an opened report, plain or gzip) into `report`; a problem that does not
/// stop the read goes to `warnings`. Throws ParseError (the line and what was expected) and Cancelled.
void parseReport(GzipInput& input, Progress& progress, Report& report, QStringList& warnings);

/// Builds the trial from a complete report (the mapping is at the top of mpipassembler.cpp); throws
/// ParseError for a report without the MPI Time or Callsite Time statistics sections.
void assembleTrial(Report& report, TrialBuilder& builder, QStringList& warnings, Progress& progress);

} // namespace parallax::mpip
