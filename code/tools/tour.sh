#!/bin/bash
# tour.sh - `make tour`: build everything, run every stage's scenarios with a
# word before and after each, draw the figures, build the book.
#
# What runs, and what is said, comes from code/tools/tour.list (format at its
# top), from tests/stageN/tour.list where a stage has one, and failing both
# from tests/stageN/scenarios.tsv.  Each run's whole output is kept in
# build/tour/; the terminal gets it trimmed: commands, their output, and of
# an oops report the lines that say what happened and the call trace.
#
# Environment: MAKE (the make to call), STAGES (default every stage:
# code/tools/stages.sh), NO_COLOR (plain text),
# TOUR_PLAN=1 (print each run's stage, script and introduction, one a line
# with tabs between, and run nothing: code/tools/check-tour-list.sh reads it).
# Exit status: 0 if everything built and every run ended as the tour said,
# 1 otherwise (after finishing, so the book is still built when it can be).
set -u
MAKE=${MAKE:-make}
STAGES=${STAGES:-$(code/tools/stages.sh)}
TOUR=build/tour
LIST=code/tools/tour.list
WIDTH=76
START=$SECONDS

if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
	B=$'\e[1m' D=$'\e[2m' R=$'\e[31m' G=$'\e[32m' Y=$'\e[33m' C=$'\e[36m' N=$'\e[0m'
else
	B= D= R= G= Y= C= N=
fi

problems=()
say() { printf '%s\n' "$*" | fold -s -w $WIDTH | sed 's/ *$//; s/^/  /'; }
title() {
	local t="== $* "
	printf '\n%s%s%s%s\n' "$B" "$t" "$(printf '=%.0s' $(seq ${#t} $((WIDTH + 1))))" "$N"
}
step() { printf '%s-> %s%s\n' "$C" "$*" "$N"; }

# run_make LOG WHAT TARGET... - a make step, its output in LOG, one line here.
run_make() {
	local log=$1 what=$2; shift 2
	step "$what"
	if "$MAKE" --no-print-directory "$@" >"$log" 2>&1; then
		return 0
	fi
	# The first error is the one to fix (a missing header fails every file
	# after it too), so it is shown even when the log runs on past it.
	local first total
	first=$(grep -n -m1 -E '(^|: )(fatal )?error:|undefined reference|^BUILD ERROR|command not found|: \*\*\* ' "$log" | cut -d: -f1)
	total=$(wc -l <"$log")
	if [ -n "$first" ] && [ $((total - first)) -ge 12 ]; then
		printf '%s   failed; the first error, line %s of %s:%s\n' "$R" "$first" "$log" "$N"
		sed -n "${first},$((first + 2))p" "$log" | cut -c1-300 | sed 's/^/   | /'
		printf '%s   and the end of it:%s\n' "$R" "$N"
		tail -n 6 "$log" | cut -c1-300 | sed 's/^/   | /'
	else
		printf '%s   failed; the end of %s:%s\n' "$R" "$log" "$N"
		tail -n 15 "$log" | cut -c1-300 | sed 's/^/   | /'
	fi
	return 1
}

exit_meaning() {
	case $1 in
	0) echo "ran to the end, no kernel error" ;;
	1) echo "an expect line did not hold" ;;
	2) echo "the script itself is wrong" ;;
	3) echo "an oops: the kernel reported a fault, BUG or use-after-free" ;;
	4) echo "the hung-task watchdog fired" ;;
	124) echo "killed after 60 s" ;;
	*) echo "ksim died (signal $(($1 - 128))?)" ;;
	esac
}

