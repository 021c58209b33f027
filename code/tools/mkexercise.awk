# mkexercise.awk - turn a solution file into the student's skeleton.
#
# A solution fences the part the student writes:
#
#	/* BEGIN EXERCISE kref_put: drop one reference; the last one calls release */
#	...the solution...
#	/* STUB: return 0; */		(optional: what keeps the stub compiling)
#	/* END EXERCISE */
#
# The skeleton keeps everything else and puts in the fence's place
#	TODO("kref_put", "drop one reference; the last one calls release");
#	return 0;
# so it compiles, runs, and says which exercise is not done.  A broken
# fence is an error FILE:LINE:COL: message, exit status 2.
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
	if (!match(line, /BEGIN EXERCISE [A-Za-z_][A-Za-z0-9_]*: [^*]*\*\//))
		fail(index($0, "BEGIN"), "expected /* BEGIN EXERCISE name: hint */")
	spec = substr(line, RSTART + 15, RLENGTH - 17)
	name = spec; sub(/:.*/, "", name)
	hint = spec; sub(/^[^:]*: */, "", hint); sub(/ +$/, "", hint)
	gsub(/"/, "\\\"", hint)
	if (seen[name]++)
		fail(index($0, name), "exercise '" name "' fenced twice in one file")
	inside = 1; stub = ""
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
