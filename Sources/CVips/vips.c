#include <vips/vips.h>
#include <string.h>
#include "CVips.h"

// libvips's warnings (a truncated file's, say) would go to stderr as lines
// of their own among the server's JSON; the error that matters comes back
// through huddle_vips_take_error.
static void drop_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {}

int huddle_vips_start(void) {
    if (VIPS_INIT("huddle") != 0) return -1;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG, drop_log, NULL);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_concurrency_set(1);
    return 0;
}

const char *huddle_vips_version(void) { return vips_version_string(); }

const char *huddle_vips_loader(const void *bytes, size_t length) {
    const char *loader = vips_foreign_find_load_buffer(bytes, length);
    if (loader == NULL) vips_error_clear();
    return loader;
}

int huddle_vips_header(const void *bytes, size_t length, int *width, int *height) {
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (image == NULL) return -1;
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    g_object_unref(image);
    return 0;
}

// Every metadata field goes: libvips 8.14's webpsave keeps EXIF even when
// asked to strip it.
static void remove_metadata(VipsImage *image) {
    gchar **fields = vips_image_get_fields(image);
    for (int i = 0; fields[i] != NULL; i++) {
        if (vips_image_get_typeof(image, fields[i]) != 0) vips_image_remove(image, fields[i]);
    }
    g_strfreev(fields);
}

int huddle_vips_decode(const void *bytes, size_t length, int size, VipsImage **out) {
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
                                                  VIPS_FAIL_ON_ERROR, NULL);
    if (image == NULL) return -1;
    VipsImage *shrunk = NULL;
    int failed = vips_thumbnail_image(image, &shrunk, size, "height", size, "size", VIPS_SIZE_DOWN, "export_profile",
                                      "srgb", NULL);
    g_object_unref(image);
    if (failed) return -1;
    // Decoding happens here, to the end of the input.
    VipsImage *held = vips_image_copy_memory(shrunk);
    g_object_unref(shrunk);
    if (held == NULL) return -1;
    remove_metadata(held);
    *out = held;
    return 0;
}

int huddle_vips_shrink(VipsImage *image, int size, VipsImage **out) {
    VipsImage *shrunk = NULL;
    if (vips_thumbnail_image(image, &shrunk, size, "height", size, "size", VIPS_SIZE_DOWN, NULL)) return -1;
    VipsImage *held = vips_image_copy_memory(shrunk);
    g_object_unref(shrunk);
    if (held == NULL) return -1;
    remove_metadata(held);
    *out = held;
    return 0;
}

int huddle_vips_width(VipsImage *image) { return vips_image_get_width(image); }
int huddle_vips_height(VipsImage *image) { return vips_image_get_height(image); }

int huddle_vips_webp(VipsImage *image, int quality, void **bytes, size_t *length) {
    return vips_webpsave_buffer(image, bytes, length, "Q", quality, "strip", TRUE, NULL);
}

int huddle_vips_jpeg(VipsImage *image, int quality, void **bytes, size_t *length) {
    return vips_jpegsave_buffer(image, bytes, length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE,
                                "interlace", TRUE, NULL);
}

void huddle_vips_release(VipsImage *image) { g_object_unref(image); }
void huddle_vips_free(void *bytes) { g_free(bytes); }

char *huddle_vips_take_error(void) {
    char *text = strdup(vips_error_buffer());
    vips_error_clear();
    return text;
}
