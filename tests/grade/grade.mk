# tests/grade/grade.mk - grading a course: make grade, the Gradescope bundle, and their tests.
# Included by the top-level Makefile, which defines BUILD, CC, CFLAGS, STAGES, HELP.

# What grading needs on a grading machine (a subset of DEB_PACKAGES: no
# book, no figures).  The Gradescope bundle's setup.sh installs the same.
GRADE_PACKAGES := gcc libc6-dev make check pkg-config valgrind libsubunit-dev
# What the tests of the grader need besides: real parsers for its formats
# (python3's json, xml and yaml, perl's TAP::Parser) and zip for the bundle.
GRADE_TEST_PACKAGES := python3 python3-yaml perl zip unzip

$(BUILD)/tools/gradefmt: tests/grade/gradefmt.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

# The objects every grading copy shares (tests/grade/grade.sh copies them in),
# and the student builds of this tree's exercises/, which the copy's make
# brings up to date with the submission's files.
.PHONY: grade-prebuild grade-prebuild-student
GRADE_PREBUILD := $(KERNEL_OBJ) $(SHELL_OBJ) $(TESTLIB_OBJ)
GRADE_PREBUILD_STUDENT := $(foreach n,$(STAGES),$(BUILD)/student/stage$(n)/ksim $(S$(n)_exercises_TESTS))
grade-prebuild: $(GRADE_PREBUILD)
grade-prebuild-student: $(GRADE_PREBUILD_STUDENT)

HELP += "grade            grade your exercises/ with the course's tests (STAGES=\"1 2\", SUBMISSION=DIR): build/grade/results.json, junit.xml, grade.tap"
.PHONY: grade
grade: $(BUILD)/tools/gradefmt
	@GRADE_PACKAGES="$(GRADE_PACKAGES)" GRADEFMT=$(abspath $(BUILD))/tools/gradefmt tests/grade/grade.sh \
	  --stages "$(STAGES)" --out $(BUILD)/grade $(if $(SUBMISSION),--submission $(SUBMISSION))

# ---------------------------------------------------------------- Gradescope
# build/gradescope/autograder.zip: the course's tree (without build/ and
# .git) with setup.sh and run_autograder at its root, as Gradescope wants.
GRADESCOPE_ZIP := $(BUILD)/gradescope/autograder.zip
HELP += "gradescope-bundle  build/gradescope/autograder.zip: this tree, setup.sh and run_autograder for a Gradescope assignment"
.PHONY: gradescope-bundle
gradescope-bundle: $(GRADESCOPE_ZIP)
$(GRADESCOPE_ZIP): $(wildcard $(shell git ls-files 2>/dev/null)) tests/grade/gradescope/run_autograder tests/grade/gradescope/setup.sh
	@code/tools/deps.sh zip
	@rm -rf $(BUILD)/gradescope && mkdir -p $(BUILD)/gradescope/bundle
	@tar --exclude=./build --exclude=./.git -cf - . | tar -C $(BUILD)/gradescope/bundle -xf -
	@sed 's/@GRADE_PACKAGES@/$(GRADE_PACKAGES)/' tests/grade/gradescope/setup.sh >$(BUILD)/gradescope/bundle/setup.sh
	@cp tests/grade/gradescope/run_autograder $(BUILD)/gradescope/bundle/run_autograder
	@chmod +x $(BUILD)/gradescope/bundle/setup.sh $(BUILD)/gradescope/bundle/run_autograder
	@cd $(BUILD)/gradescope/bundle && zip -qr ../autograder.zip .
	@echo "gradescope-bundle: $@ ($$(du -k $@ | cut -f1) KiB); upload it as the assignment's autograder"

# ---------------------------------------------------------------- tests of the grader
# make check grades stages 1 and 2 (the quick ones) with make grade;
# check-grade-full all four (about five minutes more).
HELP += "check-grade      the grader's own tests: make grade (stages 1, 2), the Gradescope layout, the Classroom step"
HELP += "check-grade-full the same with make grade on all four stages"
CHECK_TARGETS += check-grade
.PHONY: check-grade check-grade-full
# (The prebuilt objects are prerequisites here too, so that make check's
# build step makes them, not two of its checks at once.)
check-grade check-grade-full: $(BUILD)/.deps-ok $(BUILD)/tools/gradefmt $(GRADESCOPE_ZIP) \
		$(GRADE_PREBUILD) $(GRADE_PREBUILD_STUDENT)
	@code/tools/deps.sh $(GRADE_TEST_PACKAGES)
	@GRADE_PACKAGES="$(GRADE_PACKAGES)" GRADEFMT=$(abspath $(BUILD))/tools/gradefmt \
	  tests/grade/check-grade.sh $(BUILD)/grade-test $(GRADESCOPE_ZIP) "$(if $(filter %-full,$@),1 2 3 4,1 2)"
