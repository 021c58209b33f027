#!/bin/bash
# check-citations.sh - the repository explains itself: nothing in it cites a file outside it.
#
# Notes written for the workbook's developers lived beside the repository,
# not in it (a tooling notebook, a design map, a style guide, the 2007 source
# texts, by their file names there, the machine's work tree).  A comment, test, script or page that
# points a reader there sends them to a file they do not have: what the
# code relies on is said where it is relied on, or in the README.  Every
# tracked file is searched, this one excepted (it has to name them).
# Last line: "check-citations: N passed, M failed" (one check).
set -u
pattern='00[0-9]-(mail|article)|TOOLING[.]md|DESIGN[.]md|STYLE[.]md|[.][.]/shared|(^|[^a-z])shared/|seeds/|(^|[^a-zA-Z0-9_.$}])/work/'
self=code/tools/check-citations.sh
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	hits=$(git grep -n -I -E "$pattern" -- . ":!$self")
else
	hits=$(grep -rnI -E "$pattern" --exclude-dir=build --exclude-dir=.git . | sed 's|^\./||' | grep -v "^$self:")
fi
if [ -z "$hits" ]; then
	echo "ok no file cites a note outside the repository"
	echo "check-citations: 1 passed, 0 failed"
else
	echo "FAIL these lines cite a file outside the repository; say what they rely on here instead:"
	sed 's/^/    /' <<<"$hits"
	echo "check-citations: 0 passed, 1 failed"
	exit 1
fi
