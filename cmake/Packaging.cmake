# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# cpack -G DEB (run in build/): a .deb named parallax_<version>_<arch>.deb whose Depends come from
# dpkg-shlibdeps on the installed binaries. Graphviz is recommended: the call graph runs `dot`.
set(CPACK_PACKAGE_NAME "parallax")
set(CPACK_PACKAGE_VENDOR "The Parallax developers")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PARALLAX_HOMEPAGE_URL}")
set(PARALLAX_DEB_MAINTAINER "Parallax developers <parallax@users.noreply.github.com>" CACHE STRING
    "Maintainer field of the .deb (Name <address>)")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${PARALLAX_DEB_MAINTAINER}")
set(CPACK_RESOURCE_FILE_LICENSE "${CMAKE_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The Python module (python/, import parallax) needs Debian's python3 with NumPy and pandas; the
# programs do not, so they are recommended rather than required.
if(PARALLAX_BUILD_PYTHON)
    set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "graphviz, python3, python3-numpy, python3-pandas")
else()
    set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "graphviz")
endif()
# The extended description; CPack puts CPACK_PACKAGE_DESCRIPTION_SUMMARY above it as the synopsis.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Parallax is a desktop viewer and performance database for the profiles that
TAU, Score-P, Scalasca, Caliper, HPCToolkit and similar tools write when an
MPI or OpenMP program runs: linked views of every thread, event and metric,
statistics, call trees and call graphs, comparison of runs and semantic views.
.
It reads TAU profiles, ppk and snapshot XML, CUBE 3 and 4, Caliper,
HPCToolkit, gprof, mpiP, Python pstats, Hatchet and timemory JSON, stores
trials in SQLite or PostgreSQL (TAUdb), and ships parallax-cli, a
pprof-compatible command line.")

# The changelog Debian packages carry (usr/share/doc/parallax/changelog.gz), one entry per release.
execute_process(COMMAND date -u -R -d "${PARALLAX_RELEASE_DATE} 12:00"
    OUTPUT_VARIABLE PARALLAX_RELEASE_DATE_RFC2822 OUTPUT_STRIP_TRAILING_WHITESPACE)
configure_file(resources/linux/changelog.in "${CMAKE_BINARY_DIR}/packaging/changelog" @ONLY)
add_custom_command(OUTPUT "${CMAKE_BINARY_DIR}/packaging/changelog.gz"
    COMMAND gzip -9nc "${CMAKE_BINARY_DIR}/packaging/changelog" > "${CMAKE_BINARY_DIR}/packaging/changelog.gz"
    DEPENDS "${CMAKE_BINARY_DIR}/packaging/changelog"
    COMMENT "Compressing the changelog")
add_custom_target(parallax_changelog ALL DEPENDS "${CMAKE_BINARY_DIR}/packaging/changelog.gz")
install(FILES "${CMAKE_BINARY_DIR}/packaging/changelog.gz" DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/parallax")

include(CPack)
