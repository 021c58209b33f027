# figures.mk - figures/: the book's Graphviz figures, drawn from traced scenario runs.
# Included by the top-level Makefile, which defines BUILD, SAN, HELP, CHECK_TARGETS.
#
# figures/figures.list names each figure (NAME STAGE SCENARIO [trace2dot options]);
# code/tools/mkfigures.sh runs the scenarios with --trace and writes NAME.dot
# and NAME.svg.  Both are committed, so a reader without Graphviz still sees
# the pictures, and check-figures fails when they no longer match the code.
# figures/bench-* are make bench's (code/bench/bench.mk): measured, not
# drawn from traces, so neither target touches or compares them.
# Figures come from the plain reference build only: a sanitizer build prints
# its own reports instead of the simulated kernel's, so its traces differ.

FIG_LIST := figures/figures.list
FIG_STAGES := $(sort $(shell sed 's/\#.*//' $(FIG_LIST) 2>/dev/null | awk 'NF >= 4 { print $$2 }'))
# A figure may come from the schedule explorer (SCENARIO explore:MISTAKE:HARNESS:SCHEDULE).
FIG_EXPLORERS := $(sort $(shell sed 's/\#.*//' $(FIG_LIST) 2>/dev/null | \
	awk 'NF >= 4 && $$3 ~ /^explore:/ { split($$3, e, ":"); \
	  print (e[2] == "-" ? "build/stage" $$2 "/tests/test_explore" : "build/mistake/stage" $$2 "/" e[2] "/test_explore") }'))
FIG_DEPS := build/.deps-ok build/tools/trace2dot $(foreach n,$(FIG_STAGES),build/stage$(n)/ksim) $(FIG_EXPLORERS)
MKFIGURES := BUILD=build code/tools/mkfigures.sh $(FIG_LIST)

HELP += "figures          redraw figures/ (DOT and SVG) from traced runs of the scenarios; commit them"
HELP += "check-figures    fail if figures/ is stale (CI runs it)"
.PHONY: figures check-figures

ifeq ($(SAN),)
figures: $(FIG_DEPS)
	@rm -rf build/figures-new
	@$(MKFIGURES) build/figures-new build/figures-traces
	@# Rewrite only what changed, and drop figures the list no longer names.
	@for f in build/figures-new/*; do \
	  cmp -s "$$f" "figures/$${f##*/}" || { cp "$$f" figures/ && echo "  FIG     figures/$${f##*/}"; }; done
	@for f in figures/*.dot figures/*.svg; do \
	  case $${f##*/} in bench-*) continue ;; esac; \
	  [ ! -e "$$f" ] || [ -e "build/figures-new/$${f##*/}" ] || { rm "$$f" && echo "  RM      $$f"; }; done
	@echo "figures/ is up to date ($$(ls build/figures-new/*.svg | wc -l) figures)"

CHECK_TARGETS += check-figures
check-figures: $(FIG_DEPS)
	@rm -rf build/figures-fresh
	@$(MKFIGURES) build/figures-fresh build/figures-fresh-traces
	@diff -r -q -x figures.list -x figures.mk -x "bench-*" figures build/figures-fresh >/dev/null || { \
	  diff -r -q -x figures.list -x figures.mk -x "bench-*" figures build/figures-fresh | head -20; \
	  echo "check-figures: figures/ is stale: run make figures and commit" >&2; exit 1; }
	@echo "check-figures: figures/ matches the scenarios ($$(ls build/figures-fresh/*.svg | wc -l) figures)"
else
figures check-figures:
	@echo "$@: figures come from the plain build; run it without SAN=" >&2; exit 2
endif