# show LOG - a run's output, trimmed: every oops report cut to what it says
# and (part of) its call trace.
show() {
	awk -v B="$B" -v D="$D" -v R="$R" -v N="$N" -v logf="$1" '
	function flush() {
		if (inrep && omitted > 0) printf "    %s[... %d more lines of this report in %s]%s\n", D, omitted, logf, N
		inrep = 0; intrace = 0; omitted = 0
	}
	function out(s) { if (shown++ < 60) print "    " s; else cut++ }
	/^=+$/ { next }
	/^(BUG:|WARNING:|INFO: task|kernel BUG|Kernel panic)/ {
		flush(); inrep = 1; out(R B $0 N); next
	}
	inrep && /^---\[ end trace/ { flush(); next }
	inrep && intrace && /^ / { if (frames++ < 8) out(D $0 N); else omitted++; next }
	inrep && intrace { intrace = 0 }
	inrep && /^Call Trace:/ { intrace = 1; frames = 0; out($0); next }
	inrep && /^(Read of|Write of|#PF: supervisor|RIP:|Modules linked in|Unloaded modules|[ \t]+waiting on:)/ { out($0); next }
	inrep { omitted++; next }
	/^# / { out(B $0 N); next }
	{ out($0) }
	END {
		flush()
		if (cut) printf "    %s[... %d more lines in %s]%s\n", D, cut, logf, N
	}' "$1"
}

# times N WORD - "1 operation", "2 operations"
times() { if [ "$1" = 1 ]; then echo "one $2"; else echo "$1 ${2}s"; fi; }

# what_happened LOG STATUS - one line on the outcome, read from the output.
what_happened() {
	local log=$1 st=$2 line n
	case $st in
	3)
		local pf rip comm
		line=$(grep -m1 -E '^(BUG:|WARNING:|kernel BUG)' "$log" | sed -E 's/^(BUG|WARNING): //')
		pf=$(grep -m1 '^#PF: supervisor' "$log" | sed 's/^#PF: supervisor //')
		rip=$(grep -m1 '^RIP: ' "$log" | sed 's/^RIP: //')
		comm=$(grep -m1 -o 'Comm: [^ ]*' "$log" | sed 's/Comm: //')
		if [ -n "$pf" ]; then
			# "an instruction fetch", "a read access"
			case $pf in [aeiou]*) echo "The oops: an $pf, in task $comm, at $rip." ;;
			*) echo "The oops: a $pf, in task $comm, at $rip." ;; esac
		else
			echo "The oops: $line, in task $comm."
		fi
		;;
	4)
		line=$(grep -m1 'waiting on:' "$log" | sed 's/^ *waiting on: //')
		echo "The watchdog: $(grep -m1 '^INFO: task' "$log" | sed 's/^INFO: //')${line:+ It waits on: $line}"
		;;
	0)
		local busy
		n=$(grep -c 'No such device' "$log")
		busy=$(grep -c 'in use' "$log")
		if [ "$n" -gt 0 ]; then
			echo "No oops: $(times "$n" operation) failed with -ENODEV instead$( [ "$busy" -gt 0 ] && echo ", and rmmod was refused $(times "$busy" time) with -EBUSY")."
		elif [ "$busy" -gt 0 ]; then
			echo "No oops: rmmod was refused with -EBUSY ($(times "$busy" time)), and the run went on."
		else
			echo "A clean run: no oops, no hang, nothing refused."
		fi
		;;
	*) echo "$(exit_meaning "$st")." ;;
	esac
}

# ---------------------------------------------------------------- the list
# Entries: parallel arrays, one element per run.
E_STAGE=() E_SCRIPT=() E_EXIT=() E_ARGS=() E_BEFORE=() E_AFTER=()
declare -A S_TITLE S_ABOUT S_HAS_RUNS

# parse FILE DEFAULT_STAGE ONLY_STAGE - add FILE's entries (only those of
# ONLY_STAGE if given).  Errors name the file and line, and stop the tour.
parse() {
	local file=$1 stage=$2 only=$3 n=0 kw rest cur=-1 keep
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		read -r kw rest <<<"$line"
		case $kw in
		stage)
			read -r stage rest <<<"$rest"
			[[ $stage =~ ^[0-9]+$ ]] || { echo "$file:$n: want 'stage N TITLE'" >&2; exit 2; }
			cur=-1
			if [ -z "$only" ] || [ "$stage" = "$only" ]; then
				S_TITLE[$stage]=$rest; S_ABOUT[$stage]=
			fi ;;
		about)
			[ -n "$stage" ] || { echo "$file:$n: 'about' before any 'stage'" >&2; exit 2; }
			if [ -z "$only" ] || [ "$stage" = "$only" ]; then
				S_ABOUT[$stage]+="${S_ABOUT[$stage]:+ }$rest"
			fi ;;
		run)
			[ -n "$stage" ] || { echo "$file:$n: 'run' before any 'stage'" >&2; exit 2; }
			local script want
			read -r script want rest <<<"$rest"
			# After the exit status, only ksim options (--no-lockdep), as in scenarios.tsv.
			[[ $want =~ ^[0-9]+$ ]] && [[ -z $rest || $rest =~ ^--[a-z-]+( --[a-z-]+)*$ ]] ||
				{ echo "$file:$n: want 'run SCRIPT EXIT [--OPTION...]'" >&2; exit 2; }
			[ -r "$script" ] || { echo "$file:$n: no scenario $script" >&2; exit 2; }
			cur=-1
			if [ -z "$only" ] || [ "$stage" = "$only" ]; then
				cur=${#E_STAGE[@]}
				E_STAGE+=("$stage") E_SCRIPT+=("$script") E_EXIT+=("$want") E_ARGS+=("$rest")
				E_BEFORE+=("") E_AFTER+=("")
				S_HAS_RUNS[$stage]=1
			fi ;;
		before|after)
			[ "$cur" -ge 0 ] || { [ -n "$only" ] && [ "$stage" != "$only" ]; } ||
				{ echo "$file:$n: '$kw' before any 'run'" >&2; exit 2; }
			if [ "$cur" -ge 0 ]; then
				if [ "$kw" = before ]; then E_BEFORE[cur]+="${E_BEFORE[cur]:+ }$rest"
				else E_AFTER[cur]+="${E_AFTER[cur]:+ }$rest"; fi
			fi ;;
		*) echo "$file:$n: unknown keyword '$kw'" >&2; exit 2 ;;
		esac
	done <"$file"
}

