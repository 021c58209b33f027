#!/bin/bash
# check-overlay.sh WORK - every header a stage's build includes is the highest layer's of its name.
#
# A stage is built from the layers code/stage1, solutions/stage1, ...
# code/stageN, OWN/stageN (the Makefile's stage_layers): for each file name
# the highest layer wins, headers included.  That holds only if every file
# of a layer includes our headers as <name.h>, looked up in the -I list
# (highest layer first); "name.h" is looked up in the including file's own
# directory first, and a lower layer's file would get its own layer's copy.
# The compiler lists what it really included (-MM), for each stage's
# sources, modules and suites.
#
# From the environment (the Makefile): CC; and for each stage N:
# LAYERS_N_solutions (lowest first), CFLAGS_N_solutions and
# SOURCES_N_solutions.  First a control: a copy of code/stage1/device.h that
# includes "sysfs.h", beside a stale sysfs.h, must be caught.
# Last line: "check-overlay: N passed, M failed".
set -u
work=$1
pass=0 fail=0
ok() { echo "ok $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
rm -rf "$work" && mkdir -p "$work"

# wrong LAYERS FLAGS SOURCE... - "SOURCE: got HEADER, not WINNER" for each
# header of a layer that is not the highest layer's file of its name.
wrong() {
	local layers=$1 flags=$2 l
	shift 2
	# shellcheck disable=SC2086 # flags: words
	$CC $flags -MM "$@" 2>&1 | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' | awk -v layers="$layers" '
		BEGIN { n = split(layers, L, " ") }
		# win[name]: the highest layer that has it (a later layer overrides).
		function winner(name,   k, w, f) {
			if (name in win) return win[name]
			w = ""
			for (k = 1; k <= n; k++) { f = L[k] "/" name; if ((getline line < f) >= 0) { w = f; close(f) } }
			return win[name] = w
		}
		/: / {
			src = ""
			for (i = 2; i <= NF; i++) {
				if ($i ~ /\.c$/ && src == "") src = $i
				if ($i !~ /\.h$/) continue
				d = $i; sub(/\/[^\/]*$/, "", d); name = $i; sub(/.*\//, "", name)
				for (k = 1; k <= n; k++) if (d == L[k]) { w = winner(name); if (w != $i) print src ": got " $i ", not " w }
			}
		}
		/error/ { print "the compiler: " $0 }'
}

# ---- the control: a lower layer's header that includes "sysfs.h" beside its own copy
c=$work/control
mkdir -p "$c/code/stage1" "$c/code/stage3"
cp code/stage1/device.c code/stage1/sysfs.h "$c/code/stage1/"
sed 's/#include <sysfs\.h>/#include "sysfs.h"/' code/stage1/device.h >"$c/code/stage1/device.h"
cp code/stage3/sysfs.h "$c/code/stage3/sysfs.h"
if ! grep -q '#include "sysfs.h"' "$c/code/stage1/device.h"; then
	bad "the control: code/stage1/device.h no longer includes <sysfs.h>; choose another file for the control"
else
	out=$(wrong "$c/code/stage1 $c/code/stage3" "-I$c/code/stage3 -I$c/code/stage1 ${CFLAGS_3_solutions:-}" \
		"$c/code/stage1/device.c")
	if grep -q "got $c/code/stage1/sysfs.h, not $c/code/stage3/sysfs.h" <<<"$out"; then
		ok "the control: a header that includes \"sysfs.h\" gets its own directory's copy, and is caught"
	else
		bad "the control: a header that includes \"sysfs.h\" beside a stale copy was not caught:"
		sed 's/^/    /' <<<"$out"
	fi
fi

# ---- every stage (the reference's build: exercises/ are generated from
# solutions/, with the same #include lines, and check-exercises holds them to it)
for n in 1 2 3 4; do
	for own in solutions; do
		l=LAYERS_${n}_$own f=CFLAGS_${n}_$own s=SOURCES_${n}_$own
		[ -n "${!l:-}" ] || { bad "stage $n ($own): no LAYERS_${n}_$own from the Makefile"; continue; }
		# shellcheck disable=SC2086 # SOURCES: file names without spaces
		out=$(wrong "${!l}" "${!f}" ${!s})
		if [ -z "$out" ]; then
			ok "stage $n ($own): each of its $(wc -w <<<"${!s}") files gets the highest layer's headers"
		else
			bad "stage $n ($own): a lower layer's header was included:"
			sed 's/^/    /' <<<"$out" | head -n 20
		fi
	done
done
echo "check-overlay: $pass passed, $fail failed"
[ "$fail" = 0 ]
