#ifndef PINGUARD_CLIBXML2_SHIM_H
#define PINGUARD_CLIBXML2_SHIM_H
// libxml2 (Debian libxml2-dev): the streaming reader that parses Android network security configs and XML plists.
//
// Debian builds libxml2 with ICU, so <libxml/encoding.h> would pull the system's <unicode/*.h> into this module.
// Every Swift module that imports PinGuardCore and Foundation then sees two different `UErrorCode` enums (the
// system ICU's and Foundation's own _FoundationICU) and, depending on the order modules are built in, fails with
// "'UErrorCode' has different definitions in different modules". Nothing here uses libxml2's ICU converters, so
// the ICU parts of its headers are left out; only a pointer to xmlCharEncodingHandler would see the difference.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#endif
