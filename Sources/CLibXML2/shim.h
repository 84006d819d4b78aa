#ifndef PINGUARD_CLIBXML2_SHIM_H
#define PINGUARD_CLIBXML2_SHIM_H
// libxml2 (Debian libxml2-dev): the streaming reader that parses Android network security configs and XML plists.
#include <libxml/xmlreader.h>
#endif
