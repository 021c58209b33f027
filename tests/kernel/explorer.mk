# tests/kernel/explorer.mk: the schedule explorer's own promises (bounds, shrinking, replay), on toy bugs.
KTEST_EXPLORER := $(BUILD)/tests/kernel/test_explorer
$(KTEST_EXPLORER): tests/kernel/test_explorer.c $(KERNEL_OBJ) $(TESTLIB_OBJ) $(wildcard tests/lib/*.h)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/lib $(CHECK_CFLAGS) -o $@ $< $(KERNEL_OBJ) $(TESTLIB_OBJ) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

HELP += "check-kernel-explorer  the explorer's promises: dfs:P finds exactly what P preemptions reach, PCT within its bound, shrinking, replay"
CHECK_TARGETS += check-kernel-explorer
.PHONY: check-kernel-explorer
check-kernel-explorer: $(BUILD)/.deps-ok $(KTEST_EXPLORER)
	$(Q)tests/lib/runtests.sh check-kernel-explorer $(KTEST_EXPLORER)
