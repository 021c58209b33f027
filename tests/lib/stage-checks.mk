# tests/lib/stage-checks.mk - the checks a stage has beyond its Check suites
# and tables: its stress test under the Valgrind tools, its classic mistakes
# (each caught by its test) and its correct variants (each passing the whole
# check).  tests/stageN/stageN.mk calls
#	$(eval $(call STAGE_EXTRA_CHECKS,N))
# for a stage that has tests/stageN/test_stress.c and tests/stageN/mistakes.tsv,
#	$(eval $(call STAGE_MISTAKES,N))
# for one with tests/stageN/mistakes.tsv only, and
#	$(eval $(call STAGE_VARIANTS,N))
# for one with tests/stageN/variants.tsv.

# mistake_env(N) - how the reference stage N was built, as patched.sh and mistake-build.sh take it.
mistake_env = CC="$(CC)" STAGE_CFLAGS="$(S$(1)_solutions_CFLAGS)" STAGE_DIR=$(BUILD)/stage$(1) \
	KERNEL_OBJ="$(KERNEL_OBJ)" SHELL_OBJ="$(SHELL_OBJ)" TESTLIB_OBJ="$(TESTLIB_OBJ)" \
	LINK_FLAGS="$(LDFLAGS) $(LDLIBS)" CHECK_CFLAGS="$(CHECK_CFLAGS)" CHECK_LIBS="$(CHECK_LIBS)"

define STAGE_EXTRA_CHECKS
S$(1)_STRESS := $(BUILD)/stage$(1)/tests/test_stress

HELP += "check-stage$(1)-stress-tools  the stage-$(1) stress test under memcheck, helgrind and drd (0 errors)"
CHECK_TARGETS += check-stage$(1)-stress-tools
.PHONY: check-stage$(1)-stress-tools
check-stage$(1)-stress-tools: $(BUILD)/.deps-ok $(BUILD)/stage$(1)/ksim $$(S$(1)_STRESS)
ifeq ($(SAN),)
	$(Q)KSIM_DIR=$(BUILD)/stage$(1) tests/stage3/stress-tools.sh $$(S$(1)_STRESS) $(BUILD)/valgrind/stage$(1)
else
	@echo "check-stage$(1)-stress-tools: skipped with SAN=$(SAN) (a sanitizer build must not run under Valgrind)"
endif
$$(eval $$(call STAGE_MISTAKES,$(1)))
endef

define STAGE_MISTAKES

HELP += "check-stage$(1)-mistakes  each classic stage-$(1) mistake, patched in, is caught by its test"
CHECK_TARGETS += check-stage$(1)-mistakes
.PHONY: check-stage$(1)-mistakes
check-stage$(1)-mistakes: $(BUILD)/.deps-ok $(BUILD)/stage$(1)/ksim $(BUILD)/stage$(1)/stage.a $(KERNEL_OBJ) \
		$(SHELL_OBJ) $(TESTLIB_OBJ) $$(S$(1)_solutions_TESTS)
	$(Q)$$(call mistake_env,$(1)) tests/lib/patched.sh fail tests/stage$(1)/mistakes.tsv $(BUILD)/mistakes/stage$(1)

# One mistake's explorer, built alone (the book shows one finding its race).
$(BUILD)/mistake/stage$(1)/%/test_explore: tests/stage$(1)/mistakes/%.patch tests/stage$(1)/test_explore.c \
		$(BUILD)/stage$(1)/ksim $(BUILD)/stage$(1)/stage.a $(KERNEL_OBJ) $(SHELL_OBJ) $(TESTLIB_OBJ)
	$(Q)$$(call mistake_env,$(1)) tests/lib/mistake-build.sh $$< test_explore $$(@D)
	@echo "  MISTAKE $$@"
endef

define STAGE_VARIANTS
HELP += "check-stage$(1)-variants  each correct stage-$(1) variant (another order, no delay point...), patched in, passes the whole check"
CHECK_TARGETS += check-stage$(1)-variants
.PHONY: check-stage$(1)-variants
check-stage$(1)-variants: $(BUILD)/.deps-ok $(BUILD)/stage$(1)/ksim $(BUILD)/stage$(1)/stage.a $(KERNEL_OBJ) \
		$(SHELL_OBJ) $(TESTLIB_OBJ) $$(S$(1)_solutions_TESTS)
	$(Q)$$(call mistake_env,$(1)) tests/lib/patched.sh pass tests/stage$(1)/variants.tsv $(BUILD)/variants/stage$(1)
endef
