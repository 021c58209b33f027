# outcomes.awk - what each step of a run did, as the words of outcomes.tsv.
#
#   awk -v side=linux -f outcomes.awk outcomes.tsv CONSOLE.log
#   awk -v side=ksim  -f outcomes.awk outcomes.tsv KEYS KSIM.out
#
# Prints one line per step that started: "KEY<TAB>OUTCOME".  On the guest
# the console carries the steps' markers (steps.awk): "@@ N $ COMMAND",
# "@@ N as KEY", "@@ N rc=S".  ksim --echo prints "# COMMAND" before each
# step; KEYS (steps.awk, mode=ksim) names them in order.  A step that never
# finished and matched no rule is "no-return" (the VM was stopped under it).
BEGIN { FS = "\t"; nrules = 0; nsteps = 0 }
FILENAME == ARGV[1] {
	if ($0 ~ /^#/ || $0 == "") next
	rule_out[++nrules] = $1; rule_re[nrules] = $2
	next
}
side == "ksim" && FILENAME == ARGV[2] { key[++nkeys] = $0; next }
{ sub(/\r$/, "") }	# the serial console ends its lines with CR LF
function close_step() {
	if (!nsteps) return
	result[nsteps] = outcome[nsteps] != "" ? outcome[nsteps] : \
		(rc[nsteps] == "" ? (side == "ksim" ? "ok" : "no-return") : (rc[nsteps] == 0 ? "ok" : "failed"))
}
function classify(line,   i) {
	if (!nsteps || outcome[nsteps] != "") return
	for (i = 1; i <= nrules; i++)
		if (line ~ rule_re[i]) { outcome[nsteps] = rule_out[i]; return }
}
side == "linux" && /^@@ [0-9]+ \$ / {
	close_step()
	nsteps++
	k = $0; sub(/^@@ [0-9]+ \$ /, "", k)
	# The same race at a step's start: "@@ 5 $ rmmod ahci[   20.979554] ata1.00: ..."
	# is the command, then a kernel line (no command of ours holds "[ 1.5] ").
	rest = ""
	if (match(k, /\[ *[0-9]+\.[0-9]+\] /)) { rest = substr(k, RSTART); k = substr(k, 1, RSTART - 1) }
	key[nsteps] = k
	if (rest != "") classify(rest)
	next
}
side == "linux" && /^@@ [0-9]+ as / { k = $0; sub(/^@@ [0-9]+ as /, "", k); key[nsteps] = k; next }
# The kernel's messages and the script's share the console, a character
# stream: a message printed as a step ends can land right after its "rc=S",
# before the newline ("@@ 4 rc=0[    9.204483] ata1.00: ..."): the status
# is the digits, the rest is the kernel's line.
side == "linux" && /^@@ [0-9]+ rc=[0-9]/ {
	r = $0; sub(/^@@ [0-9]+ rc=/, "", r); match(r, /^[0-9]+/)
	rc[nsteps] = substr(r, 1, RLENGTH); classify(substr(r, RLENGTH + 1)); next
}
side == "linux" && /^@@ (done|hung|scenario)/ { close_step(); finished = nsteps; next }
side == "ksim" && /^# / { close_step(); nsteps++; next }
{ classify($0) }
END {
	close_step()
	for (i = 1; i <= nsteps; i++)
		printf "%s\t%s\n", key[i], result[i]
}
