#!/bin/bash
# grade.sh [--submission DIR] [--stages "N..."] [--out DIR] [--timeout S] - grade exercises with the course's tests.
#
# Run from the root of the course's tree (on Gradescope /autograder/source,
# the per-stage bundle; in GitHub Classroom the course repository; or a
# student's own checkout, for `make grade`).
#
# The submission: the exercise files (the skeleton's file names,
# exercises/stageN/*.c and modules/*.c), found as students hand them in:
# DIR/exercises/stageN/F, DIR/stageN/F or DIR/F (F with or without its
# modules/), or the same one folder down when DIR holds a single folder
# (GitHub's "Download ZIP").  Anything else is not used and is listed.  A
# symbolic link, anywhere in the submission, to a file or a directory, is
# refused: never followed, named in the note (a link to the course's own
# solutions, unpacked inside the course's checkout, would otherwise be
# graded as the student's work).  A stage of which the submission holds no
# file scores 0, with a message listing what was found and the paths
# expected.  Without --submission the
# tree's own exercises/ are graded.  --stages: default every stage with
# exercises (code/tools/stages.sh --graded).
#
# The trust boundary (README, "Grading a course"; tests/grade/sandbox.sh).
# Run as root, the submission is compiled and run as an unprivileged user
# (GRADE_UID, default 61000), in a copy of the course's tree that holds the
# solutions of the stages it builds on only, with every other copy of them on
# the machine hidden when the kernel allows a mount namespace.  That user
# can write only the build (until it is built; then root owns it) and the
# results directory of the one unit (a Check suite, or the scenario table)
# running at the time; root owns each unit's directory once it is done,
# and after every step every process of that user is killed.  The course's
# expected tests come from tests/grade/points.tsv, and
# tests/grade/gradefmt.py (run as root) holds what each unit reported to
# exactly that list.  Run as another user (a student's make grade) the same
# steps run as that user, with no boundary.
#
# The submission gate (tests/grade/gate.sh) runs before anything compiles:
# an exercise file that differs from the handed-out one outside its
# exercises, or uses there what an exercise does not need, is graded as
# handed out (its exercises score 0) and the refusal goes in the note; its
# second half reads the compiled objects before any runs, and a refusal
# there scores the stage 0.
#
# Each stage gets at most TIMEOUT seconds (default 300) for its build and
# its units together, each unit (a suite, the scenario table) at most
# GRADE_STEP_S (default 120: wall time, so generous for a loaded machine; it
# ends a step that sleeps) of them, and at most GRADE_CPU_S CPU-seconds (default 20)
# for its steps together (where steps get a pid namespace: sandbox.sh).
# Run as root where the kernel allows mounts, what the submission's user may
# write (a stage's copy of the course while it builds, and its units'
# results) is each a tmpfs of GRADE_DISK_MB (default 64): a submission that
# fills its disk fills that, not the machine's, nor the grader's own logs
# (README, "Grading a course", has the limits and what they were measured
# against).  The results go to OUT (default build/grade):
# results.json (Gradescope), junit.xml, grade.tap, classroom.json,
# summary.txt, each stage's logs under OUT/stageN/, and the note on the
# submission in OUT/submission.txt.  Exit status 0 when the results were
# written, whatever the score; 2 when grading itself failed.
set -u
sub= stages=$(code/tools/stages.sh --graded) out=build/grade limit=300
while [ $# -gt 0 ]; do
	case $1 in
	--submission) sub=$2; shift 2 ;;
	--stages) stages=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--timeout) limit=$2; shift 2 ;;
	*) echo "grade.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[ -f tests/grade/points.tsv ] && [ -d exercises ] || { echo "grade.sh: run me from the workbook's root" >&2; exit 2; }
[ -n "${stages// /}" ] || { echo "grade.sh: no stage to grade: none of the stages asked for has exercises" >&2; exit 2; }
for n in $stages; do
	[ -d "exercises/stage$n" ] || { echo "grade.sh: there is no stage '$n' (STAGES=$stages)" >&2; exit 2; }
