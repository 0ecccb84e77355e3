/* Fan-out of events to sinks (see sink.h). */
#include "sink/sink.h"
#include "track/track.h"
#include "util/xmalloc.h"

#include <stdlib.h>

void sink_list_add(struct sink_list *l, struct sink *s)
{
	ALLOC_GROW(l->items, l->n + 1, l->alloc);
	l->items[l->n++] = s;
	if (s->ops->wants_entry)
		l->wants_entry = 1;
	if (!s->ops->no_args)
		l->needs_args = 1;
	if (!s->ops->totals)
		l->records++;
	if (s->ops->needs_track) {
		l->needs_args = 1;
		if (!l->track)
			l->track = tracker_new();
	}
}

int sink_list_begin(struct sink_list *l, const struct trace_info *ti)
{
	int ret = 0;
	if (l->track)
		tracker_begin(l->track, ti);
	for (size_t i = 0; i < l->n; i++)
		if (l->items[i]->ops->begin && l->items[i]->ops->begin(l->items[i], ti) < 0)
			ret = -1;
	return ret;
}

void sink_list_event(struct sink_list *l, struct event *ev)
{
	if (l->track)
		tracker_event(l->track, ev);
	for (size_t i = 0; i < l->n; i++) {
		struct sink *s = l->items[i];
		if (ev->type == EV_PROC_EXIT) {
			if (s->ops->proc_exit)
				s->ops->proc_exit(s, ev);
			continue;
		}
		if (ev->type == EV_SYSCALL_ENTRY && !s->ops->wants_entry)
			continue;
		if (s->ops->event)
			s->ops->event(s, ev);
	}
	if (l->track)
		tracker_after(l->track);
}

int sink_list_end(struct sink_list *l, const struct trace_end *te)
{
	int ret = 0;
	for (size_t i = 0; i < l->n; i++)
		if (l->items[i]->ops->end && l->items[i]->ops->end(l->items[i], te) < 0)
			ret = -1;
	return ret;
}

void sink_list_totals(struct sink_list *l, const struct trace_totals *tt)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->items[i]->ops->totals)
			l->items[i]->ops->totals(l->items[i], tt);
}

void sink_list_release(struct sink_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->items[i]->ops->free)
			l->items[i]->ops->free(l->items[i]);
	free(l->items);
	tracker_free(l->track);
	l->track = NULL;
	l->items = NULL;
	l->n = l->alloc = 0;
	l->wants_entry = 0;
	l->needs_args = 0;
	l->records = 0;
}
