#include "CSwitchyardCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// curl.h's CURLMsg: what curl_multi_info_read returns.
typedef struct {
    int msg;
    void *easy_handle;
    union {
        void *whatever;
        int result;
    } data;
} sycurl_message;

enum { SYCURLMSG_DONE = 1, SYCURL_GLOBAL_DEFAULT = 3 };

// The entry points, looked up once. The variadic ones keep their variadic types so every call
// below passes its argument the way libcurl reads it with va_arg.
static struct {
    int (*global_init)(long flags);
    const char *(*version)(void);
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *easy);
    int (*easy_setopt)(void *easy, int option, ...);
    int (*easy_getinfo)(void *easy, int info, ...);
    const char *(*easy_strerror)(int code);
    void *(*slist_append)(void *list, const char *line);
    void (*slist_free_all)(void *list);
    void *(*multi_init)(void);
    int (*multi_cleanup)(void *multi);
    int (*multi_add_handle)(void *multi, void *easy);
    int (*multi_remove_handle)(void *multi, void *easy);
    int (*multi_perform)(void *multi, int *running);
    int (*multi_poll)(void *multi, void *extra, unsigned extra_count, int timeout_ms, int *descriptors);
    int (*multi_wakeup)(void *multi);
    sycurl_message *(*multi_info_read)(void *multi, int *queued);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int load_status = -1;

static int look_up(void *library, const char *name, void **slot) {
    *slot = dlsym(library, name);
    if (*slot) return 0;
    snprintf(load_error, sizeof load_error, "libcurl lacks %s (7.68 or later is needed)", name);
    return -1;
}

static void load(void) {
    void *library = NULL;
    const char *chosen = getenv("SWITCHYARD_LIBCURL");
    if (chosen && *chosen) {
        library = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            snprintf(load_error, sizeof load_error, "SWITCHYARD_LIBCURL names a library that does not load: %s", dlerror());
            return;
        }
    }
    // The usual build first; distributions also ship libcurl built on GnuTLS or NSS alone.
    static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4"};
    for (size_t index = 0; index < sizeof names / sizeof names[0] && !library; index++) {
        library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (!library) {
        snprintf(load_error, sizeof load_error,
                 "libcurl is not installed (libcurl.so.4 not found; Debian package libcurl4)");
        return;
    }
    struct { const char *name; void **slot; } entries[] = {
        {"curl_global_init", (void **)&curl.global_init},
        {"curl_version", (void **)&curl.version},
        {"curl_easy_init", (void **)&curl.easy_init},
        {"curl_easy_cleanup", (void **)&curl.easy_cleanup},
        {"curl_easy_setopt", (void **)&curl.easy_setopt},
        {"curl_easy_getinfo", (void **)&curl.easy_getinfo},
        {"curl_easy_strerror", (void **)&curl.easy_strerror},
        {"curl_slist_append", (void **)&curl.slist_append},
        {"curl_slist_free_all", (void **)&curl.slist_free_all},
        {"curl_multi_init", (void **)&curl.multi_init},
        {"curl_multi_cleanup", (void **)&curl.multi_cleanup},
        {"curl_multi_add_handle", (void **)&curl.multi_add_handle},
        {"curl_multi_remove_handle", (void **)&curl.multi_remove_handle},
        {"curl_multi_perform", (void **)&curl.multi_perform},
        {"curl_multi_poll", (void **)&curl.multi_poll},
        {"curl_multi_wakeup", (void **)&curl.multi_wakeup},
        {"curl_multi_info_read", (void **)&curl.multi_info_read},
    };
    for (size_t index = 0; index < sizeof entries / sizeof entries[0]; index++) {
        if (look_up(library, entries[index].name, entries[index].slot) != 0) return;
    }
    int code = curl.global_init(SYCURL_GLOBAL_DEFAULT);
    if (code != 0) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed (curl error %d)", code);
        return;
    }
    load_status = 0;
}

int sycurl_load(char *message, size_t capacity) {
    pthread_once(&load_once, load);
    if (load_status != 0 && message && capacity > 0) snprintf(message, capacity, "%s", load_error);
    return load_status;
}

const char *sycurl_version(void) { return load_status == 0 ? curl.version() : ""; }

void *sycurl_easy_init(void) { return curl.easy_init(); }
void sycurl_easy_cleanup(void *easy) { curl.easy_cleanup(easy); }
int sycurl_setopt_long(void *easy, int option, long value) { return curl.easy_setopt(easy, option, value); }
int sycurl_setopt_pointer(void *easy, int option, const void *value) { return curl.easy_setopt(easy, option, value); }
int sycurl_setopt_offset(void *easy, int option, int64_t value) { return curl.easy_setopt(easy, option, value); }
int sycurl_setopt_data_callback(void *easy, int option, sycurl_data_callback callback) {
    return curl.easy_setopt(easy, option, callback);
}
int sycurl_getinfo_long(void *easy, int info, long *value) { return curl.easy_getinfo(easy, info, value); }
int sycurl_getinfo_offset(void *easy, int info, int64_t *value) { return curl.easy_getinfo(easy, info, value); }
int sycurl_getinfo_string(void *easy, int info, const char **value) { return curl.easy_getinfo(easy, info, value); }
const char *sycurl_strerror(int code) { return curl.easy_strerror(code); }

void *sycurl_slist_append(void *list, const char *line) { return curl.slist_append(list, line); }
void sycurl_slist_free_all(void *list) { curl.slist_free_all(list); }

void *sycurl_multi_init(void) { return curl.multi_init(); }
int sycurl_multi_cleanup(void *multi) { return curl.multi_cleanup(multi); }
int sycurl_multi_add_handle(void *multi, void *easy) { return curl.multi_add_handle(multi, easy); }
int sycurl_multi_remove_handle(void *multi, void *easy) { return curl.multi_remove_handle(multi, easy); }
int sycurl_multi_perform(void *multi, int *running) { return curl.multi_perform(multi, running); }
int sycurl_multi_poll(void *multi, int timeout_ms, int *descriptors) {
    return curl.multi_poll(multi, NULL, 0, timeout_ms, descriptors);
}
int sycurl_multi_wakeup(void *multi) { return curl.multi_wakeup(multi); }

void *sycurl_multi_next_done(void *multi, int *result) {
    int queued = 0;
    sycurl_message *message;
    while ((message = curl.multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == SYCURLMSG_DONE) {
            *result = message->data.result;
            return message->easy_handle;
        }
    }
    return NULL;
}