# from_tsv N - stage N's scenarios.tsv, the comment above each line as its introduction.
from_tsv() {
	local st=$1 tsv=tests/stage$1/scenarios.tsv comment= line script want path opts
	while IFS=$'\t' read -r script want _ || [ -n "$script" ]; do
		case $script in
		'# SCRIPT'*) continue ;;	# the table's header
		# A comment may run over several lines: the introduction is all of them.
		'#'*) line=${script#\#} && line=${line#"${line%%[! ]*}"}
			comment="${comment:+$comment }$line"; continue ;;
		'') continue ;;
		esac
		read -r path opts <<<"$script"
		E_STAGE+=("$st") E_SCRIPT+=("$path") E_EXIT+=("$want") E_ARGS+=("$opts")
		E_BEFORE+=("$comment") E_AFTER+=("")
		S_HAS_RUNS[$st]=1
		comment=
	done <"$tsv"
}

stage_exists() {
	[ -n "$(ls -A "code/stage$1" 2>/dev/null)" ] || [ -n "$(ls -A "solutions/stage$1" 2>/dev/null)" ]
}

for st in $STAGES; do
	if [ -f "tests/stage$st/tour.list" ]; then
		parse "$LIST" "" "$st"		# the title, unless the stage's own list sets one
		for i in "${!E_STAGE[@]}"; do [ "${E_STAGE[i]}" = "$st" ] && E_STAGE[i]=skip; done
		unset "S_HAS_RUNS[$st]"
		parse "tests/stage$st/tour.list" "$st" "$st"
	else
		parse "$LIST" "" "$st"
		if [ -z "${S_HAS_RUNS[$st]:-}" ] && [ -f "tests/stage$st/scenarios.tsv" ]; then
			from_tsv "$st"
		fi
	fi
done

if [ -n "${TOUR_PLAN:-}" ]; then
	for i in "${!E_STAGE[@]}"; do
		[ "${E_STAGE[i]}" = skip ] || printf '%s\t%s\t%s\n' "${E_STAGE[i]}" "${E_SCRIPT[i]}" "${E_BEFORE[i]}"
	done
	exit 0
fi

