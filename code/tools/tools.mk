# tools.mk - trace2dot (trace -> Graphviz), tracegen (synthetic traces), their tests.
# Included by the top-level Makefile, which defines BUILD, CC, CFLAGS, CHECK_*.

T2D_SRCS := $(addprefix code/tools/,strtab.c tracefile.c refgraph.c dot_escape.c \
	dot_ref.c dot_life.c trace2dot.c)
T2D_HDRS := $(wildcard code/tools/*.h) code/kernel/trace.h code/kernel/kernel.h

$(BUILD)/tools/trace2dot: $(T2D_SRCS) $(T2D_HDRS)
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(T2D_SRCS)

$(BUILD)/tools/tracegen: code/tools/tracegen.c
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

$(BUILD)/tools/check_trace2dot: tests/tools/check_trace2dot.c | $(BUILD)/.deps-ok
	$(Q)mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(CHECK_LIBS)

# The tests run the built programs, so they get their paths, not a rebuild.
.PHONY: check-tools
check-tools: $(BUILD)/.deps-ok $(BUILD)/tools/trace2dot $(BUILD)/tools/tracegen \
		$(BUILD)/tools/check_trace2dot
	$(Q)TRACE2DOT=$(BUILD)/tools/trace2dot TRACEGEN=$(BUILD)/tools/tracegen \
	TRACE_DIR=tests/tools/traces TMPDIR=$(abspath $(BUILD))/tools \
	$(BUILD)/tools/check_trace2dot

# Not part of check: a million events, timed, and the collapsed figure rendered.
# bash for its time keyword: make's /bin/sh may have none.
T2D_BENCH := $(BUILD)/tools/bench-1m.trace
T2D_STRESS := $(BUILD)/tools/bench-stress.trace
T2D_TIME := bash -c 'time "$$@"' time
.PHONY: bench-trace2dot
bench-trace2dot: $(BUILD)/.deps-ok $(BUILD)/tools/trace2dot $(BUILD)/tools/tracegen $(BUILD)/stage3/tests/test_stress
	$(BUILD)/tools/tracegen -n 1000000 -o $(T2D_BENCH)
	$(Q)ls -l $(T2D_BENCH)
	@echo "== reference graph (collapsed) =="
	$(T2D_TIME) $(BUILD)/tools/trace2dot -o $(BUILD)/tools/bench-ref.dot $(T2D_BENCH)
	$(T2D_TIME) dot -Tsvg -o $(BUILD)/tools/bench-ref.svg $(BUILD)/tools/bench-ref.dot
	@echo "== lifelines (most eventful objects) =="
	$(T2D_TIME) $(BUILD)/tools/trace2dot --lifelines -o $(BUILD)/tools/bench-life.dot $(T2D_BENCH)
	$(T2D_TIME) neato -n2 -Tsvg -o $(BUILD)/tools/bench-life.svg $(BUILD)/tools/bench-life.dot
	@echo "== a real trace: stage 3's stress test traced for 12 s (over 1,000,000 events) =="
	KSIM_STRESS_TRACE=$(T2D_STRESS) KSIM_STRESS_MS=12000 KSIM_DIR=$(BUILD)/stage3 $(BUILD)/stage3/tests/test_stress
	@echo "$$(($$(wc -l < $(T2D_STRESS)) - 1)) events in $(T2D_STRESS)"
	$(T2D_TIME) $(BUILD)/tools/trace2dot -o $(BUILD)/tools/bench-stress-ref.dot $(T2D_STRESS)
	$(T2D_TIME) $(BUILD)/tools/trace2dot --at 500000 -o $(BUILD)/tools/bench-stress-mid.dot $(T2D_STRESS)
	$(T2D_TIME) dot -Tsvg -o $(BUILD)/tools/bench-stress-mid.svg $(BUILD)/tools/bench-stress-mid.dot
	$(T2D_TIME) $(BUILD)/tools/trace2dot --lifelines -o $(BUILD)/tools/bench-stress-life.dot $(T2D_STRESS)
	$(T2D_TIME) neato -n2 -Tsvg -o $(BUILD)/tools/bench-stress-life.svg $(BUILD)/tools/bench-stress-life.dot

CHECK_TARGETS += check-tools
HELP += "check-tools      trace2dot's tests"
HELP += "bench-trace2dot  time trace2dot on 1,000,000 events: a synthetic trace and a traced stress run"

# check-citations - no tracked file cites a note outside the repository.
CHECK_TARGETS += check-citations
HELP += "check-citations  no comment, test, script or page cites a file outside the repository"
.PHONY: check-citations
check-citations:
	$(Q)code/tools/check-citations.sh
