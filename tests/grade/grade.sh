#!/bin/bash
# grade.sh [--submission DIR] [--stages "1 2 3 4"] [--out DIR] [--timeout S] - grade exercises with the course's tests.
#
# Run from the root of the course's tree (the instructor's copy: on
# Gradescope /autograder/source, in GitHub Classroom the course repository).
# The grading happens in a copy of that tree, OUT/tree, in which only the
# exercise files come from the submission:
#
#   - A submission may change exactly the files of exercises/ (the
#     skeleton's file names: exercises/stageN/*.c and their modules/).
#     Each is taken from DIR/exercises/stageN/... or DIR/stageN/...; a file
#     the submission lacks is graded as the skeleton left it.
#   - Anything else in the submission is not used, and is listed in the
#     report: a changed test, Makefile or kernel file ("the course's copy is
#     graded"), an extra file, a symbolic link.
#
# Without --submission, the tree's own exercises/ are graded (a student's
# `make grade`); files the checkout changes outside exercises/ are listed
# the same way, since a course's grader would not see them.
#
# Each stage is graded by `make check-stageN` in the copy, at most TIMEOUT
# seconds (default 300); a stage that does not compile or does not finish
# still has all its tests in the results, at zero, with the reason.  The
# results go to OUT (default build/grade): results.json (Gradescope),
# junit.xml, grade.tap, classroom.json (tests/grade/gradefmt.c), each
# stage's log and results under OUT/stageN/, and the note on the
# submission in OUT/submission.txt.  Exit status 0 when the results were
# written, whatever the score; 2 when grading itself failed.
set -u
sub= stages="1 2 3 4" out=build/grade limit=300
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
for n in $stages; do
	[ -d "exercises/stage$n" ] || { echo "grade.sh: there is no stage '$n' (STAGES=$stages)" >&2; exit 2; }
done
[ -z "$sub" ] || [ -d "$sub" ] || { echo "grade.sh: submission '$sub' is not a directory" >&2; exit 2; }
src=$(pwd)
[ -z "$sub" ] || sub=$(cd "$sub" && pwd)

# The packages grading needs (GRADE_PACKAGES from tests/grade/grade.mk).
if [ -n "${GRADE_PACKAGES:-}" ]; then
	code/tools/deps.sh $GRADE_PACKAGES || exit 2
fi

rm -rf "$out" && mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
tree=$out/tree
note=$out/submission.txt
: >"$note"

# ---- the copy of the course's tree: everything but build/ and .git
mkdir -p "$tree"
tar -C "$src" --exclude=./build --exclude=./.git -cf - . | tar -C "$tree" -xf - || exit 2
mkdir -p "$tree/build"
# The grading packages are there (above): the copy's check-stageN need not
# install the whole workbook's (the book's and the figures' too).
[ -z "${GRADE_PACKAGES:-}" ] || touch "$tree/build/.deps-ok"
# The course's own objects (the simulated kernel, the scenario runner, the
# test library) do not depend on the submission: built once in the course's
# tree and copied, mtimes kept, into the copy, whose make rebuilds any that
# are older than their sources.  (Gradescope's setup.sh builds them in the
# image, so a submission's grading compiles only its own stages.)
if (cd "$src" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u SOLUTIONS -u SAN \
	make --no-print-directory -s -j"$(nproc 2>/dev/null || echo 1)" grade-prebuild) >"$out/prebuild.log" 2>&1; then
	for d in kernel shell tests/lib; do
		mkdir -p "$(dirname "$tree/build/$d")" && cp -pr "$src/build/$d" "$tree/build/$d"
	done
fi
# So are the student builds of the course's exercises/ (the skeletons, in a
# course's grader) of the stages graded, as far as they built
# (grade-prebuild-student, make -k):
# the copy's make recompiles only what a submission changed, since its
# files are copied in below with the time of the copy, newer than any
# object, and the files it leaves out keep the mtimes they were built from.
# Their results are not copied: every test runs again.
(cd "$src" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u SOLUTIONS -u SAN \
	make --no-print-directory -s -k -j"$(nproc 2>/dev/null || echo 1)" STAGES="$stages" grade-prebuild-student) \
	>>"$out/prebuild.log" 2>&1
for n in $stages; do
	b=build/student/stage$n
	[ -d "$src/$b" ] || continue
	mkdir -p "$tree/$b"
	for f in "$src/$b"/*; do
		case ${f##*/} in results|progress|progress*.log) continue ;; esac
		cp -pr "$f" "$tree/$b/"
	done
done

