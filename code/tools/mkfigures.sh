#!/bin/bash
# mkfigures.sh - run the scenarios of a figure list with tracing and write each figure's DOT.
#
# usage: mkfigures.sh LIST OUTDIR TRACEDIR
#
# LIST has one figure a line:  NAME STAGE SCENARIO SHOWS [TRACE2DOT-OPTION...]
#   NAME      the figure's file name without extension: OUTDIR/NAME.dot
#   STAGE     1, 2, 3: the scenario runs on build/stageN/ksim (the reference)
#   SCENARIO  code/scenarios/SCENARIO.ksh
#   SHOWS     what the chapter says the figure shows, checked on the DOT:
#             dangling  a reference drawn red (to freed memory or unloaded code)
#             clean     nothing red at all: no dangling reference, no oops
#             any       no claim
#   options   passed to trace2dot (no spaces inside one); the DOT's first line
#             says which Graphviz layout draws it (render-figure.sh)
# '#' starts a comment.  Each (stage, scenario) runs once, in parallel with
# the others; its trace goes to TRACEDIR.  Everything written depends only on
# the scenario and the code: no dates, no addresses, no temporary paths (the
# caption is --title, not the trace's path), so the output can be compared
# byte for byte with the committed figures.  Drawing the DOT is not done
# here: each Graphviz release draws it differently (render-figure.sh).
set -u
BUILD=${BUILD:-build}
T2D=${T2D:-$BUILD/tools/trace2dot}

die() { echo "mkfigures: $*" >&2; exit 2; }

[ $# -eq 3 ] || die "usage: mkfigures.sh LIST OUTDIR TRACEDIR"
list=$1 out=$2 traces=$3
[ -r "$list" ] || die "$list: cannot read the figure list"
[ -x "$T2D" ] || die "$T2D is not built (make $T2D)"
mkdir -p "$out" "$traces" || exit 2

# Read and check the whole list first: a typo fails before anything runs.
# explorer STAGE MISTAKE - the schedule explorer of the reference (MISTAKE -) or of one mistake's build.
explorer() {
	if [ "$2" = - ]; then echo "$BUILD/stage$1/tests/test_explore"; else echo "$BUILD/mistake/stage$1/$2/test_explore"; fi
}

names=() stages=() scens=() shows=() opts=() lines=()
n=0
while IFS= read -r line || [ -n "$line" ]; do
	n=$((n + 1))
	line=${line%%#*}
	read -r -a w <<<"$line"
	[ ${#w[@]} -eq 0 ] && continue
	[ ${#w[@]} -ge 4 ] || die "$list:$n: want NAME STAGE SCENARIO SHOWS [OPTIONS...]"
	[[ ${w[0]} =~ ^[a-z0-9][a-z0-9-]*$ ]] || die "$list:$n: bad figure name '${w[0]}'"
	[[ ${w[1]} =~ ^[1-9]$ ]] || die "$list:$n: bad stage '${w[1]}'"
	if [[ ${w[2]} == explore:* ]]; then
		IFS=: read -r _ mistake harness sched <<<"${w[2]}"
		[ -n "$sched" ] || die "$list:$n: want explore:MISTAKE:HARNESS:SCHEDULE (MISTAKE - for the reference)"
		prog=$(explorer "${w[1]}" "$mistake")
		[ -x "$prog" ] || die "$list:$n: $prog is not built"
	else
		[ -r "code/scenarios/${w[2]}.ksh" ] || die "$list:$n: no scenario code/scenarios/${w[2]}.ksh"
		[ -x "$BUILD/stage${w[1]}/ksim" ] || die "$list:$n: $BUILD/stage${w[1]}/ksim is not built"
	fi
	[[ ${w[3]} =~ ^(dangling|clean|any)$ ]] || die "$list:$n: SHOWS is dangling, clean or any, not '${w[3]}'"
	for prev in "${names[@]}"; do
		[ "$prev" != "${w[0]}" ] || die "$list:$n: figure '${w[0]}' is listed twice"
	done
	names+=("${w[0]}") stages+=("${w[1]}") scens+=("${w[2]}") shows+=("${w[3]}") lines+=("$n")
	opts+=("${w[*]:4}")
done <"$list"

# The runs: each scenario once per stage, all at once, each under the
# controlled scheduler (--sched nonpreemptive): its delay points sleep on a
# virtual clock, so a busy machine cannot change who wins a window, and the
# drawing is the same on every run (with the same pids as a free run: ksim
# skips the pid of the watchdog thread it does not start).  Exit 0 is a clean run, 3 an oops, 4 the watchdog: all
# are stories worth drawing.  2 (a bad script) or a crash of ksim is not.
declare -A pid
for i in "${!names[@]}"; do
	key=stage${stages[i]}-${scens[i]//:/-}
	[ -n "${pid[$key]:-}" ] && continue
	if [[ ${scens[i]} == explore:* ]]; then
		# The shrunk failing schedule the explorer found, replayed with its trace.
		IFS=: read -r _ mistake harness sched <<<"${scens[i]}"
		( mkdir -p "$traces/$key.d" &&
		  "$(explorer "${stages[i]}" "$mistake")" --explore --harness "$harness" --sched "$sched" \
			--trace "$traces/$key.d" >"$traces/$key.out" 2>&1
		  rc=$?; cp "$traces/$key.d/$harness.trace" "$traces/$key.trace" 2>/dev/null || rc=2
		  [ $rc = 1 ] && exit 0; exit $rc ) &
	else
		"$BUILD/stage${stages[i]}/ksim" --sched nonpreemptive --trace "$traces/$key.trace" \
			"code/scenarios/${scens[i]}.ksh" >"$traces/$key.out" 2>&1 &
	fi
	pid[$key]=$!
done
fail=0
for key in "${!pid[@]}"; do
	wait "${pid[$key]}"
	rc=$?
	case $rc in
	0|3|4) ;;
	*) echo "mkfigures: $key: ksim exited $rc (see $traces/$key.out)" >&2; fail=1 ;;
	esac
done
[ $fail = 0 ] || exit 2

for i in "${!names[@]}"; do
	key=stage${stages[i]}-${scens[i]//:/-}
	title="Stage ${stages[i]}, ${scens[i]}.ksh"
	[[ ${scens[i]} == explore:* ]] && title="Stage ${stages[i]}, explorer: $(cut -d: -f3 <<<"${scens[i]}") ($(cut -d: -f2 <<<"${scens[i]}"))"
	read -r -a o <<<"${opts[i]}"
	"$T2D" "${o[@]}" --title "$title" \
		-o "$out/${names[i]}.dot" "$traces/$key.trace" ||
		die "$list:${lines[i]}: trace2dot failed on $traces/$key.trace"
	# The claim: trace2dot draws every dangling edge "color=red, penwidth=2",
	# and anything red at all (a stale object, an oops) breaks "clean".
	dot=$out/${names[i]}.dot
	case ${shows[i]} in
	dangling) grep -q -- ' -> .*color=red, penwidth=2' "$dot" ||
		{ echo "mkfigures: $list:${lines[i]}: ${names[i]} should show a dangling reference, but draws none red ($key)" >&2; fail=1; } ;;
	clean) ! grep -q 'color=red' "$dot" ||
		{ echo "mkfigures: $list:${lines[i]}: ${names[i]} should be clean, but draws red: $(grep -m1 'color=red' "$dot" | grep -o 'tooltip="[^"]*"' | head -1) ($key)" >&2; fail=1; } ;;
	esac
done
exit $fail
