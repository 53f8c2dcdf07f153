# Tests of views/overview (included from tests/CMakeLists.txt).
