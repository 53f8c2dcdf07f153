# Tests of views/callgraph (included from tests/CMakeLists.txt).
