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

# No scenario orders its tasks with a sleep (tests/lib/check-no-sleep.sh): the
# scripts that run (the scenarios, make real-kernel's ksim side, the shell's
# own), then a made-up script with one, which it must refuse, naming the line.
HELP += "check-no-sleep   no scenario script orders its tasks with a sleep (await a delay point, or settle, instead)"
CHECK_TARGETS += check-no-sleep
.PHONY: check-no-sleep
check-no-sleep:
	$(Q)tests/lib/check-no-sleep.sh $(wildcard code/scenarios/*.ksh code/realkernel/scenarios/*.ksh tests/kernel/scripts/*.ksim) \
	  && echo "check-no-sleep: no sleep orders a scenario's tasks"
	$(Q)t=$$(mktemp) && printf 'cat /sys/x &\nsleep 50ms\nunplug x\n' >"$$t" && \
	  out=$$(tests/lib/check-no-sleep.sh "$$t"); rc=$$?; rm -f "$$t"; \
	  case "$$rc:$$out" in 1:*:2:1:\ a\ sleep\ orders*) ;; *) echo "check-no-sleep: a script with a sleep got through ($$rc): $$out"; exit 1 ;; esac
