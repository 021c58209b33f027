# tests/sanitizers/sanitizers.mk - stages 3 and 4 under ASan, TSan and UBSan.
#
# Stages 3 and 4 must be clean under all three: each whole suite (every scenario,
# the stress test, the unit tests) passes in each build, and a sanitizer's
# report ends the run it is in with status 3, which fails that test.  Zero
# reports prove little from a build that cannot report, so each build first
# runs a control: a known bug it must catch (tests/sanitizers/SAN.tsv).
SANITIZERS := address thread undefined
HELP += "check-sanitizers  stages 3 and 4 under ASan, TSan and UBSan, 0 reports; each build first catches a known bug"
HELP += "check-san-SAN    the same under one of them (address, thread, undefined); make check runs the three side by side"
CHECK_TARGETS += $(addprefix check-san-,$(SANITIZERS))
.PHONY: check-sanitizers check-sanitizer-control check-sanitizer-build $(addprefix check-san-,$(SANITIZERS))
check-sanitizers: $(BUILD)/.deps-ok
	@fail=0; for s in $(SANITIZERS); do $(MAKE) --no-print-directory check-san-$$s || fail=1; done; exit $$fail

# One sanitizer's build first, in parallel (-j unless make -jN's job slots
# are there to share), then its control and the two stages' suites.
define CHECK_SAN
check-san-$(1): $(BUILD)/.deps-ok
	@$$(MAKE) --no-print-directory SAN=$(1) $$(if $$(filter -j%,$$(MAKEFLAGS)),,-j$$(shell nproc 2>/dev/null || echo 1)) \
	  check-sanitizer-build || { echo "check-san-$(1): the SAN=$(1) build failed: 0 passed, 1 failed"; exit 1; }
	@fail=0; \
	  $$(MAKE) --no-print-directory SAN=$(1) check-sanitizer-control || fail=1; \
	  $$(MAKE) --no-print-directory SAN=$(1) SOLUTIONS=1 check-stage3 || fail=1; \
	  $$(MAKE) --no-print-directory SAN=$(1) SOLUTIONS=1 check-stage4 || fail=1; \
	  exit $$$$fail
endef
$(foreach s,$(SANITIZERS),$(eval $(call CHECK_SAN,$(s))))

# The control of the build SAN= selects: stage 1's use-after-free for ASan
# and TSan, a signed overflow in a demo store (stage 0) for UBSan.
SAN_CONTROL_KSIM := $(BUILD)/$(if $(filter undefined,$(SAN)),stage0,stage1)/ksim
check-sanitizer-build: $(SAN_CONTROL_KSIM) $(BUILD)/stage3/ksim $(BUILD)/stage4/ksim $(S3_solutions_TESTS) $(S4_solutions_TESTS)
check-sanitizer-control: $(BUILD)/.deps-ok $(SAN_CONTROL_KSIM)
	@test -n "$(SAN)" || { echo "check-sanitizer-control: needs SAN=address|thread|undefined" >&2; exit 2; }
	@out=$$(KSIM="$(RUN_PREFIX) $(SAN_CONTROL_KSIM)" $(SAN_ENV) tests/lib/scenarios.sh tests/sanitizers/$(SAN).tsv); \
	  rc=$$?; printf '%s\n' "$$out"; \
	  echo "check-sanitizer-control SAN=$(SAN): $$(grep -c '^ok ' <<<"$$out") passed, $$(grep -c '^FAIL ' <<<"$$out") failed"; \
	  exit $$rc
