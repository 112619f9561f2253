#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/kdf.h>
#include <openssl/ssl.h>
#include <openssl/err.h>

// SSL_set_tlsext_host_name is a macro, which Swift does not import.
static inline int huddle_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name, (void *)name);
}

// SSL_OP_IGNORE_UNEXPECTED_EOF is built from a macro Swift cannot evaluate.
static inline uint64_t huddle_ssl_op_ignore_unexpected_eof(void) {
    return SSL_OP_IGNORE_UNEXPECTED_EOF;
}
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/core_names.h>
