// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticprofile.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace parallax {

/// How a semantic profile is printed.
struct SemanticReportOptions {
    QString metric; ///< empty: the first metric
    semantic::Scope scope = semantic::Scope::mean();
    QString groupBy; ///< an attribute key: print the group-by-attribute table as well
};

/// The semantic profile as a readable table: the entity tree with (self) rows, values, calls,
/// % of total, % of parent, inclusive, policy badge and classification, then the totals, the
/// conservation check and the warnings.
QString semanticReport(const semantic::SemanticProfile& profile, const SemanticReportOptions& options);
/// The same as JSON (a stable interface for scripts; non-finite numbers are null).
QByteArray semanticJson(const semantic::SemanticProfile& profile, const SemanticReportOptions& options);

/// Loads a model: a file (docs/SEMANTICS.md 5.6) or "builtin:NAME" made for `trial`.
std::variant<semantic::Model, QString> loadSemanticModel(const QString& spec, const Trial& trial);

/// `parallax-cli semantic MODEL TRIAL [TRIAL_B] [options]`. Returns the exit code of cli::Exit.
int runSemanticCommand(const QStringList& args);

} // namespace parallax
