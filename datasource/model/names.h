// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace parallax::names {

/// The separator of call-path components in canonical names.
inline constexpr std::string_view CallPathSeparator = " => ";

/// Name normalisation W (docs/SEMANTICS.md 1.4): split on "=>", trim each component,
/// collapse runs of white space to one space, re-join with " => ".
std::string canonical(std::string_view raw);

/// True when the canonical name has at least two components.
bool isCallPath(std::string_view canonicalName);

/// The components of a canonical name (views into it).
std::vector<std::string_view> callPathComponents(std::string_view canonicalName);

/// The name that TAU's pprof prints for a raw name: `[{...}]` locations removed
/// (unless keepLocations or the name contains "Loop:"), then each run of spaces
/// collapsed to one (a trailing space may stay, as pprof does).
std::string pprofName(std::string_view raw, bool keepLocations);

/// The name without its `[{file} {l,c}-{l,c}]` source location, trimmed.
std::string withoutSourceLocation(std::string_view name);

/// Splits an atomic event name "event : context" at the first " : ".
/// Returns false (and leaves the outputs empty) when there is no context.
bool splitContextEvent(std::string_view name, std::string_view& event, std::string_view& context);

} // namespace parallax::names
