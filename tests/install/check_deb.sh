#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# check_deb.sh BUILD_DIR SCRATCH VERSION APP_ID [PYTHON SAMPLE] — builds the .deb with `cpack -G DEB`
# into SCRATCH and checks its control fields and contents: the package a user installs with apt. With
# PYTHON true, the Python package is in Debian's dist-packages and imports from the unpacked .deb
# (reading SAMPLE).
set -u
build="$1" scratch="$2" version="$3" id="$4" python="${5:-OFF}" sample="${6:-}"
for tool in cpack dpkg-deb dpkg-shlibdeps; do
    command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool is not installed (cmake, dpkg-dev)" >&2; exit 1; }
done
rm -rf "$scratch"
mkdir -p "$scratch"
if ! cpack -G DEB -B "$scratch" --config "$build/CPackConfig.cmake" >"$scratch/cpack.log" 2>&1; then
    cat "$scratch/cpack.log"
    exit 1
fi
deb="$(ls "$scratch"/parallax_"$version"_*.deb 2>/dev/null)"
[ -f "$deb" ] || { echo "error: no parallax_${version}_ARCH.deb in $scratch" >&2; ls "$scratch"; exit 1; }
fail() { echo "error: $deb: $*" >&2; exit 1; }

field() { dpkg-deb -f "$deb" "$1"; }
echo "$(basename "$deb"):"
dpkg-deb -f "$deb" Package Version Section Maintainer Depends Recommends
[ "$(field Package)" = parallax ] || fail "Package is not parallax"
[ "$(field Version)" = "$version" ] || fail "Version is not $version"
[ -n "$(field Maintainer)" ] && [ -n "$(field Section)" ] || fail "no Maintainer or Section"
# dpkg-shlibdeps worked out the libraries: Qt, QCustomPlot, the database clients, the C++ runtime.
for lib in libqt6core6 libqt6widgets6 libqt6svg6 libqcustomplot2.1-qt6 libpq5 libsqlite3-0 libarchive13 libstdc++6; do
    pattern="$(printf '%s' "$lib" | sed 's/[+.]/\\&/g')"
    field Depends | grep -Eq "(^|, )$pattern( |,|$)" || fail "Depends lacks $lib"
done
# The call graph runs Graphviz dot as a process, which dpkg-shlibdeps cannot see.
field Recommends | grep -Eq '(^|, )graphviz( |,|$)' || field Depends | grep -Eq '(^|, )graphviz( |,|$)' \
    || fail "neither Depends nor Recommends names graphviz"
contents="$(dpkg-deb -c "$deb" | awk '{print $NF}')"
for path in ./usr/bin/parallax ./usr/bin/parallax-cli ./usr/share/applications/"$id".desktop \
    ./usr/share/metainfo/"$id".metainfo.xml ./usr/share/mime/packages/"$id".xml \
    ./usr/share/icons/hicolor/scalable/apps/"$id".svg ./usr/share/icons/hicolor/48x48/apps/"$id".png \
    ./usr/share/man/man1/parallax.1.gz ./usr/share/man/man1/parallax-cli.1.gz ./usr/share/doc/parallax/copyright; do
    echo "$contents" | grep -qx "$path" || fail "does not contain $path"
done
case "$python" in
ON | on | TRUE | true | 1)
    for path in ./usr/lib/python3/dist-packages/parallax/__init__.py ./usr/lib/python3/dist-packages/parallax/db.py; do
        echo "$contents" | grep -qx "$path" || fail "does not contain $path"
    done
    echo "$contents" | grep -q '^\./usr/lib/python3/dist-packages/parallax/_parallax\.cpython-.*\.so$' \
        || fail "does not contain the extension _parallax in /usr/lib/python3/dist-packages/parallax"
    for pkg in python3-numpy python3-pandas; do
        field Recommends | grep -Eq "(^|, )$pkg( |,|$)" || fail "Recommends lacks $pkg"
    done
    dpkg-deb -x "$deb" "$scratch/root"
    /usr/bin/python3 -I -c "import sys; sys.path.insert(0, sys.argv[1]); import parallax; print('python:', parallax.__file__, len(parallax.open(sys.argv[2]).dataframe()), 'cells')" \
        "$scratch/root/usr/lib/python3/dist-packages" "$sample" || fail "the packaged parallax module does not import and read $sample"
    ;;
esac
echo "contents: $(echo "$contents" | grep -vc '/$') files under /usr"
