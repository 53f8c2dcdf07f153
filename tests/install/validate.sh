#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
# validate.sh WHAT PREFIX APP_ID — validates one kind of installed file in the install tree that
# the install_tree test wrote to PREFIX. A missing tool is a failure, never a skip: ./test.sh
# installs them (.ci/common.sh).
set -u
what="$1" prefix="$2" id="$3"

need() { # TOOL PACKAGE
    if ! command -v "$1" >/dev/null 2>&1; then
        echo "error: $1 is not installed (Debian package $2); ./test.sh installs it" >&2
        exit 1
    fi
}

case "$what" in
desktop)
    need desktop-file-validate desktop-file-utils
    file="$prefix/share/applications/$id.desktop"
    out="$(desktop-file-validate "$file" 2>&1)"
    status=$?
    echo "desktop-file-validate $file: exit $status"
    [ -n "$out" ] && echo "$out"
    # Warnings and hints (e.g. no main category: the menu would hide it) count as failures too.
    if [ "$status" -ne 0 ] || [ -n "$out" ]; then exit 1; fi
    ;;
appstream)
    need appstreamcli appstream
    file="$prefix/share/metainfo/$id.metainfo.xml"
    # --pedantic shows every remark; the exit status fails on errors and warnings.
    appstreamcli validate --no-net --pedantic --explain "$file" || exit 1
    # The metainfo's launchable must be the installed desktop file.
    grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$file" || {
        echo "error: $file does not launch $id.desktop" >&2
        exit 1
    }
    ;;
mime)
    # What the shared-mime-info trigger does when the package installs into /usr: one database
    # built from the system's definitions and ours. Kept in PREFIX-mimedb for tst_mimetypes.
    need update-mime-database shared-mime-info
    file="$prefix/share/mime/packages/$id.xml"
    db="$prefix-mimedb/mime"
    rm -rf "$prefix-mimedb"
    mkdir -p "$db/packages"
    cp /usr/share/mime/packages/freedesktop.org.xml "$file" "$db/packages/"
    out="$(update-mime-database -V "$db" 2>&1)"
    status=$?
    echo "update-mime-database with $file: exit $status"
    if [ "$status" -ne 0 ] || echo "$out" | grep -Eiq 'error|warning|unknown|invalid'; then
        echo "$out"
        exit 1
    fi
    # Every type of the package is in the database it built, and the desktop file claims them all.
    types="$(sed -n 's/.*<mime-type type="\([^"]*\)".*/\1/p' "$file")"
    desktop="$prefix/share/applications/$id.desktop"
    for type in $types; do
        grep -qx "$type" "$db/types" || { echo "error: $type is not in the built database" >&2; exit 1; }
        grep -q "^MimeType=.*$type;" "$desktop" || { echo "error: $desktop lacks MimeType $type" >&2; exit 1; }
    done
    echo "types: $(echo $types)"
    ;;
man)
    need man man-db
    # install_tree checked that the pages of every installed program are there.
    for page in "$prefix"/share/man/man1/*.1.gz; do
        program="$prefix/bin/$(basename "$page" .1.gz)"
        # groff's warnings (as lintian checks them) are failures. No hyphenation or justification,
        # so that option names stay whole in the text searched below.
        out="$(LC_ALL=C.UTF-8 MANWIDTH=200 man --warnings -E UTF-8 --nh --nj -l "$page" 2>&1 >"$prefix/man.txt")"
        status=$?
        text="$(cat "$prefix/man.txt")"
        rm -f "$prefix/man.txt"
        echo "man -l $page: exit $status, $(echo "$text" | wc -l) lines"
        [ -n "$out" ] && echo "$out"
        if [ "$status" -ne 0 ] || [ -n "$out" ]; then exit 1; fi
        for section in NAME DESCRIPTION "EXIT STATUS" "SEE ALSO"; do
            echo "$text" | grep -q "^$section\$" || { echo "error: $page has no $section section" >&2; exit 1; }
        done
        # The page is the program's current --help: every long option it names is documented.
        options="$(QT_QPA_PLATFORM=offscreen "$program" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)"
        [ -n "$options" ] || { echo "error: $program --help names no options" >&2; exit 1; }
        for option in $options; do
            echo "$text" | grep -q -- "$option" || { echo "error: $page lacks $option of $program --help" >&2; exit 1; }
        done
        echo "  documents all $(echo $options | wc -w) long options of $(basename "$program") --help"
    done
    ;;
*)
    echo "usage: validate.sh desktop|appstream|mime|man PREFIX APP_ID" >&2
    exit 2
    ;;
esac
