# steps.awk - a scenario script, one command at a time, for the guest or for ksim.
#
#   awk -v mode=guest -f steps.awk SCRIPT > RUNNER.sh
#   awk -v mode=ksim  -f steps.awk SCRIPT > ONE-PER-LINE.ksh   (keys on fd 3, see below)
#
# A line may hold several commands separated by ';' (the 2007 mail's lines
# do); each becomes a step of its own, so that each gets its own outcome.
# mode=guest writes a busybox sh script that prints "@@ N $ COMMAND" (and
# "@@ N as KEY" if it has one) before step N and "@@ N rc=STATUS" after it: the console log then says which
# output, kernel messages included, belongs to which command.  mode=ksim
# writes the steps one a line (ksim --echo prints each as "# COMMAND"), and
# the key of each step, one a line, to the file named by -v keys=FILE.
#
# A step's key is its text, unless its line ends with "#as: TEXT": then the
# key is TEXT.  That is how a ksim script names the Linux line it stands for
# where the two cannot be the same text (a module of another name).
# Quotes or backslashes on a line with several commands are refused: this
# splitter does not parse them, and a step cut in a quoted ';' would run
# something else than what was written.
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function squote(s) { gsub(/'/, "'\\''", s); return "'" s "'" }
BEGIN { n = 0; status = 0; if (mode != "guest" && mode != "ksim") { print "steps.awk: mode=guest or mode=ksim" > "/dev/stderr"; exit 2 } }
/^[ \t]*(#|$)/ { next }
{
	line = $0
	key = ""
	if (match(line, /#as:[ \t]*/)) {
		key = trim(substr(line, RSTART + RLENGTH))
		line = substr(line, 1, RSTART - 1)
	}
	if (line !~ /['"\\]/)
		sub(/[ \t]+#.*$/, "", line)	# a trailing comment is not part of the key
	nparts = split(line, part, ";")
	if (nparts > 1 && line ~ /['"\\]/) {
		printf "%s:%d:1: quotes or backslashes on a line of several commands: give each command its own line\n", FILENAME, FNR > "/dev/stderr"
		status = 2
		exit 2
	}
	if (nparts > 1 && key != "") {
		printf "%s:%d:%d: #as: names one command; this line has %d\n", FILENAME, FNR, RSTART, nparts > "/dev/stderr"
		status = 2
		exit 2
	}
	for (i = 1; i <= nparts; i++) {
		cmd = trim(part[i])
		if (cmd == "")
			continue
		n++
		if (mode == "guest") {
			printf "echo %s\n", squote("@@ " n " $ " cmd)
			if (key != "")
				printf "echo %s\n", squote("@@ " n " as " key)
			printf "%s\necho \"@@ %d rc=$?\"\n", cmd, n
		} else {
			print cmd
			print (key != "" ? key : cmd) > keys
		}
	}
}
END { if (!status && n == 0) { print "steps.awk: " FILENAME ": no commands" > "/dev/stderr"; exit 2 } }
