// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/values.h"
#include "datasource/model/sourcelocation.h"
#include "datasource/model/trial.h"

#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace parallax {

// The numbers of the source browser (issue 20 §1, docs/SEMANTICS.md §12): the source location of
// every event, and for one file the exclusive and inclusive value of each flat event located in
// it, for one metric and one statistic: the statistics table's numbers (values.h), mapped to lines.

/// The source locations of a trial's events (sourceLocationOf), found once per trial (Trial::cached).
class SourceIndex {
public:
    /// The cached index of a trial (computed on first use, thread-safe).
    static std::shared_ptr<const SourceIndex> of(const Trial& trial);
    explicit SourceIndex(const Trial& trial);

    /// sourceLocationOf(trial, e): the recorded location, else the one of the name's last component.
    const std::optional<SourceLocation>& location(EventId e) const { return m_locations[e.index()]; }
    /// One recorded file name: how many flat events it has.
    struct File {
        QString name;
        std::size_t events = 0;
    };
    /// The recorded files of the flat events, by name.
    const std::vector<File>& files() const { return m_files; }

private:
    std::vector<std::optional<SourceLocation>> m_locations;
    std::vector<File> m_files;
};

/// One flat event located in a file, with its values.
struct SourceEventCost {
    EventId event;
    SourceLocation location;
    double exclusive = 0; ///< statisticValue(Exclusive); 0 when undefined
    double inclusive = 0; ///< statisticValue(Inclusive); 0 when undefined
};

/// The costs of one file: the flat events whose location names it (sameSourceFile), by first line,
/// then by inclusive value (largest first).
struct SourceFileCosts {
    QString file; ///< the recorded name asked for
    MetricId metric;
    Statistic statistic = Statistic::MeanAll;
    std::vector<SourceEventCost> events;
    double maxExclusive = 0; ///< the largest of events[].exclusive (the heat colour's scale)
    double maxInclusive = 0;
    /// The events whose first line is `line` (indices into events, largest inclusive first).
    std::vector<std::size_t> eventsAtLine(int line) const;
    /// The index of an event in events, or -1.
    std::ptrdiff_t indexOf(EventId e) const;
};

/// Finds the file of `costs` (findSourceFile): the name asked for, then each other name its events
/// record for it (a profile can name one file "matmult.c" and "/home/u/mm/matmult.c").
SourceFileLookup locateSourceFile(const SourceFileCosts& costs, const SourceSearch& search);

/// The costs of the flat events located in `file` for one metric and statistic.
SourceFileCosts sourceFileCosts(const Trial& trial, const QString& file, MetricId metric, Statistic statistic);

} // namespace parallax
