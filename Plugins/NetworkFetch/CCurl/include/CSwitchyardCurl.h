#ifndef C_SWITCHYARD_CURL_H
#define C_SWITCHYARD_CURL_H

#include <stddef.h>
#include <stdint.h>

// libcurl, loaded with dlopen the first time a network-fetch plugin runs, so a bus that fetches
// nothing never maps libcurl and the TLS, Kerberos and LDAP libraries behind it (about 6 MB of
// its resident memory when FoundationNetworking linked them at start). No curl headers are
// needed to build: the option and info numbers below are libcurl's stable ABI (curl.h), and
// the wrappers make the variadic calls with the right C types, which Swift cannot.

/// Loads libcurl (the file SWITCHYARD_LIBCURL names when set; else libcurl.so.4, else its
/// GnuTLS or NSS builds, found as the dynamic loader finds libraries) and runs curl_global_init,
/// once per process; later calls return the first outcome. Returns 0 on success; otherwise
/// writes why into `message` (NUL-terminated, at most `capacity` bytes) and returns -1.
int sycurl_load(char *message, size_t capacity);

/// The version text libcurl reports, such as "libcurl/7.88.1 OpenSSL/3.0.19"; "" before a load.
const char *sycurl_version(void);

// Easy handles: one per transfer.
void *sycurl_easy_init(void);
void sycurl_easy_cleanup(void *easy);
int sycurl_setopt_long(void *easy, int option, long value);
int sycurl_setopt_pointer(void *easy, int option, const void *value);
int sycurl_setopt_offset(void *easy, int option, int64_t value);
/// `size_t callback(char *data, size_t size, size_t count, void *userdata)`, for
/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
typedef size_t (*sycurl_data_callback)(char *data, size_t size, size_t count, void *userdata);
int sycurl_setopt_data_callback(void *easy, int option, sycurl_data_callback callback);
int sycurl_getinfo_long(void *easy, int info, long *value);
int sycurl_getinfo_offset(void *easy, int info, int64_t *value);
int sycurl_getinfo_string(void *easy, int info, const char **value);
const char *sycurl_strerror(int code);

// Header lists.
void *sycurl_slist_append(void *list, const char *line);
void sycurl_slist_free_all(void *list);

// Multi handles: one per plugin, driven by one thread.
void *sycurl_multi_init(void);
int sycurl_multi_cleanup(void *multi);
int sycurl_multi_add_handle(void *multi, void *easy);
int sycurl_multi_remove_handle(void *multi, void *easy);
int sycurl_multi_perform(void *multi, int *running);
int sycurl_multi_poll(void *multi, int timeout_ms, int *descriptors);
/// Makes a sycurl_multi_poll in another thread return at once; the only call safe from any thread.
int sycurl_multi_wakeup(void *multi);
/// The next finished transfer: returns its easy handle and writes its CURLcode into `result`;
/// NULL when no transfer has finished since the last call.
void *sycurl_multi_next_done(void *multi, int *result);

// curl.h's numbers for what Switchyard uses.
enum {
    SYCURLOPT_WRITEDATA = 10001,
    SYCURLOPT_URL = 10002,
    SYCURLOPT_USERAGENT = 10018,
    SYCURLOPT_HTTPHEADER = 10023,
    SYCURLOPT_HEADERDATA = 10029,
    SYCURLOPT_CUSTOMREQUEST = 10036,
    SYCURLOPT_ACCEPT_ENCODING = 10102,
    SYCURLOPT_COPYPOSTFIELDS = 10165,
    SYCURLOPT_WRITEFUNCTION = 20011,
    SYCURLOPT_HEADERFUNCTION = 20079,
    SYCURLOPT_POSTFIELDSIZE_LARGE = 30120,
    SYCURLOPT_NOBODY = 44,
    SYCURLOPT_FOLLOWLOCATION = 52,
    SYCURLOPT_NOSIGNAL = 99,
    SYCURLOPT_TIMEOUT_MS = 155,
    SYCURLOPT_PROTOCOLS = 181,
    SYCURLPROTO_HTTP = 1,
    SYCURLPROTO_HTTPS = 2,
    SYCURLINFO_RESPONSE_CODE = 0x200002,
    SYCURLINFO_REDIRECT_URL = 0x10001F,
    SYCURLINFO_CONTENT_LENGTH_DOWNLOAD_T = 0x60000F,
};

// CURLcode values the transport tells apart.
enum {
    SYCURLE_OK = 0,
    SYCURLE_UNSUPPORTED_PROTOCOL = 1,
    SYCURLE_URL_MALFORMAT = 3,
    SYCURLE_COULDNT_RESOLVE_PROXY = 5,
    SYCURLE_COULDNT_RESOLVE_HOST = 6,
    SYCURLE_COULDNT_CONNECT = 7,
    SYCURLE_WEIRD_SERVER_REPLY = 8,
    SYCURLE_HTTP2 = 16,
    SYCURLE_PARTIAL_FILE = 18,
    SYCURLE_WRITE_ERROR = 23,
    SYCURLE_OPERATION_TIMEDOUT = 28,
    SYCURLE_SSL_CONNECT_ERROR = 35,
    SYCURLE_GOT_NOTHING = 52,
    SYCURLE_SEND_ERROR = 55,
    SYCURLE_RECV_ERROR = 56,
    SYCURLE_SSL_CERTPROBLEM = 58,
    SYCURLE_SSL_CIPHER = 59,
    SYCURLE_PEER_FAILED_VERIFICATION = 60,
    SYCURLE_BAD_CONTENT_ENCODING = 61,
    SYCURLE_SSL_CACERT_BADFILE = 77,
    SYCURLE_SSL_PINNEDPUBKEYNOTMATCH = 90,
    SYCURLE_SSL_INVALIDCERTSTATUS = 91,
    SYCURLE_HTTP2_STREAM = 92,
};

#endif
