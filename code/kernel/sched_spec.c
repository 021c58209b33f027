/* sched_spec.c - strategies as text: "random", "pct:D", "replay:0x3,1" parsed, a run's log formatted. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scheduler.h"

static int parse_replay(const char *p, struct sched_strategy *s, char *err, size_t errlen)
{
	size_t cap = 64;
	int8_t *d = malloc(cap);

	s->nforced = 0;
	while (d && *p) {
		char *end;
		long slot = strtol(p, &end, 10), count = 1;

		if (end == p || slot < 0 || slot >= SCHED_MAX_TASKS)
			goto bad;
		p = end;
		if (*p == 'x') {
			count = strtol(p + 1, &end, 10);
			if (end == p + 1 || count <= 0 || count > SCHED_LOG_MAX)
				goto bad;
			p = end;
		}
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
		while (count--) {
			if (s->nforced == cap)
				d = realloc(d, cap *= 2);
			if (!d)
				break;
			d[s->nforced++] = (int8_t)slot;
		}
	}
	if (!d)
		abort();
	s->forced = d;
	return 0;
bad:
	free(d);
	snprintf(err, errlen, "bad schedule at '%.20s': want SLOTxCOUNT,SLOTxCOUNT,... (slots 0-%d)", p,
		 SCHED_MAX_TASKS - 1);
	return -EINVAL;
}

int sched_parse(const char *spec, unsigned long seed, struct sched_strategy *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	if (strcmp(spec, "random") == 0) {
		s->kind = SCHED_RANDOM;
	} else if (strcmp(spec, "nonpreemptive") == 0) {
		s->kind = SCHED_NONPREEMPTIVE;
	} else if (strncmp(spec, "pct:", 4) == 0) {
		char *end;

		s->kind = SCHED_PCT;
		s->depth = (int)strtol(spec + 4, &end, 10);
		if (end == spec + 4 || *end || s->depth < 1 || s->depth > SCHED_MAX_DEPTH) {
			snprintf(err, errlen, "pct:D wants a depth D from 1 to %d", SCHED_MAX_DEPTH);
			return -EINVAL;
		}
	} else if (strncmp(spec, "replay:", 7) == 0) {
		s->kind = SCHED_REPLAY;
		return parse_replay(spec + 7, s, err, errlen);
	} else {
		snprintf(err, errlen, "unknown strategy '%s' (random, pct:D, nonpreemptive, replay:SCHEDULE)", spec);
		return -EINVAL;
	}
	return 0;
}

void sched_strategy_free(struct sched_strategy *s)
{
	free((void *)s->forced);
	s->forced = NULL;
}

char *sched_format(const struct sched_log *log, unsigned long n, char *buf, size_t len)
{
	size_t used = snprintf(buf, len, "replay:");

	if (n > log->ndecisions)
		n = log->ndecisions;
	if (n > SCHED_LOG_MAX)
		n = SCHED_LOG_MAX;
	for (unsigned long i = 0; i < n && used < len;) {
		unsigned long j = i;

		while (j < n && log->d[j].chosen == log->d[i].chosen)
			j++;
		used += snprintf(buf + used, len - used, "%s%d", i ? "," : "", log->d[i].chosen);
		if (j - i > 1 && used < len)
			used += snprintf(buf + used, len - used, "x%lu", j - i);
		i = j;
	}
	return buf;
}
