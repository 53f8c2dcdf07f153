// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

// The content hash that identifies a trial in provenance (docs/SEMANTICS.md 1.8).
#include "datasource/model/trial.h"

#include <QString>
#include <optional>

namespace parallax {

/// A 64-bit hash of a trial's content (metrics, threads, event names, groups, values, atomic
/// records, metadata) as 16 hex digits; cached per trial. Identifies operands in provenance
/// ("NAME [HASH]"). The algorithm is XXH3-64 (xxHash, https://xxhash.com) over the content in a
/// fixed order (contenthash.cpp, xxh3Finish); contentHashAlgorithm() names it.
QString contentHash(const Trial& trial);

/// The name of contentHash()'s algorithm: "xxh3-64".
QString contentHashAlgorithm();
/// "content_hash_algorithm=xxh3-64": the provenance option every derived trial records.
QString contentHashAlgorithmOption();

/// Whether `hash` (16 hex digits) is the content hash of `trial` under `algorithm`: "xxh3-64", or
/// empty for a hash recorded before provenance named its algorithm (Parallax's former mixer, kept
/// only for this comparison). std::nullopt for an algorithm this version does not know.
std::optional<bool> contentHashMatches(const Trial& trial, const QString& hash, const QString& algorithm);

/// Whether operand `operand` of `provenance` ("NAME [HASH]") was `trial`, under the algorithm the
/// provenance records in its content_hash_algorithm option (absent: the former one). std::nullopt
/// when the operand does not exist, has no hash, or the algorithm is unknown.
std::optional<bool> operandMatches(const Provenance& provenance, int operand, const Trial& trial);

} // namespace parallax
