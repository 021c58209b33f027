#!/bin/bash
# check-verdicts.sh WORK - the verdicts' own layer against attacks (check-grade.sh's part 6; run as root).
#
# Stage 1's skeleton, with one of tests/grade/attacks/*.c appended to its
# kobject_ref.c (README there), graded by tests/grade/grade.sh with the
# submission gate off (GRADE_GATE=0, a knob of the trusted caller's
# environment: the submission cannot set it), so that only the verdicts'
# layer stands in the way: each scores 0, and the grading names the
# tampering it caught.  The controls, graded the same way: the reference
# scores full marks and the skeleton 0, each with its canaries present (one
# a suite, under a name of this grading's) and failed.  The gradings run with
# the sandbox's namespaces, and the reference and the attacks that leave
# processes behind or end them also in the fallback where the kernel refuses
# namespaces (GRADE_SANDBOX_NONS=1, the trusted caller's knob: sandbox.sh).  Prints "ok ..." / "FAIL ..." lines and a last line
# "check-verdicts: N passed, M failed".
set -u
work=$1
py=/usr/bin/python3
pass=0 fail=0
ok() { echo "ok $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd)
[ "$(id -u)" = 0 ] || { bad "the attacks run the grader as root, as Gradescope does: run make check-grade as root"; echo "check-verdicts: $pass passed, $fail failed"; exit 1; }

# submission NAME - stage 1's skeleton with the attack NAME (reference: the solutions).
submission() {
	local s=$work/sub-$1
	mkdir -p "$s/stage1/modules"
	case $1 in
	reference) cp solutions/stage1/kobject_ref.c "$s/stage1/"; cp solutions/stage1/modules/mouse.c "$s/stage1/modules/"; return ;;
	esac
	cp exercises/stage1/modules/mouse.c "$s/stage1/modules/"
	case $1 in
	skeleton) cp exercises/stage1/kobject_ref.c "$s/stage1/" ;;
	early-exit)
		# Every test that takes a reference ends there, status 0.
		sed 's/^\tTODO("kobject_get"/\t{ extern void attack_exit_now(void); attack_exit_now(); }\n&/' \
			exercises/stage1/kobject_ref.c >"$s/stage1/kobject_ref.c"
		cat "tests/grade/attacks/$1.c" >>"$s/stage1/kobject_ref.c" ;;
	*) cat exercises/stage1/kobject_ref.c "tests/grade/attacks/$1.c" >"$s/stage1/kobject_ref.c" ;;
	esac
}

# canaries OUT - every suite had its canary, and it failed: "N" (how many), else a reason.
canaries() {
	local k n=0 c u
	for k in "$1"/stage1/trusted/*.key; do
		u=$(basename "$k" .key)
		c=$(sed -n 2p "$k")
		[ -n "$c" ] || { echo "no canary for $u"; return; }
		grep -qP "^check\t$u\t$c\tfail\t" "$1/stage1/work/$u/results.tsv" || { echo "$u's canary $c did not run and fail"; return; }
		n=$((n + 1))
	done
	echo "$n"
}

for mode in namespaces fallback; do
	# (Each grading takes a user no other grading holds: grade.sh.)
	nons=
	[ $mode = namespaces ] || nons=1
	# (The reference in the namespaces is check-grade's part 4; the attacks that
	# need no process of their own run once, in the namespaces.)
	if [ $mode = namespaces ]; then attacks="skeleton log-rewrite exit check-fns early-exit memory-key"
	else attacks="reference log-rewrite exit"; fi
	for a in $attacks; do
		submission "$a"
		out=$work/$mode-$a
		env GRADE_SANDBOX_NONS="$nons" GRADE_GATE=0 CK_TIMEOUT_MULTIPLIER=3 tests/grade/grade.sh --stages 1 \
			--submission "$work/sub-$a" --out "$out" >"$out.log" 2>&1
		if ! read -r score max < <($py tests/grade/results.py score "$out/results.json" 2>/dev/null); then
			bad "$mode, $a: no results.json ($(tail -n 2 "$out.log" | tr '\n' ' '))"
			continue
		fi
		if [ $mode = fallback ] && ! grep -q "no pid namespace here" "$out/stage1/units/test_stage1.log"; then
			bad "$mode, $a: the sandbox did not fall back"
			continue
		fi
		n=$(canaries "$out")
		case $a in
		reference)
			[ "$score" = "$max" ] && [ "$max" -gt 0 ] && [ "$n" -ge 3 ] 2>/dev/null &&
				ok "$mode: the reference scores $score of $max, its $n canaries failed" ||
				bad "$mode: the reference scores $score of $max; canaries: $n" ;;
		skeleton)
			[ "$score" = 0 ] && [ "$n" -ge 3 ] 2>/dev/null && ! grep -q tampered "$out/summary.txt" &&
				ok "$mode: the skeleton scores 0 of $max, not void, its $n canaries failed" ||
				bad "$mode: the skeleton scores $score of $max; canaries: $n" ;;
		log-rewrite)
			# Its helper wrote into every pipe it could reopen through /proc: none was the verdicts'.
			why=$(sed -n 's/^VOID: //p' "$out/summary.txt" | cut -c1-160)
			keyless=$(for k in "$out"/stage1/trusted/*.key; do grep -cvF "$(head -n 1 "$k")" "${k%.key}.verdicts"; done | awk '{ s += $1 } END { print s + 0 }')
			[ "$score" = 0 ] && [ -n "$why" ] && [ "$keyless" = 0 ] &&
				ok "$mode, $a: 0 of $max, void, and no forged line reached the verdict pipe: ${why#*scores 0: }" ||
				bad "$mode, $a: $score of $max; void: '${why:-no}'; lines without the key on the pipe: $keyless" ;;
		memory-key)
			signed=$(grep -c "^$(head -n 1 "$out/stage1/trusted/test_stage1.key")	pass	" "$out/stage1/trusted/test_stage1.verdicts")
			[ "$score" = 0 ] && [ "$signed" = 0 ] &&
				ok "$mode, $a: 0 of $max, no signed pass of test_stage1 reached the grader" ||
				bad "$mode, $a: $score of $max; $signed signed passes of test_stage1 reached the grader" ;;
		*)
			why=$(sed -n 's/^VOID: //p' "$out/summary.txt" | cut -c1-160)
			[ "$score" = 0 ] && [ -n "$why" ] &&
				ok "$mode, $a: 0 of $max, void: ${why#*scores 0: }" ||
				bad "$mode, $a: $score of $max; void: '${why:-no}'" ;;
		esac
	done
done
echo "check-verdicts: $pass passed, $fail failed"
[ $fail = 0 ]
