# tests/sanitizers/sanitizers.mk - the stages' references under ASan, TSan and UBSan.
#
# Every stage must be clean under ASan and UBSan, stages 3 and 4 under all three: each whole suite (every scenario,
# the stress test, the unit tests) passes in each build, and a sanitizer's
# report ends the run it is in with status 3, which fails that test.  Zero
# reports prove little from a build that cannot report, so each build first
# runs a control: a known bug it must catch (tests/sanitizers/SAN.tsv).
SANITIZERS := address thread undefined
# make check's builds: ThreadSanitizer alone (it cannot be combined with
# ASan), ASan and UBSan in one build, as is usual: one build and one run
# fewer, and each control below still proves that its sanitizer reports.
SAN_CHECKS := thread address+undefined
HELP += "check-sanitizers  every stage under ASan and UBSan, stages 3 and 4 under TSan, 0 reports; each build first catches a known bug"
HELP += "check-san-SAN    the same under one build: thread, address+undefined (make check runs these two), address, undefined"
CHECK_TARGETS += $(addprefix check-san-,$(SAN_CHECKS))
.PHONY: check-sanitizers check-sanitizer-control check-sanitizer-build check-sanitizer-mistakes $(addprefix check-san-,$(SANITIZERS) $(SAN_CHECKS))
check-sanitizers: $(BUILD)/.deps-ok
	$(Q)fail=0; for s in $(SAN_CHECKS); do $(MAKE) --no-print-directory check-san-$$s || fail=1; done; exit $$fail

# One sanitizer's build first, in parallel (-j unless make -jN's job slots
# are there to share), then its control and the two stages' suites.
define CHECK_SAN
check-san-$(1): $(BUILD)/.deps-ok
	$(Q)$$(MAKE) --no-print-directory SAN=$(1) $$(if $$(filter -j%,$$(MAKEFLAGS)),,-j$$(shell nproc 2>/dev/null || echo 1)) \
	  check-sanitizer-build || { echo "check-san-$(1): the SAN=$(1) build failed: 0 passed, 1 failed"; exit 1; }
	$(Q)fail=0; \
	  $$(MAKE) --no-print-directory SAN=$(1) check-sanitizer-control || fail=1; \
	  $$(MAKE) --no-print-directory SAN=$(1) check-sanitizer-mistakes || fail=1; \
	  $(foreach n,$(call san_stages,$(1)),$$(MAKE) --no-print-directory SAN=$(1) SOLUTIONS=1 check-stage$(n) || fail=1;) \
	  exit $$$$fail
endef
# Which stages' references each build grades: ASan and UBSan every stage
# (stages 1, 2 and 5 expect use-after-free reports, which ASan gives in the
# slab's place: tests/lib/scenarios.sh); ThreadSanitizer stages 3 and 4,
# whose stress tests run threads at once (stages 1 and 2 pass it too, graded
# under the controlled scheduler, but add a minute to make check for it).
san_stages = $(if $(filter thread,$(subst +, ,$(1))),3 4,$(STAGES))
$(foreach s,$(SANITIZERS) address+undefined,$(eval $(call CHECK_SAN,$(s))))

# The control of each sanitizer of the build SAN= selects: stage 1's
# use-after-free for ASan and TSan, a signed overflow in a demo store
# (stage 0) for UBSan; a combined build runs each of its sanitizers' controls.
san_control_ksim = $(BUILD)/$(if $(filter undefined,$(1)),stage0,stage1)/ksim
SAN_CONTROL_KSIM := $(sort $(foreach z,$(SAN_LIST),$(call san_control_ksim,$(z))))
check-sanitizer-build: $(SAN_CONTROL_KSIM) $(foreach n,$(call san_stages,$(SAN)),$(BUILD)/stage$(n)/ksim $(S$(n)_solutions_TESTS))
check-sanitizer-control: $(BUILD)/.deps-ok $(SAN_CONTROL_KSIM)
	$(Q)test -n "$(SAN)" || { echo "check-sanitizer-control: needs SAN=address|thread|undefined" >&2; exit 2; }
	$(Q)out=$$(rc=0; $(foreach z,$(SAN_LIST),KSIM="$(RUN_PREFIX) $(call san_control_ksim,$(z))" $(SAN_ENV) \
	    tests/lib/scenarios.sh tests/sanitizers/$(z).tsv || rc=1;) exit $$rc); \
	  rc=$$?; printf '%s\n' "$$out"; \
	  echo "check-sanitizer-control SAN=$(SAN): $$(grep -c '^ok ' <<<"$$out") passed, $$(grep -c '^FAIL ' <<<"$$out") failed"; \
	  exit $$rc

# The mistakes only a sanitizer can see (tests/sanitizers/SAN-mistakes.tsv: a put
# with relaxed ordering, for ThreadSanitizer), patched into stage 4's
# reference, each failing its test in this build.
SAN_MISTAKE_TSVS := $(wildcard $(patsubst %,tests/sanitizers/%-mistakes.tsv,$(SAN_LIST)))
check-sanitizer-mistakes: $(BUILD)/.deps-ok $(BUILD)/stage4/ksim $(BUILD)/stage4/stage.a $(KERNEL_OBJ) \
		$(SHELL_OBJ) $(TESTLIB_OBJ) $(S4_solutions_TESTS)
	$(Q)rc=0; $(foreach t,$(SAN_MISTAKE_TSVS),$(call mistake_env,4) MISTAKE_RUN_PREFIX="$(RUN_PREFIX)" $(SAN_ENV) \
	  tests/lib/patched.sh fail $(t) $(BUILD)/mistakes/$(basename $(notdir $(t))) || rc=1;) exit $$rc
