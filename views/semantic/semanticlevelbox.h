// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticprofile.h"

#include <QComboBox>

namespace parallax {

/// The level chooser of the semantic bar chart and matrix (docs/SEMANTICS.md 5): which entities
/// they show, a level of the entity tree ("Top level", "Level 2", ...) or the leaves (-1).
class SemanticLevelBox : public QComboBox {
    Q_OBJECT
public:
    enum class LeavesAt { First, Last };
    explicit SemanticLevelBox(LeavesAt leaves, QWidget* parent = nullptr);

    /// Lists the levels of `profile` (null: the top level only) and selects `level`, or the leaves
    /// when the profile is not that deep; returns the level selected.
    int fill(const semantic::SemanticProfile* profile, int level);
    /// Shows `level` as selected (without levelChosen).
    void select(int level);

Q_SIGNALS:
    /// The user chose a level (-1: the leaves).
    void levelChosen(int level);

private:
    LeavesAt m_leaves;
};

} // namespace parallax
