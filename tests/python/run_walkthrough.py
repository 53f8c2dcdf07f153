#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""Runs the ```python blocks of docs/python.md's Walkthrough in order, as one notebook, in an empty
folder with parallax-cli on PATH, and checks the plot it saves (CTest python_walkthrough).
    run_walkthrough.py DOCS_PYTHON_MD [COPY_PNG_TO]"""

import os
import re
import shutil
import sys
import tempfile

doc = open(sys.argv[1], encoding="utf-8").read()
section = re.search(r"^## Walkthrough\n(.*?)^## ", doc, re.S | re.M).group(1)
blocks = re.findall(r"```python\n(.*?)```", section, re.S)
assert len(blocks) >= 6, f"the walkthrough has {len(blocks)} python blocks"
os.environ["PATH"] = os.path.dirname(os.environ["PARALLAX_CLI"]) + os.pathsep + os.environ["PATH"]
with tempfile.TemporaryDirectory(prefix="parallax-walkthrough-") as folder:
    os.chdir(folder)
    namespace = {"__name__": "__walkthrough__"}
    for i, code in enumerate(blocks, 1):
        print(f"--- block {i}")
        exec(compile(code, f"docs/python.md block {i}", "exec"), namespace)
    png = os.path.join(folder, "largest-changes.png")
    with open(png, "rb") as f:
        header = f.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n", "largest-changes.png is no PNG"
    width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
    assert (width, height) == (800, 450), (width, height)
    assert len(namespace["largest"]) == 10 and (namespace["largest"] != 0).any()
    if len(sys.argv) > 2:
        shutil.copy(png, sys.argv[2])
    print(f"walkthrough ran: {len(blocks)} blocks, plot {width}x{height}")