done
[ -z "$sub" ] || [ -d "$sub" ] || { echo "grade.sh: submission '$sub' is not a directory" >&2; exit 2; }
src=$(pwd)
[ -z "$sub" ] || sub=$(cd "$sub" && pwd)
start=$SECONDS

# The packages grading needs (GRADE_PACKAGES from tests/grade/grade.mk).
if [ -n "${GRADE_PACKAGES:-}" ]; then
	code/tools/deps.sh $GRADE_PACKAGES || exit 2
fi

rm -rf "$out" && mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
note=$out/submission.txt
: >"$note"
sandbox=$src/tests/grade/sandbox.sh
# Two gradings at once as one user would share its process limit (the kernel
# counts RLIMIT_NPROC by user; sandbox.sh) and, without namespaces, end each
# other's processes: unless the caller names GRADE_UID, a grading run as root
# takes the first uid of 61000-61063 no other grading holds (a lock on
# /run/lifetime-grade/UID for its whole run; else 61000).
if [ "$(id -u)" = 0 ] && [ -z "${GRADE_UID:-}" ] && mkdir -p -m 700 /run/lifetime-grade 2>/dev/null; then
	for u in $(seq 61000 61063); do
		: >>"/run/lifetime-grade/$u" && exec {uidlock}<"/run/lifetime-grade/$u" || break
		flock -n "$uidlock" && { GRADE_UID=$u; break; }
		exec {uidlock}<&-
	done
fi
export GRADE_UID=${GRADE_UID:-61000}
# nolock - in a step's subshell: the lock is not the submission's to release (flock LOCK_UN).
nolock() { [ -z "${uidlock:-}" ] || exec {uidlock}<&-; }
final=
# bounded DIR - DIR (empty) becomes a tmpfs of GRADE_DISK_MB, where the kernel
# allows (else it stays as it is: each file is still bounded, sandbox.sh).
# unbound DIR - DIR's files on the disk again (kept: the logs); drop DIR - gone.
mounts=()
bounded() {
	[ -n "$trusted" ] && [ "${GRADE_SANDBOX_NONS:-}" != 1 ] || return 0
	mount -t tmpfs -o size="${GRADE_DISK_MB:-64}m",mode=755 none "$1" 2>/dev/null && mounts+=("$1")
}
mounted() { mountpoint -q "$1" 2>/dev/null; }
unbound() {
	mounted "$1" || return 0
	rm -rf "$1.kept" && cp -a "$1" "$1.kept" && umount -l "$1" && rmdir "$1" && mv "$1.kept" "$1"
}
drop() {
	! mounted "$1" || umount -l "$1"
	rm -rf "$1"
}
trap 'for m in "${mounts[@]}"; do ! mounted "$m" || umount -l "$m"; done' EXIT
if [ "$(id -u)" = 0 ]; then
	trusted=1
	# The submission's user must reach the grading copies: under a directory
	# it cannot pass through (root's home, where make grade may run), they
	# are made in /tmp instead, and their logs copied to OUT at the end.
	if ! setpriv --reuid="$GRADE_UID" --regid="$GRADE_UID" --clear-groups test -x "$out" 2>/dev/null; then
		final=$out
		out=$(mktemp -d /tmp/lifetime-grade.XXXXXX) || exit 2
		note=$out/submission.txt
		: >"$note"
	fi
	chmod 711 "$out"	# the untrusted user may pass through, not list or read
else
	trusted=
fi
jobs=$(nproc 2>/dev/null || echo 1)
[ "$jobs" -le 4 ] || jobs=4

# ---- the course's own objects, built once as the course's user (trusted: no submission in them)
(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u SOLUTIONS -u SAN \
	make --no-print-directory -s -j"$jobs" grade-prebuild) >"$out/prebuild.log" 2>&1
(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u SOLUTIONS -u SAN \
	make --no-print-directory -s -k -j"$jobs" STAGES="$stages" grade-prebuild-student) >>"$out/prebuild.log" 2>&1

