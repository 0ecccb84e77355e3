/*
 * Labels of the tasks of a golden trace: processes "1", "1.2", "1.2.1"
 * (creation order among the processes each process made), threads "1/t1",
 * "1/t2.1" (creation order among the threads of their creator), orphans
 * "?1" (docs/golden.md).
 */
#ifndef RENACER_GOLDEN_LABEL_H
#define RENACER_GOLDEN_LABEL_H

/* Orders task labels "1" < "1.2" < "1.10" < "1/t1" < "?1" (numeric by
 * component); <0, 0 or >0 as strcmp. */
int gproc_label_cmp(const char *a, const char *b);

#endif
