# tests/stage3/stage3.mk - stage 3's checks beyond its Check suites and tables:
# the stress test under the Valgrind tools, and the classic mistakes.

S3_STRESS := $(BUILD)/stage3/tests/test_stress

HELP += "check-stage3-stress-tools  the stage-3 stress test under memcheck, helgrind and drd (0 errors)"
CHECK_TARGETS += check-stage3-stress-tools
.PHONY: check-stage3-stress-tools
check-stage3-stress-tools: $(BUILD)/.deps-ok $(BUILD)/stage3/ksim $(S3_STRESS)
ifeq ($(SAN),)
	@KSIM_DIR=$(BUILD)/stage3 tests/stage3/stress-tools.sh $(S3_STRESS) $(BUILD)/valgrind/stage3
else
	@echo "check-stage3-stress-tools: skipped with SAN=$(SAN) (a sanitizer build must not run under Valgrind)"
endif

HELP += "check-stage3-mistakes  each classic stage-3 mistake, patched in, is caught by its test"
CHECK_TARGETS += check-stage3-mistakes
.PHONY: check-stage3-mistakes
check-stage3-mistakes: $(BUILD)/.deps-ok $(BUILD)/stage3/ksim $(BUILD)/stage3/stage.a $(KERNEL_OBJ) \
		$(SHELL_OBJ) $(TESTLIB_OBJ) $(S3_solutions_TESTS)
	@CC="$(CC)" STAGE_CFLAGS="$(S3_solutions_CFLAGS)" STAGE_DIR=$(BUILD)/stage3 \
	  KERNEL_OBJ="$(KERNEL_OBJ)" SHELL_OBJ="$(SHELL_OBJ)" TESTLIB_OBJ="$(TESTLIB_OBJ)" \
	  LINK_FLAGS="$(LDFLAGS) $(LDLIBS)" CHECK_CFLAGS="$(CHECK_CFLAGS)" CHECK_LIBS="$(CHECK_LIBS)" \
	  tests/lib/mistakes.sh tests/stage3/mistakes.tsv $(BUILD)/mistakes/stage3
