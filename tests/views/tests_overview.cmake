# Tests of views/overview (included from tests/CMakeLists.txt).
parallax_test(tst_overview views/tst_overview.cpp parallax_views)
