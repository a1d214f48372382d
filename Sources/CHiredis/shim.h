// hiredis (Debian libhiredis-dev 0.14), the Redis protocol for RiveSyncRedis: blocking
// contexts, argv commands (binary-safe) and reply objects.
#include <hiredis/hiredis.h>
