# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Tests of views/overview (included from tests/CMakeLists.txt).
parallax_test(tst_overview views/tst_overview.cpp parallax_views)
parallax_test(tst_honest views/tst_honest.cpp parallax_views)
parallax_test(tst_numberformat views/tst_numberformat.cpp parallax_views)
parallax_test(tst_overviewdensity views/tst_overviewdensity.cpp parallax_views)
