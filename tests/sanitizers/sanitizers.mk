# tests/sanitizers/sanitizers.mk - stages 3 and 4 under ASan, TSan and UBSan.
#
# Stages 3 and 4 must be clean under all three: each whole suite (every scenario,
# the stress test, the unit tests) passes in each build, and a sanitizer's
# report ends the run it is in with status 3, which fails that test.  Zero
# reports prove little from a build that cannot report, so each build first
# runs a control: a known bug it must catch (tests/sanitizers/SAN.tsv).
SANITIZERS := address thread undefined
HELP += "check-sanitizers  stages 3 and 4 under ASan, TSan and UBSan, 0 reports; each build first catches a known bug"
CHECK_TARGETS += check-sanitizers
.PHONY: check-sanitizers check-sanitizer-control
check-sanitizers: $(BUILD)/.deps-ok
	@fail=0; for s in $(SANITIZERS); do \
	  $(MAKE) --no-print-directory SAN=$$s check-sanitizer-control || fail=1; \
	  $(MAKE) --no-print-directory SAN=$$s SOLUTIONS=1 check-stage3 || fail=1; \
	  $(MAKE) --no-print-directory SAN=$$s SOLUTIONS=1 check-stage4 || fail=1; \
	done; exit $$fail

# The control of the build SAN= selects: stage 1's use-after-free for ASan
# and TSan, a signed overflow in a demo store (stage 0) for UBSan.
SAN_CONTROL_KSIM := $(BUILD)/$(if $(filter undefined,$(SAN)),stage0,stage1)/ksim
check-sanitizer-control: $(BUILD)/.deps-ok $(SAN_CONTROL_KSIM)
	@test -n "$(SAN)" || { echo "check-sanitizer-control: needs SAN=address|thread|undefined" >&2; exit 2; }
	@out=$$(KSIM="$(RUN_PREFIX) $(SAN_CONTROL_KSIM)" $(SAN_ENV) tests/lib/scenarios.sh tests/sanitizers/$(SAN).tsv); \
	  rc=$$?; printf '%s\n' "$$out"; \
	  echo "check-sanitizer-control SAN=$(SAN): $$(grep -c '^ok ' <<<"$$out") passed, $$(grep -c '^FAIL ' <<<"$$out") failed"; \
	  exit $$rc
