#include <stddef.h>

// What Huddle uses of libvips, behind functions of fixed arguments:
// libvips's operations take their options as variadic name-value pairs,
// which Swift cannot call, and its headers need GLib's, which SwiftPM's
// pkg-config support brings in with flags it refuses.

typedef struct _VipsImage VipsImage;

// Starts libvips once per process: no operation cache (every picture is
// new), one thread per operation (the caller's thread pool is the limit).
int huddle_vips_start(void);

// The loader libvips would use for these bytes ("VipsForeignLoadJpegBuffer"), or NULL.
const char *huddle_vips_loader(const void *bytes, size_t length);

// The image's size as its header says, without decoding its pixels.
int huddle_vips_header(const void *bytes, size_t length, int *width, int *height);

// The first page decoded whole (so that damage anywhere, a truncation
// included, is an error), shrunk to fit `size` × `size` (never enlarged),
// turned upright as its orientation tag says, in sRGB, held in memory, with
// no metadata left (EXIF, GPS, XMP, IPTC, ICC, comments).
int huddle_vips_decode(const void *bytes, size_t length, int size, VipsImage **out);
// A smaller copy of such an image, also in memory.
int huddle_vips_shrink(VipsImage *image, int size, VipsImage **out);
int huddle_vips_width(VipsImage *image);
int huddle_vips_height(VipsImage *image);

// Encodings, asked too to keep no metadata.
int huddle_vips_webp(VipsImage *image, int quality, void **bytes, size_t *length);
int huddle_vips_jpeg(VipsImage *image, int quality, void **bytes, size_t *length);

void huddle_vips_release(VipsImage *image);
void huddle_vips_free(void *bytes);

// The version of the libvips linked ("8.14.1").
const char *huddle_vips_version(void);

// libvips's last error message, then cleared; the caller frees it.
char *huddle_vips_take_error(void);
