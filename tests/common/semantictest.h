// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#pragma once

#include "algebra/semanticmodel.h"
#include "algebra/semanticprofile.h"

#include <QtGlobal>
#include <variant>

namespace parallax::test {

// The setup of the semantic tests: a model and a profile they cannot do without.

/// The model of a parse or load result; ends the test program with `what` and the error otherwise.
inline semantic::Model modelOrDie(std::variant<semantic::Model, semantic::ModelError> result, const char* what)
{
    if (auto* error = std::get_if<semantic::ModelError>(&result))
        qFatal("%s: %s", what, qPrintable(error->toString()));
    return std::get<semantic::Model>(std::move(result));
}

/// A trial attributed through a model; ends the test program with the error otherwise.
inline semantic::ProfilePtr attributeOrDie(const semantic::Model& model, const TrialPtr& trial)
{
    auto result = semantic::attribute(model, trial);
    if (auto* error = std::get_if<semantic::AttributionError>(&result))
        qFatal("attribution fails: %s", qPrintable(error->message));
    return std::get<semantic::ProfilePtr>(std::move(result));
}

} // namespace parallax::test
