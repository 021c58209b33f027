#!/bin/bash
# setup.sh - Gradescope runs this once, as root, when it builds the autograder's image (one stage's).
#
# The packages grading needs (GRADE_PACKAGES in tests/grade/grade.mk, filled
# in by `make gradescope-bundle`).  Gradescope's images are Ubuntu; these
# names are the same there as on Debian.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends @GRADE_PACKAGES@
# The course's own objects and the skeletons' builds, once, in the image:
# each submission's grading copies them (tests/grade/grade.sh) and compiles
# only the files the submission changed.
make -C "$(dirname "$0")" --no-print-directory -s -j"$(nproc)" grade-prebuild ||
	echo "setup.sh: the course's objects did not build here; each grading will build them itself" >&2
# (Only the bundle's stage: a later one would need solutions the bundle does not hold.)
make -C "$(dirname "$0")" --no-print-directory -s -k -j"$(nproc)" STAGES="$(cat "$(dirname "$0")/GRADE_STAGE")" \
	grade-prebuild-student >/dev/null 2>&1 || true
