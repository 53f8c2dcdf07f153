# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# cmake -DBUILD_DIR=... -DPREFIX=... -DAPP_ID=... -DGUI=ON|OFF -DICON_SIZES=16,22,...
#       -DBINDIR=bin -DDATADIR=share -DMANDIR=share/man [-DPYTHON_DIR=lib/python3/dist-packages/parallax
#       -DPYTHON_FILES=__init__.py,...] -P check_install.cmake
# Installs the build into a fresh PREFIX with `cmake --install` and compares the installed files
# with the list every Parallax install must hold (exactly: a missing or an unexpected file fails).
cmake_minimum_required(VERSION 3.21)
foreach(var BUILD_DIR PREFIX APP_ID GUI ICON_SIZES BINDIR DATADIR MANDIR)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "check_install.cmake needs -D${var}=...")
    endif()
endforeach()

string(REPLACE "," ";" ICON_SIZES "${ICON_SIZES}")
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}"
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "cmake --install ${BUILD_DIR} --prefix ${PREFIX} failed (${result}):\n${output}")
endif()

set(expected
    "${BINDIR}/parallax-cli"
    "${MANDIR}/man1/parallax-cli.1.gz"
    "${DATADIR}/doc/parallax/LICENSE"
    "${DATADIR}/doc/parallax/copyright"
    "${DATADIR}/doc/parallax/changelog.gz"
    "${DATADIR}/doc/parallax/README.md"
    "${DATADIR}/doc/parallax/sample-tau-cpi-4rank-NOTICE.md")
if(GUI)
    list(APPEND expected
        "${BINDIR}/parallax"
        "${MANDIR}/man1/parallax.1.gz"
        "${DATADIR}/applications/${APP_ID}.desktop"
        "${DATADIR}/metainfo/${APP_ID}.metainfo.xml"
        "${DATADIR}/mime/packages/${APP_ID}.xml"
        "${DATADIR}/icons/hicolor/scalable/apps/${APP_ID}.svg")
    foreach(size IN LISTS ICON_SIZES)
        list(APPEND expected "${DATADIR}/icons/hicolor/${size}x${size}/apps/${APP_ID}.png")
    endforeach()
endif()

if(PYTHON_DIR)
    # The Python package (python/): the extension and the pure-Python files, in Debian's dist-packages.
    string(REPLACE "," ";" PYTHON_FILES "${PYTHON_FILES}")
    foreach(file IN LISTS PYTHON_FILES)
        list(APPEND expected "${PYTHON_DIR}/${file}")
    endforeach()
endif()

file(GLOB_RECURSE installed LIST_DIRECTORIES false RELATIVE "${PREFIX}" "${PREFIX}/*")
set(problems "")
foreach(file IN LISTS expected)
    if(NOT file IN_LIST installed)
        string(APPEND problems "missing: ${file}\n")
    elseif(file MATCHES "\\.png$")
        # The PNG's IHDR width and height (bytes 16..23) must be the size its folder names.
        string(REGEX MATCH "/([0-9]+)x[0-9]+/" _ "${file}")
        math(EXPR want "${CMAKE_MATCH_1}" OUTPUT_FORMAT HEXADECIMAL)
        file(READ "${PREFIX}/${file}" header LIMIT 24 HEX)
        string(SUBSTRING "${header}" 0 16 signature)
        string(SUBSTRING "${header}" 32 8 width)
        string(SUBSTRING "${header}" 40 8 height)
        math(EXPR width "0x${width}" OUTPUT_FORMAT HEXADECIMAL)
        math(EXPR height "0x${height}" OUTPUT_FORMAT HEXADECIMAL)
        if(NOT signature STREQUAL "89504e470d0a1a0a" OR NOT width EQUAL want OR NOT height EQUAL want)
            string(APPEND problems "not a ${CMAKE_MATCH_1}x${CMAKE_MATCH_1} PNG: ${file} (${width} x ${height})\n")
        endif()
    else()
        file(SIZE "${PREFIX}/${file}" size)
        if(size EQUAL 0)
            string(APPEND problems "empty: ${file}\n")
        endif()
    endif()
endforeach()
foreach(file IN LISTS installed)
    if(NOT file IN_LIST expected)
        string(APPEND problems "unexpected: ${file}\n")
    endif()
endforeach()
foreach(program parallax parallax-cli)
    if("${BINDIR}/${program}" IN_LIST installed AND NOT IS_DIRECTORY "${PREFIX}/${BINDIR}/${program}")
        execute_process(COMMAND test -x "${PREFIX}/${BINDIR}/${program}" RESULT_VARIABLE notExecutable)
        if(notExecutable)
            string(APPEND problems "not executable: ${BINDIR}/${program}\n")
        endif()
    endif()
endforeach()

list(SORT installed)
list(JOIN installed "\n  " listing)
if(problems)
    message(FATAL_ERROR "install tree ${PREFIX} is wrong:\n${problems}installed:\n  ${listing}")
endif()
list(LENGTH expected count)
message(STATUS "install tree ${PREFIX} holds the ${count} expected files:\n  ${listing}")
