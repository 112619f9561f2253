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
static inline CURLcode huddle_curl_get_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}
typedef curl_socket_t (*huddle_curl_open_socket_callback)(void *context, curlsocktype purpose, struct curl_sockaddr *address);
static inline CURLcode huddle_curl_set_open_socket_callback(CURL *handle, huddle_curl_open_socket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, value);
}

// The multi interface, driven by an event loop (curl_multi_socket_action).
typedef int (*huddle_curl_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *context, void *socketContext);
typedef int (*huddle_curl_timer_callback)(CURLM *multi, long milliseconds, void *context);
static inline CURLMcode huddle_curl_multi_set_socket_callback(CURLM *multi, huddle_curl_socket_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, value);
}
static inline CURLMcode huddle_curl_multi_set_timer_callback(CURLM *multi, huddle_curl_timer_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, value);
}
static inline CURLMcode huddle_curl_multi_set_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}
static inline CURLMcode huddle_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
