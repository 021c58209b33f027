#!/bin/bash
# handout.sh DIR - the repository a course gives its students (make handout): DIR, a git repository of one commit.
#
# The course's tracked files as this checkout has them (git stash create:
# HEAD plus uncommitted changes to tracked files; git archive writes it),
# without what holds an answer or exists only to test the reference:
#   solutions/                    the answers
#   tests/stageN/mistakes*        wrong answers, as patches of the reference (context lines quote it)
#   tests/stageN/variants*        right answers written another way, as patches of it
#   tests/mutants/                the reference's mutants and their samples
#   tests/grade/check-grade.sh    the grader's own tests (they edit a reference file)
#   .ci/                          the course's CI, which runs make check on the reference
# (.github/ stays: its Classroom workflow grades the student's repository, this one.)
# and with the chapters' includes of a solution file pointed at its skeleton
# in exercises/, so a chapter shows the stub where the course's book shows
# the answer; its README begins by saying what the handout is.
#
# A git repository, not a tarball: it is what a course publishes (a
# template repository for GitHub Classroom, a repository to fork) and what
# a student clones; `git -C DIR archive HEAD` makes the tarball if wanted.
# In it, the Makefile sees no solutions/ (code/tools/handout.mk): a stage's
# base stages are built from the student's own exercises/, and what needs
# the reference says so and stops.
#
# tests/grade/answers.py checks the result (make check-answers).  Exit status 0, or 2.
set -eu
out=${1:?usage: handout.sh DIR}
[ -d solutions ] || { echo "handout.sh: no solutions/ here: run it in the course's checkout (this looks like a handout)" >&2; exit 2; }
git rev-parse --git-dir >/dev/null 2>&1 || { echo "handout.sh: not a git checkout: a handout holds tracked files only" >&2; exit 2; }
excl=(":(exclude)solutions" ":(exclude)tests/mutants" ":(exclude)tests/grade/check-grade.sh"
	":(exclude).ci")
for d in tests/stage*/; do
	excl+=(":(exclude)${d}mistakes" ":(exclude)${d}mistakes.tsv" ":(exclude)${d}variants" ":(exclude)${d}variants.tsv")
done
rm -rf "$out" "$out.tmp" && mkdir -p "$out.tmp"
# (stash create needs a committer; a fresh clone in CI may have none configured)
id=(-c user.name=handout -c user.email=handout@localhost)
rev=$(git "${id[@]}" stash create)
git archive --format=tar "${rev:-HEAD}" -- . "${excl[@]}" | tar -C "$out.tmp" -xf -
# A chapter's code comes from the tested sources by marker (code/tools/include.lua):
# a solution file's excerpt becomes the skeleton's.
for f in "$out.tmp"/chapters/*.md; do
	sed -i 's/include="solutions\//include="exercises\//g' "$f"
done
if grep -rln 'solutions/' "$out.tmp/chapters" | xargs -r grep -ln 'include="solutions/' >&2; then
	echo "handout.sh: a chapter above still includes from solutions/" >&2; exit 2
fi
# The README says first what this tree is, and what builds on what.
chains=$(for n in $(code/tools/stages.sh --graded); do
	c=$(code/tools/stage-chain.sh "$n") || exit 2
	b=${c% *}
	[ "$c" = "$n" ] || printf '%s; ' "stage $n on your stage$([ "$b" = "${b#* }" ] || echo s) $(echo "$b" | sed 's/ /, /g; s/\(.*\), /\1 and /')"
done | sed 's/; $//')
awk -v chains="$chains" 'NR == 2 {
	print ""
	print "> **This is a course'"'"'s handout** (`make handout`): the exercises, the given code, the book'"'"'s"
	print "> sources, the tests and the grader, without the reference solutions. Here `make check-stageN`,"
	print "> `make grade`, `make progress`, `make hint-stageN` and `make run-stageN` work (see \"Working an"
	print "> exercise\"); what needs the reference (`make`, `make tour`, `make check`, `make book`,"
	print "> `SOLUTIONS=1`) says so and stops. A stage is built on your own earlier ones: " chains "."
} { print }' "$out.tmp/README.md" >"$out.tmp/README.md.new" && mv "$out.tmp/README.md.new" "$out.tmp/README.md"
(cd "$out.tmp" && git init -q && git add -A && git "${id[@]}" commit -q -m "The course's handout: exercises, given code, book sources, tests and grading tools")
mv "$out.tmp" "$out"
echo "handout: $out ($(du -sk --exclude=.git "$out" | cut -f1) KiB, $(git -C "$out" ls-files | wc -l) files): no solutions/, mistakes, variants or mutants"
