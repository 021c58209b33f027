#!/bin/bash
# bundle.sh STAGE PACKAGES ZIP - the Gradescope autograder of one stage (make gradescope-bundle STAGE=N).
#
# The course's tracked files only, as this checkout has them (git stash
# create: HEAD plus the uncommitted changes to tracked files, without
# touching the checkout; git archive writes it), with the solutions of the
# stages STAGE builds on and no others, and nothing else that quotes an
# answer, since the submission runs beside the bundle's files: no mistakes'
# or variants' patches (their context lines are solution text), no
# mutants, no grader's tests (check-grade.sh edits a reference file).
# Grading needs none of them; tests/grade/answers.py checks the zip
# (make check-answers).  setup.sh (PACKAGES filled in) and
# run_autograder go at the root, where Gradescope looks, and the file
# GRADE_STAGE says which stage run_autograder grades.  Exit status 0, or 2.
set -eu
n=$1 packages=$2 zip=$3
case $n in ''|*[!0-9]*) echo "bundle.sh: STAGE must be a stage number, not '$n'" >&2; exit 2 ;; esac
[ -d "exercises/stage$n" ] || { echo "bundle.sh: there is no stage $n" >&2; exit 2; }
git rev-parse --git-dir >/dev/null 2>&1 || { echo "bundle.sh: not a git checkout: a bundle holds tracked files only" >&2; exit 2; }
dir=$(dirname "$zip")/bundle
rm -rf "$dir" "$zip" && mkdir -p "$dir"
# The solutions a stage's build needs are those of the stages it builds on
# (code/tools/stage-chain.sh): stage 3's bundle holds stage 1's, not stage 2's.
bases=" $(code/tools/stage-chain.sh "$n") " || exit 2
bases="${bases% "$n" } "
excl=(":(exclude)tests/mutants" ":(exclude)tests/grade/check-grade.sh")
for d in tests/stage*/; do
	excl+=(":(exclude)${d}variants" ":(exclude)${d}variants.tsv")
done
for d in solutions/stage* tests/stage*/mistakes; do
	k=${d#*stage}; k=${k%%/*}
	[ "${bases#* "$k" }" != "$bases" ] || excl+=(":(exclude)$d")
done
# (stash create needs a committer; a fresh clone in CI may have none configured)
rev=$(GIT_AUTHOR_NAME=bundle GIT_AUTHOR_EMAIL=bundle@localhost GIT_COMMITTER_NAME=bundle \
	GIT_COMMITTER_EMAIL=bundle@localhost git stash create)
git archive --format=tar "${rev:-HEAD}" -- . "${excl[@]}" | tar -C "$dir" -xf -
sed "s/@GRADE_PACKAGES@/$packages/" tests/grade/gradescope/setup.sh >"$dir/setup.sh"
cp tests/grade/gradescope/run_autograder "$dir/run_autograder"
echo "$n" >"$dir/GRADE_STAGE"
chmod +x "$dir/setup.sh" "$dir/run_autograder"
(cd "$dir" && zip -qr -X "$(cd .. && pwd)/$(basename "$zip")" .)
rm -rf "$dir"
echo "gradescope-bundle: $zip ($(du -k "$zip" | cut -f1) KiB): stage $n's autograder, solutions of $(b=${bases# }; b=${b% }; if [ -n "$b" ]; then echo "stages $b"; else echo "no stage"; fi) only"
