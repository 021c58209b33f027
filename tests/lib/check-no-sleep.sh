#!/bin/bash
# check-no-sleep.sh FILE... - no scenario script orders its tasks with a sleep.
#
# A sleep between two commands is a guess of how long a background task
# takes to get somewhere; on a busy machine the guess is wrong, and the
# scenario shows something else than it says (or fails one run in fifty).
# A script waits for the thing itself: "await POINT" for a task held at an
# armed delay point, "settle" for the kernel's queued work.  A sleep that
# orders nothing (the sleep command under test) says so on its line, with
# "# sleep-ok: WHY".  Prints each offending line as FILE:LINE:COL: and exits 1.
set -u
awk '
FNR == 1 { n = 0 }
{
	line = $0
	if (line ~ /#[ \t]*sleep-ok:/)
		next
	sub(/(^|[ \t])#.*$/, "", line)		# a comment starts where a word does
	if (match(line, /(^|[;&])[ \t]*sleep([ \t]|$)/)) {
		col = RSTART + (substr(line, RSTART, 1) ~ /[;&]/)
		while (substr(line, col, 1) ~ /[ \t]/)
			col++
		printf "%s:%d:%d: a sleep orders this script'"'"'s tasks: await the delay point the background task is held at (await POINT), or settle the queued work (settle); a sleep that orders nothing says '"'"'# sleep-ok: why'"'"'\n", FILENAME, FNR, col
		bad = 1
	}
}
END { exit bad }
' "$@"
