# Tests of views/userevents (included from tests/CMakeLists.txt).
parallax_test(tst_userevents views/tst_userevents.cpp parallax_views)
