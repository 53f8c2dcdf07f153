# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# The installed application (issue 12 §2): `cmake --install` into a fresh prefix holds every file
# (install_tree), and the files validate with the tools a distribution uses. install_tree is the
# fixture the others read; missing tools fail (tests/install/validate.sh).
set(install_prefix "${CMAKE_CURRENT_BINARY_DIR}/install-tree")
if(PARALLAX_BUILD_PYTHON)
    # The package's directory under install_prefix (python/CMakeLists.txt).
    set(python_site "${PARALLAX_PYTHON_INSTALL_DIR}")
    if(NOT python_site)
        include("${PROJECT_SOURCE_DIR}/cmake/PythonSiteDir.cmake")
        parallax_python_site_dir("${install_prefix}" "${PARALLAX_PYTHON_VERSION}" python_site)
    endif()
endif()
string(REPLACE ";" "," icon_sizes "${PARALLAX_ICON_SIZES}") # a list would split the argument
add_test(NAME install_tree COMMAND "${CMAKE_COMMAND}"
    "-DBUILD_DIR=${CMAKE_BINARY_DIR}" "-DPREFIX=${install_prefix}" "-DAPP_ID=${PARALLAX_APP_ID}"
    "-DGUI=${PARALLAX_BUILD_GUI}" "-DICON_SIZES=${icon_sizes}"
    "-DBINDIR=${CMAKE_INSTALL_BINDIR}" "-DDATADIR=${CMAKE_INSTALL_DATADIR}" "-DMANDIR=${CMAKE_INSTALL_MANDIR}"
    "$<$<BOOL:${PARALLAX_BUILD_PYTHON}>:-DPYTHON_DIR=${python_site}/parallax>"
    "$<$<BOOL:${PARALLAX_BUILD_PYTHON}>:-DPYTHON_FILES=$<JOIN:${PARALLAX_PYTHON_FILES};$<TARGET_FILE_NAME:_parallax>,$<COMMA>>>"
    -P "${CMAKE_CURRENT_SOURCE_DIR}/install/check_install.cmake")
set_tests_properties(install_tree PROPERTIES FIXTURES_SETUP install_tree)

set(validate "${CMAKE_CURRENT_SOURCE_DIR}/install/validate.sh")
set(install_tests install_man)
add_test(NAME install_man COMMAND sh "${validate}" man "${install_prefix}" "${PARALLAX_APP_ID}")
# The installed command line works from the install tree.
add_test(NAME install_cli_info COMMAND "${install_prefix}/${CMAKE_INSTALL_BINDIR}/parallax-cli" info
    "${PARALLAX_DATA_DIR}/tau2/tau-profiles-openmp-2thread")
set_tests_properties(install_cli_info PROPERTIES PASS_REGULAR_EXPRESSION "Threads: +2 on 1 node")
list(APPEND install_tests install_cli_info)
if(PARALLAX_BUILD_PYTHON)
    # The installed Python package imports and reads a trial (Debian's interpreter, the installed files only).
    add_test(NAME install_python COMMAND "${Python_EXECUTABLE}" -I -c
        "import sys; sys.path.insert(0, sys.argv[1]); import parallax; assert parallax.__file__.startswith(sys.argv[1]); t = parallax.open(sys.argv[2]); print(parallax.__file__, len(t.dataframe()), 'cells')"
        "${install_prefix}/${python_site}" "${PARALLAX_DATA_DIR}/tau2/tau-profiles-openmp-2thread")
    set_tests_properties(install_python PROPERTIES PASS_REGULAR_EXPRESSION "dist-packages/parallax/__init__.py [0-9]+ cells")
    list(APPEND install_tests install_python)
    if(NOT PARALLAX_PYTHON_INSTALL_DIR)
        # With the prefixes /usr/local and /usr (DESTDIR), the package lands where Debian's python3 looks.
        add_test(NAME install_python_site COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/install/check_python_site.sh"
            "${CMAKE_BINARY_DIR}" "${CMAKE_CURRENT_BINARY_DIR}/python-site" "${Python_EXECUTABLE}"
            "${PARALLAX_DATA_DIR}/tau2/tau-profiles-openmp-2thread")
        # Both installs write the build tree's install_manifest.txt.
        set_tests_properties(install_tree install_python_site PROPERTIES RESOURCE_LOCK install_manifest)
        set_tests_properties(install_python_site PROPERTIES PASS_REGULAR_EXPRESSION
            "/usr/local/lib/python3[.][0-9]+/dist-packages /usr/local/lib/python3[.][0-9]+/dist-packages/parallax/__init__.py [0-9]+ cells.*/usr/lib/python3/dist-packages /usr/lib/python3/dist-packages/parallax/__init__.py [0-9]+ cells")
    endif()
endif()
if(PARALLAX_BUILD_GUI)
    foreach(what desktop appstream mime)
        add_test(NAME install_${what} COMMAND sh "${validate}" ${what} "${install_prefix}" "${PARALLAX_APP_ID}")
        list(APPEND install_tests install_${what})
    endforeach()
    parallax_test(tst_mimetypes install/tst_mimetypes.cpp Qt6::Core)
    target_compile_definitions(tst_mimetypes PRIVATE PARALLAX_INSTALL_PREFIX="${install_prefix}"
        PARALLAX_APP_ID="${PARALLAX_APP_ID}")
    # install_mime builds the MIME database a system install gets (ours merged with the system's).
    set_tests_properties(install_mime PROPERTIES FIXTURES_SETUP install_mimedb)
    set_tests_properties(tst_mimetypes PROPERTIES ENVIRONMENT
        "XDG_DATA_DIRS=${install_prefix}-mimedb;XDG_DATA_HOME=${install_prefix}-mimedb")
    list(APPEND install_tests tst_mimetypes)
    # The installed GUI reports the version of project(VERSION).
    add_test(NAME install_gui_version COMMAND "${install_prefix}/${CMAKE_INSTALL_BINDIR}/parallax" --version)
    set_tests_properties(install_gui_version PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen"
        PASS_REGULAR_EXPRESSION "(^|\n)parallax ${PROJECT_VERSION}\n")
    list(APPEND install_tests install_gui_version)
    # cpack -G DEB builds the package users install with apt (control fields, contents).
    add_test(NAME install_deb COMMAND sh "${CMAKE_CURRENT_SOURCE_DIR}/install/check_deb.sh" "${CMAKE_BINARY_DIR}"
        "${CMAKE_CURRENT_BINARY_DIR}/deb" "${PROJECT_VERSION}" "${PARALLAX_APP_ID}" "${PARALLAX_BUILD_PYTHON}"
        "${PARALLAX_DATA_DIR}/tau2/tau-profiles-openmp-2thread")
endif()
set_tests_properties(${install_tests} PROPERTIES FIXTURES_REQUIRED install_tree)
if(PARALLAX_BUILD_GUI)
    set_tests_properties(tst_mimetypes PROPERTIES FIXTURES_REQUIRED "install_tree;install_mimedb")
endif()
