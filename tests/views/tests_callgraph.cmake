# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Tests of views/callgraph (included from tests/CMakeLists.txt).
parallax_test(tst_callgraph views/tst_callgraph.cpp parallax_views)
parallax_test(tst_treeinvariant views/tst_treeinvariant.cpp parallax_views)
