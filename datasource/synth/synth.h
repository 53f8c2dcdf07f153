// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "datasource/model/trial.h"

#include <QString>
#include <cstdint>
#include <memory>

namespace parallax {

struct SynthOptions {
    int threads = 16;
    int events = 50; ///< flat events, ".TAU application" included
    int callpathDepth = 0; ///< 0: no call paths; d >= 2: rooted call paths of up to d components
    int metrics = 1;
    int userEvents = 5;
    int threadsPerNode = 1;
    /// Planted groups of ranks: thread t is in group g = floor(t·groups / threads), and in group g every
    /// event i ≥ 1 with i mod groups = g costs 4 times its base (per-thread metadata "Synth group").
    int groups = 1;
    std::uint64_t seed = 1;
    /// The shapes of a real PDT-instrumented MPI run (issue 18's reference trial): every routine named as
    /// PDT writes it (C, C++ methods and templates, Fortran module procedures, with signature and source
    /// range), and the metadata block TAU writes into each profile.N.C.T (about 40 keys: host, CPU,
    /// memory, TAU configuration, timestamps, MPI). Off: the historical output, byte for byte.
    bool realistic = false;
    /// More than 1: every thread gets a time series of this many cumulative snapshots, TAU's snapshot
    /// profile (the last one is the profile): each event grows on its own curve, so the intervals
    /// differ from event to event, and every snapshot's call tree adds up.
    int snapshots = 1;
};

/// A deterministic, realistic trial: MPI routines, C++ methods with source locations, Fortran
/// loops, a call tree whose inclusive times add up, load imbalance across threads, user events
/// (with context events), per-thread metadata. The same options always give the same trial.
std::shared_ptr<Trial> synthesizeTrial(const SynthOptions& options);

} // namespace parallax
