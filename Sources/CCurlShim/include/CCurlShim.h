// The few libcurl declarations gqlc uses, written out so that no curl headers are needed at build time,
// and C trampolines for libcurl's variadic functions, which Swift cannot call.
//
// libcurl itself is loaded with dlopen (see GQLCore/Transport/Curl/LibCurl.swift): each trampoline takes the
// address dlsym found for curl_easy_setopt or curl_easy_getinfo and makes the variadic
// call from C, so the C compiler passes the argument as the platform's variadic convention requires
// (calling through a non-variadic pointer happens to work on x86-64 and is wrong on Apple Silicon).
//
// Values are those of curl.h (7.88; stable since their introduction, all in libcurl 7.x and 8.x).
#ifndef GQLC_CCURLSHIM_H
#define GQLC_CCURLSHIM_H

#include <stddef.h>
#include <stdint.h>

// MARK: - Types

typedef struct gqlc_curl_easy CURL;
typedef struct gqlc_curl_multi CURLM;
typedef int CURLcode;
typedef int CURLMcode;
typedef int CURLoption;
typedef int CURLINFO;
typedef int curl_socket_t;
typedef int64_t curl_off_t;

struct curl_slist {
    char *data;
    struct curl_slist *next;
};

struct curl_waitfd {
    curl_socket_t fd;
    short events;
    short revents;
};

typedef struct CURLMsg {
    int msg; // CURLMSG_DONE
    CURL *easy_handle;
    union {
        void *whatever;
        CURLcode result;
    } data;
} CURLMsg;

// MARK: - Callbacks

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
typedef size_t (*curl_write_callback)(char *buffer, size_t size, size_t nitems, void *userdata);
/// CURLOPT_READFUNCTION.
typedef size_t (*curl_read_callback)(char *buffer, size_t size, size_t nitems, void *userdata);
/// CURLOPT_SEEKFUNCTION (origin is SEEK_SET, SEEK_CUR or SEEK_END).
typedef int (*curl_seek_callback)(void *userdata, curl_off_t offset, int origin);
/// CURLOPT_XFERINFOFUNCTION; non-zero aborts the transfer.
typedef int (*curl_xferinfo_callback)(void *clientp, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                                      curl_off_t ulnow);
/// CURLOPT_PREREQFUNCTION (libcurl 7.80+): called each time the request is about to go out on a connection,
/// again when libcurl re-sends it by itself; non-zero (CURL_PREREQFUNC_ABORT) aborts the transfer.
typedef int (*curl_prereq_callback)(void *clientp, char *conn_primary_ip, char *conn_local_ip, int conn_primary_port,
                                    int conn_local_port);

// MARK: - Non-variadic functions, as pointers to cast dlsym results to

typedef CURLcode (*gqlc_curl_global_init_fn)(long flags);
typedef char *(*gqlc_curl_version_fn)(void);
typedef CURL *(*gqlc_curl_easy_init_fn)(void);
typedef void (*gqlc_curl_easy_cleanup_fn)(CURL *handle);
typedef void (*gqlc_curl_easy_reset_fn)(CURL *handle);
typedef CURL *(*gqlc_curl_easy_duphandle_fn)(CURL *handle);
typedef CURLcode (*gqlc_curl_easy_perform_fn)(CURL *handle);
typedef const char *(*gqlc_curl_easy_strerror_fn)(CURLcode code);
typedef CURLcode (*gqlc_curl_easy_send_fn)(CURL *handle, const void *buffer, size_t length, size_t *sent);
typedef CURLcode (*gqlc_curl_easy_recv_fn)(CURL *handle, void *buffer, size_t length, size_t *received);
typedef struct curl_slist *(*gqlc_curl_slist_append_fn)(struct curl_slist *list, const char *string);
typedef void (*gqlc_curl_slist_free_all_fn)(struct curl_slist *list);
typedef CURLM *(*gqlc_curl_multi_init_fn)(void);
typedef CURLMcode (*gqlc_curl_multi_cleanup_fn)(CURLM *multi);
typedef CURLMcode (*gqlc_curl_multi_add_handle_fn)(CURLM *multi, CURL *handle);
typedef CURLMcode (*gqlc_curl_multi_remove_handle_fn)(CURLM *multi, CURL *handle);
typedef CURLMcode (*gqlc_curl_multi_perform_fn)(CURLM *multi, int *running);
typedef CURLMcode (*gqlc_curl_multi_wait_fn)(CURLM *multi, struct curl_waitfd extra_fds[], unsigned int extra_nfds,
                                             int timeout_ms, int *numfds);
typedef CURLMcode (*gqlc_curl_multi_wakeup_fn)(CURLM *multi);
typedef CURLMsg *(*gqlc_curl_multi_info_read_fn)(CURLM *multi, int *msgs_in_queue);
typedef const char *(*gqlc_curl_multi_strerror_fn)(CURLMcode code);

// MARK: - Variadic trampolines

