#ifndef PINGUARD_CCRYPT_SHIM_H
#define PINGUARD_CCRYPT_SHIM_H
// libxcrypt (Debian libcrypt-dev): crypt_r verifies the bcrypt hashes of web config basic_auth_users.
#include <crypt.h>
#endif
