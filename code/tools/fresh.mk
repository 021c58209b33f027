# fresh.mk - make check-fresh: the README's two commands on a fresh Debian 12 root.
# Included by the top-level Makefile, which defines HELP.
#
# Not part of `make check` (it runs make check itself, inside the root); .ci/run
# runs it after make check, so CI fails the day DEB_PACKAGES misses a package
# that CI's own, long-lived machine happens to have.  Needs root.

FRESH_DIR := build/fresh
# What the host needs to build the root and clone into it.
FRESH_HOST_PACKAGES := debootstrap git

HELP += "check-fresh      fresh Debian 12 root (debootstrap): make tour, make check as root, check-stage1 as a user (root)"
.PHONY: check-fresh
check-fresh:
	@FRESH_HOST_PACKAGES="$(FRESH_HOST_PACKAGES)" code/tools/check-fresh.sh $(FRESH_DIR)
