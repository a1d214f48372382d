// OpenSSL's libcrypto (Debian libssl-dev), for the daemon's SHA-256 of uploads, tokens and
// state digests: only the one-shot EVP digest call is used.
#include <openssl/evp.h>
