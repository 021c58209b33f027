/* test_explore.c - stage 1 under schedules nobody scripted: its use-after-free must be found (the test is stage 1's and 2's alike). */
#include "naive_explore_test.h"