typedef CURLcode (*gqlc_curl_easy_setopt_fn)(CURL *handle, CURLoption option, ...);
typedef CURLcode (*gqlc_curl_easy_getinfo_fn)(CURL *handle, CURLINFO info, ...);

/// curl_easy_setopt with a long (CURLOPTTYPE_LONG options).
static inline CURLcode gqlc_curl_setopt_long(void *fn, CURL *handle, CURLoption option, long value) {
    return ((gqlc_curl_easy_setopt_fn)fn)(handle, option, value);
}
/// curl_easy_setopt with a data pointer: strings (copied by libcurl), lists, callback data, NULL.
static inline CURLcode gqlc_curl_setopt_pointer(void *fn, CURL *handle, CURLoption option, const void *value) {
    return ((gqlc_curl_easy_setopt_fn)fn)(handle, option, value);
}
/// curl_easy_setopt with a curl_off_t (CURLOPTTYPE_OFF_T options).
static inline CURLcode gqlc_curl_setopt_off_t(void *fn, CURL *handle, CURLoption option, curl_off_t value) {
    return ((gqlc_curl_easy_setopt_fn)fn)(handle, option, value);
}
/// curl_easy_setopt with a write or header callback (or NULL).
static inline CURLcode gqlc_curl_setopt_write_function(void *fn, CURL *handle, CURLoption option,
                                                       curl_write_callback value) {
    return ((gqlc_curl_easy_setopt_fn)fn)(handle, option, value);
}
/// curl_easy_setopt with a read callback (or NULL).
static inline CURLcode gqlc_curl_setopt_read_function(void *fn, CURL *handle, CURLoption option,
                                                      curl_read_callback value) {
    return ((gqlc_curl_easy_setopt_fn)fn)(handle, option, value);
}
/// curl_easy_setopt with a seek callback (or NULL).
static inline CURLcode gqlc_curl_setopt_seek_function(void *fn, CURL *handle, CURLoption option,
                                                      curl_seek_callback value) {
    return ((gqlc_curl_easy_setopt_fn)fn)(handle, option, value);
}
/// curl_easy_setopt with a transfer-progress callback (or NULL).
static inline CURLcode gqlc_curl_setopt_xferinfo_function(void *fn, CURL *handle, CURLoption option,
                                                          curl_xferinfo_callback value) {
    return ((gqlc_curl_easy_setopt_fn)fn)(handle, option, value);
}

/// curl_easy_setopt with a pre-request callback (or NULL).
static inline CURLcode gqlc_curl_setopt_prereq_function(void *fn, CURL *handle, CURLoption option,
                                                        curl_prereq_callback value) {
    return ((gqlc_curl_easy_setopt_fn)fn)(handle, option, value);
}

/// curl_easy_getinfo into a long (CURLINFO_LONG).
static inline CURLcode gqlc_curl_getinfo_long(void *fn, CURL *handle, CURLINFO info, long *value) {
    return ((gqlc_curl_easy_getinfo_fn)fn)(handle, info, value);
}
/// curl_easy_getinfo into a string owned by the handle (CURLINFO_STRING).
static inline CURLcode gqlc_curl_getinfo_string(void *fn, CURL *handle, CURLINFO info, char **value) {
    return ((gqlc_curl_easy_getinfo_fn)fn)(handle, info, value);
}
/// curl_easy_getinfo into a socket (CURLINFO_SOCKET, e.g. CURLINFO_ACTIVESOCKET).
static inline CURLcode gqlc_curl_getinfo_socket(void *fn, CURL *handle, CURLINFO info, curl_socket_t *value) {
    return ((gqlc_curl_easy_getinfo_fn)fn)(handle, info, value);
}

// MARK: - Constants

#define CURL_GLOBAL_ALL 3L
#define CURL_ERROR_SIZE 256
#define CURL_SOCKET_BAD (-1)
#define CURL_WAIT_POLLIN 0x0001
#define CURL_WAIT_POLLPRI 0x0002
#define CURL_WAIT_POLLOUT 0x0004
#define CURLMSG_DONE 1
#define CURL_HTTP_VERSION_1_1 2L
#define CURL_READFUNC_ABORT 0x10000000
#define CURL_SEEKFUNC_OK 0
#define CURL_SEEKFUNC_FAIL 1
#define CURL_SEEKFUNC_CANTSEEK 2