# ---- the submission: exercise files only
# (Only the C files: exercises/stageN/hints.txt is the course's, read by make hint-stageN.)
allowed=$(cd "$src" && find exercises -type f -name '*.c' | sort)
used=()
if [ -n "$sub" ]; then
	taken=0
	for rel in $allowed; do
		from=
		for cand in "$sub/$rel" "$sub/${rel#exercises/}"; do
			if [ -L "$cand" ]; then
				echo "not used: ${cand#$sub/} is a symbolic link; submit the file itself" >>"$note"
				used+=("${cand#$sub/}")
				from=skip
				break
			elif [ -f "$cand" ]; then
				from=$cand
				break
			fi
		done
		case $from in
		skip) ;;
		'') echo "not in the submission: $rel (graded as the skeleton has it)" >>"$note" ;;
		*) cp "$from" "$tree/$rel" && taken=$((taken + 1)) && used+=("${from#$sub/}") ;;
		esac
	done
	echo "graded from the submission: $taken of $(wc -w <<<"$allowed") exercise files" >>"$note"
	# Everything else the submission holds: not used, said so.
	others=$(cd "$sub" && find . \( -name .git -prune \) -o \( -type f -o -type l \) -print | sed 's|^\./||' | sort)
	n=0
	for f in $others; do
		skip=
		for u in "${used[@]}"; do [ "$u" = "$f" ] && skip=1 && break; done
		[ -z "$skip" ] || continue
		if [ -f "$src/$f" ] && ! [ -L "$sub/$f" ] && cmp -s "$src/$f" "$sub/$f"; then
			continue	# an unchanged copy of a course file
		fi
		if [ -f "$src/exercises/$f" ] && ! [ -L "$sub/$f" ] && cmp -s "$src/exercises/$f" "$sub/$f"; then
			continue	# the same, laid out without exercises/ (stageN/hints.txt)
		fi
		n=$((n + 1))
		[ $n -le 20 ] || continue
		if [ -e "$src/$f" ]; then
			echo "not used (the course's copy is graded): $f" >>"$note"
		else
			echo "not used (not a file a submission may change): $f" >>"$note"
		fi
	done
	[ $n -le 20 ] || echo "... and $((n - 20)) more files not used" >>"$note"
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

# ---- grade each stage in the copy
# -j: the build uses every CPU; the tests themselves run one at a time
# (check-stageN's recipe is one command).
jobs=$(nproc 2>/dev/null || echo 1)
[ "$jobs" -le 4 ] || jobs=4
args=()
for n in $stages; do
	log=$out/stage$n/check.log
	mkdir -p "$out/stage$n"
	echo "== stage $n"
	(cd "$tree" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u SOLUTIONS -u SAN \
		timeout -k 10 "$limit" make --no-print-directory -j"$jobs" "check-stage$n") >"$log" 2>&1
	rc=$?
	grep -E "^check-stage$n: .*(passed|failed)" "$log" | tail -n 1
	# A warning does not stop a student's build; the grade's note names it (the log has the compiler's words).
	sed -nE "s|^check-stage$n: (your code compiles with [0-9]+ warnings?).*|stage $n: \1 (shown in stage$n/check.log)|p" "$log" >>"$note"
	res=$tree/build/student/stage$n/results
	if grep -q "^check-stage$n: build failed" "$log"; then
		{
			echo "stage $n does not compile, so none of its tests ran. The compiler said:"
			# The compiler's own lines, not the commands (every one carries -Werror).
			grep -E ': (fatal )?error|: warning:|BUILD ERROR|^ *[0-9]+ \| |^ +\| ' "$log" | head -n 30
		} >"$out/stage$n/build.msg"
		printf 'build\tstage%d\t(build)\tfail\t-\t%s\t%s\n' "$n" "$out/stage$n/build.msg" "" \
			>"$out/stage$n/results.tsv"
	else
		[ -f "$res/results.tsv" ] && cp "$res/results.tsv" "$out/stage$n/results.tsv"
		if [ $rc = 124 ] || [ $rc = 137 ]; then
			echo "stage $n did not finish within $limit s and was stopped; its tests without a result score zero" \
				>"$out/stage$n/stop.msg"
			printf 'stage\tstage%d\t(stage)\tfail\t-\t%s\t%s\n' "$n" "$out/stage$n/stop.msg" "$log" \
				>>"$out/stage$n/results.tsv"
		fi
	fi
	args+=("$n=$out/stage$n")
done

# ---- one run, every format
gradefmt=${GRADEFMT:-$src/build/tools/gradefmt}
[ -x "$gradefmt" ] || { echo "grade.sh: $gradefmt is not built (make grade builds it)" >&2; exit 2; }
"$gradefmt" tests/grade/points.tsv "$out" --note "$note" "${args[@]}" || exit 2
[ ! -s "$note" ] || sed 's/^/  /' "$note"
