/* Reading a saved trace into a finalized golden model (see model.h). */
#include "golden/model.h"
#include "golden/machine.h"

#include <jansson.h>
#include "replay/reader.h"
#include "util/error.h"
#include "util/xmalloc.h"

#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

int gmodel_load(const char *path, const struct golden_opts *o, struct gmodel **out,
		int *missing)
{
	struct sink_list sl = SINK_LIST_INIT;
	struct trace_meta meta;
	struct gmodel *m = gmodel_new(o);
	int ret;

	*out = NULL;
	sink_list_add(&sl, gmodel_sink(m));
	{
		struct trace_limits lim = { o ? o->string_bytes : 0, o ? o->trace_records : 0 };
		ret = trace_read_limited(path, &sl, &meta, missing, &lim);
	}
	sink_list_release(&sl);
	if (ret < 0) {
		gmodel_free(m);
		return -1;
	}
	if (gtiming_from_json(&m->timing, meta.timing, path) < 0) {
		trace_meta_release(&meta);
		gmodel_free(m);
		return -1;
	}
	if (meta.timing)
		gmachine_from_json(&m->machine, json_object_get(meta.timing, "machine"));
	if (meta.command && !m->command)
		m->command = xstrdup(meta.command);
	if (!m->wall_ns)
		m->wall_ns = meta.wall_ns;
	trace_meta_release(&meta);
	gmodel_finalize(m, m->timing.has_ctx ? &m->timing.ctx : NULL);
	*out = m;
	return 0;
}
