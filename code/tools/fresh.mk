# fresh.mk - make check-fresh: the README's two commands on fresh Debian 12 and 13 roots.
# Included by the top-level Makefile, which defines HELP.
#
# Not part of `make check` (it runs make check itself, inside each root); .ci/run
# runs it after make check, so CI fails the day DEB_PACKAGES misses a package
# that CI's own, long-lived machine happens to have, or a release drops one.
# Needs root.
#
# FRESH_SUITES: the releases, one root each, one after the other (each make
# check inside fills both CPUs).  FRESH_SUITES=trixie make check-fresh runs one.
# FRESH_CACHE: where each suite's pristine root and downloaded packages are
# kept, outside the clone, so that CI's next run in a new clone on the same
# machine reuses them (check-fresh.sh says what is kept and when it is remade).
FRESH_SUITES ?= bookworm trixie
FRESH_CACHE ?= /var/cache/lifetime-workbook
# What the host needs to build the root and clone into it.
FRESH_HOST_PACKAGES := debootstrap git

HELP += "check-fresh      fresh Debian 12 and 13 roots (debootstrap): make tour, make check as root, check-stage1 as a user (root)"
.PHONY: check-fresh
# Each suite's output as it runs, then one tally over both.
check-fresh:
	$(Q)p=0; f=0; for s in $(FRESH_SUITES); do \
	  mkdir -p build/fresh/$$s; \
	  FRESH_HOST_PACKAGES="$(FRESH_HOST_PACKAGES)" code/tools/check-fresh.sh $$s $(FRESH_CACHE)/fresh-$$s build/fresh/$$s \
	    | tee build/fresh/$$s/out.txt; \
	  last=$$(tail -n 1 build/fresh/$$s/out.txt); \
	  if [[ $$last =~ ^check-fresh:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$$ ]]; then \
	    p=$$((p + BASH_REMATCH[1])); f=$$((f + BASH_REMATCH[2])); \
	  else f=$$((f + 1)); fi; \
	done; \
	echo "check-fresh: $(FRESH_SUITES): $$p passed, $$f failed"; \
	echo "$$p passed, $$f failed"; [ $$f = 0 ]
