#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call: one typed entry point per kind of argument.
static inline CURLcode huddle_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode huddle_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode huddle_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode huddle_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*huddle_curl_io_callback)(char *buffer, size_t size, size_t count, void *context);
static inline CURLcode huddle_curl_set_io_callback(CURL *handle, CURLoption option, huddle_curl_io_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode huddle_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
