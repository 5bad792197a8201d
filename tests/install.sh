#!/bin/sh
# install.sh BUILD_DIR SOURCE_DIR - the installed library as a user meets
# it: `cmake --install` into a scratch prefix, then a small program built
# with the flags pkg-config gives for kemet, linked to the shared library
# and run; the page libkemet(3)'s example program, built with the page's
# own lines for a prefix the system does not search and run with no
# LD_LIBRARY_PATH; the static library, the program, the manual pages, the
# data and every document a help text or manual page names must be there
# too.
set -eu
build=$1
src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(ls -d "$prefix"/lib*/pkgconfig | head -1)
libdir=${libdir%/pkgconfig}
for f in "$prefix/include/kemet.h" "$prefix/include/kemet_version.h" \
         "$libdir/libkemet.a" "$prefix/bin/kemet" \
         "$prefix/share/man/man1/kemet.1" "$prefix/share/man/man3/libkemet.3" \
         "$prefix/share/kemet/eval.weights" "$prefix/share/doc/kemet/notation.md"; do
    [ -e "$f" ] || { echo "install.sh: $f was not installed" >&2; exit 1; }
done
# Every docs/NAME.md a help text, the server or a manual page names.
docdir="$prefix/share/doc/kemet"
for name in $(grep -rhoE 'docs/[a-z0-9_/-]+\.md' "$src/src/cli" \
                  "$src/src/serve" "$src/man" | sort -u); do
    [ -f "$docdir/${name#docs/}" ] || {
        echo "install.sh: $name is named but not installed in $docdir" >&2
        exit 1
    }
done
so=$(ls "$libdir"/libkemet.so.* | head -1)
[ -n "$so" ] || { echo "install.sh: no libkemet.so.MAJOR" >&2; exit 1; }
# Only the public API is exported: every defined function is kemet_*.
if nm -D --defined-only "$so" | awk '$2 == "T" {print $3}' | grep -v '^kemet_'; then
    echo "install.sh: the shared library exports names outside kemet_" >&2
    exit 1
fi
export PKG_CONFIG_PATH="$libdir/pkgconfig"
version=$(pkg-config --modversion kemet)
cat > "$prefix/hello.c" <<'C'
#include <kemet.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    if (strcmp(kemet_version(), KEMET_VERSION) != 0)
        return 1;
    kemet_rules *r;
    kemet_error err;
    if (kemet_rules_open("chien-chacal", &r, &err))
        return 2;
    kemet_pos pos;
    kemet_start(r, &pos);
    kemet_throw thr;
    if (kemet_throw_parse(r, "1", &thr, &err))
        return 3;
    static kemet_move moves[KEMET_MAX_MOVES];
    int n = kemet_moves(r, &pos, &thr, moves);
    char text[256];
    kemet_move_format(&moves[0], text, sizeof text);
    printf("%s %d %s\n", kemet_version(), n, text);
    kemet_rules_close(r);
    return 0;
}
C
# shellcheck disable=SC2046
cc -std=c17 -Wall -Werror -o "$prefix/hello" "$prefix/hello.c" \
    $(pkg-config --cflags --libs kemet)
out=$(LD_LIBRARY_PATH="$libdir" "$prefix/hello")
[ "$out" = "$version 1 in-1" ] || {
    echo "install.sh: the program printed '$out', not '$version 1 in-1'" >&2
    exit 1
}
# It ran against the installed shared library, not a copy elsewhere.
LD_LIBRARY_PATH="$libdir" ldd "$prefix/hello" | grep -q "$libdir/libkemet.so" || {
    echo "install.sh: hello is not linked to $libdir/libkemet.so" >&2
    exit 1
}
# The manual page's example, built as the page says for a prefix of one's
# own (PREFIX), from its SYNOPSIS: the export and the cc line with the
# rpath, and run with nothing on LD_LIBRARY_PATH.
page="$prefix/share/man/man3/libkemet.3"
steps=$(sed -n -e 's/^\.B \(export PKG_CONFIG_PATH=.*\)$/\1/p' \
               -e 's/^\.B \(cc prog\.c .*rpath.*\)$/\1/p' "$page" |
        sed -e 's/\\-/-/g' -e "s|PREFIX|$prefix|g")
[ "$(printf '%s\n' "$steps" | wc -l)" -eq 2 ] || {
    echo "install.sh: libkemet.3 has no export and cc line for a prefix" >&2
    exit 1
}
mkdir "$prefix/user"
# prog.c is the page's own EXAMPLE (roff's \e is a backslash)
sed -n '/^\.SH EXAMPLE/,/^\.fi/p' "$page" | sed -e '1,2d' -e '$d' \
    -e 's/\\e/\\/g' -e 's/\\-/-/g' > "$prefix/user/prog.c"
grep -q 'int main' "$prefix/user/prog.c" || {
    echo "install.sh: libkemet.3 has no EXAMPLE program" >&2
    exit 1
}
(cd "$prefix/user" && unset PKG_CONFIG_PATH LD_LIBRARY_PATH &&
    eval "$steps") || {
    echo "install.sh: libkemet.3's lines did not build prog.c: $steps" >&2
    exit 1
}
out=$(cd "$prefix/user" && env -u LD_LIBRARY_PATH ./a.out) || {
    echo "install.sh: built as libkemet.3 says, the program does not run" >&2
    exit 1
}
case $out in
*[0-9]" moves") ;;
*) echo "install.sh: libkemet.3's example printed '$out', not 'N moves'" >&2
   exit 1 ;;
esac
"$prefix/bin/kemet" --version | grep -qx "kemet $version"
echo "install.sh: installed kemet $version works through pkg-config"
