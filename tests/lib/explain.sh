#!/bin/bash
# explain.sh [--quiet] STAGEDIR - draw the failing schedules of the last check of a build (make explain-stageN).
#
# When a harness of the schedule explorer fails, its test replays the
# shrunk failing schedule once more with a trace (tests/lib/explore_grade.c):
# STAGEDIR/explain/HARNESS.trace, each event with the functions that made
# it (in=).  This draws each one as lifelines (code/tools/trace2dot
# --lifelines, one line per object and task, each step labelled with its
# task and the function that made it), HARNESS.svg beside it, with
# code/tools/render-figure.sh as the book's figures are drawn, and prints
# each SVG's path with the command that replays the schedule (from the
# failed test's message in STAGEDIR/results).  It opens nothing.
#
# T2D is trace2dot (default build/tools/trace2dot).  --quiet (check-stageN,
# whose message already names the SVG) prints only what went wrong.
# Exit status: 0 drawn, or nothing to draw; 1 a drawing failed.
set -u
quiet=
[ "${1:-}" != --quiet ] || { quiet=1; shift; }
d=${1:?usage: explain.sh [--quiet] STAGEDIR}
t2d=${T2D:-build/tools/trace2dot}
name=explain-$(basename "$d")
shopt -s nullglob
traces=("$d"/explain/*.trace)
if [ ${#traces[@]} = 0 ]; then
	[ -n "$quiet" ] || echo "$name: no failing schedule to draw: the last make check-$(basename "$d") had no explorer harness fail (its traces go to $d/explain/)"
	exit 0
fi
[ -x "$t2d" ] || { echo "$name: $t2d is not built (make $t2d)"; exit 1; }
fail=0
for tr in "${traces[@]}"; do
	h=$(basename "$tr" .trace)
	base=${tr%.trace}
	if ! "$t2d" --lifelines --title "$h: the failing schedule the explorer found, shrunk" -o "$base.dot" "$tr" \
		>"$base.log" 2>&1 || ! code/tools/render-figure.sh "$base.dot" "$base.svg" >>"$base.log" 2>&1; then
		echo "$name: could not draw $tr (why: $base.log)"
		fail=1
		continue
	fi
	[ -z "$quiet" ] || continue
	echo "$name: $h: $base.svg"
	replay=$(grep -h -A1 -e '--- replay it:' "$d"/results/*.msg 2>/dev/null | grep -m 1 -e "--harness $h ")
	[ -z "$replay" ] || echo "  replay it:$replay"
done
exit $fail
