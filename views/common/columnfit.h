// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

class QTreeView;

namespace parallax {

/// Sizes `column` of `view` to its cells and its header, whichever is wider. QHeaderView sizes a
/// two-line header (ViewSetupOptions::twoLineHeaders) by its text on one line: this measures the
/// longest line, plus the margins and the sort arrow, instead.
void fitColumnToContent(QTreeView* view, int column);

} // namespace parallax
