# Tests of views/userevents (included from tests/CMakeLists.txt).
