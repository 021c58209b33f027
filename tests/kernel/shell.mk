# tests/kernel/shell.mk: the scenario runner (code/shell/), run as a subprocess of the
# suite on the scripts in tests/kernel/scripts/, against the demo stage (build/stage0/).
# (It links ktest.o and ksim_run.o alone: the explorer's objects need the simulated kernel, which this suite runs as a subprocess.)
KTEST_SHELL := $(BUILD)/tests/kernel/test_shell
$(KTEST_SHELL): tests/kernel/test_shell.c $(filter-out $(BUILD)/tests/lib/explore%,$(TESTLIB_OBJ)) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(filter-out $(BUILD)/tests/lib/explore%,$(TESTLIB_OBJ)) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-shell  the scenario runner: script checking, commands, jobs, expect, exit statuses"
CHECK_TARGETS += check-kernel-shell
.PHONY: check-kernel-shell
check-kernel-shell: $(BUILD)/.deps-ok $(KTEST_SHELL) $(BUILD)/stage0/ksim $(DEMO_MODS)
	$(Q)KSIM="$(RUN_PREFIX) $(BUILD)/stage0/ksim" $(SAN_ENV) tests/lib/runtests.sh check-kernel-shell $(KTEST_SHELL)
