# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# Where the parallax package goes under an install prefix when PARALLAX_PYTHON_INSTALL_DIR is empty
# (python/CMakeLists.txt runs this at install time, when the prefix is final; the install tests at
# configure time). The directories Debian's python3 searches: the prefix /usr/local gives
# lib/python3.X/dist-packages (site.getsitepackages()' /usr/local/lib/python3.11/dist-packages);
# any other prefix lib/python3/dist-packages (/usr/lib/python3/dist-packages, the .deb's).
function(parallax_python_site_dir prefix version out)
    if(prefix STREQUAL "/usr/local")
        set(${out} "lib/python${version}/dist-packages" PARENT_SCOPE)
    else()
        set(${out} "lib/python3/dist-packages" PARENT_SCOPE)
    endif()
endfunction()
