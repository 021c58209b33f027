# compare.awk - hold predictions.tsv against what ksim and Linux did; print the table.
#
#   awk [-v scenarios="A B"] [-v stages="A=4 B=5"] -f compare.awk predictions.tsv RESULTS
#
# RESULTS has one line per step that ran: "SCENARIO<TAB>SIDE<TAB>KEY<TAB>OUTCOME",
# SIDE ksim or linux, in the order the steps ran.  A scenario none of whose
# rows ksim runs (KSIM "-" on each) needs no ksim steps: Linux only.
# stages names the stage whose ksim ran each scenario (its "# ksim:"
# line), for the table and the failures.
# Prints the table, then every failure as "FAIL SCENARIO: 'COMMAND': ...",
# then "CHECKS N M" (rows and set-ups that held, and did not).  With
# -v only=ksim the Linux side is left out: each row's KSIM against ksim,
# nothing else.  With -v scenarios, only the rows of the scenarios it names
# are held (make real-kernel SCENARIOS=..., where the others did not run).
BEGIN {
	FS = "\t"; nrows = 0
	n = split(stages, st, " ")
	for (i = 1; i <= n; i++) { eq = index(st[i], "="); stage_of[substr(st[i], 1, eq - 1)] = substr(st[i], eq + 1) }
}
function expected(r, side) {
	if (side == "ksim") return pred[r]
	if (only == "ksim") return "-"
	return linux[r] == "=" ? pred[r] : linux[r]
}
FILENAME == ARGV[1] {
	if ($0 ~ /^#/ || $0 == "") next
	if (NF < 4 || NF > 5) { printf "%s:%d:1: want 4 or 5 tab-separated fields, found %d\n", FILENAME, FNR, NF > "/dev/stderr"; bad = 1; next }
	if ($3 !~ /^(ok|in-use|ENODEV|ENOENT|oops|hung|warning|-)$/ || $4 !~ /^(ok|in-use|ENODEV|ENOENT|oops|hung|warning|-|=)$/) {
		printf "%s:%d:1: an outcome is one of ok in-use ENODEV ENOENT oops hung warning (or -, =)\n", FILENAME, FNR > "/dev/stderr"; bad = 1
	}
	if ($4 != "=" && $5 == "") { printf "%s:%d:1: LINUX differs from KSIM but WHY is empty\n", FILENAME, FNR > "/dev/stderr"; bad = 1 }
	if ($3 == "-" && $4 == "-") { printf "%s:%d:1: a row that neither side runs\n", FILENAME, FNR > "/dev/stderr"; bad = 1 }
	if (scenarios != "" && index(" " scenarios " ", " " $1 " ") == 0) next	# not run this time
	r = ++nrows
	scen[r] = $1; cmd[r] = $2; pred[r] = $3; linux[r] = $4; why[r] = $5; line[r] = FNR
	iskey[$1 SUBSEP $2] = 1
	if ($3 != "-") needs_ksim[$1] = 1
	if (!($1 in seen)) { seen[$1] = 1; order[++nscen] = $1 }
	next
}
bad { exit 2 }
{
	s = $1; side = $2; key = $3; got = $4
	ran[s, side] = 1
	if (!((s, key) in iskey)) {
		if (got != "ok") { fail("FAIL " s ": set-up '" key "' on " side ": did " got ", expected ok"); setup_bad[s] = 1 }
		next
	}
	# the next row of this scenario that this side runs
	r = next_row[s, side]
	if (r == "") r = 0
	for (r++; r <= nrows; r++)
		if (scen[r] == s && expected(r, side) != "-") break
	next_row[s, side] = r
	if (r > nrows) { fail("FAIL " s ": '" key "' ran on " side " (did " got ") after its last row in the table"); next }
	if (cmd[r] != key) { fail("FAIL " s ": on " side " '" key "' ran where the table expects '" cmd[r] "' (predictions.tsv line " line[r] ")"); next }
	did[r, side] = got
}
function fail(msg) { failures[++nfail] = msg }
function stage(s) { return s in stage_of ? stage_of[s] : "-" }
function show(r, side) { return expected(r, side) == "-" ? "-" : ((r, side) in did ? did[r, side] : "(not run)") }
END {
	if (bad) exit 2
	pass = 0; failed = 0
	printf "%-22s %-46s %-5s %-8s %-8s %-10s %s\n", "SCENARIO", "COMMAND", "STAGE", "PREDICTS", "KSIM", "LINUX 6.1", ""
	for (r = 1; r <= nrows; r++) {
		ok = 1
		for (k = 1; k <= 2; k++) {
			side = k == 1 ? "ksim" : "linux"
			e = expected(r, side)
			if (e == "-") continue
			if (!((scen[r], side) in ran)) { ok = 0; continue }	# reported once, below
			if (!((r, side) in did)) {
				ok = 0; fail("FAIL " scen[r] ": '" cmd[r] "' never ran on " side " (predictions.tsv line " line[r] ")")
			} else if (did[r, side] != e) {
				ok = 0
				fail("FAIL " scen[r] ": '" cmd[r] "': " (side == "ksim" ? "stage " stage(scen[r]) " predicts " : "the table expects Linux 6.1 to give ") \
					e ", " (side == "ksim" ? "ksim" : "Linux 6.1") " did " did[r, side] " (predictions.tsv line " line[r] ")")
			}
		}
		if (only == "ksim")
			mark = !ok ? "FAIL" : (pred[r] == "-" ? "Linux only" : "as predicted")
		else
			mark = !ok ? "FAIL" : (linux[r] == "=" ? "agree" : "explained [" ++nnote "]")
		if (ok && linux[r] != "=" && only != "ksim") note[nnote] = why[r]
		printf "%-22s %-46s %-5s %-8s %-8s %-10s %s\n", scen[r], cmd[r], pred[r] == "-" ? "-" : stage(scen[r]), pred[r], show(r, "ksim"), show(r, "linux"), mark
		if (ok) pass++; else failed++
	}
	for (i = 1; i <= nnote; i++) printf "  [%d] %s\n", i, note[i]
	for (i = 1; i <= nscen; i++) {
		s = order[i]
		if (only == "ksim" && !(s in needs_ksim)) continue	# a Linux-only scenario
		if ((s in needs_ksim && !((s, "ksim") in ran)) || (only != "ksim" && !((s, "linux") in ran))) {
			fail("FAIL " s ": no steps from " ((s in needs_ksim && !((s, "ksim") in ran)) ? "ksim" : "Linux 6.1") " (see its log)"); failed++
		}
		else if (s in setup_bad) failed++
		else pass++
	}
	for (i = 1; i <= nfail; i++) print failures[i]
	printf "CHECKS %d %d\n", pass, failed
}
