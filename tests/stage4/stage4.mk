# tests/stage4/stage4.mk - stage 4's checks beyond its Check suites and tables:
# the stress test under the Valgrind tools, and the classic mistakes.

S4_STRESS := $(BUILD)/stage4/tests/test_stress

HELP += "check-stage4-stress-tools  the stage-4 stress test (stage 3's, with self-removing devices) under memcheck, helgrind and drd (0 errors)"
CHECK_TARGETS += check-stage4-stress-tools
.PHONY: check-stage4-stress-tools
check-stage4-stress-tools: $(BUILD)/.deps-ok $(BUILD)/stage4/ksim $(S4_STRESS)
ifeq ($(SAN),)
	@KSIM_DIR=$(BUILD)/stage4 tests/stage3/stress-tools.sh $(S4_STRESS) $(BUILD)/valgrind/stage4
else
	@echo "check-stage4-stress-tools: skipped with SAN=$(SAN) (a sanitizer build must not run under Valgrind)"
endif

HELP += "check-stage4-mistakes  each classic stage-4 mistake, patched in, is caught by its test"
CHECK_TARGETS += check-stage4-mistakes
.PHONY: check-stage4-mistakes
check-stage4-mistakes: $(BUILD)/.deps-ok $(BUILD)/stage4/ksim $(BUILD)/stage4/stage.a $(KERNEL_OBJ) \
		$(SHELL_OBJ) $(TESTLIB_OBJ) $(S4_solutions_TESTS)
	@CC="$(CC)" STAGE_CFLAGS="$(S4_solutions_CFLAGS)" STAGE_DIR=$(BUILD)/stage4 \
	  KERNEL_OBJ="$(KERNEL_OBJ)" SHELL_OBJ="$(SHELL_OBJ)" TESTLIB_OBJ="$(TESTLIB_OBJ)" \
	  LINK_FLAGS="$(LDFLAGS) $(LDLIBS)" CHECK_CFLAGS="$(CHECK_CFLAGS)" CHECK_LIBS="$(CHECK_LIBS)" \
	  tests/lib/mistakes.sh tests/stage4/mistakes.tsv $(BUILD)/mistakes/stage4