# ---------------------------------------------------------------- go
mkdir -p "$TOUR"
rm -f "$TOUR"/*.log
title "The lifetime workbook: a guided tour"
# How many stages is read from the tree (STAGES), so the welcome stays true when one lands.
count=(Zero One Two Three Four Five Six Seven Eight Nine)
n=$(wc -w <<<"$STAGES")
say "${count[n]:-$n} design$([ "$n" = 1 ] || echo s) for object lifetime in the Linux device model, from" \
	"those tried in 2007 on, each built as a stage of a simulated kernel that" \
	"runs in user space. Modules are real shared objects, unmapped by rmmod;" \
	"worker threads are real threads; a stale access faults for real and" \
	"prints an oops report. The tour runs the reference solution of each" \
	"stage. Whole logs go to $TOUR/."
echo

run_make "$TOUR/build.log" "building every stage (log: $TOUR/build.log)" all ||
	{ echo "${R}The build failed; nothing to tour.${N}"; exit 1; }

nrun=0
for st in $STAGES; do
	title "Stage $st${S_TITLE[$st]:+: ${S_TITLE[$st]}}"
	if ! stage_exists "$st"; then
		say "${Y}Not in this tree yet: code/stage$st/ is empty. Skipped.${N}"
		continue
	fi
	[ -n "${S_ABOUT[$st]:-}" ] && say "${S_ABOUT[$st]}"
	if [ -z "${S_HAS_RUNS[$st]:-}" ]; then
		say "${Y}No scenarios to show yet: add them to tests/stage$st/tour.list" \
			"or tests/stage$st/scenarios.tsv.${N}"
		continue
	fi
	for i in "${!E_STAGE[@]}"; do
		[ "${E_STAGE[i]}" = "$st" ] || continue
		script=${E_SCRIPT[i]} want=${E_EXIT[i]}
		name=$(basename "$script"); name=${name%.*}
		log=$TOUR/stage$st-$name.log
		nrun=$((nrun + 1))
		echo
		printf '%s>> %s%s %s(stage %s; log: %s)%s\n' "$B" "$script" "$N" "$D" "$st" "$log" "$N"
		[ -n "${E_BEFORE[i]}" ] && say "${E_BEFORE[i]}"
		# shellcheck disable=SC2086 # E_ARGS: words of options, checked at parse time
		timeout -k 5 60 "build/stage$st/ksim" ${E_ARGS[i]} --echo "$script" >"$log" 2>&1 </dev/null
		status=$?
		show "$log"
		if [ "$status" = "$want" ]; then
			printf '  %s[ok]%s exit %s: %s\n' "$G" "$N" "$status" "$(exit_meaning "$status")"
			say "$(what_happened "$log" "$status")"
			[ -n "${E_AFTER[i]}" ] && say "${E_AFTER[i]}"
		else
			printf '  %s[!!] exit %s, but the tour expected %s (%s).%s\n' "$R" "$status" "$want" \
				"$(exit_meaning "$want")" "$N"
			say "$(what_happened "$log" "$status")"
			say "What the tour says about this run no longer holds: the code or" \
				"the tour list (tests/stage$st/tour.list or $LIST) needs a look."
			problems+=("stage $st $script: exit $status, expected $want")
		fi
	done
done

title "Figures"
if "$MAKE" -n figures >/dev/null 2>&1; then
	if run_make "$TOUR/figures.log" "drawing figures/ from traced runs (log: $TOUR/figures.log)" figures; then
		say "$(tail -n 1 "$TOUR/figures.log")"
		say "Each figure is a Graphviz graph (figures/NAME.dot) drawn from a real trace" \
			"of a scenario, and its drawing in build/figures/:" \
			"$(ls figures/*.dot 2>/dev/null | sed 's|figures/||; s|\.dot$||' | paste -sd ' ')."
	else
		problems+=("make figures failed (see $TOUR/figures.log)")
	fi
else
	say "${Y}There is no 'make figures' target in this tree yet, so no figures" \
		"were drawn; the book uses the DOT committed in figures/.${N}"
fi

title "The book"
book_ok=
if run_make "$TOUR/book.log" "building the book with pandoc (log: $TOUR/book.log)" book; then
	book_ok=1
	say "$(grep '^book:' "$TOUR/book.log" | tail -n 1 | sed 's/^book: //')"
else
	problems+=("make book failed (see $TOUR/book.log)")
fi

title "What next"
say "Grade your own work on a stage: edit exercises/stageN/ and run" \
	"'make check-stageN' (it names each TODO still open). 'make helgrind-stage1'," \
	"'make drd-stage1' and 'make memcheck-stage1' show what the race detectors" \
	"say about stage 1's use-after-free. 'build/stage1/ksim -i' is an" \
	"interactive shell on the simulated kernel. 'make help' lists every target."
echo
printf '%s\n' "${D}The tour took $((SECONDS - START)) s; $nrun runs; logs in $TOUR/.${N}"
if [ ${#problems[@]} -gt 0 ]; then
	printf '%s%d thing(s) did not go as the tour says:%s\n' "$R" ${#problems[@]} "$N"
	printf '  - %s\n' "${problems[@]}"
fi
if [ -n "$book_ok" ]; then
	printf '%sThe book: %s%s\n' "$B" "$(pwd)/build/book/lifetime-workbook.html" "$N"
fi
[ ${#problems[@]} -eq 0 ] && [ -n "$book_ok" ]