# ---- the submission: which exercise files, from where
allowed=$(find exercises -type f -name '*.c' | sort)
declare -A from=()
base=
if [ -n "$sub" ]; then
	base=$sub
	# plain PATH - PATH, in the submission, is a regular file reached through
	# no symbolic link (invariant: the grader reads nothing a link points to).
	plain() {
		local p=$1
		[ -f "$p" ] && [ ! -L "$p" ] || return 1
		p=${p%/*}
		while [ "${#p}" -gt "${#sub}" ]; do
			[ ! -L "$p" ] || return 1
			p=${p%/*}
		done
	}
	# found BASE - how many exercise files BASE holds in any of the layouts.
	found() {
		local rel k=0 p
		for rel in $allowed; do
			p=${rel#exercises/}
			for c in "$1/$rel" "$1/$p" "$1/${p#*/}" "$1/${rel##*/}"; do
				plain "$c" && { k=$((k + 1)); break; }
			done
		done
		echo $k
	}
	# Every symbolic link is refused, and said so (at most 20).
	links=$(find "$sub" -type l -printf '%P -> %l\n' | sort)
	if [ -n "$links" ]; then
		{
			echo "refused: the submission holds $(wc -l <<<"$links") symbolic link(s); a link, to a file or a folder, is never followed: submit the files themselves"
			head -n 20 <<<"$links" | sed 's/^/  refused (symbolic link): /'
		} >>"$note"
	fi
	tops=$(find "$sub" -mindepth 1 -maxdepth 1 ! -name '.*' ! -name __MACOSX -printf '%y %f\n')
	if [ "$(found "$sub")" = 0 ] && [ "$(wc -l <<<"$tops")" = 1 ] && [ "${tops%% *}" = d ]; then
		base=$sub/${tops#d }
		echo "the submission is one folder, ${tops#d }/: its files are taken from there" >>"$note"
	fi
	for rel in $allowed; do
		p=${rel#exercises/} n=${rel#exercises/stage}; n=${n%%/*}
		# The graded stage's files may stand at the root; another stage's only in their stage folder.
		cands=("$base/$rel" "$base/$p")
		if [ "$(wc -w <<<"$stages")" = 1 ] && [ "$stages" = "$n" ]; then
			cands+=("$base/${p#*/}" "$base/${rel##*/}")
		fi
		for c in "${cands[@]}"; do
			if [ -L "$c" ] || { [ -e "$c" ] && ! plain "$c"; }; then
				echo "not used: ${c#"$sub"/} is, or is in, a symbolic link; submit the file itself" >>"$note"
				from[$rel]=skip
				break
			elif plain "$c"; then
				from[$rel]=$c
				break
			fi
		done
	done
fi

# ---- each stage
# budget [build] - set step to the seconds the next step may run: what is left of
# the stage's TIMEOUT, at most GRADE_STEP_S for a unit (a build runs no
# submitted code: the compiler is bounded by the CPU-seconds); and export GRADE_STEP_CPU_S
# (sandbox.sh), what is left of the stage's GRADE_CPU_S CPU-seconds (the
# children's user and system time, bash's times, since the stage began:
# cpu0).  step is 0 when either is spent.
step_s=${GRADE_STEP_S:-120} cpu_s=${GRADE_CPU_S:-20}
cpu_ms() { times | awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } } END { printf "%d", t * 1000 }'; }
budget() {
	local c=$((cpu_s * 1000 - ($(cpu_ms) - cpu0)))
	step=$((deadline - SECONDS))
	[ "$step" -le "$step_s" ] || [ "${1:-}" = build ] || step=$step_s
	[ "$c" -ge 1000 ] || step=0
	export GRADE_STEP_CPU_S=$((c / 1000))
}
# stopped - the exit status of a step, with why when a limit stopped it (gradefmt shows it).
stopped() {
	case $1 in
	124) echo "124: stopped by the grader's limits ($step_s s a unit, $cpu_s CPU-seconds a stage)" ;;
	*) echo "$1" ;;
	esac
}
args=()
for n in $stages; do
	sd=$out/stage$n
	mkdir -p "$sd/units"
	echo "== stage $n"
	mine=$(grep "^exercises/stage$n/" <<<"$allowed")
	if [ -n "$sub" ]; then
		taken=0
		for rel in $mine; do case ${from[$rel]:-} in ''|skip) ;; *) taken=$((taken + 1)) ;; esac; done
		echo "stage $n: graded from the submission: $taken of $(wc -w <<<"$mine") exercise files" >>"$note"
		if [ $taken = 0 ]; then
			{
				echo "Nothing of stage $n was found in the submission, so stage $n scores 0."
				[ -z "$links" ] || echo "(Symbolic links are refused, never followed: the submission holds $(wc -l <<<"$links").)"
				echo "Found (at most 30 files):"
				(cd "$sub" && find . -path ./.git -prune -o -type f -print | sed 's|^\./|  |' | head -n 30)
				echo "Expected, for each file, one of these paths (a single top folder around them is fine):"
				for rel in $mine; do
					p=${rel#exercises/}
					echo "  $rel  or  $p  or  ${p#*/}"
				done
			} >"$sd/build.msg"
			cat "$sd/build.msg" >>"$note"
			args+=("$n=$sd")
			continue
		fi
	fi
	# The copy this stage is graded in: the course's tree with the solutions
	# of the stages it builds on (code/tools/stage-chain.sh) and no other,
	# nor what holds their text (the mistakes' and variants' patches, the
	# mutants, the grader's tests: as the bundle, tests/grade/bundle.sh), nor .git and build.
	tree=$sd/tree
	bases=" $(code/tools/stage-chain.sh "$n") " || exit 2
	bases="${bases% "$n" } "
	excl=(--exclude=./build --exclude=./.git --exclude=./tests/mutants --exclude=./tests/grade/check-grade.sh)
	for d in solutions/stage* tests/stage*/mistakes tests/stage*/variants; do
		k=${d#*stage}; k=${k%%/*}
		[ "${bases#* "$k" }" != "$bases" ] || excl+=(--exclude="./$d")
	done
	mkdir -p "$tree" && bounded "$tree" && mkdir -p "$tree/build"
	tar -C "$src" "${excl[@]}" -cf - . | tar -C "$tree" -xf - || exit 2
	[ -z "${GRADE_PACKAGES:-}" ] || touch "$tree/build/.deps-ok"
	for d in kernel shell tests/lib student/stage$n; do
		[ -d "$src/build/$d" ] || continue
		mkdir -p "$(dirname "$tree/build/$d")" && cp -pr "$src/build/$d" "$tree/build/$d"
	done
	rm -rf "$tree/build/student/stage$n/results" "$tree/build/student/stage$n/progress"*
	for rel in $mine; do
		case ${from[$rel]:-} in ''|skip) ;; *) cp -P "${from[$rel]}" "$tree/$rel" ;; esac
	done
	# The submission gate (tests/grade/gate.sh), before anything compiles: a
	# file it refuses is graded as the handed-out skeleton (its shape without
	# the @ lines), so its exercises score 0 and none of its code runs; the
	# refusals go in the note.
	# GRADE_GATE=0 leaves it out: for the tests of the layers behind it
	# (tests/grade/check-grade.sh); a submission cannot set the grader's environment.
	if [ "${GRADE_GATE:-1}" = 0 ]; then
		echo "stage $n: the submission gate was left out (GRADE_GATE=0)" >>"$note"
		grc=0
	else
		(cd "$tree" && GATE_REFUSED="$sd/gate.refused" GATE_ONLY=source \
			tests/grade/gate.sh "$src/build/tools/gate" "$n" "exercises/stage$n") >"$sd/gate.msg" 2>&1
		grc=$?
	fi
	case $grc in
	0) ;;
	1)
		while read -r _ rel; do
			shape=$tree/tests/grade/shapes/stage$n/$rel
			if [ ! -f "$shape" ]; then	# a file of the student's own: not built
				rm -f "$tree/exercises/stage$n/$rel"
				echo "stage $n: exercises/stage$n/$rel is not a handed-out file: not used" >>"$note"
				continue
			fi
			grep -v '^[[:space:]]*@\(EXERCISE .*\|END\)$' "$shape" >"$tree/exercises/stage$n/$rel" || exit 2
			echo "stage $n: exercises/stage$n/$rel was refused, so its exercises score 0 (it was graded as handed out):" >>"$note"
		done <"$sd/gate.refused"
		sed 's|^'"$tree"'/||; s/^/  /' "$sd/gate.msg" >>"$note"
		echo "stage $n: the submission gate refused $(wc -l <"$sd/gate.refused") file(s)" ;;
	*) echo "grade.sh: the submission gate could not run on stage $n:" >&2; cat "$sd/gate.msg" >&2; exit 2 ;;
	esac
	# What the sandbox hides besides: the course's tree's later solutions and
	# everything of its build but this grading (GRADE_HIDE adds more).
	hide=$sd/hide
	{
		[ ! -e "$src/tests/mutants" ] || echo "$src/tests/mutants"
		for d in "$src"/solutions/stage* "$src"/tests/stage*/mistakes "$src"/tests/stage*/variants; do
			k=${d#"$src"/*stage}; k=${k%%/*}
			[ ! -e "$d" ] || [ "${bases#* "$k" }" != "$bases" ] || echo "$d"
		done
		[ ! -e "$src/.git" ] || echo "$src/.git"
		g=$(git -C "$src" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) && [ -n "$g" ] && echo "$g"
		if [ -d "$src/build" ]; then
			keep=${out#"$src"/build/}; keep=${keep%%/*}
			[ "$out" = "${out#"$src"/build/}" ] && keep=
			find "$src/build" -mindepth 1 -maxdepth 1 ! -name "$keep" -print
		fi
		tr ' ' '\n' <<<"${GRADE_HIDE:-}" | grep -v '^$'
	} >"$hide"
	chmod -R go+rX "$tree"
	mkdir -p "$sd/work" && bounded "$sd/work"
	: >"$sd/hang"
	if [ -n "$trusted" ]; then
		chown -R "$GRADE_UID:$GRADE_UID" "$tree/build" "$sd/hang"
		chmod 755 "$sd"
		# work/ stays root's, sticky: the submission's user makes each unit's
		# directory, and cannot rename or remove one root has taken over
		# (to put a forged one in its place).
		chmod 1733 "$sd/work"
	fi
	deadline=$((SECONDS + limit)) cpu0=$(cpu_ms)
	# The build, as the submission's user.
	tests=$(cd "$tree" && for t in tests/stage$n/test_*.c; do echo "build/student/stage$n/tests/$(basename "$t" .c)"; done)
	budget build
	# shellcheck disable=SC2086 # tests: paths without spaces
	(nolock; cd "$tree" && "$sandbox" "$hide" "$step" \
		make --no-print-directory -j"$jobs" "build/student/stage$n/ksim" $tests) >"$sd/build.log" 2>&1
	rc=$?
	"$sandbox" --reap "$out"
	if [ -n "$trusted" ]; then
		chown -R 0:0 "$tree/build" && chmod -R go-w "$tree/build"
	fi
	# (A failed build can leave the skeleton's binaries, prebuilt, in place: the status decides.)
	if [ $rc != 0 ]; then
		{
			echo "stage $n does not compile, so none of its tests ran. The compiler said:"
			grep -E ': (fatal )?error|: warning:|BUILD ERROR|^ *[0-9]+ \| |^ +\| ' "$sd/build.log" | head -n 30
			[ $rc != 124 ] || echo "(the build was stopped by the grader's limits: $limit s, $cpu_s CPU-seconds)"
		} >"$sd/build.msg"
		echo "stage $n: does not compile"
		args+=("$n=$sd")
		drop "$tree"
		[ -z "$trusted" ] || chown 0:0 "$sd/hang"
		continue
	fi
	# The gate's second half, on the objects just compiled and before any of them runs: a refusal scores the stage 0.
	grc=0
	[ "${GRADE_GATE:-1}" = 0 ] || (cd "$tree" && GATE_ONLY=objects tests/grade/gate.sh "$src/build/tools/gate" "$n" \
		"exercises/stage$n" "$tree/build/student/stage$n" "$tree"/build/kernel/*.o) >"$sd/objgate.msg" 2>&1 || grc=$?
	if [ $grc != 0 ]; then
		[ $grc = 1 ] || { echo "grade.sh: the submission gate could not run on stage $n's objects:" >&2; cat "$sd/objgate.msg" >&2; exit 2; }
		{
			echo "stage $n's compiled code was refused, so none of its tests ran:"
			sed 's/^/  /' "$sd/objgate.msg"
		} >"$sd/build.msg"
		cat "$sd/build.msg" >>"$note"
		echo "stage $n: compiled code refused"
		args+=("$n=$sd")
		drop "$tree"
		[ -z "$trusted" ] || chown 0:0 "$sd/hang"
		continue
	fi
	# A warning does not stop a student's build: the note names it (build.log has the compiler's words).
	nw=$(find "$tree/build/student/stage$n" -name '*.warnings' -exec cat {} + 2>/dev/null | grep -c ': warning: ')
	[ "$nw" = 0 ] || echo "stage $n: your code compiles with $nw warning$([ "$nw" = 1 ] || echo s)" \
		"(the compiler's words are in stage$n/build.log)" >>"$note"
	# Each unit the course lists for this stage, one at a time.  What decides
	# a verdict reaches only trusted/, which the submission's user cannot
	# open (README, "Grading a course"): a suite's passes come through a pipe
	# this script opened (ktest.c), signed with a key only it and the suite
	# read, beside a canary under a name drawn here; a table's rows are judged
	# here, scenarios.sh run by this user, ksim alone in the sandbox
	# (tests/grade/ksim-row.sh).  work/UNIT, which that user writes, gives
	# the failures' messages and Check's own claims, held against the
	# verdicts by gradefmt.py.
	tdir=$sd/trusted
	mkdir -p "$tdir" && chmod 700 "$tdir"
	units=$(awk -F'\t' -v n="$n" '$1 == n && !/^#/ { sub(/:.*/, "", $2); if (!seen[$2]++) print $2 }' tests/grade/points.tsv)
	for u in $units; do
		budget
		if [ "$step" -le 0 ]; then
			echo "stage $n did not finish within $limit s and $cpu_s CPU-seconds and was stopped; its units without a result score zero" >"$sd/stop.msg"
			break
		fi
		if [ "$u" = scenarios.tsv ]; then
			mkdir -p "$tdir/$u"
			(nolock; cd "$tree" && KSIM="$src/tests/grade/ksim-row.sh $sandbox $hide $tree/build/student/stage$n/ksim --sched nonpreemptive" \
				KTEST_HANG_FILE="$sd/hang" timeout -k 5 "$step" tests/lib/scenarios.sh "tests/stage$n/scenarios.tsv" "$tdir/$u") \
				>"$sd/units/$u.log" 2>&1
			stopped $? >"$sd/units/$u.status"
			"$sandbox" --reap "$out"
			echo "stage$n/$u: $(grep -c '^ok ' "$sd/units/$u.log") scenarios passed, $(grep -c '^FAIL ' "$sd/units/$u.log") failed" |
				tee -a "$sd/units/$u.log"
			continue
		fi
		# The key, and a canary: a name made of the words of this stage's own
		# test names, so that nothing but this file tells it from a real one.
		awk -F'\t' -v n="$n" '$1 == n && $2 !~ /^scenarios/ { sub(/.*:/, "", $2); print $2 }' tests/grade/points.tsv >"$tdir/names"
		tr _ '\n' <"$tdir/names" | sort -u >"$tdir/words"
		while :; do
			# As many words as a real name, drawn at random.
			k=$(shuf -n 1 --random-source=/dev/urandom "$tdir/names" | tr _ '\n' | wc -l)
			c=$(shuf -n "$k" --random-source=/dev/urandom "$tdir/words" | paste -sd_)
			grep -qxF "$c" "$tdir/names" || break
		done
		printf '%s\n%s\n' "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" "$c" >"$tdir/$u.key"
		chmod 600 "$tdir/$u.key"
		exec {kfd}<"$tdir/$u.key"
		exec {vfd}> >(exec cat >"$tdir/$u.verdicts")
		vpid=$!
		(nolock; cd "$tree" && "$sandbox" "$hide" "$step" \
			KSIM="$tree/build/student/stage$n/ksim --sched nonpreemptive" KSIM_DIR="$tree/build/student/stage$n" \
			KTEST_JOBS=1 KTEST_HANG_FILE="$sd/hang" KTEST_KEY_FD="$kfd" KTEST_VERDICT_FD="$vfd" \
			tests/lib/runtests.sh "stage$n/$u" --results "$sd/work/$u" "$tree/build/student/stage$n/tests/$u") \
			>"$sd/units/$u.log" 2>&1
		stopped $? >"$sd/units/$u.status"
		exec {kfd}<&- {vfd}>&-
		"$sandbox" --reap "$out"
		# The reader ends when the last writer is gone: at once, but where no
		# one can end what the run left holding the pipe (a student's own make
		# grade), at most 5 s later.
		for _ in $(seq 50); do kill -0 "$vpid" 2>/dev/null || break; sleep 0.1; done
		kill "$vpid" 2>/dev/null
		wait "$vpid"
		[ -z "$trusted" ] || { [ ! -e "$sd/work/$u" ] || chown -R 0:0 "$sd/work/$u"; chmod -R go-w "$sd/work/$u" 2>/dev/null; }
		# (what it wrote beyond its results is not kept past 1 MiB a file: the next unit gets the space)
		find "$sd/work/$u" -type f -size +1024k -delete 2>/dev/null
		tail -n 1 "$sd/units/$u.log" | cut -c1-200
	done
	cat "$sd/units/"*.log >"$sd/check.log" 2>/dev/null
	drop "$tree"
	[ -z "$trusted" ] || chown 0:0 "$sd/hang"	# (nothing of the submission's user outlives the grading)
	args+=("$n=$sd")
done

# ---- everything else the submission holds: not used, said so
if [ -n "$sub" ]; then
	declare -A used=()
	for rel in "${!from[@]}"; do [ "${from[$rel]}" = skip ] || used[${from[$rel]}]=1; done
	k=0
	while IFS= read -r f; do
		[ -z "${used[$f]:-}" ] || continue
		r=${f#"$base"/}
		if [ -f "$src/$r" ] && cmp -s "$src/$r" "$f"; then continue; fi
		if [ -f "$src/exercises/$r" ] && cmp -s "$src/exercises/$r" "$f"; then continue; fi
		k=$((k + 1))
		[ $k -le 20 ] || continue
		if [ -e "$src/$r" ]; then
			echo "not used (the course's copy is graded): $r" >>"$note"
		else
			echo "not used (not a file a submission may change): $r" >>"$note"
		fi
	done < <(find "$base" \( -name .git -prune \) -o -type f -print | sort)
	[ $k -le 20 ] || echo "... and $((k - 20)) more files not used" >>"$note"
	echo "A submission may change only the files of exercises/; see README, \"Grading a course\"." >>"$note"
else
	echo "graded: this checkout's exercises/, with this checkout's tests" >>"$note"
	if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
		changed=$(git -C "$src" status --porcelain --untracked-files=no -- . ':!exercises' 2>/dev/null | cut -c4-)
		for f in $changed; do
			echo "changed outside exercises/ (a course's grader uses its own copy): $f" >>"$note"
		done
	fi
fi

# ---- one reading of the results, every format (trusted: the course's gradefmt, as this user)
python3 "$src/tests/grade/gradefmt.py" --points tests/grade/points.tsv --exercises tests/grade/exercises.tsv \
	--out "${final:-$out}" --note "$note" --elapsed $((SECONDS - start)) "${args[@]}" || exit 2
[ ! -s "$note" ] || sed 's/^/  /' "$note"
# What a unit wrote beyond its results (a disk fill in its directory) is not kept past 1 MiB a file.
for w in "$out"/stage*/work; do [ ! -d "$w" ] || find "$w" -type f -size +1024k -delete 2>/dev/null; done
for m in "${mounts[@]}"; do unbound "$m" || exit 2; done
# The logs of copies made in /tmp join the results in OUT.
if [ -n "$final" ]; then
	cp -a "$out"/. "$final"/ && rm -rf "$out" || exit 2
fi
