#ifndef PINGUARD_CLIBXML2_SHIM_H
#define PINGUARD_CLIBXML2_SHIM_H
// libxml2 (Debian libxml2-dev): the streaming reader that parses Android network security configs and XML plists.
//
// Debian builds libxml2 with ICU, so its encoding.h includes the system's <unicode/ucnv.h>. Swift's Foundation
// carries its own ICU module (_FoundationICU) with different definitions of the same types, and a module that
// sees both fails to build ("'UErrorCode' has different definitions in different modules"), depending on the
// order modules are built in. pinguard never touches the ICU members of libxml2's encoding handler (it uses
// pointers to it only), so the ICU include is switched off after xmlversion.h defines it.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#endif
