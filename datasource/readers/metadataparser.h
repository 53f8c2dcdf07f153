// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace parallax {

/// One key/value of a TAU `<metadata>` block. Nested objects become "parent/child" keys and
/// arrays become "[a, b, c]".
struct MetadataAttribute {
    std::string key;
    std::string value;
    /// The attribute carried a <timer_context>: it belongs to its thread, never trial-wide.
    bool hasTimerContext = false;
};

/// A small, fast and tolerant parser for TAU's `<metadata>` XML (docs/FORMATS.md 1.3): entities,
/// CDATA, `tau:`-prefixed tags, nested values and arrays. It never throws; on malformed input it
/// returns what it could read and sets `error` with the byte offset (relative to the input).
struct MetadataParseResult {
    std::vector<MetadataAttribute> attributes;
    std::string error;
    std::size_t errorOffset = 0;
};

MetadataParseResult parseTauMetadata(std::string_view xml);

/// Escapes text for a TAU metadata block (one line: newlines become &#xa;).
std::string escapeMetadataText(std::string_view text);

} // namespace parallax
