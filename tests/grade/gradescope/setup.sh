#!/bin/bash
# setup.sh - Gradescope runs this once, as root, when it builds the autograder's image.
#
# The packages grading needs (GRADE_PACKAGES in tests/grade/grade.mk, filled
# in by `make gradescope-bundle`).  Gradescope's images are Ubuntu; these
# names are the same there as on Debian.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends @GRADE_PACKAGES@
