// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticmodel.h"
#include "datasource/model/trial.h"

#include <QString>
#include <vector>

namespace parallax::semantic {

/// A model Parallax ships: useful without writing any rules (issue 7 point 3).
struct BuiltinModel {
    QString name; ///< "group", "layer", "phase", "parameter", "file"
    QString title; ///< for menus: "By TAU group", ...
    QString description;
};

/// The built-in models, in menu order.
const std::vector<BuiltinModel>& builtinModels();

/// The built-in model `name` made for a trial (some declare entities from what the trial holds,
/// e.g. one entity per phase); an empty optional for an unknown name. The result is an ordinary
/// model: it can be saved as a file, edited and stored like any other.
///   group      one entity per TAU group; an event in several groups goes to the most specific one
///              (the group with the fewest events; ties by name)
///   layer      MPI, OpenMP, I/O (POSIX, MPI-IO, ADIOS, HDF5, NetCDF), accelerator (CUDA, HIP,
///              OpenCL), runtime (TAU, pthreads, memory), user code (everything else), from names
///              and groups
///   phase      TAU_PHASE trials: one entity per phase, nested as the phases are; each phase
///              call path "P => e" goes to P, a phase's own timer to itself (call-path source)
///   parameter  TAU parameter profiles: "routine [ <p> = <v> ]" becomes entity "p = v" under the
///              routine's entity; other events map to their routine
///   file       by source file, from "[{file} {line,col}]" locations in event names
std::optional<Model> makeBuiltinModel(const QString& name, const Trial& trial);

} // namespace parallax::semantic
