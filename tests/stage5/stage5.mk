# tests/stage5/stage5.mk - stage 5's extra checks.
