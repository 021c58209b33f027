# check-hints.awk - the checks of check-hints.sh on one stage's hints (with hints.awk; variables set by -v).
function problem(line, col, msg) {
	printf "%s:%d:%d: %s\n", hints, line, col, msg
	bad[cur] = 1
}
# exists(span) - whether the backquoted span names only what the stage has; sets why.
function exists(span,    s, tok, m) {
	if (span ~ /^[A-Za-z0-9_.\/-]+\.(c|h|ksh|tsv|txt)$/) {
		s = span; sub(/^.*\//, "", s)
		if (!(s in FILE)) { why = "no file " span " in this stage"; return 0 }
		return 1
	}
	s = span
	while (match(s, /delay_point\("[^"]*"\)/)) {
		m = substr(s, RSTART + 13, RLENGTH - 15)
		if (!((m) in DELAY)) { why = "no DELAY_POINT(" m ") in this stage"; return 0 }
		s = substr(s, RSTART + RLENGTH)
	}
	s = span
	gsub(/delay_point\("[^"]*"\)/, "delay_point", s)
	while (match(s, /"[^"]*"/)) {
		m = substr(s, RSTART, RLENGTH)
		if (!(m in WORD)) { why = m " is not a string of this stage's code"; return 0 }
		s = substr(s, 1, RSTART - 1) " " substr(s, RSTART + RLENGTH)
	}
	while (match(s, /[A-Za-z_][A-Za-z0-9_]*/)) {
		tok = substr(s, RSTART, RLENGTH)
		if (!(tok in WORD)) { why = tok " is not in this stage's code (code/kernel, code/stage1-" stage ", the skeleton)"; return 0 }
		s = substr(s, RSTART + RLENGTH)
	}
	return 1
}
BEGIN {
	if (hints_load(hints) != 0)
		exit 2
	while ((getline w < words) > 0) {
		WORD[w] = 1
		if (w ~ /^"/) { sub(/^"/, "", w); sub(/"$/, "", w); WORD[w] = 1 }
	}
	while ((getline w < files) > 0)
		FILE[w] = 1
	while ((getline w < delays) > 0)
		DELAY[w] = 1
	while ((getline l < fences) > 0) {
		split(l, a, "\t")
		FENCE[a[1]] = a[2]
		order[++nf] = a[1]
	}
	while ((getline l < body) > 0) {
		i = index(l, "\t")
		nm = substr(l, 1, i - 1); code = substr(l, i + 1)
		# A statement long enough to give something away (a delay point must be named: not one).
		if (length(code) >= 12 && code ~ /\(/ && code !~ /^delay_point\(/)
			SOLUTION[nm, ++NSOL[nm]] = code
		while (match(code, /delay_point\("[^"]*"\)/)) {
			NEEDS[nm] = NEEDS[nm] SUBSEP substr(code, RSTART, RLENGTH)
			code = substr(code, RSTART + RLENGTH)
		}
	}
	for (i = 1; i <= nf; i++) {
		cur = order[i]
		split(FENCE[cur], loc, ":")
		if (!(cur in HINT_LINE)) {
			printf "%s:%d:1: exercise '%s' has no hints in %s\n", loc[1], loc[2], cur, hints
			bad[cur] = 1
		}
	}
	for (i = 1; i <= HINT_N; i++) {
		cur = HINT_NAME[i]
		if (!(cur in FENCE))
			problem(HINT_LINE[cur], 1, "'" cur "' is no exercise of stage " stage " (no BEGIN EXERCISE " cur " in solutions/stage" stage ")")
		if (HINT_LEVELS[cur] != 3)
			problem(HINT_LINE[cur], 1, "'" cur "' has " HINT_LEVELS[cur] " levels; each exercise has 3 (the idea, the function, the shape of the code)")
		if (HINT[cur, 1] ~ /["\\]/)
			problem(HINT_AT[cur, 1], 1, "level 1 of '" cur "' has a quote or a backslash (it becomes the skeleton's TODO string)")
		all = ""
		for (lv = 1; lv <= HINT_LEVELS[cur]; lv++) {
			t = HINT[cur, lv]
			all = all " " t
			if (t !~ /[^ ]/)
				problem(HINT_AT[cur, lv], 1, "level " lv " of '" cur "' is empty")
			s = t
			while (match(s, /`[^`]*`/)) {
				span = substr(s, RSTART + 1, RLENGTH - 2)
				s = substr(s, RSTART + RLENGTH)	# before exists(): its match() resets RSTART
				if (!exists(span))
					problem(HINT_AT[cur, lv], 1, "level " lv " of '" cur "' names `" span "`: " why)
			}
			# Outside the backquotes too: a call, f(), or a constant, A_B, names code that must exist.
			s = t
			gsub(/`[^`]*`/, " ", s)
			while (match(s, /[A-Za-z_][A-Za-z0-9_]*\(\)|[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]/)) {
				tok = substr(s, RSTART, RLENGTH)
				s = substr(s, RSTART + RLENGTH)
				sub(/\(\)$/, "", tok)
				if (!(tok in WORD))
					problem(HINT_AT[cur, lv], 1, "level " lv " of '" cur "' names " tok ", which is not in this stage's code (code/kernel, code/stage1-" stage ", the skeleton)")
			}
			plain = t; gsub(/`/, "", plain)
			for (k = 1; k <= NSOL[cur]; k++)
				if (index(plain, SOLUTION[cur, k]))
					problem(HINT_AT[cur, lv], 1, "level " lv " of '" cur "' gives the solution's line verbatim: " SOLUTION[cur, k])
		}
		m = split(NEEDS[cur], need, SUBSEP)
		for (k = 2; k <= m; k++)
			if (!index(all, need[k]))
				problem(HINT_LINE[cur], 1, "'" cur "' calls " need[k] " (scenarios depend on it), and no level of its hints says so")
		printf "%s %s\n", (cur in bad) ? "FAIL" : "ok", cur
	}
}
