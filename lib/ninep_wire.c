/* 9P2000.L fields on the wire: little-endian integers, len[2] strings,
 * qids, and the check of a reply's header (lib/ninep_wire.h).
 *
 * Integers are assembled byte by byte rather than through a cast pointer:
 * fields in a message are not aligned, and the code does not depend on
 * the CPU's byte order. */
#include "lib/ninep_wire.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Room for n more bytes? If not, the message is marked full and nothing
 * more is written, so a later small field cannot land after a gap. */
static uint8_t *out_room(struct p9_out *o, size_t n)
{
	uint8_t *at;

	if (o->full || n > o->cap - o->len) {
		o->full = true;
		return NULL;
	}
	at = o->data + o->len;
	o->len += n;
	return at;
}

static void put_le(struct p9_out *o, uint64_t v, size_t n)
{
	uint8_t *at = out_room(o, n);

	for (size_t i = 0; at && i < n; i++)
		at[i] = (uint8_t)(v >> (8 * i));
}

void p9_put_u8(struct p9_out *o, uint8_t v)   { put_le(o, v, 1); }
void p9_put_u16(struct p9_out *o, uint16_t v) { put_le(o, v, 2); }
void p9_put_u32(struct p9_out *o, uint32_t v) { put_le(o, v, 4); }
void p9_put_u64(struct p9_out *o, uint64_t v) { put_le(o, v, 8); }

void p9_put_bytes(struct p9_out *o, const void *data, size_t len)
{
	uint8_t *at = out_room(o, len);

	if (at && len)
		memcpy(at, data, len);
}

void p9_put_str(struct p9_out *o, const char *s)
{
	size_t len = strlen(s);

	if (len > UINT16_MAX) {
		o->full = true;
		return;
	}
	p9_put_u16(o, (uint16_t)len);
	p9_put_bytes(o, s, len);
}

void p9_out_begin(struct p9_out *o, void *buf, size_t cap, uint8_t type, uint16_t tag)
{
	o->data = buf;
	o->cap = cap;
	o->len = 0;
	o->full = false;
	p9_put_u32(o, 0);
	p9_put_u8(o, type);
	p9_put_u16(o, tag);
}

int p9_out_finish(struct p9_out *o)
{
	if (o->full || o->len > UINT32_MAX)
		return -E2BIG;
	for (size_t i = 0; i < 4; i++)
		o->data[i] = (uint8_t)(o->len >> (8 * i));
	return (int)o->len;
}

void p9_in_start(struct p9_in *in, const void *data, size_t len)
{
	in->p = data;
	in->left = len;
	in->bad = false;
}

const uint8_t *p9_get_bytes(struct p9_in *in, size_t len)
{
	const uint8_t *at = in->p;

	if (in->bad || len > in->left) {
		in->bad = true;
		return NULL;
	}
	in->p += len;
	in->left -= len;
	return at;
}

static uint64_t get_le(struct p9_in *in, size_t n)
{
	const uint8_t *at = p9_get_bytes(in, n);
	uint64_t v = 0;

	for (size_t i = 0; at && i < n; i++)
		v |= (uint64_t)at[i] << (8 * i);
	return v;
}

uint8_t p9_get_u8(struct p9_in *in)   { return (uint8_t)get_le(in, 1); }
uint16_t p9_get_u16(struct p9_in *in) { return (uint16_t)get_le(in, 2); }
uint32_t p9_get_u32(struct p9_in *in) { return (uint32_t)get_le(in, 4); }
uint64_t p9_get_u64(struct p9_in *in) { return get_le(in, 8); }

void p9_get_str(struct p9_in *in, struct p9_str *s)
{
	s->len = p9_get_u16(in);
	s->s = (const char *)p9_get_bytes(in, s->len);
	if (!s->s)
		s->len = 0;
}

void p9_get_qid(struct p9_in *in, struct p9_qid *q)
{
	q->type = p9_get_u8(in);
	q->version = p9_get_u32(in);
	q->path = p9_get_u64(in);
}

int p9_in_done(const struct p9_in *in, const char **why)
{
	if (in->bad) {
		*why = "reply ends inside a field";
		return -EPROTO;
	}
	if (in->left) {
		*why = "reply has bytes after its last field";
		return -EPROTO;
	}
	return 0;
}

int p9_errno(uint32_t ecode)
{
	if (ecode <= INT32_MAX && errno_known((int)ecode))
		return -(int)ecode;
	return -EIO;
}

/* An Rlerror is ecode[4] and nothing more. */
static int lerror(struct p9_in *in, const char **why)
{
	uint32_t ecode = p9_get_u32(in);
	int err = p9_in_done(in, why);

	if (err)
		return err;
	*why = "server refused the request";
	return p9_errno(ecode);
}

int p9_check_reply(struct p9_in *in, const void *reply, size_t len, uint16_t tag,
		   uint8_t want, const char **why)
{
	uint32_t size;
	uint8_t type;
	uint16_t got_tag;

	p9_in_start(in, reply, len);
	size = p9_get_u32(in);
	type = p9_get_u8(in);
	got_tag = p9_get_u16(in);
	if (in->bad) {
		*why = "reply shorter than its header";
		return -EPROTO;
	}
	if (size != len) {
		*why = "reply size field differs from bytes received";
		return -EPROTO;
	}
	if (got_tag != tag) {
		*why = "reply tag is not the request's";
		return -EPROTO;
	}
	if (type == P9_RLERROR)
		return lerror(in, why);
	if (type != want) {
		*why = "unexpected reply type";
		return -EPROTO;
	}
	return 0;
}
