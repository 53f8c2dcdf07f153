// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
#include "datasource/model/names.h"

namespace parallax::names {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

void appendCollapsed(std::string& out, std::string_view component)
{
    std::size_t b = 0;
    std::size_t e = component.size();
    while (b < e && isSpace(component[b]))
        ++b;
    while (e > b && isSpace(component[e - 1]))
        --e;
    bool pendingSpace = false;
    for (std::size_t i = b; i < e; ++i) {
        const char c = component[i];
        if (isSpace(c)) {
            pendingSpace = true;
            continue;
        }
        if (pendingSpace)
            out.push_back(' ');
        pendingSpace = false;
        out.push_back(c);
    }
}

/// Removes every "[{" ... "}]" block. pprof looks for the first "}]" anywhere; looking after
/// the "[{" means a stray "}]" earlier cannot corrupt the name.
void eraseSourceLocations(std::string& name)
{
    std::size_t start = name.find("[{");
    while (start != std::string::npos) {
        const std::size_t end = name.find("}]", start);
        if (end == std::string::npos)
            break;
        name.erase(start, end + 2 - start);
        start = name.find("[{");
    }
}

} // namespace

std::string canonical(std::string_view raw)
{
    std::string out;
    out.reserve(raw.size());
    std::size_t start = 0;
    bool first = true;
    while (true) {
        const std::size_t arrow = raw.find("=>", start);
        const std::string_view component
            = raw.substr(start, arrow == std::string_view::npos ? raw.npos : arrow - start);
        if (!first)
            out.append(CallPathSeparator);
        appendCollapsed(out, component);
        first = false;
        if (arrow == std::string_view::npos)
            break;
        start = arrow + 2;
    }
    return out;
}

bool isCallPath(std::string_view canonicalName)
{
    return canonicalName.find(CallPathSeparator) != std::string_view::npos;
}

std::vector<std::string_view> callPathComponents(std::string_view canonicalName)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t sep = canonicalName.find(CallPathSeparator, start);
        if (sep == std::string_view::npos) {
            parts.push_back(canonicalName.substr(start));
            return parts;
        }
        parts.push_back(canonicalName.substr(start, sep - start));
        start = sep + CallPathSeparator.size();
    }
}

std::string pprofName(std::string_view raw, bool keepLocations)
{
    std::string name(raw);
    if (!keepLocations && name.find("Loop:") == std::string::npos)
        eraseSourceLocations(name);
    // Like pprof's removeRuns(): leading spaces stay as they are (pprof drops the
    // pointer it advanced past them), every later run of spaces becomes one space.
    std::size_t lead = 0;
    while (lead < name.size() && name[lead] == ' ')
        ++lead;
    std::string out = name.substr(0, lead);
    out.reserve(name.size());
    for (std::size_t i = lead; i < name.size(); ++i) {
        if (name[i] == ' ' && i > lead && name[i - 1] == ' ')
            continue;
        out.push_back(name[i]);
    }
    return out;
}

std::string withoutSourceLocation(std::string_view name)
{
    std::string out(name);
    eraseSourceLocations(out);
    std::string collapsed;
    appendCollapsed(collapsed, out);
    return collapsed;
}

bool splitContextEvent(std::string_view name, std::string_view& event, std::string_view& context)
{
    const std::size_t pos = name.find(" : ");
    if (pos == std::string_view::npos)
        return false;
    event = name.substr(0, pos);
    context = name.substr(pos + 3);
    return true;
}

} // namespace parallax::names
