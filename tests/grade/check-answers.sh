#!/bin/bash
# check-answers.sh WORK HANDOUT ZIP... - no answer line in the handout or a stage's bundle (make check-answers).
#
# tests/grade/answers.py scans the handout as committed, what a course
# publishes (every stage's answers count; a build/ of its own is not scanned)
# and each ZIP, build/.../stageN/autograder.zip (stage N's answers and
# those of every stage it does not build on count; the solutions of its
# bases, code/tools/stage-chain.sh, are the bundle's to hold).  Then the
# negative controls: an answer line planted in a copy of the handout's
# files (reindented) and in a copy of stage N's zip (as a patch's added
# line) is caught, named by file and line; and the stage's base solutions
# in its own bundle are not.  Prints "ok"/"FAILED" lines and a tally; exit 1 if one failed.
set -u
work=$1 handout=$2; shift 2
py=  # (answers.py runs itself: #!/usr/bin/python3, the Debian package deps.sh installs)
pass=0 fail=0
ok() { echo "  ok      $*"; pass=$((pass + 1)); }
bad() { echo "  FAILED  $*"; fail=$((fail + 1)); }
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd)
# bases N - the stages N builds on (its chain without N).
bases() { local c; c=$(code/tools/stage-chain.sh "$1") || return 2; if [ "$c" = "$1" ]; then echo; else echo "${c% *}"; fi; }

# ---- what a student can read
if [ ! -d "$handout/exercises" ]; then
	bad "no handout in $handout (make handout)"
elif ! git -C "$handout" archive -o "$work/handout.tar" HEAD; then
	bad "the handout $handout is not a git repository with a commit (make handout)"
elif $py tests/grade/answers.py . "$work/handout.tar" >"$work/handout.found" 2>&1; then
	ok "the handout ($handout as committed, $(tar -tf "$work/handout.tar" | grep -vc '/$') files) quotes no answer line ($($py tests/grade/answers.py --list . | wc -l) answer lines of stages $(code/tools/stages.sh --graded))"
else
	bad "the handout quotes answers:"; head -n 20 "$work/handout.found"
fi
if [ ! -d "$handout/solutions" ] && [ -z "$(find "$handout" -path '*/mistakes/*' -o -path '*/variants/*' -o -path '*/mutants/*' | head -n 1)" ]; then
	ok "the handout holds no solutions/, mistakes, variants or mutants"
else
	bad "the handout holds solutions/, mistakes, variants or mutants"
fi
for z in "$@"; do
	n=${z%/autograder.zip}; n=${n##*stage}
	b=$(bases "$n")
	if [ ! -f "$z" ]; then
		bad "no bundle $z (make gradescope-bundle STAGE=$n)"
	elif $py tests/grade/answers.py --bases "$b" . "$z" >"$work/bundle$n.found" 2>&1; then
		ok "stage $n's bundle quotes no answer line of a stage it does not build on (it holds the solutions of stages: ${b:-none})"
	else
		bad "stage $n's bundle quotes answers:"; head -n 20 "$work/bundle$n.found"
	fi
done

# ---- negative controls: the scan finds what is there
# plant FILE LINE TEXT - TEXT inserted as line LINE of FILE.
plant() { awk -v n="$2" -v t="$3" 'FNR == n { print t } { print }' "$1" >"$1.new" && mv "$1.new" "$1"; }
# A copy of the handout's stage-5 exercises, one answer of stage 5 reindented into a chapter-like file.
a5=$($py tests/grade/answers.py --list . | sed -n 's/^stage 5: //p' | awk 'length >= 20' | head -n 1)
mkdir -p "$work/handout-copy" && cp -r "$handout/exercises" "$handout/chapters" "$work/handout-copy/"
f=$work/handout-copy/chapters/08-same-bug-2026.md
plant "$f" 3 "        $a5"
if [ -z "$a5" ]; then
	bad "no answer line of stage 5 of 20 characters or more to plant"
elif $py tests/grade/answers.py . "$work/handout-copy" >"$work/control-handout.found" 2>&1; then
	bad "control: '$a5' planted in a copy of the handout's $f was not found"
elif grep -qxF "ANSWER $f:3: stage 5: $a5" "$work/control-handout.found" && [ "$(wc -l <"$work/control-handout.found")" = 1 ]; then
	ok "control: an answer line of stage 5, reindented into a copy of the handout's chapter, is caught ($f:3)"
else
	bad "control: the planted answer was not the one line reported:"; cat "$work/control-handout.found"
fi
# A copy of each bundle with a patch that quotes one of its stage's answers
# (the zip's member, as Gradescope would unpack it); the copy untouched passes above.
for z in "$@"; do
	n=${z%/autograder.zip}; n=${n##*stage}
	b=$(bases "$n")
	[ -f "$z" ] || continue
	a=$($py tests/grade/answers.py --bases "$b" --list . | sed -n "s/^stage $n: //p" | head -n 1)
	mkdir -p "$work/zip$n/tests/stage$n" && cp "$z" "$work/zip$n/autograder.zip"
	printf -- '--- a/x.c\n+++ b/x.c\n@@ -1,2 +1,2 @@\n-\t(void)0;\n+\t%s\n' "$a" >"$work/zip$n/tests/stage$n/planted.patch"
	(cd "$work/zip$n" && zip -q autograder.zip "tests/stage$n/planted.patch")
	if $py tests/grade/answers.py --bases "$b" . "$work/zip$n/autograder.zip" >"$work/control$n.found" 2>&1; then
		bad "control: '$a' added to a copy of stage $n's bundle was not found"
	elif grep -qxF "ANSWER $work/zip$n/autograder.zip!tests/stage$n/planted.patch:5: stage $n: $a" "$work/control$n.found" &&
		[ "$(wc -l <"$work/control$n.found")" = 1 ]; then
		ok "control: an answer line of stage $n, added to a copy of its bundle as a patch's line, is caught"
	else
		bad "control: stage $n's planted answer was not the one line reported:"; cat "$work/control$n.found"
	fi
	# The bundle's base solutions are answers of those stages: scanned as the handout is, they count.
	if [ -n "$b" ]; then
		if $py tests/grade/answers.py . "$z" >"$work/control$n-bases.found" 2>&1; then
			bad "control: stage $n's bundle holds the solutions of stages $b, yet scanned as a handout nothing was found"
		else
			ok "control: scanned as a handout, stage $n's bundle holds answers of stages $b only, its bases ($(wc -l <"$work/control$n-bases.found") lines)"
			k=$(sed -n 's/.*: stage \([0-9]*\): .*/\1/p' "$work/control$n-bases.found" | sort -u | paste -s -d ' ')
			for s in $k; do
				case " $b " in *" $s "*) ;; *) bad "control: stage $n's bundle holds answers of stage $s, not one of its bases ($b)" ;; esac
			done
		fi
	fi
done
echo "check-answers: $pass passed, $fail failed"
[ $fail = 0 ]
