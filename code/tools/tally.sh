#!/bin/bash
# tally.sh DIR TARGET... - the last line of `make check`: "N passed, M failed".
#
# DIR/TARGET.log is what `make TARGET` printed, DIR/TARGET.rc its exit status.
# A target counts what it reports itself:
#   - "NAME: N passed, M failed" lines at the start of a line, not
#     quoted by an indented or "ok"/"FAIL" check line (tests/lib/runtests.sh, and
#     tests/lib/patched.sh: one check per mistake or variant patch), else
#   - Check's "Checks: N, Failures: F, Errors: E" lines, else
#   - tests/lib/valgrind.sh's one line per run ("...: ok" or "...: FAIL ..."),
#   - else the target is one check, passed if it exited 0.
# A target that failed without reporting a failure counts one more failure.
set -u
dir=$1; shift
total_p=0 total_f=0
for t in "$@"; do
	log=$dir/$t.log
	rc=$(cat "$dir/$t.rc" 2>/dev/null || echo 1)
	read -r p f < <(awk '
		# A tally quoted inside a check line ("  ok ... 9 passed, 17 failed") is that check'"'"'s words, not a count.
		/: [0-9]+ passed, [0-9]+ failed$/ && !/^[ \t]/ && !/^(ok|FAIL|not ok) / { n = split($0, w, " "); rp += w[n-3]; rf += w[n-1]; r = 1; next }
		/Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+/ {
			match($0, /Checks: [0-9]+/); c = substr($0, RSTART + 8, RLENGTH - 8)
			match($0, /Failures: [0-9]+/); x = substr($0, RSTART + 10, RLENGTH - 10)
			match($0, /Errors: [0-9]+/); e = substr($0, RSTART + 8, RLENGTH - 8)
			cp += c - x - e; cf += x + e; k = 1; next }
		/ errors, ksim exit [0-9]+: ok/ { vp++; v = 1; next }
		/ errors, ksim exit [0-9]+: FAIL|: FAIL \(/ { vf++; v = 1; next }
		END {
			if (r) print rp, rf; else if (k) print cp, cf; else if (v) print vp + 0, vf + 0; else print "- -"
		}' "$log" 2>/dev/null || echo "- -")
	if [ "$p" = - ]; then
		if [ "$rc" = 0 ]; then p=1 f=0; else p=0 f=1; fi
	fi
	[ "$rc" != 0 ] && [ "$f" = 0 ] && f=1
	total_p=$((total_p + p)) total_f=$((total_f + f))
done
echo "$total_p passed, $total_f failed"
