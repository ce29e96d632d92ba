/* 9P2000.L on the wire: the fixed-size fields, strings and qids that every
 * message is made of, and the check of a reply's header.
 *
 * All fields are little-endian. A message is size[4] type[1] tag[2]
 * followed by its body; size counts the whole message, itself included.
 * A string is len[2] and that many bytes, without a NUL.
 *
 * The reader and the writer are sticky: a field that does not fit marks
 * the buffer bad and reads as zero, so a decoder reads every field and
 * checks once at the end (p9_in_done) instead of after each field. No
 * read ever goes outside the bytes given. See docs/9p.md. */
#ifndef LIB_NINEP_WIRE_H
#define LIB_NINEP_WIRE_H

#include "lib/types.h"

/* The header: size[4] type[1] tag[2]. */
#define P9_HDR_SIZE 7
/* A qid: type[1] version[4] path[8]. */
#define P9_QID_SIZE 13

/* The message types this client sends and accepts. Each reply type is
 * its request's type plus one. */
enum p9_type {
	P9_RLERROR  = 7,
	P9_TLOPEN   = 12,
	P9_RLOPEN   = 13,
	P9_TLCREATE = 14,
	P9_RLCREATE = 15,
	P9_TREADLINK = 22,
	P9_RREADLINK = 23,
	P9_TGETATTR = 24,
	P9_RGETATTR = 25,
	P9_TREADDIR = 40,
	P9_RREADDIR = 41,
	P9_TMKDIR   = 72,
	P9_RMKDIR   = 73,
	P9_TUNLINKAT = 76,
	P9_RUNLINKAT = 77,
	P9_TVERSION = 100,
	P9_RVERSION = 101,
	P9_TATTACH  = 104,
	P9_RATTACH  = 105,
	P9_TWALK    = 110,
	P9_RWALK    = 111,
	P9_TREAD    = 116,
	P9_RREAD    = 117,
	P9_TWRITE   = 118,
	P9_RWRITE   = 119,
	P9_TCLUNK   = 120,
	P9_RCLUNK   = 121,
};

/* A server's file identity: path is unique per file, version changes
 * when the file changes, type is the P9_QT_* bits (directory, link...). */
struct p9_qid {
	uint8_t type;
	uint32_t version;
	uint64_t path;
};

#define P9_QT_DIR     0x80
#define P9_QT_SYMLINK 0x02

/* A string inside a message: not NUL-terminated, points into the message. */
struct p9_str {
	const char *s;
	uint16_t len;
};

/* Writing a message into a buffer of cap bytes. */
struct p9_out {
	uint8_t *data;
	size_t cap;
	size_t len;
	bool full;	/* a field did not fit: the message is unusable */
};

/* Reading a message: the bytes not read yet. */
struct p9_in {
	const uint8_t *p;
	size_t left;
	bool bad;	/* a field ran past the end */
};

/* Start a message of the given type and tag in buf; its size field is
 * filled in by p9_out_finish. */
void p9_out_begin(struct p9_out *o, void *buf, size_t cap, uint8_t type, uint16_t tag);

void p9_put_u8(struct p9_out *o, uint8_t v);
void p9_put_u16(struct p9_out *o, uint16_t v);
void p9_put_u32(struct p9_out *o, uint32_t v);
void p9_put_u64(struct p9_out *o, uint64_t v);
/* Append len bytes as they are (Twrite's data). */
void p9_put_bytes(struct p9_out *o, const void *data, size_t len);
/* Append a NUL-terminated C string as len[2] bytes; one longer than
 * 65535 bytes marks the message full. */
void p9_put_str(struct p9_out *o, const char *s);

/* Fill in the size field. Returns the message's length, or -E2BIG if it
 * did not fit in the buffer. */
int p9_out_finish(struct p9_out *o);

/* Read the len bytes at data. */
void p9_in_start(struct p9_in *in, const void *data, size_t len);

uint8_t p9_get_u8(struct p9_in *in);
uint16_t p9_get_u16(struct p9_in *in);
uint32_t p9_get_u32(struct p9_in *in);
uint64_t p9_get_u64(struct p9_in *in);
/* Take len bytes and return where they start (NULL if they run past the end). */
const uint8_t *p9_get_bytes(struct p9_in *in, size_t len);
void p9_get_str(struct p9_in *in, struct p9_str *s);
void p9_get_qid(struct p9_in *in, struct p9_qid *q);

/* After the last field: 0 if every field was inside the message and none
 * is left over; else -EPROTO with *why saying which. */
int p9_in_done(const struct p9_in *in, const char **why);

/* Check a reply of len bytes against the request it answers: the size
 * field equals len, the tag is the request's, the type is want or
 * Rlerror. On success *in holds the body. Returns 0, the server's error
 * as a negative errno (Rlerror), or -EPROTO; *why says why in a few words. */
int p9_check_reply(struct p9_in *in, const void *reply, size_t len, uint16_t tag,
		   uint8_t want, const char **why);

/* The negative errno for an Rlerror's ecode: the ecode itself when
 * lib/errno.h knows it, -EIO otherwise (a server on another system may
 * number its errors differently). */
int p9_errno(uint32_t ecode);

#endif
