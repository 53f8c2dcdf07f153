# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Tests of views/userevents (included from tests/CMakeLists.txt).
parallax_test(tst_userevents views/tst_userevents.cpp parallax_views)
