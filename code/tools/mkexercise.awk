# mkexercise.awk - turn a solution file into the student's skeleton.
#
# A solution fences the part the student writes:
#
#	/* BEGIN EXERCISE kref_put */
#	...the solution...
#	/* STUB: return 0; */		(optional: what keeps the stub compiling)
#	/* END EXERCISE */
#
# The skeleton keeps everything else and puts in the fence's place
#	TODO("kref_put", "<level 1 of kref_put's hints>");
#	return 0;
# so it compiles, runs, and says which exercise is not done.  The hint is
# level 1 of the exercise in the stage's hints file (awk -v hints=FILE, read
# with hints.awk): the hints live there only, never in the fence.  A broken
# fence, or an exercise without its hint, is an error FILE:LINE:COL: message,
# exit status 2.
#
# With -v shape=1 it writes the file's shape instead, what the submission
# gate (tests/grade/gate.c) holds a student's file to: the skeleton, with
# each exercise's TODO() and stub between a line "@EXERCISE name" and a
# line "@END" (the skeleton is the shape without those two lines).
BEGIN {
	if (hints != "" && hints_load(hints) != 0) {
		failed = 1
		exit 2
	}
}
function fail(col, msg) {
	printf "%s:%d:%d: %s\n", FILENAME, FNR, col, msg > "/dev/stderr"
	failed = 1
	exit 2
}
/\/\* BEGIN EXERCISE/ {
	if (inside)
		fail(index($0, "/*"), "BEGIN EXERCISE inside exercise '" name "' (missing END EXERCISE?)")
	line = $0
	indent = line; sub(/[^ \t].*$/, "", indent)
	if (match(line, /BEGIN EXERCISE [A-Za-z_][A-Za-z0-9_]*:/))
		fail(index($0, "BEGIN") + RLENGTH - 1, "a hint in the fence: hints go in the stage's hints.txt, as levels 1 to 3")
	if (!match(line, /BEGIN EXERCISE [A-Za-z_][A-Za-z0-9_]* \*\//))
		fail(index($0, "BEGIN"), "expected /* BEGIN EXERCISE name */")
	name = substr(line, RSTART + 15, RLENGTH - 18)
	if (hints == "")
		fail(index($0, name), "exercise '" name "' has no hint: no hints.txt next to this file's stage")
	if (!((name, 1) in HINT))
		fail(index($0, name), "exercise '" name "' has no level 1 in " hints)
	hint = HINT[name, 1]
	# It becomes a C string: no quote or backslash (the hints' levels 2 and 3 may have them).
	if (hint ~ /["\\]/)
		fail(index($0, name), "level 1 of '" name "' in " hints " has a quote or a backslash")
	if (seen[name]++)
		fail(index($0, name), "exercise '" name "' fenced twice in one file")
	inside = 1; stub = ""
	if (shape)
		print indent "@EXERCISE " name
	next
}
/\/\* STUB: .*\*\// {
	if (!inside)
		fail(index($0, "/*"), "STUB outside an exercise")
	s = $0; sub(/^.*\/\* STUB: /, "", s); sub(/ *\*\/.*$/, "", s)
	stub = stub indent s "\n"
	next
}
/\/\* END EXERCISE \*\// {
	if (!inside)
		fail(index($0, "/*"), "END EXERCISE without BEGIN")
	printf "%sTODO(\"%s\", \"%s\");\n%s", indent, name, hint, stub
	if (shape)
		print indent "@END"
	inside = 0
	next
}
!inside { print }
END {
	if (failed)
		exit 2
	if (inside)
		fail(1, "exercise '" name "' has no END EXERCISE")
}
