# Tests of views/callgraph (included from tests/CMakeLists.txt).
parallax_test(tst_callgraph views/tst_callgraph.cpp parallax_views)
