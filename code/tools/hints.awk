# hints.awk - read a stage's hints file; an awk library (no main rule), used
# with -f by mkexercise.awk, hint.sh, progress.sh and check-hints.sh.
#
# solutions/stageN/hints.txt is the one source of every hint of stage N
# (`make exercises` copies it to exercises/stageN/hints.txt, where a student
# and `make hint-stageN` read it).  Format:
#
#	# a comment
#	kobject_put				an exercise's name, alone on a line
#	1: the idea, in a sentence or two	level 1 is also the text of the
#	2: which function, and why		skeleton's TODO() stub
#		a line starting with a tab continues the level above
#	3: the shape of the code
#
# Exercises appear in the order the chapter teaches them; make hint-stageN
# and make progress keep that order.
#
# hints_load(file) fills
#	HINT_N			how many exercises
#	HINT_NAME[i]		the i-th exercise's name (1-based)
#	HINT_LINE[name]		the line of its name
#	HINT_LEVELS[name]	how many levels it has
#	HINT[name, level]	the text (continuation lines joined by a space)
#	HINT_AT[name, level]	the line where the level starts
# and returns 0, or prints FILE:LINE:COL: message on standard error and
# returns 2.
function hints_fail(file, line, col, msg) {
	printf "%s:%d:%d: %s\n", file, line, col, msg > "/dev/stderr"
	return 2
}

function hints_load(file,    line, n, name, lvl, rc, text) {
	HINT_N = 0
	n = 0
	name = ""
	lvl = 0
	while ((rc = (getline line < file)) > 0) {
		n++
		if (line ~ /^[ \t]*(#|$)/)
			continue
		if (line ~ /^\t/) {
			if (!lvl)
				return hints_fail(file, n, 1, "a continuation line (tab) with no level above it")
			text = line; sub(/^\t+/, "", text)
			HINT[name, lvl] = HINT[name, lvl] " " text
			continue
		}
		if (line ~ /^[0-9]+: /) {
			if (name == "")
				return hints_fail(file, n, 1, "a level before the first exercise's name")
			text = line; sub(/^[0-9]+: /, "", text)
			lvl = line; sub(/:.*/, "", lvl); lvl += 0
			if (lvl != HINT_LEVELS[name] + 1)
				return hints_fail(file, n, 1, "level " lvl " of '" name "' follows level " HINT_LEVELS[name] \
						  " (levels go 1, 2, 3, in order)")
			HINT[name, lvl] = text
			HINT_AT[name, lvl] = n
			HINT_LEVELS[name] = lvl
			continue
		}
		if (line ~ /^[A-Za-z_][A-Za-z0-9_]*$/) {
			if (line in HINT_LINE)
				return hints_fail(file, n, 1, "exercise '" line "' listed twice (first at line " HINT_LINE[line] ")")
			name = line
			lvl = 0
			HINT_NAME[++HINT_N] = name
			HINT_LINE[name] = n
			HINT_LEVELS[name] = 0
			continue
		}
		return hints_fail(file, n, 1, "expected an exercise's name, 'N: text' or a tab-indented continuation")
	}
	if (rc < 0)
		return hints_fail(file, 0, 0, "cannot read the hints file")
	close(file)
	return 0
}

# Used alone, for the shell scripts:
#	awk -v hints_list=FILE -f hints.awk			the exercises' names, in order
#	awk -v hints_show=FILE -v name=E -v level=L -f hints.awk	level L of E, and its number of levels
#							on the first line
BEGIN {
	if (hints_list != "") {
		if (hints_load(hints_list))
			exit 2
		for (i = 1; i <= HINT_N; i++)
			print HINT_NAME[i]
		exit 0
	}
	if (hints_show != "") {
		if (hints_load(hints_show))
			exit 2
		if (!(name in HINT_LINE) || !((name, level) in HINT))
			exit 1
		print HINT_LEVELS[name]
		print HINT[name, level]
		exit 0
	}
}
