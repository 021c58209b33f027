#!/bin/bash
# check-overlay.sh WORK - every header a stage's build includes is the highest layer's of its name.
#
# A stage is built from the layers code/stageK, solutions/stageK of each
# stage K of its chain of bases, lowest first, then code/stageN, OWN/stageN
# (the Makefile's stage_layers; stage 3 builds on stage 1, so its layers
# skip stage 2): for each file name the highest layer wins, headers
# included.  The layers must be the chain's (code/tools/stage-chain.sh),
# each source the highest layer's, and nothing from a stage off the chain.  That holds only if every file
# of a layer includes our headers as <name.h>, looked up in the -I list
# (highest layer first); "name.h" is looked up in the including file's own
# directory first, and a lower layer's file would get its own layer's copy.
# The compiler lists what it really included (-MM), for each stage's
# sources, modules and suites.
#
# From the environment (the Makefile): CC, STAGES; and for each stage N:
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
		BEGIN { n = split(layers, L, " "); for (k = 1; k <= n; k++) inL[L[k]] = 1 }
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
				if (d ~ /(^|\/)(code|solutions)\/stage[0-9]+$/ && !(d in inL)) print src ": got " $i ", from a stage it does not build on"
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

# ---- the chain of bases: a stage's layers are those of the stages it
# builds on (code/stageN/BASE, code/tools/stage-chain.sh), and a file it
# compiles comes from the highest of them that has one of its name.
# layers_of N - the layers stage N's reference build must have, lowest first.
layers_of() {
	local k out=
	for k in $(code/tools/stage-chain.sh "$1"); do out+="${out:+ }code/stage$k solutions/stage$k"; done
	echo "$out"
}
# sources_of LAYERS - for each .c name in LAYERS (and their modules/), the highest layer's file.
sources_of() {
	local l f
	for l in $1; do for f in "$l"/*.c "$l"/modules/*.c; do [ -f "$f" ] && echo "${f#"$l"/} $f"; done; done |
		awk '{ w[$1] = $2 } END { for (n in w) print w[n] }' | sort
}
# The control: a made-up tree in which stage 3 builds on stage 1 and stage 2
# has a file of every name; the chain skips stage 2.
c3=$work/chain
mkdir -p "$c3/code/tools" "$c3/code/stage1" "$c3/code/stage2" "$c3/code/stage3"
cp code/tools/stage-chain.sh "$c3/code/tools/"
echo 1 >"$c3/code/stage2/BASE"; echo 1 >"$c3/code/stage3/BASE"
touch "$c3/code/stage1/a.c" "$c3/code/stage2/a.c" "$c3/code/stage2/b.c" "$c3/code/stage3/c.c"
got=$(cd "$c3" && code/tools/stage-chain.sh 3 && sources_of "code/stage1 code/stage3" | tr '\n' ' ')
if [ "$got" = "$(printf '1 3\ncode/stage1/a.c code/stage3/c.c ')" ]; then
	ok "the control: a stage on stage 1 beside stage 2 takes a.c from stage 1 and nothing from stage 2"
else
	bad "the control: stage 3 on stage 1 gave '$got', not '1 3' and code/stage1/a.c code/stage3/c.c"
fi

# A BASE that is not a lower stage, or not a number, is refused with its FILE:LINE:COL.
for bad in "3:not lower" "x:not a stage number"; do
	echo "${bad%%:*}" >"$c3/code/stage3/BASE"
	out=$(cd "$c3" && code/tools/stage-chain.sh 3 2>&1); rc=$?
	if [ "$rc" = 2 ] && grep -q "^code/stage3/BASE:1:1: .*${bad#*:}" <<<"$out"; then
		ok "the control: a BASE of '${bad%%:*}' is refused (exit 2, code/stage3/BASE:1:1: ...)"
	else
		bad "the control: a BASE of '${bad%%:*}' gave exit $rc: $out"
	fi
done

# ---- every stage (the reference's build: exercises/ are generated from
# solutions/, with the same #include lines, and check-exercises holds them to it)
for n in $STAGES; do
	for own in solutions; do
		l=LAYERS_${n}_$own f=CFLAGS_${n}_$own s=SOURCES_${n}_$own
		[ -n "${!l:-}" ] || { bad "stage $n ($own): no LAYERS_${n}_$own from the Makefile"; continue; }
		want=$(layers_of "$n")
		if [ "${!l}" = "$want" ]; then
			ok "stage $n ($own): its layers follow its bases ($(code/tools/stage-chain.sh "$n")): $want"
		else
			bad "stage $n ($own): the Makefile's layers are '${!l}', not '$want' (its chain of bases)"
		fi
		# shellcheck disable=SC2086 # SOURCES: file names without spaces
		diff <(printf '%s\n' ${!s} | grep -v '^tests/' | sort) <(sources_of "$want") >"$work/sources-$n.diff" &&
			ok "stage $n ($own): each of its files is the highest of its layers' files of that name" ||
			{ bad "stage $n ($own): the build's sources (<) and the chain's (>) differ:"; sed 's/^/    /' "$work/sources-$n.diff"; }
		# A stage that skips one (stage 3 skips stage 2): none of its files comes from there.
		for k in $(seq 1 "$n"); do
			case " $(code/tools/stage-chain.sh "$n") " in *" $k "*) continue ;; esac
			# shellcheck disable=SC2086
			from=$(printf '%s\n' ${!s} | grep -E "^(code|solutions)/stage$k/" | tr '\n' ' ')
			[ -z "$from" ] && ok "stage $n ($own) skips stage $k: none of its files comes from stage $k" ||
				bad "stage $n ($own) builds on $(code/tools/stage-chain.sh "$n") but compiles $from"
		done
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