// Options: CURLOPTTYPE_LONG + n, CURLOPTTYPE_OBJECTPOINT (10000) + n, FUNCTIONPOINT (20000) + n, OFF_T (30000) + n.
#define CURLOPT_WRITEDATA 10001
#define CURLOPT_URL 10002
#define CURLOPT_PROXY 10004
#define CURLOPT_READDATA 10009
#define CURLOPT_ERRORBUFFER 10010
#define CURLOPT_WRITEFUNCTION 20011
#define CURLOPT_READFUNCTION 20012
#define CURLOPT_POSTFIELDS 10015
#define CURLOPT_USERAGENT 10018
#define CURLOPT_HTTPHEADER 10023
#define CURLOPT_HEADERDATA 10029
#define CURLOPT_CUSTOMREQUEST 10036
#define CURLOPT_VERBOSE 41
#define CURLOPT_NOPROGRESS 43
#define CURLOPT_NOBODY 44
#define CURLOPT_UPLOAD 46
#define CURLOPT_POST 47
#define CURLOPT_FOLLOWLOCATION 52
#define CURLOPT_XFERINFODATA 10057
#define CURLOPT_HTTPPROXYTUNNEL 61
#define CURLOPT_SSL_VERIFYPEER 64
#define CURLOPT_CAINFO 10065
#define CURLOPT_MAXCONNECTS 71
#define CURLOPT_FRESH_CONNECT 74
#define CURLOPT_FORBID_REUSE 75
#define CURLOPT_HEADERFUNCTION 20079
#define CURLOPT_HTTPGET 80
#define CURLOPT_SSL_VERIFYHOST 81
#define CURLOPT_HTTP_VERSION 84
#define CURLOPT_CAPATH 10097
#define CURLOPT_NOSIGNAL 99
#define CURLOPT_ACCEPT_ENCODING 10102
#define CURLOPT_POSTFIELDSIZE_LARGE 30120
#define CURLOPT_CONNECT_ONLY 141
#define CURLOPT_TIMEOUT_MS 155
#define CURLOPT_CONNECTTIMEOUT_MS 156
#define CURLOPT_COPYPOSTFIELDS 10165
#define CURLOPT_SEEKFUNCTION 20167
#define CURLOPT_SEEKDATA 10168
#define CURLOPT_NOPROXY 10177
#define CURLOPT_TCP_KEEPALIVE 213
#define CURLOPT_XFERINFOFUNCTION 20219
#define CURLOPT_PROXY_CAINFO 10246
#define CURLOPT_PREREQFUNCTION 20312
#define CURLOPT_PREREQDATA 10313

// Information: CURLINFO_STRING 0x100000, LONG 0x200000, DOUBLE 0x300000, PTR 0x400000, SOCKET 0x500000,
// OFF_T 0x600000, plus n.
#define CURLINFO_EFFECTIVE_URL 0x100001
#define CURLINFO_RESPONSE_CODE 0x200002
#define CURLINFO_TOTAL_TIME 0x300003
#define CURLINFO_SIZE_DOWNLOAD_T 0x600008
#define CURLINFO_HEADER_SIZE 0x20000B
#define CURLINFO_SSL_VERIFYRESULT 0x20000D
#define CURLINFO_OS_ERRNO 0x200019
#define CURLINFO_NUM_CONNECTS 0x20001A
#define CURLINFO_PRIMARY_IP 0x100020
#define CURLINFO_PRIMARY_PORT 0x200028
#define CURLINFO_LOCAL_PORT 0x20002A
#define CURLINFO_ACTIVESOCKET 0x50002C
#define CURLINFO_HTTP_VERSION 0x20002E

// Result codes (CURLcode).
#define CURLE_OK 0
#define CURLE_UNSUPPORTED_PROTOCOL 1
#define CURLE_FAILED_INIT 2
#define CURLE_URL_MALFORMAT 3
#define CURLE_COULDNT_RESOLVE_PROXY 5
#define CURLE_COULDNT_RESOLVE_HOST 6
#define CURLE_COULDNT_CONNECT 7
#define CURLE_WEIRD_SERVER_REPLY 8
#define CURLE_PARTIAL_FILE 18
#define CURLE_WRITE_ERROR 23
#define CURLE_READ_ERROR 26
#define CURLE_OUT_OF_MEMORY 27
#define CURLE_OPERATION_TIMEDOUT 28
#define CURLE_SSL_CONNECT_ERROR 35
#define CURLE_ABORTED_BY_CALLBACK 42
#define CURLE_BAD_FUNCTION_ARGUMENT 43
#define CURLE_TOO_MANY_REDIRECTS 47
#define CURLE_UNKNOWN_OPTION 48
#define CURLE_GOT_NOTHING 52
#define CURLE_SEND_ERROR 55
#define CURLE_RECV_ERROR 56
#define CURLE_SSL_CERTPROBLEM 58
#define CURLE_SSL_CIPHER 59
#define CURLE_PEER_FAILED_VERIFICATION 60
#define CURLE_BAD_CONTENT_ENCODING 61
#define CURLE_SEND_FAIL_REWIND 65
#define CURLE_SSL_CACERT_BADFILE 77
#define CURLE_AGAIN 81
#define CURLE_SSL_ISSUER_ERROR 83
#define CURLE_SSL_PINNEDPUBKEYNOTMATCH 90
#define CURLE_SSL_INVALIDCERTSTATUS 91
#define CURLE_PROXY 97
#define CURLE_SSL_CLIENTCERT 98
#define CURLE_TOO_LARGE 100

// Multi result codes (CURLMcode).
#define CURLM_CALL_MULTI_PERFORM (-1)
#define CURLM_OK 0

#endif
