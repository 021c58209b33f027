#!/bin/bash
# scenarios.sh TSV [RESULTS] - run each scenario of a table and check its outcome.
#
# Each line: SCRIPT <TAB> EXIT <TAB> PATTERN [<TAB> PATTERN]...
# SCRIPT is run by $KSIM, with the ksim options that follow it if any
# ("code/scenarios/x.ksh --no-lockdep"); EXIT is the status it must end with; every
# PATTERN (an extended regex) must match somewhere in what it printed, or,
# written !PATTERN, must not.  '#' lines are comments; the comment lines
# right above a row say what the row checks, and a failure prints them.
#
# Prints "ok SCRIPT" or "FAIL SCRIPT (TSV:LINE): what differed", followed
# by the row's comment, the lines a !PATTERN matched, and the end of the
# output.  With RESULTS (a directory), also appends one line per row to
# RESULTS/results.tsv (the format of runtests.sh) and keeps each row's
# message and output there.
#
# Under AddressSanitizer (KSIM_SAN holds "address") the slab steps aside
# and ASan reports a use-after-free first, ending the run with status 3
# before the simulated KASAN-like report can be printed.  A row that
# expects that report is then held to ASan's report of the same access
# (asan_row below): the same exit, the same function, the same callers.
#
# A scenario still running after 10 s is killed; the seconds lost count
# against $KTEST_HANG_FILE's budget (ktest.h), shared with the Check suites.
set -u
tsv=$1 res=${2:-}
budget=${KTEST_HANG_BUDGET_S:-15}
status=0 lineno=0 why=() row=0
[ -z "$res" ] || mkdir -p "$res/out"

# Each row below costs a process of its own (ksim) and, as first written,
# a dozen more (date, awk, sed, paste, basename): on a two-core machine
# those were about a second of make check in every hundred rows, so what
# bash can do itself it does.

# hang_left - the seconds left of the hang budget into $left (integer;
# 1000 without a budget file; an empty file, the usual case, is the whole budget).
hang_left() {
	if [ -z "${KTEST_HANG_FILE:-}" ]; then left=1000
	elif [ ! -s "$KTEST_HANG_FILE" ]; then left=${budget%.*}
	else left=$(awk -v b="$budget" '{ s += $1 } END { printf "%d\n", b - s }' "$KTEST_HANG_FILE" 2>/dev/null) || left=${budget%.*}
	fi
}

# record STATUS SCRIPT MESSAGE OUTPUT - one row's outcome into RESULTS.
record() {
	[ -n "$res" ] || return 0
	local base=$res/scenarios.$row
	printf '%s\n' "$3" >"$base.msg"
	printf '%s\n' "$4" >"$res/out/scenarios.$row.out"
	printf 'scenario\t%s\t%s\t%s\t%s:%d\t%s\t%s\n' "${tsv##*/}" "$2" "$1" "$tsv" "$lineno" \
		"$base.msg" "$res/out/scenarios.$row.out" >>"$res/results.tsv"
}

# asan_row - rewrite pats[] for an ASan build when the row expects the
# simulated use-after-free report ("[KASAN-like ]use-after-free in F"):
# that becomes ASan's error and a frame of F; each call-trace line
# "^ G+0x..." or bare function name G becomes ASan's frame "#N 0x... in G";
# what only the simulated report prints (the freed object's name and size,
# Comm:) is not asked for; every other pattern, and the !PATTERNs, stay.
asan_row() {
	local p out=() uaf= id='[A-Za-z_][A-Za-z0-9_]*'
	for p in "${pats[@]}"; do
		[[ $p =~ use-after-free\ in\ ($id) ]] && uaf=${BASH_REMATCH[1]}
	done
	[ -n "$uaf" ] || return 0
	# (F as a frame, not in ASan's summary: that names the innermost frame, an inline atomic maybe.)
	out=("ERROR: AddressSanitizer: heap-use-after-free" "#[0-9]+ 0x[0-9a-f]+ in $uaf[ (]")
	for p in "${pats[@]}"; do
		if [ "${p:0:1}" = '!' ]; then
			out+=("$p")
		elif [[ $p =~ ^\^\ ($id)\\\+0x ]] || [[ $p =~ ^($id)$ ]]; then
			out+=("#[0-9]+ 0x[0-9a-f]+ in ${BASH_REMATCH[1]}[ (]")
		elif [[ $p =~ use-after-free\ in|^freed\ object|^Comm: ]]; then
			:
		else
			out+=("$p")
		fi
	done
	pats=("${out[@]}")
}

