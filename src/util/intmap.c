/* Integer map (see intmap.h). */
#include "util/intmap.h"
#include "util/xmalloc.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

static inline uint32_t slot_of(const struct intmap *m, uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(h >> 32) & (m->cap - 1);
}

uint64_t *intmap_get(const struct intmap *m, uint64_t key)
{
	if (!m->n || key == INTMAP_NOKEY)
		return NULL;
	for (uint32_t i = slot_of(m, key);; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key)
			return &m->vals[i];
		if (m->keys[i] == INTMAP_NOKEY)
			return NULL;
	}
}

static void grow(struct intmap *m)
{
	uint32_t oc = m->cap;
	uint64_t *ok = m->keys, *ov = m->vals;

	m->cap = oc ? oc * 2 : 16;
	m->keys = xreallocarray(NULL, m->cap, sizeof(*m->keys));
	m->vals = xreallocarray(NULL, m->cap, sizeof(*m->vals));
	memset(m->keys, 0xff, (size_t)m->cap * sizeof(*m->keys));
	for (uint32_t i = 0; i < oc; i++) {
		if (ok[i] == INTMAP_NOKEY)
			continue;
		uint32_t j = slot_of(m, ok[i]);
		while (m->keys[j] != INTMAP_NOKEY)
			j = (j + 1) & (m->cap - 1);
		m->keys[j] = ok[i];
		m->vals[j] = ov[i];
	}
	free(ok);
	free(ov);
}

uint64_t *intmap_put(struct intmap *m, uint64_t key, bool *added)
{
	uint32_t i;

	if ((uint64_t)(m->n + 1) * 4 > (uint64_t)m->cap * 3)
		grow(m);
	for (i = slot_of(m, key); m->keys[i] != INTMAP_NOKEY; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			if (added)
				*added = false;
			return &m->vals[i];
		}
	m->keys[i] = key;
	m->vals[i] = 0;
	m->n++;
	if (added)
		*added = true;
	return &m->vals[i];
}

bool intmap_del(struct intmap *m, uint64_t key)
{
	uint32_t i, j, mask;

	if (!m->n || key == INTMAP_NOKEY)
		return false;
	mask = m->cap - 1;
	for (i = slot_of(m, key); m->keys[i] != key; i = (i + 1) & mask)
		if (m->keys[i] == INTMAP_NOKEY)
			return false;
	/* backward shift: move up every later key of the run whose home slot
	 * does not lie between the hole and itself */
	for (j = (i + 1) & mask; m->keys[j] != INTMAP_NOKEY; j = (j + 1) & mask) {
		uint32_t home = slot_of(m, m->keys[j]);
		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			i = j;
		}
	}
	m->keys[i] = INTMAP_NOKEY;
	m->n--;
	return true;
}

uint32_t intmap_del_if(struct intmap *m, bool (*match)(uint64_t key, uint64_t val, void *arg),
		       void *arg)
{
	uint32_t removed = 0;

	/* intmap_del() shifts a later key of the run into the freed slot, so
	 * look at slot i again after a removal; a key shifted there from the
	 * start of a run that wraps around was kept before and is kept again */
	for (uint32_t i = 0; i < m->cap;) {
		if (m->keys[i] != INTMAP_NOKEY && match(m->keys[i], m->vals[i], arg)) {
			intmap_del(m, m->keys[i]);
			removed++;
		} else {
			i++;
		}
	}
	return removed;
}

bool intmap_next(const struct intmap *m, uint32_t *i, uint64_t *key, uint64_t *val)
{
	for (; *i < m->cap; (*i)++)
		if (m->keys[*i] != INTMAP_NOKEY) {
			if (key)
				*key = m->keys[*i];
			if (val)
				*val = m->vals[*i];
			(*i)++;
			return true;
		}
	return false;
}

void intmap_clear(struct intmap *m)
{
	if (m->cap)
		memset(m->keys, 0xff, (size_t)m->cap * sizeof(*m->keys));
	m->n = 0;
}

void intmap_release(struct intmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
