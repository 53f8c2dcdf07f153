#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""Every #include of the project's sources against the layer table of docs/ARCHITECTURE.md.

The allowed directions are read from the document itself (the "## Layers" code block: target
(folder) -> targets it links; the table's "must never depend on" column), so the document and
the check cannot drift apart:
  - a module may include its own headers and those of the modules it links (transitively);
  - a module includes nothing named in its "must never depend on" cell: other modules, Qt's
    Widgets or Gui headers, libpq, SQLite, or the class QSettings (used anywhere in the file).
tests/ is not checked (tests may see every module). The compiler enforces the same directions
(per-module include roots, top-level CMakeLists.txt); this check also catches relative includes
("../perfdb/x.h") and third-party headers, which the include roots cannot.

  /usr/bin/python3 tests/docs/check_includes.py SOURCE_DIR [QT_HEADERS_DIR]
"""
import os
import re
import sys

MODULES = ["datasource", "algebra", "perfdb", "views", "app", "python"]


def fail(message):
    print("error: " + message, file=sys.stderr)
    sys.exit(1)


def parse_layers(doc_path):
    text = open(doc_path, encoding="utf-8").read()
    section = re.search(r"^## Layers\n(.*?)^## ", text, re.S | re.M)
    if not section:
        fail(f"{doc_path}: no '## Layers' section")
    body = section.group(1)
    block = re.search(r"```\n(.*?)```", body, re.S)
    if not block:
        fail(f"{doc_path}: the '## Layers' section has no code block of target links")
    target_module = {}
    links = {}
    for line in block.group(1).splitlines():
        m = re.match(r"\s*(\S+)\s+\(([a-z]+)/[^)]*\)\s+→\s*(.*)$", line)
        if not m:
            fail(f"{doc_path}: cannot read the layer line {line!r} (expected 'target (folder/) → targets')")
        target, folder, deps = m.groups()
        if folder not in MODULES:
            fail(f"{doc_path}: layer line {line!r} names folder {folder}/, not one of {MODULES}")
        target_module[target] = folder
        links[target] = re.findall(r"parallax[\w-]*", deps)
    allowed = {module: {module} for module in MODULES}
    for target, folder in target_module.items():
        pending = list(links[target])
        seen = set()
        while pending:
            dep = pending.pop()
            if dep in seen:
                continue
            seen.add(dep)
            if dep not in target_module:
                fail(f"{doc_path}: {target} links {dep}, which has no layer line of its own")
            allowed[folder].add(target_module[dep])
            pending.extend(links[dep])
    never = {}
    for row in body.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        m = re.match(r"`([a-z]+)/`", cells[0])
        if m and m.group(1) in MODULES:
            never[m.group(1)] = cells[3]
    if set(never) != set(MODULES):
        fail(f"{doc_path}: the layer table has rows for {sorted(never)}, expected {MODULES}")
    return allowed, never


def forbidden_rules(cell, module, allowed, qt_headers):
    """(description, regex over the file) for one "must never depend on" cell."""
    rules = []
    words = [w.strip().lower() for w in cell.split(",") if w.strip() and w.strip() != "—"]
    for word in words:
        if word in MODULES:
            if word in allowed[module]:
                fail(f"docs/ARCHITECTURE.md: {module}/ links {word} and must never depend on it")
            continue  # checked against the module's allowed set
        if word == "qsettings":
            rules.append(("QSettings", re.compile(r"\bQSettings\b")))
        elif word in ("widgets", "gui"):
            rules.append((f"Qt {word.capitalize()}", qt_include_regex(qt_headers, "Qt" + word.capitalize())))
        elif word == "libpq":
            rules.append(("libpq", re.compile(r'^\s*#\s*include\s*[<"](libpq-fe|libpq/|postgres)', re.M)))
        elif word == "sqlite":
            rules.append(("SQLite", re.compile(r'^\s*#\s*include\s*[<"]sqlite3', re.M)))
        elif "widget" in word or "connection" in word:  # "anything with a widget or a connection"
            if "widget" in word:
                rules.append(("Qt Widgets", qt_include_regex(qt_headers, "QtWidgets")))
                rules.append(("Qt Gui", qt_include_regex(qt_headers, "QtGui")))
            if "connection" in word:
                rules.append(("libpq", re.compile(r'^\s*#\s*include\s*[<"](libpq-fe|libpq/)', re.M)))
                rules.append(("SQLite", re.compile(r'^\s*#\s*include\s*[<"]sqlite3', re.M)))
        else:
            fail(f"docs/ARCHITECTURE.md: the check does not know what {word!r} (must never depend on, "
                 f"{module}/) means; teach tests/docs/check_includes.py")
    return rules


def qt_include_regex(qt_headers, qt_module):
    names = [qt_module + "/"]
    folder = os.path.join(qt_headers, qt_module) if qt_headers else ""
    if folder and os.path.isdir(folder):
        names += [re.escape(n) for n in os.listdir(folder) if re.fullmatch(r"Q[A-Z]\w*", n)]
    elif qt_headers:
        fail(f"no Qt headers in {folder}")
    return re.compile(r'^\s*#\s*include\s*<(' + "|".join(names) + r')[>/]', re.M)


def main():
    if len(sys.argv) < 2:
        fail("usage: check_includes.py SOURCE_DIR [QT_HEADERS_DIR]")
    root = sys.argv[1]
    qt_headers = sys.argv[2] if len(sys.argv) > 2 else ""
    allowed, never = parse_layers(os.path.join(root, "docs", "ARCHITECTURE.md"))
    problems = []
    checked = 0
    include = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
    for module in MODULES:
        rules = forbidden_rules(never[module], module, allowed, qt_headers)
        for folder, _, files in os.walk(os.path.join(root, module)):
            for name in sorted(files):
                if not name.endswith((".cpp", ".h", ".hpp", ".cc")):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                text = open(path, encoding="utf-8").read()
                checked += 1
                for m in include.finditer(text):
                    line = text.count("\n", 0, m.start()) + 1
                    target = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1)))
                    if not os.path.exists(os.path.join(root, target)):
                        target = os.path.normpath(m.group(1))
                    top = target.split(os.sep)[0]
                    if top in MODULES and top not in allowed[module]:
                        problems.append(f"{rel}:{line}: includes {m.group(1)}: {module}/ may include only "
                                        f"{', '.join(sorted(allowed[module]))} (docs/ARCHITECTURE.md, Layers)")
                for what, regex in rules:
                    for m in regex.finditer(text):
                        line = text.count("\n", 0, m.start()) + 1
                        problems.append(f"{rel}:{line}: {module}/ must never depend on {what} "
                                        f"(docs/ARCHITECTURE.md, Layers): {m.group(0).strip()}")
    if checked < 200:
        fail(f"only {checked} source files under {root}: the check is looking in the wrong place")
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        fail(f"{len(problems)} include(s) against the layer table")
    summary = "; ".join(f"{m} → {', '.join(sorted(allowed[m] - {m})) or '(nothing)'}" for m in MODULES)
    print(f"{checked} files follow the layer table ({summary})")


if __name__ == "__main__":
    main()