while IFS= read -r line || [ -n "$line" ]; do
	lineno=$((lineno + 1))
	case $line in
	# A comment with a tab is the table's column legend, not a row's reason.
	'#'*$'\t'*) continue ;;
	'#'*) c=${line###}; why+=("${c#"${c%%[! ]*}"}"); continue ;;
	'') why=(); continue ;;
	esac
	IFS=$'\t' read -r script want rest <<<"$line"
	row=$((row + 1))
	comment="${why[*]}"
	why=()
	hang_left
	if [ "$left" -le 0 ]; then
		msg="not run: scenarios and tests of this stage already ran out of time for ${budget} s in all; fix the hang the first of them shows"
		echo "FAIL $script ($tsv:$lineno): $msg"
		record fail "$script" "$msg" ""
		status=1
		continue
	fi
	read -r path opts <<<"$script"
	limit=$((left < 10 ? (left < 1 ? 1 : left) : 10))
	cap=${KTEST_OUTPUT_CAP:-1048576}
	start=$EPOCHREALTIME
	# shellcheck disable=SC2086 # opts: ksim options, words
	# (at most KTEST_OUTPUT_CAP bytes of it are read: past them the row fails, below)
	out=$(timeout -k 5 $limit $KSIM $opts "$path" 2>&1 | head -c "$cap"; exit "${PIPESTATUS[0]}"); rc=$?
	end=$EPOCHREALTIME
	took=$(( (${end%.*} - ${start%.*}) * 10 + (10#${end#*.} - 10#${start#*.}) / 100000 ))
	took=$((took / 10)).$((took % 10))
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		[ -z "${KTEST_HANG_FILE:-}" ] || echo "$limit" >>"$KTEST_HANG_FILE"
		out="$out
(killed after $limit s: an endless loop in your code, or a wait that nothing ends?)"
	elif [ "$rc" != "$want" ] && { [ $rc = 4 ] || grep -q 'BUG: soft lockup' <<<"$out"; }; then
		# A hang the watchdogs caught, where none was due: its time counts too.
		[ -z "${KTEST_HANG_FILE:-}" ] || echo "$took" >>"$KTEST_HANG_FILE"
	fi
	bad= shown=
	[ "$rc" = "$want" ] || bad="exit $rc, expected $want"
	[ "$(LC_ALL=C; echo ${#out})" -lt "$cap" ] || bad="${bad:+$bad; }printed more than $cap bytes (the most a scenario may print); the rest was not read"
	IFS=$'\t' read -r -a pats <<<"$rest"
	case ${KSIM_SAN:-} in *address*) asan_row ;; esac
	for p in "${pats[@]}"; do
		[ -n "$p" ] || continue
		if [ "${p:0:1}" = '!' ]; then
			if grep -qE -- "${p:1}" <<<"$out"; then
				bad="${bad:+$bad; }printed /${p:1}/"
				shown+="  printed /${p:1}/ here:"$'\n'$(grep -nE -- "${p:1}" <<<"$out" | head -n 5 | sed 's/^/    | line /')$'\n'
			fi
		else
			grep -qE -- "$p" <<<"$out" || bad="${bad:+$bad; }did not print /$p/"
		fi
	done
	if [ -n "$bad" ]; then
		msg="$bad"
		[ -z "$comment" ] || msg+=$'\n'"  what this row checks: $comment"
		[ -z "$shown" ] || msg+=$'\n'"${shown%$'\n'}"
		echo "FAIL $script ($tsv:$lineno): $msg"
		echo "  its output (last 25 lines):"
		printf '%s\n' "$out" | tail -n 25 | sed 's/^/    | /'
		record fail "$script" "$msg" "$out"
		status=1
	else
		echo "ok $script"
		record pass "$script" "" "$out"
	fi
done < "$tsv"
exit $status
