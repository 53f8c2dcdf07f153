# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Tests of the self-contained semantic widgets of views/semantic (included from tests/CMakeLists.txt):
# the mapping inspector, the rule editor's preview and the semantic comparison, on real samples and
# on docs/SEMANTICS.md example F, each also rendered headless to PNG.
parallax_test(tst_semantic_widgets views/tst_semantic_widgets.cpp parallax_views)
